import type {
	IDataObject,
	INodeProperties,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { getStatuses, statusParameter } from '../shared/helpers/statusParameter';
import { optionsCollection } from '../shared/runOptions';
import { apiCredentials, apiRequest } from '../shared/transport';
import { PageCheck, statusMatches } from '../shared/transport/answerReading';
import { explainEmptyList, listRequestOf, reportPage, STATUS_PAGES, walkOrders } from '../shared/transport/orderPages';
import { runPolicyOf, startRun } from '../shared/transport/runPolicy';
import { reportRun } from '../shared/transport/runReport';
import { mapWithConcurrency } from '../shared/transport/concurrency';
import { formatApiDateTime, toApiDateTime, toStatusFilter, toWholeNumber } from '../shared/helpers/values';
import { jsonPreview, textOf } from '../shared/helpers/networkText';
import { changeKey, withIsoDates, firstSince, MAX_SEEN_KEYS, nextSince, orderItemKey, parseApiDate, readState, remember, repeatedHourHold, seenSets, UNREADABLE_KEEP_MS, wallClockMs } from '../shared/helpers/orderChanges';

const PAGE_SIZE = 100; // the API's maximum
/** Scans of one window before a poll gives up on a list that keeps moving (see scanWindow). */
const MAX_SCANS = 4;
/** Manual mode looks this far back, nearest first, for a sample. */
const SAMPLE_LOOKBACK_HOURS = [1, 24, 24 * 30, 24 * 365];

type OrderEvent = 'order.created' | 'order.updated';

// Polls of one trigger that are still running: n8n does not stop a poll from starting while the
// last one runs, and two polls of the same state would both emit the same changes.
const running = new Set<string>();
// Activations that have polled: n8n makes one poll context per activation (on start, activation or
// update), so a first poll through a context that finds saved state resumes where the last one stopped.
const polledActivations = new WeakSet<IPollFunctions>();
/** Activations told that their Status matches none of the API's statuses: said once each, as an error execution. */
const statusExplained = new WeakSet<IPollFunctions>();

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
/** Version 1: the status typed as text. */
const statusText: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'string',
	default: '',
	placeholder: 'accepted',
	description: 'Only order items in this order status, e.g. accepted (other states are still remembered as seen)',
};

// Versions 1 and 2 only: version 3 uses these defaults (wholeOption's fallbacks), which need no change.
const tuningOptions: INodeProperties[] = [
	{
		displayName: 'Clock Skew Allowance (Seconds)',
		name: 'skewSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 300,
		description:
			"How far the clocks of n8n and the marketplace may differ: a poll's window never starts later than n8n's clock less this much",
	},
	{
		displayName: 'Detail Concurrency',
		name: 'detailConcurrency',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 5,
		description: 'How many order details to fetch at once with Include Order Detail',
	},
	{
		displayName: 'Overlap (Seconds)',
		name: 'overlapSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 60,
		description:
			'How far each window reaches back over the last one, for changes the API shows later than changes stamped after them. Repeats are dropped, so a longer overlap costs only reading.',
	},
];

const includeDetailOption: INodeProperties = {
	displayName: 'Include Order Detail',
	name: 'includeDetail',
	type: 'boolean',
	default: false,
	description:
		'Whether to fetch each order item\'s detail (product, customer, shipment) into "detail": one more request per item. Needs the orders:detail permission.',
};

const startFromOption: INodeProperties = {
	displayName: 'Start From',
	name: 'startFrom',
	type: 'dateTime',
	default: '',
	description:
		'On the first publish, emit the changes made after this moment (a catch-up) instead of starting now. Ignored once the trigger has emitted.',
};

/** The Options collection of one node version: its Status, and the tuning options if it has them. */
function optionsFor(version: number, status: INodeProperties, tuning: INodeProperties[] = []): INodeProperties[] {
	// Sorted by name, as n8n lists a collection's options.
	const options = [...tuning, includeDetailOption, startFromOption, status].sort((a, b) => a.displayName.localeCompare(b.displayName));
	return updateDisplayOptions({ show: { '@version': [version] } }, [optionsCollection(...options)]);
}
// Stryker restore all

