import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { CREDENTIAL_TYPE, headerPrefixOf, timeZoneOf, webhookSecretsOf } from '../shared/transport/credentials';
import { withIsoDates } from '../shared/helpers/orderChanges';
import { editCouldAdmit, readWebhook, SIGNATURE_HEADER, type WebhookRejection } from './webhookSignature';
import { deliveryKeyOf, idsHeldSince, keysOf, MAX_DELIVERY_IDS, MAX_SIGNED_KEYS, ProcessRecord, seenBefore } from './deliveryLog';
import { InFlight } from './inFlight';
import { RecentCredentials } from './recentCredentials';
import { eventRecord, madeByN8n } from '../shared/helpers/events';
import { REGISTRATION_NOTICE, TRIGGER_PANEL } from './triggerPanel';
import { cut } from '../shared/helpers/networkText';

// The deliveries this process answered, per trigger, beside the stored record (deliveryLog.ts).
const inMemory = new Map<string, ProcessRecord>();
// This process's deliveries between their check and n8n queueing their run: the memory above takes
// a delivery only once its run is queued, or it would hand a run that never started to other
// processes as seen (with its next save of the whole record), and the retry would be dropped.
const inFlight = new InFlight();

// When each warning was last written, per trigger: at most one an hour, not one per delivery.
const warned = new Map<string, number>();
const WARN_EVERY_MS = 60 * 60 * 1000;
function warnOnce(context: IWebhookFunctions, key: string, message: string): void {
	const now = Date.now();
	if (now - (warned.get(key) ?? -Infinity) < WARN_EVERY_MS) return;
	warned.set(key, now);
	context.logger.warn(message);
}
const recentCredentials = new RecentCredentials<ICredentialDataDecryptedObject>();

/** What a refused sender is told: short, and never which secret or which check came close. */
const REJECTIONS: Record<WebhookRejection, { status: number; body: string }> = {
	no_secret: { status: 401, body: 'Unauthorized: the Webhook Secret of the n8n credential is empty; set it to verify webhooks' },
	missing_headers: { status: 401, body: 'Unauthorized: missing webhook signature headers' },
	invalid_id: { status: 401, body: 'Unauthorized: invalid webhook id' },
	invalid_timestamp: { status: 401, body: 'Unauthorized: invalid webhook timestamp' },
	invalid_signature: { status: 401, body: 'Unauthorized: invalid webhook signature' },
	stale_timestamp: { status: 401, body: 'Unauthorized: webhook timestamp outside the tolerance' },
};

export class MarketplacePartnerTrigger implements INodeType {
	// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
	description: INodeTypeDescription = {
		displayName: 'Marketplace Partner Trigger',
		name: 'marketplacePartnerTrigger',
		icon: { light: 'file:marketplacePartner.svg', dark: 'file:marketplacePartner.dark.svg' },
		group: ['trigger'],
		// 2: an order event's order item fields at the top of the item, as the Orders Trigger gives
		// them, with the delivery's facts beside them. Version 1 keeps its shape for saved workflows.
		version: [1, 2],
		defaultVersion: 2,
		// The events' names as the Events list shows them, not their values ("*", "order.created").
		subtitle:
			'={{$parameter["events"].map((e) => ({ "*": "All events", "order.created": "Order created", "order.updated": "Order updated", "return.requested": "Return requested", "stock.updated": "Stock updated" })[e] ?? e).join(", ")}}',
		// n8n's node creator merges this trigger with the action node into one entry and shows this
		// description there, so it names what the entry holds: the webhook events and the actions.
		description: "Starts the workflow when the marketplace's verified webhooks arrive; reads orders and sets stock through its Partner API",
		defaults: { name: 'Marketplace Partner Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'marketplacePartnerApi', required: true }],
		// responseData '' makes n8n answer an accepted delivery with {"message":"Workflow was started"};
		// without it, n8n's default sends the literal text "firstEntryJson".
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'webhook' }],
		triggerPanel: TRIGGER_PANEL,
		properties: [
			{
				displayName: REGISTRATION_NOTICE,
				name: 'registrationNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['*'],
				description: 'Which events start the workflow. Other events are acknowledged and ignored.',
				options: [
					{ name: 'All Events', value: '*', description: 'Every event the marketplace sends' },
					{ name: 'Order Created', value: 'order.created', description: 'A customer placed an order: one event per order item' },
					{ name: 'Order Updated', value: 'order.updated', description: "An order item's status, payment or shipment changed" },
					{ name: 'Return Requested', value: 'return.requested', description: 'A customer asked to return an order item' },
					{
						name: 'Stock Updated',
						value: 'stock.updated',
						description: "A product's stock changed, in the marketplace or through Stock › Update",
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Allow Duplicate Deliveries',
						name: 'allowDuplicates',
						type: 'boolean',
						default: false,
						description:
							'Whether to run the workflow again when the marketplace re-sends a delivery it already sent (same webhook ID, as retries do). By default repeats within a day are dropped.',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description: 'Whether to add the request headers (without the signature) to the output',
					},
					{
						displayName: 'Skip Stock Updates Made by Workflows',
						name: 'skipOwnStockUpdates',
						type: 'boolean',
						default: false,
						description:
							'Whether to skip stock.updated events of changes made by Stock › Update (their external reference starts with "n8n:"), so that a two-way sheet sync does not loop',
						displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
					},
					{
						displayName: 'Timestamp Tolerance (Seconds)',
						name: 'toleranceSeconds',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 300,
						description:
							'How far the webhook timestamp may be from this machine\'s clock, in either direction, before the delivery is refused as a possible replay',
					},
				],
			},
		],
	};
	// Stryker restore all

	// Registration is the operator's (there is no API for it), so these only report success. n8n's
	// strict lint (webhook-lifecycle-complete) wants the three on every webhook trigger.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		try {
			return await receive.call(this);
		} catch (error) {
			// n8n starts a run (with an empty item) when a trigger's webhook() throws: answered here
			// instead, nothing runs for a delivery that could not be checked.
			this.logger.error(`Marketplace Partner Trigger: a delivery could not be checked: ${cut(String((error as Error)?.message), 500)}`);
			// Every step that can throw comes before any answer.
			this.getResponseObject().status(500).send('Internal Server Error: the delivery could not be checked and was not accepted').end();
			return { noWebhookResponse: true };
		}
	}
}