export class MarketplacePartnerOrdersTrigger implements INodeType {
	// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
	description: INodeTypeDescription = {
		displayName: 'Marketplace Partner Orders Trigger',
		name: 'marketplacePartnerOrdersTrigger',
		icon: { light: 'file:marketplacePartner.svg', dark: 'file:marketplacePartner.dark.svg' },
		group: ['trigger'],
		// Version 3: no Clock Skew Allowance, Detail Concurrency or Overlap (their defaults hold).
		version: [1, 2, 3],
		// The events' names as the Events list shows them, not their values.
		subtitle: '={{$parameter["events"].map((e) => ({ "order.created": "New order item", "order.updated": "Updated order item" })[e] ?? e).join(", ")}}',
		description: 'Starts the workflow when order items are created or change, by polling (no public URL needed)',
		defaults: { name: 'Marketplace Partner Orders Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'marketplacePartnerApi', required: true }],
		properties: [
			{
				displayName:
					'Checks the orders list at each poll and emits each change of an order item once, from the moment the workflow is published. For changes within seconds, use the Marketplace Partner Trigger.',
				name: 'pollingNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['order.created', 'order.updated'],
				description: 'Which changes start the workflow',
				options: [
					{
						name: 'New Order Item',
						value: 'order.created',
						description: 'An order item seen for the first time, created since the last poll',
					},
					{
						name: 'Updated Order Item',
						value: 'order.updated',
						description: 'A new state (status, payment, anything the list shows) of an order item',
					},
				],
			},
			...optionsFor(1, statusText, tuningOptions),
			...optionsFor(2, statusParameter, tuningOptions),
			...optionsFor(3, statusParameter),
		],
	};
	// Stryker restore all

	methods = { loadOptions: { getStatuses } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const events = this.getNodeParameter('events', []) as OrderEvent[];
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const status = toStatusFilter(options.status);
		if (events.length === 0) throw new NodeOperationError(this.getNode(), 'Choose at least one event under Events.');
		// Each poll is a run of its own (retries, credential read): n8n reuses one context for every
		// poll of an activation.
		const policy = startRun(this);
		try {
			return await pollOnce.call(this, events, status, options);
		} finally {
			// Polls have no execution hints in n8n: what the poll met goes to n8n's log.
			reportRun(this, policy.report);
		}
	}
}

async function pollOnce(
	this: IPollFunctions,
	events: OrderEvent[],
	status: string | undefined,
	options: IDataObject,
): Promise<INodeExecutionData[][] | null> {
	if (this.getMode() === 'manual') return [await withDetail.call(this, [await testEvent.call(this, events, status)], options)];

	const lock = `${this.getWorkflow().id}:${this.getNode().id}`;
	if (running.has(lock)) return null; // the running poll commits; the next one continues from there
	running.add(lock);
	try {
		return await pollChanges.call(this, events, status, options);
	} finally {
		running.delete(lock);
	}
}

/**
 * One poll: read the window, drop the states already seen, emit the rest, move the window. Static
 * data is written last, only after every request has succeeded: a poll that fails anywhere leaves
 * it as it was, so the next poll starts where this one started.
 */
async function pollChanges(
	this: IPollFunctions,
	events: OrderEvent[],
	status: string | undefined,
	options: IDataObject,
): Promise<INodeExecutionData[][] | null> {
	const margins = {
		overlapSeconds: wholeOption(this, options.overlapSeconds, 'Overlap (Seconds)', 60),
		skewSeconds: wholeOption(this, options.skewSeconds, 'Clock Skew Allowance (Seconds)', 300),
	};
	const staticData = this.getWorkflowStaticData('node');
	const state = readState(staticData);
	const { timeZone } = await apiCredentials.call(this);
	const startedMs = Date.now();
	// First activation: from "now" (what the window holds becomes the starting point, unemitted),
	// or from Start From (everything after it is emitted).
	let startFrom: string | undefined;
	if (!state && options.startFrom) {
		try {
			startFrom = toApiDateTime(options.startFrom, 'Start From', timeZone);
		} catch (error) {
			throw new NodeOperationError(this.getNode(), (error as Error).message);
		}
	}
	const baseline = !state && !startFrom;
	const windowStart = state?.since ?? startFrom ?? firstSince(startedMs, margins);

	const { entries, settled } = await scanWindow.call(this, windowStart);
	const pollMs = Date.now() - startedMs;
	entries.sort((a, b) => textOf(a.updated_at).localeCompare(textOf(b.updated_at)) || Number(textOf(a.order_item_id)) - Number(textOf(b.order_item_id)));

	const { keys, orderItemIds } = seenSets(state);
	const windowStartMs = parseApiDate(windowStart) ?? -Infinity;
	const added: Array<[string, string]> = [];
	const emitted: INodeExecutionData[] = [];
	let repeats = 0;
	/** New changes of a selected event left out only for their status. */
	let otherStatus = 0;
	/** New states whose updated_at cannot be read: how many, and the first one's, to quote. */
	const unreadable: { count: number; sample?: unknown } = { count: 0 };
	let newest: number | undefined;
	for (const entry of entries) {
		const updatedMs = parseApiDate(entry.updated_at);
		if (updatedMs !== undefined) newest = Math.max(newest ?? updatedMs, updatedMs);
		const key = changeKey(entry);
		if (keys.has(key)) {
			repeats++;
			continue;
		}
		if (updatedMs === undefined && unreadable.count++ === 0) unreadable.sample = entry.updated_at;
		keys.add(key);
		added.push([textOf(entry.updated_at), key]);
		const id = orderItemKey(entry);
		const created = !orderItemIds.has(id) && (parseApiDate(entry.created_at) ?? -Infinity) > windowStartMs;
		orderItemIds.add(id);
		const event: OrderEvent = created ? 'order.created' : 'order.updated';
		if (baseline || !events.includes(event)) continue;
		if (status !== undefined && !statusMatches(entry.status, status)) {
			otherStatus++;
			continue;
		}
		emitted.push({ json: { event, ...withIsoDates(entry, timeZone) } });
	}

	// A window read while the list kept moving may have missed entries anywhere in it: keep its start.
	const since = settled
		? nextSince(windowStart, { newestSeen: newest, pollMs, apiNow: wallClockMs(startedMs, timeZone), holdBelow: repeatedHourHold(startedMs, timeZone) }, margins)
		: windowStart;
	const output = await withDetail.call(this, emitted, options);
	const kept = remember(state?.seen ?? {}, added, since, Date.now());
	Object.assign(staticData, { version: 1, ...kept });
	const report = runPolicyOf(this).report;
	if (unreadable.count > 0) {
		report.tell({
			type: 'warning',
			message: `${unreadable.count} changed order items had an updated_at the node cannot read as a datetime (e.g. ${jsonPreview(unreadable.sample, 60)}), so no window can tell when they are old: each was emitted once and is remembered for ${UNREADABLE_KEEP_MS / 3_600_000} hours. Report it to the marketplace operator.`,
		});
	}
	if (kept.since !== since) {
		report.tell({
			type: 'warning',
			message: `The trigger remembers at most ${MAX_SEEN_KEYS.toLocaleString('en-US')} changes, and this window held more: the oldest were forgotten and the next window starts at ${kept.since}. A change stamped before that, which the API shows only later, will not be emitted.`,
		});
	}
	if (state && !polledActivations.has(this)) {
		report.windowReread(windowStart, Math.round((wallClockMs(startedMs, timeZone) - windowStartMs) / 1000), repeats);
	}
	if (!settled) report.windowUnsettled(windowStart);
	const laterPoll = polledActivations.has(this);
	polledActivations.add(this);
	// Not on the poll that activates the workflow: an error there would fail the activation.
	if (output.length === 0 && otherStatus > 0 && laterPoll && status !== undefined) await explainStatus.call(this, status, otherStatus);
	return output.length ? [output] : null;
}

/**
 * A published trigger whose Status is none the API writes emits nothing, forever, and n8n shows no
 * execution for a poll without items: once per activation, the poll's error execution says why.
 * The state is already moved, so the next poll goes on from here.
 */
async function explainStatus(this: IPollFunctions, status: string, otherStatus: number): Promise<void> {
	if (statusExplained.has(this)) return;
	statusExplained.add(this);
	const { type, message } = await explainEmptyList.call(this, { status, window: 'changed since the last poll', otherwise: '' }, { respell: true, pages: STATUS_PAGES });
	if (type !== 'warning') return;
	throw new NodeOperationError(this.getNode(), message, {
		description: `${otherStatus} order items changed since the last poll with other statuses, so no execution started for them. The trigger keeps polling; this is said once until the workflow is published again. Change Status under Options to one the API writes.`,
	});
}

/**
 * Reads every entry updated after `updatedAfter`, page by page. The API does not say how it orders
 * the list, and orders change while we page by offset: an entry moving between pages shifts the
 * others, and one can slip past the page being read. So pages overlap by one entry; when the entry
 * that ended a page does not start the next one, the list moved, and the window is read again
 * (states already read are kept; repeats are dropped later). After MAX_SCANS moving reads the
 * poll reports `settled: false`, and the next poll reads the same window again.
 */
async function scanWindow(this: IPollFunctions, updatedAfter: string): Promise<{ entries: IDataObject[]; settled: boolean }> {
	const entries: IDataObject[] = [];
	// Held to the window asked: an entry updated at or before its start is never a change.
	const request = listRequestOf({ updated_after: updatedAfter });
	for (let scan = 0; scan < MAX_SCANS; scan++) {
		// Each scan is a walk of its own (it reads the same entries again), checked as walkOrders checks one.
		const check = new PageCheck(this.getNode(), undefined, request);
		let moved = false;
		let expectFirst: string | undefined;
		for (let offset = 0; ; ) {
			const data = await apiRequest.call(this, 'GET', '/orders.php', { qs: { limit: PAGE_SIZE, offset, updated_after: updatedAfter } });
			const overlap = expectFirst === undefined ? 0 : 1;
			const page = check.page(offset, data, PAGE_SIZE, overlap);
			reportPage(runPolicyOf(this).report, offset, PAGE_SIZE, data, page, request, { countRepeats: false });
			const { orders, fresh, more } = page;
			for (const order of fresh) entries.push(order);
			if (expectFirst !== undefined && textOf(orders[0]?.order_item_id) !== expectFirst) {
				moved = true;
				// A page of nothing new may be an API that does not page on: read on, for the check to tell.
				if (fresh.length > 0) break;
			}
			if (!more) break;
			check.next();
			// The next page starts with this page's last entry, to see whether the list moved.
			const next = orders.length > 1 ? 1 : 0;
			expectFirst = next ? textOf(orders[orders.length - 1].order_item_id) : undefined;
			offset += orders.length - next;
		}
		if (!moved) return { entries, settled: true };
	}
	return { entries, settled: false };
}

/**
 * Manual mode ("Fetch Test Event"): the most recent change among the selected events, as a sample;
 * no state is read or moved. A status written otherwise than the API writes it is sent as the API
 * writes it (as Get Many does); finding nothing is an error that says why, not n8n's "No data".
 */
async function testEvent(this: IPollFunctions, events: OrderEvent[], status: string | undefined): Promise<INodeExecutionData> {
	const sample = await latestChange.call(this, events, status);
	if (sample) return sample;
	const lookback = `were updated in the last ${SAMPLE_LOOKBACK_HOURS[SAMPLE_LOOKBACK_HOURS.length - 1] / 24} days`;
	const { respelled, message } = await explainEmptyList.call(
		this,
		{ status, window: lookback, otherwise: 'Create or change an order item in the marketplace, then fetch a test event again.' },
		{ respell: true },
	);
	const again = respelled === undefined ? undefined : await latestChange.call(this, events, respelled);
	if (again) return again;
	throw new NodeOperationError(this.getNode(), respelled === undefined ? message : `No order items have status "${respelled}" and ${lookback}.`, {
		description: 'There is no change to show as a test event. Once the workflow is published, the trigger emits the changes made from then on.',
	});
}

/**
 * The most recent change among `events`, in the nearest window that has any: every page of it is
 * read, since the API does not say in which order it lists order items (oldest first, a first page
 * holds the window's oldest).
 */
async function latestChange(this: IPollFunctions, events: OrderEvent[], status: string | undefined): Promise<INodeExecutionData | undefined> {
	const { timeZone } = await apiCredentials.call(this);
	const now = Date.now();
	for (const hours of SAMPLE_LOOKBACK_HOURS) {
		const qs = { status, updated_after: formatApiDateTime(now - hours * 3_600_000, timeZone) };
		/** The newest entry of each event, and the newest of all (it stands for a creation, see below). */
		const newest: Partial<Record<OrderEvent | 'any', IDataObject>> = {};
		const later = (entry: IDataObject, than: IDataObject | undefined) => than === undefined || textOf(entry.updated_at) > textOf(than.updated_at);
		await walkOrders.call(this, { qs }, (orders) => {
			for (const entry of orders) {
				const event: OrderEvent = entry.created_at === entry.updated_at ? 'order.created' : 'order.updated';
				if (later(entry, newest[event])) newest[event] = entry;
				if (later(entry, newest.any)) newest.any = entry;
			}
		});
		if (!newest.any) continue;
		// Only a selected event: every order item was once created, so the newest stands for a
		// creation when nothing in the window is unchanged since; an update needs one that changed.
		const picks = events.map((event) => ({ event, entry: newest[event] })).filter((p) => p.entry !== undefined);
		const pick = picks.sort((a, b) => (later(a.entry!, b.entry) ? -1 : 1))[0] ?? (events.includes('order.created') ? { event: 'order.created' as const, entry: newest.any } : undefined);
		if (pick) return { json: { event: pick.event, ...withIsoDates(pick.entry!, timeZone) } };
	}
	return undefined;
}

/** With Include Order Detail: each item's GET /order_detail.php under `detail`, a few at a time. */
async function withDetail(this: IPollFunctions, items: INodeExecutionData[], options: IDataObject): Promise<INodeExecutionData[]> {
	if (!options.includeDetail || items.length === 0) return items;
	const concurrency = wholeOption(this, options.detailConcurrency, 'Detail Concurrency', 5, 1);
	const details = await mapWithConcurrency(items.length, concurrency, (i) =>
		apiRequest.call(this, 'GET', '/order_detail.php', { qs: { order_item_id: items[i].json.order_item_id as number } }),
	);
	return items.map((item, i) => ({ json: { ...item.json, detail: details[i] } }));
}

function wholeOption(context: IPollFunctions, value: unknown, field: string, fallback: number, min = 0): number {
	if (value === undefined || value === '') return fallback;
	try {
		return toWholeNumber(value, field, { min }) as number;
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message);
	}
}