/** A delivery, verified before anything else; answered at once unless it starts a run. */
async function receive(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = this.getRequestObject();
	const res = this.getResponseObject();
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const reply = (status: number, body: string): IWebhookResponseData => {
		res.status(status).send(body).end();
		return { noWebhookResponse: true };
	};

	// The exact bytes received: n8n keeps them for JSON and text bodies; other types are read now,
	// but a multipart body n8n has already parsed into fields: its bytes are gone, so it cannot be verified.
	if (/^multipart\//i.test(String(req.headers['content-type']))) {
		return reply(415, 'Unsupported Media Type: a multipart body cannot be verified; the marketplace sends JSON');
	}
	await req.readRawBody(); // n8n reads the body once; a second call returns at once
	const rawBody = req.rawBody ?? Buffer.alloc(0);
	const toleranceSeconds = Number(options.toleranceSeconds ?? 300);

	const nowMs = Date.now();
	const check = (credentials: ICredentialDataDecryptedObject) => {
		const prefix = headerPrefixOf(credentials).toLowerCase();
		// Node.js joins a repeated header into one value and strips SP and HTAB around it; nothing else.
		const header = (name: string) => req.get(`${prefix}${name}`);
		const verdict = readWebhook({
			secrets: webhookSecretsOf(credentials),
			idHeader: header('webhook-id'),
			timestampHeader: header('webhook-timestamp'),
			signatureHeader: header(SIGNATURE_HEADER),
			rawBody,
			nowMs,
			toleranceSeconds,
		});
		return { prefix, header, verdict, credentials };
	};
	const node = this.getNode();
	const trigger = `${this.getWorkflow().id}:${node.id}`; // this trigger, in this process's memory
	const credentialKey = `${trigger}:${node.credentials?.[CREDENTIAL_TYPE]?.id}`;
	const readCredentials = async () => await this.getCredentials(CREDENTIAL_TYPE);
	// Read only when no copy is held; a refusal is checked again with a fresh read only where an edit
	// could turn it (secret, Header Prefix), and at most once a second: junk costs no read of its own.
	const recent = await recentCredentials.get(credentialKey, readCredentials, nowMs);
	let checked = check(recent.value);
	const refused = checked.verdict.rejection;
	if (refused && recent.reused && editCouldAdmit(refused, Object.keys(req.headers), checked.prefix)) {
		const fresh = await recentCredentials.get(credentialKey, readCredentials, nowMs, true);
		if (!fresh.reused) checked = check(fresh.value);
	}
	const { prefix, header, verdict } = checked;
	if (verdict.rejection) {
		const { status, body } = REJECTIONS[verdict.rejection];
		return reply(status, body);
	}
	// The headers as verified: the same id and timestamp text are keyed, stored and output.
	const { id: webhookId, timestamp: timestampText, seconds: timestamp } = verdict.headers;

	let parsed: unknown;
	try {
		parsed = JSON.parse(rawBody.toString('utf8'));
	} catch {
		return reply(400, 'Bad Request: the webhook body is not valid JSON');
	}
	// Every delivery of the spec is an object; anything else did not come from the marketplace's sender.
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		return reply(400, 'Bad Request: the webhook body is not a JSON object');
	}
	const payload = parsed as IDataObject;
	// The event header is not signed: the signed payload's event wins, and a header that says
	// otherwise was changed on the way. Only a payload that names no event leaves it to the header.
	const signedEvent = typeof payload.event === 'string' ? payload.event : undefined;
	const headerEvent = header('webhook-event');
	if (signedEvent !== undefined && headerEvent && headerEvent !== signedEvent) {
		return reply(400, 'Bad Request: the webhook event header contradicts the event of the signed body');
	}
	const event = signedEvent ?? headerEvent ?? '';
	const selected = this.getNodeParameter('events', []) as string[];
	const wanted = selected.includes('*') || selected.includes(event);

	// The item is built before the delivery is recorded: nothing that can throw comes after, so a
	// delivery answered 500 never leaves a key behind (n8n saves the record on that path too).
	let item: IDataObject | undefined;
	let skipped = false;
	if (wanted) {
		const sentAt = new Date(timestamp * 1000).toISOString();
		if (node.typeVersion >= 2) {
			const record = withIsoDatesIn(eventRecord(payload), checked.credentials);
			skipped = Boolean(options.skipOwnStockUpdates) && event === 'stock.updated' && madeByN8n(record);
			item = { event, ...record, deliveryId: webhookId, deliveryKey: deliveryKeyOf(timestampText, rawBody), sentAt, payload };
		} else {
			item = { event, webhookId, timestamp, timestampIso: sentAt, payload };
		}
		if (options.includeHeaders) {
			const signatureHeader = `${prefix}${SIGNATURE_HEADER}`;
			item.headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== signatureHeader));
		}
	}

	const record = this.getWorkflowStaticData('node');
	let recorded: IDataObject | undefined; // the record with this delivery, for n8n to save
	if (!options.allowDuplicates) {
		if (!inMemory.has(trigger)) inMemory.set(trigger, new ProcessRecord());
		const memory = inMemory.get(trigger)!;
		const delivery = { id: webhookId, timestamp: timestampText, rawBody };
		const keys = keysOf(delivery);
		const claimed = keys.map((key) => `${trigger}|${key}`);
		if (!inFlight.claim(claimed, Date.now())) {
			return reply(409, 'Conflict: this delivery is being accepted right now; send it again later');
		}
		// Every verified delivery is recorded, selected or not: a copy re-sent under another id or
		// event header is then a duplicate. A repeat known to either record is dropped; a new one goes
		// into the stored record now (n8n saves it only as it answers 2xx, once the run is queued),
		// and into this process's memory once that answer has gone out.
		const seen = seenBefore(record, memory, delivery, Date.now(), toleranceSeconds);
		if (seen === true) {
			inFlight.release(claimed);
			return reply(200, 'OK: duplicate delivery');
		}
		if (seen !== false) {
			// Taking it would forget a delivery whose copy could still pass: the sender tries again later.
			inFlight.release(claimed);
			const minutes = Math.round((2 * toleranceSeconds) / 60);
			warnOnce(this, `${trigger}|full`, `Marketplace Partner Trigger: more than ${MAX_SIGNED_KEYS} deliveries within ${minutes} minutes (twice the timestamp tolerance); each delivery beyond them is answered 503 with Retry-After until the oldest leaves, so that no copy of one can run again`);
			res.setHeader('Retry-After', String(seen.retryAfterSeconds));
			return reply(503, 'Service Unavailable: too many deliveries within the timestamp tolerance; send it again after Retry-After');
		}
		const heldSince = idsHeldSince(record, Date.now());
		if (heldSince !== undefined) {
			warnOnce(this, `${trigger}|ids`, `Marketplace Partner Trigger: more than ${MAX_DELIVERY_IDS} deliveries within a day; delivery ids are remembered only from ${new Date(heldSince * 1000).toISOString()}, so a marketplace retry of an older delivery runs again (a Remove Duplicates node on deliveryId drops it)`);
		}
		recorded = { deliveries: record.deliveries, signed: record.signed };
		res.once('finish', () => {
			if (Math.trunc(res.statusCode / 100) === 2) memory.remember(keys, Date.now(), toleranceSeconds);
		});
		res.once('close', () => inFlight.release(claimed));
	}
	// Not selected or skipped: answered at once, so n8n saves the record as it answers.
	if (!item) return reply(200, 'OK: event not selected');
	if (skipped) return reply(200, 'OK: a stock update made by n8n, skipped');

	// n8n answers an accepted delivery itself: n8n 2.x once the run is created and queued, so a
	// delivery answered 2xx is never lost to a process that stops (n8n 1.x answers before starting
	// it). n8n reads this body as it answers, and saves the node's static data just before sending
	// if marked changed; starting the run built a second Workflow over the same static data, which
	// cleared that mark (WorkflowRunner.establishContextForPersistence in n8n 2.41). So the record
	// is marked again here: the new delivery id is stored before the sender hears 200.
	return {
		workflowData: [this.helpers.returnJsonArray([item])],
		get webhookResponse() {
			Object.assign(record, recorded); // nothing when duplicates are allowed
			return { message: 'Workflow was started' };
		},
	};
}

/** An order item's datetimes also as ISO 8601, as the Orders Trigger gives them; unchanged when the credential's Time Zone is no zone (nothing here may throw). */
function withIsoDatesIn(record: IDataObject, credentials: ICredentialDataDecryptedObject): IDataObject {
	try {
		return withIsoDates(record, timeZoneOf(credentials));
	} catch {
		return record;
	}
}
