/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-unused-vars -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The Orders Trigger's poll() through n8n-core's poll executor against the sandbox over loopback:
// first run, events, filters, detail, manual mode, failures and restarts.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor } from '../helpers/n8n';
import { outputSchemaFile, readSchema, schemaMismatches } from '../helpers/outputSchema';
import { formatApiDateTime } from '../../nodes/shared/helpers/values';
import { PollHarness } from '../helpers/poll';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { ok, startScriptedApi } from '../helpers/scriptedApi';

type Change = { seq: number; order_item_id: number; updated_at: string; entry: IDataObject };

describe('Marketplace Partner Orders Trigger', () => {
	let sb: RunningSandbox;
	const app = () => sb.apps['seller-a-full'];
	const harness = (parameters: IDataObject = {}, options: IDataObject = {}) =>
		new PollHarness({ events: ['order.created', 'order.updated'], options: { overlapSeconds: 1, skewSeconds: 0, ...options }, ...parameters }, credentialsFor(sb.baseUrl, app()));
	const listRequests = async () => (await sb.control('GET', '/stats')).byEndpoint['GET /orders.php 200'] ?? 0;
	const change = (changes: IDataObject) => sb.control('POST', '/changes', { clientId: app().clientId, changes });
	const changes = (since = 0): Promise<Change[]> => sb.control('GET', `/changes?since=${since}`);
	// The list entry as the API gave it: without the event, the detail and the ISO forms of its datetimes.
	const strip = ({ event, detail, created_at_iso, updated_at_iso, ...entry }: IDataObject) => entry;

	beforeAll(async () => {
		sb = await startSandbox({ orders: 300 });
	});
	afterEach(() => sb.control('POST', '/reset'));
	afterAll(() => sb.close());

	test('activation starts at now: no history, then each change once, with its event; a quiet poll is one request', async () => {
		await change({ statusChanges: 3 }); // before activation: history
		const h = harness();
		expect(await h.activate()).toEqual({ items: null, error: undefined });
		expect(h.saved).toEqual(JSON.parse(JSON.stringify(h.workflow.staticData))); // n8n saves after activating
		expect(h.state.since).toEqual(expect.any(String));

		const { orderItemIds: [createdId] } = await change({ newOrders: 1 });
		const { seq } = await change({ statusChanges: 2 });
		const first = await h.poll();
		const log = await changes(3);
		expect(first.error).toBeUndefined();
		expect(first.items!.map(strip)).toEqual(expect.arrayContaining(log.map((c) => c.entry)));
		expect(first.items).toHaveLength(log.length);
		expect(seq).toBe(6);
		const created = first.items!.find((i) => i.order_item_id === createdId)!;
		expect(created.event).toBe('order.created');
		expect(first.items!.filter((i) => i.order_item_id !== createdId).every((i) => i.event === 'order.updated')).toBe(true);
		expect(h.saved).toEqual(JSON.parse(JSON.stringify(h.workflow.staticData)));

		await sb.control('POST', '/stats/reset');
		expect((await h.poll()).items).toBeNull();
		expect(await listRequests()).toBe(1);
	});

	test.each([1, 3])('a server that says has_more on every page: %i change(s) come out once, and the poll stops at the empty page', async (count) => {
		const h = harness();
		await h.activate();
		await sb.control('POST', '/faults', { listHasMoreAlways: true });
		const { orderItemIds } = await change({ newOrders: count });
		await sb.control('POST', '/stats/reset');
		const { items, error } = await h.poll();
		expect(error).toBeUndefined();
		expect(items!.map((i) => i.order_item_id).sort()).toEqual([...orderItemIds].sort());
		// One entry per page overlaps the next, so a page of one entry is followed by the empty page.
		const offsets = (await sb.control('GET', '/stats')).recent.map((r: { query: { offset: string } }) => r.query.offset);
		expect(offsets).toEqual(count === 1 ? ['0', '1'] : ['0', '2', '3']);
		expect((await h.poll()).items).toBeNull();
	});

	test('an API that ignores offset fails the poll with an error, instead of reading its first page forever', async () => {
		const orders = [1, 2, 3].map((order_item_id) => ({ order_item_id, created_at: '2026-05-01 10:00:00', updated_at: '2026-05-01 10:00:00' }));
		const api = await startScriptedApi([ok({ orders, pagination: { has_more: 1 } })]);
		try {
			const h = new PollHarness({ events: ['order.created'], options: {} }, credentialsFor(api.baseUrl, api.app));
			const { items, error } = await h.activate();
			expect(items).toBeNull();
			expect(error?.message).toBe('The API answered offset 4 with the same order items as offset 0');
			// The page at 2 looked like a move (its overlap entry missing) but brought nothing new: read on, not again.
			expect(api.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('offset'))).toEqual(['0', '2', '4']);
		} finally {
			await api.close();
		}
	});

	test('two changes of one order item within the same second both come out, once each', async () => {
		const h = harness();
		await h.activate();
		const { orderItemIds: [id] } = await change({ newOrders: 1 });
		await h.poll();
		// Same second as the newest updated_at: a naive updated_after=<watermark> never sees these.
		await sb.control('POST', '/changes', { clientId: app().clientId, changes: { sameSecond: 1 } });
		const between = await h.poll();
		await sb.control('POST', `/orders/${id}/status`, { status: 'delivered' });
		const after = await h.poll();
		const log = await changes();
		expect([...(between.items ?? []), ...(after.items ?? [])].map(strip)).toEqual(log.slice(1).map((c) => c.entry));
		expect(h.emitted).toHaveLength(log.length);
	});

	test('a credential edited while the trigger is active counts from the next poll on', async () => {
		const credentials = credentialsFor(sb.baseUrl, app());
		const h = new PollHarness({ events: ['order.created'], options: { overlapSeconds: 1, skewSeconds: 0 } }, credentials);
		await h.activate();
		const { clientSecret } = credentials;
		credentials.clientSecret = 'cs_not_the_secret';
		const refused = await h.poll();
		expect(refused.error?.message).toBe('The Partner API could not verify the request signature');
		credentials.clientSecret = clientSecret;
		const { orderItemIds } = await change({ newOrders: 1 });
		const fixed = await h.poll();
		expect(fixed.error).toBeUndefined();
		expect(fixed.items!.map((i) => i.order_item_id)).toEqual(orderItemIds);
	});

	test('Start From: the first activation catches up on the changes after that moment', async () => {
		await change({ newOrders: 2, statusChanges: 2 });
		const log = await changes();
		const h = harness({}, { startFrom: '2026-07-01T00:00:00Z' });
		const { items } = await h.activate();
		// Seeded orders date from before 2026-06-01; the control API's changes are stamped now.
		expect(items!.map(strip).sort(byKey)).toEqual(latestStates(log).sort(byKey));
		expect((await h.poll()).items).toBeNull();
	});

	test('Events and Status filter what comes out; every state is still remembered', async () => {
		const h = harness({ events: ['order.created'] });
		await h.activate();
		const { orderItemIds } = await change({ newOrders: 2 });
		await sb.control('POST', `/orders/${orderItemIds[0]}/status`, { status: 'shipped' });
		const created = await h.poll();
		expect(created.items!.map((i) => [i.order_item_id, i.event]).sort()).toEqual(orderItemIds.map((id: number) => [id, 'order.created']).sort());
		await sb.control('POST', `/orders/${orderItemIds[1]}/status`, { status: 'shipped' });
		expect((await h.poll()).items).toBeNull(); // an update, not asked for

		const shipped = harness({}, { status: 'shipped' });
		await shipped.activate();
		const { orderItemIds: [fresh] } = await change({ newOrders: 1 });
		await sb.control('POST', `/orders/${orderItemIds[0]}/status`, { status: 'delivered' });
		expect((await shipped.poll()).items).toBeNull(); // accepted and delivered: not asked for
		await sb.control('POST', `/orders/${fresh}/status`, { status: 'shipped' });
		const { items } = await shipped.poll();
		// Its first state was seen (and not emitted): this one is an update.
		expect(items!.map((i) => [i.order_item_id, i.status, i.event])).toEqual([[fresh, 'shipped', 'order.updated']]);
	});

	test('Include Order Detail adds each item\'s detail, a bounded number at a time', async () => {
		const h = harness({}, { includeDetail: true, detailConcurrency: 3 });
		await h.activate();
		const { orderItemIds } = await change({ newOrders: 12 });
		await sb.control('POST', '/faults', { latencyMs: 20 });
		await sb.control('POST', '/stats/reset');
		const { items } = await h.poll();
		await sb.control('POST', '/faults/reset');
		expect(items!.map((i) => i.order_item_id).sort()).toEqual([...orderItemIds].sort());
		for (const item of items!) {
			const detail = await sb.control('GET', `/orders/${item.order_item_id}`);
			expect(item.detail).toEqual(detail);
		}
		// The output schema n8n serves for the node (its own folder) fits every item, detail included.
		const file = outputSchemaFile('nodes/MarketplacePartnerOrdersTrigger');
		expect(file).toMatch(/nodes\/MarketplacePartnerOrdersTrigger\/__schema__\/v1\.0\.0\.json$/);
		expect(items!.flatMap((item) => schemaMismatches(item, readSchema(file!)))).toEqual([]);
		const stats = await sb.control('GET', '/stats');
		expect(stats.byEndpoint['GET /order_detail.php 200']).toBe(12);
		expect(stats.maxInFlight).toBe(3);
	});

	test('manual mode returns the latest change as a sample and moves no state', async () => {
		const h = harness();
		await h.activate();
		const state = copy(h.state);
		const latest = sb.raw.state.ordersBySeller.get(app().sellerId)[7].order_item_id;
		await sb.control('POST', `/orders/${latest}/status`, { status: 'cancelled' });
		const sample = await h.manual();
		expect(sample!.map(strip)).toEqual([(await changes())[0].entry]);
		expect(sample![0].event).toBe('order.updated');
		expect(h.state).toEqual(state);
		expect((await h.poll()).items!.map((i) => i.order_item_id)).toEqual([latest]); // still delivered

		const fresh = harness();
		expect((await fresh.manual())![0].order_item_id).toBe(latest);
		expect(fresh.state).toEqual({});
	});

	test('a poll that fails midway changes nothing: the next one starts where it started', async () => {
		const h = harness();
		await h.activate();
		await change({ newOrders: 150 }); // two pages
		await sb.control('POST', '/churn', { clientId: app().clientId, pages: [{ deactivateApp: true }] });
		const state = copy(h.state);
		const failed = await h.poll();
		expect(failed.items).toBeNull();
		expect(failed.error?.message).toMatch(/deactivated/);
		expect(h.state).toEqual(state);
		await sb.control('POST', `/apps/${app().clientId}`, { active: true });
		const { items } = await h.poll();
		expect(items!.map(strip).sort(byKey)).toEqual(latestStates(await changes()).sort(byKey));
	});

	test('a restart before anything was emitted resumes from the activation, not from the restart', async () => {
		const h = harness();
		await h.activate();
		expect((await h.poll()).items).toBeNull(); // empty: not saved
		await change({ newOrders: 1, statusChanges: 2 });
		const restarted = await h.restart();
		const log = await changes();
		expect(restarted.items!.map(strip).sort(byKey)).toEqual(latestStates(log).sort(byKey));
		expect((await h.poll()).items).toBeNull();
	});

	test('a restart after empty polls loses nothing and repeats nothing', async () => {
		const h = harness();
		await h.activate();
		await change({ newOrders: 2 });
		expect((await h.poll()).items).toHaveLength(2); // saved here
		for (let i = 0; i < 3; i++) expect((await h.poll()).items).toBeNull(); // moved in memory only
		await new Promise((r) => setTimeout(r, 2100)); // past the overlap: empty polls move the window
		expect((await h.poll()).items).toBeNull();
		expect(h.state.since).not.toEqual(h.saved.since);
		await change({ statusChanges: 2 });
		const restarted = await h.restart(); // back to the saved state; activation polls at once
		const log = await changes();
		expect(restarted.items!.map(strip).sort(byKey)).toEqual(log.slice(2).map((c) => c.entry).sort(byKey));
		expect((await h.poll()).items).toBeNull();
		expect(h.emitted).toHaveLength(log.length);
	});

	test('the remembered set holds only what the next window can return', async () => {
		const h = harness();
		await h.activate();
		const { orderItemIds: old } = await change({ newOrders: 5 });
		await h.poll();
		const keys = () => Object.values(h.state.seen as IDataObject).flat() as string[];
		expect(keys()).toHaveLength(5);
		// While nothing newer exists the window stays on the newest change, so its keys stay.
		await new Promise((r) => setTimeout(r, 3100)); // past overlap 1 s + 1 s
		expect((await h.poll()).items).toBeNull();
		expect(keys()).toHaveLength(5);
		const { orderItemIds: [latest] } = await change({ newOrders: 1 });
		expect((await h.poll()).items).toHaveLength(1);
		expect(keys().map((k) => Number(k.split(':')[0]))).toEqual([latest]);
		expect(old).not.toContain(latest);
	});

	test('a Status with spaces around it filters like the status itself', async () => {
		const h = harness({}, { status: '  shipped ' });
		await h.activate();
		const { orderItemIds: [shipped, other] } = await change({ newOrders: 2 });
		await sb.control('POST', `/orders/${shipped}/status`, { status: 'shipped' });
		const { items } = await h.poll();
		expect(items!.map((i) => [i.order_item_id, i.status])).toEqual([[shipped, 'shipped']]);
		expect(other).not.toBe(shipped);
	});

	test('a Status none of the API writes: published, the first poll that leaves changes out for it is an error execution naming the statuses, once; the window moves on', async () => {
		const h = harness({}, { status: 'Refunded' });
		await h.activate();
		await change({ newOrders: 2 });
		const first = await h.poll();
		expect(first.items).toBeNull();
		expect(first.error?.message).toMatch(/^No order items have status "Refunded" and changed since the last poll\. The order items in the list have the statuses "accepted", .*\. Pick one of those from the Status list\.$/);
		expect((first.error as { description?: string }).description).toBe(
			'2 order items changed since the last poll with other statuses, so no execution started for them. The trigger keeps polling; this is said once until the workflow is published again. Change Status under Options to one the API writes.',
		);
		// The changes it left out are remembered as seen, as for any poll.
		const seen = () => Object.values(h.state.seen as Record<string, string[]>).flat().length;
		const afterError = seen();
		expect(afterError).toBeGreaterThanOrEqual(2);
		await change({ newOrders: 1 });
		expect(await h.poll()).toEqual({ items: null, error: undefined });
		expect(seen()).toBe(afterError + 1);
		// Published again: said again.
		await h.restart();
		await change({ newOrders: 1 });
		expect((await h.poll()).error?.message).toMatch(/^No order items have status "Refunded"/);
	});

	test.each([
		['a status the API writes, in another case', 'SHIPPED'],
		['a status the API writes', 'delivered'],
	])('%s that no change had: no error, nothing emitted', async (_, status) => {
		const h = harness({}, { status });
		await h.activate();
		await change({ newOrders: 2 });
		expect(await h.poll()).toEqual({ items: null, error: undefined });
	});

	test('the Status is explained only when a poll left changes out and emitted nothing: not for a poll without changes, nor for one that emitted', async () => {
		const h = harness({}, { status: 'Refunded' });
		await h.activate();
		// Nothing changed: no list is read for statuses, no error.
		await sb.control('POST', '/stats/reset');
		expect(await h.poll()).toEqual({ items: null, error: undefined });
		expect(await listRequests()).toBe(1);
		const shipping = harness({}, { status: 'shipped' });
		await shipping.activate();
		await shipping.poll();
		const { orderItemIds: [shipped] } = await change({ newOrders: 2 });
		await sb.control('POST', `/orders/${shipped}/status`, { status: 'shipped' });
		await sb.control('POST', '/stats/reset');
		// One change emitted, one of another status left out: the poll's one read, nothing explained.
		const { items, error } = await shipping.poll();
		expect(error).toBeUndefined();
		expect(items!.map((i) => i.order_item_id)).toEqual([shipped]);
		expect(await listRequests()).toBe(1);
	});

	test('the poll that activates the workflow never fails for the Status: n8n would not publish it', async () => {
		const h = harness({}, { status: 'Refunded' });
		await h.activate();
		await change({ newOrders: 1 });
		await h.poll(); // said, once
		await change({ newOrders: 1 });
		// n8n restarts with state saved: its activation poll leaves the change out without an error.
		h.saved = JSON.parse(JSON.stringify(h.workflow.staticData));
		expect((await h.restart()).error).toBeUndefined();
	});

	test('a Status of only spaces filters nothing', async () => {
		const h = harness({}, { status: '   ' });
		await h.activate();
		const { orderItemIds } = await change({ newOrders: 2 });
		expect((await h.poll()).items!.map((i) => i.order_item_id).sort()).toEqual([...orderItemIds].sort());
	});

	test('changes come out oldest first, ties by order item id, whatever order the list has', async () => {
		await sb.control('POST', '/list-order', { order: 'updated_at_desc' });
		const h = harness();
		await h.activate();
		await change({ newOrders: 3 });
		await new Promise((r) => setTimeout(r, 1100)); // a later second
		await change({ statusChanges: 3 });
		const { items } = await h.poll();
		const order = items!.map((i) => [String(i.updated_at), Number(i.order_item_id)] as const);
		expect(order.length).toBeGreaterThanOrEqual(4);
		const sorted = [...order].sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]);
		expect(order).toEqual(sorted);
		expect(new Set(order.map(([at]) => at)).size).toBeGreaterThan(1);
	});

	test('without Include Order Detail no detail is read', async () => {
		const h = harness({}, { detailConcurrency: '' });
		await h.activate();
		await change({ newOrders: 2 });
		await sb.control('POST', '/stats/reset');
		const { items } = await h.poll();
		expect(items).toHaveLength(2);
		for (const item of items!) expect(item).not.toHaveProperty('detail');
		expect((await sb.control('GET', '/stats')).byEndpoint['GET /order_detail.php 200']).toBeUndefined();
	});

	test.each([
		['left empty', { detailConcurrency: '' }],
		['never set', {}],
	])('Include Order Detail with Detail Concurrency %s reads five at a time', async (_, concurrency) => {
		const h = harness({}, { includeDetail: true, ...concurrency });
		await h.activate();
		await change({ newOrders: 12 });
		await sb.control('POST', '/faults', { latencyMs: 30 });
		await sb.control('POST', '/stats/reset');
		const { items } = await h.poll();
		await sb.control('POST', '/faults/reset');
		expect(items!.every((i) => typeof i.detail === 'object')).toBe(true);
		expect((await sb.control('GET', '/stats')).maxInFlight).toBe(5);
	});

	test('a poll that starts while the previous one still runs reads nothing and emits nothing twice', async () => {
		const h = harness();
		await h.activate();
		await change({ newOrders: 3 });
		await sb.control('POST', '/faults', { latencyMs: 300 });
		await sb.control('POST', '/stats/reset');
		const first = h.poll();
		await new Promise((r) => setTimeout(r, 100));
		await h.poll();
		await first;
		await sb.control('POST', '/faults/reset');
		expect(h.emitted).toHaveLength(3);
		expect((await sb.control('GET', '/stats')).byEndpoint['GET /orders.php 200']).toBe(1);
	});

	test('manual mode with no change in the last hour looks further back for a sample', async () => {
		const orders: Array<{ order_item_id: number; updated_ms: number }> = sb.raw.state.ordersBySeller.get(app().sellerId);
		expect(Date.now() - Math.max(...orders.map((o) => o.updated_ms))).toBeGreaterThan(30 * 86_400_000);
		const sample = await harness().manual();
		expect(sample).toHaveLength(1);
		const seeded = orders.find((o) => o.order_item_id === sample![0].order_item_id)!;
		expect(Date.now() - seeded.updated_ms).toBeLessThan(365 * 86_400_000);
		expect(sample![0].event).toBe(sample![0].created_at === sample![0].updated_at ? 'order.created' : 'order.updated');
	});

	test('manual mode samples the newest change of an event asked for, whatever the list order, and honours Status', async () => {
		const updated = sb.raw.state.ordersBySeller.get(app().sellerId)[3].order_item_id;
		await sb.control('POST', `/orders/${updated}/status`, { status: 'cancelled' });
		await new Promise((r) => setTimeout(r, 1100));
		// Newer, and last in the list (ordered by order item id).
		const { orderItemIds: [created] } = await change({ newOrders: 1 });
		const sample = async (events: string[], options: IDataObject = {}) =>
			(await harness({ events }, options).manual())!.map((i) => [i.order_item_id, i.status, i.event]);
		expect(await sample(['order.created', 'order.updated'])).toEqual([[created, expect.any(String), 'order.created']]);
		expect(await sample(['order.updated'])).toEqual([[updated, 'cancelled', 'order.updated']]);
		// Only new order items asked for, of cancelled ones, none of them unchanged since created: the
		// newest cancelled one stands for a creation; the sample follows the selected event, never another.
		expect(await sample(['order.created'], { status: 'cancelled' })).toEqual([[updated, 'cancelled', 'order.created']]);
	});

	test.each(['order_item_id', 'updated_at_asc', 'updated_at_desc'])('Fetch Test Event gives the most recent change of a window of several pages, listed by %s', async (order) => {
		await sb.control('POST', '/list-order', { order });
		const orders: Array<{ order_item_id: number; updated_ms: number }> = sb.raw.state.ordersBySeller.get(app().sellerId);
		// The seeded orders lie months back: the year's window holds them all, over several pages.
		expect(orders.length).toBeGreaterThan(100);
		const newest = Math.max(...orders.map((o) => o.updated_ms));
		const sample = await harness().manual();
		expect(sample).toHaveLength(1);
		expect(orders.find((o) => o.order_item_id === sample![0].order_item_id)!.updated_ms).toBe(newest);
	});

	test('Fetch Test Event reads Status as Get Many does: "Cancelled" is sent as the API writes it; a status no order item has is explained', async () => {
		const cancelled = sb.raw.state.ordersBySeller.get(app().sellerId)[5].order_item_id;
		await sb.control('POST', `/orders/${cancelled}/status`, { status: 'cancelled' });
		const typed = await harness({ events: ['order.updated'] }, { status: '  Cancelled ' }).manual();
		expect(typed!.map((i) => [i.order_item_id, i.status])).toEqual([[cancelled, 'cancelled']]);

		const h = harness({}, { status: 'Acceptd' });
		await expect(h.manual()).rejects.toThrow(
			'No order items have status "Acceptd" and were updated in the last 365 days. The order items in the list have the statuses "accepted", "cancelled", "delivered", "shipped". Pick one of those from the Status list.',
		);
	});

	test('Fetch Test Event with both events picks the later of the newest creation and the newest update, whichever is selected first', async () => {
		const now = Date.now();
		const orders = [
			{ order_item_id: 1, status: 'accepted', created_at: formatApiDateTime(now - 7200_000), updated_at: formatApiDateTime(now - 60_000) },
			{ order_item_id: 2, status: 'accepted', created_at: formatApiDateTime(now - 1800_000), updated_at: formatApiDateTime(now - 1800_000) },
		];
		const api = await startScriptedApi(() => ok({ orders, pagination: { has_more: false } }));
		try {
			for (const events of [['order.created', 'order.updated'], ['order.updated', 'order.created']]) {
				const sample = await new PollHarness({ events, options: {} }, credentialsFor(api.baseUrl, api.app)).manual();
				expect(sample!.map((i) => [i.order_item_id, i.event])).toEqual([[1, 'order.updated']]);
			}
		} finally {
			await api.close();
		}
	});

	test('Fetch Test Event: only creations asked for and only updates in the window: the newest update stands for a creation; only updates asked for and only a creation in the last hour: it looks further back', async () => {
		const at = (minutesAgo: number) => formatApiDateTime(Date.now() - minutesAgo * 60_000);
		let orders: IDataObject[] = [];
		// An API that applies updated_after (as text, which the API's datetimes allow).
		const api = await startScriptedApi((request) => {
			const after = new URL(request.url, 'http://x').searchParams.get('updated_after') ?? '';
			return ok({ orders: orders.filter((o) => String(o.updated_at) > after), pagination: { has_more: false } });
		});
		const sample = async (events: string[]) =>
			(await new PollHarness({ events, options: {} }, credentialsFor(api.baseUrl, api.app)).manual())!.map((i) => [i.order_item_id, i.event]);
		try {
			// Listed newest first: the last one listed is not the newest.
			orders = [
				{ order_item_id: 1, created_at: at(300), updated_at: at(5) },
				{ order_item_id: 2, created_at: at(300), updated_at: at(20) },
			];
			expect(await sample(['order.created'])).toEqual([[1, 'order.created']]);
			orders = [
				{ order_item_id: 3, created_at: at(10), updated_at: at(10) },
				{ order_item_id: 4, created_at: at(600), updated_at: at(180) },
			];
			expect(await sample(['order.updated'])).toEqual([[4, 'order.updated']]);
		} finally {
			await api.close();
		}
	});

	test('Fetch Test Event with a Status typed otherwise: when no order item of the status as the API writes it changed in a year, the error names that status', async () => {
		// Order items of that status exist, but none changed within the lookback.
		const api = await startScriptedApi((request) => {
			const query = new URL(request.url, 'http://x').searchParams;
			return ok({ orders: query.has('updated_after') ? [] : [{ order_item_id: 1, status: 'accepted', updated_at: '2020-01-01 00:00:00' }], pagination: { has_more: false } });
		});
		try {
			const h = new PollHarness({ events: ['order.created'], options: { status: 'Accepted' } }, credentialsFor(api.baseUrl, api.app));
			await expect(h.manual()).rejects.toThrow(/^No order items have status "accepted" and were updated in the last 365 days\.$/);
		} finally {
			await api.close();
		}
	});

	test('Fetch Test Event with a Status typed otherwise, from an API that matches it exactly: the sample is found under the status as the API writes it', async () => {
		const recent = { order_item_id: 2, status: 'accepted', created_at: formatApiDateTime(Date.now() - 60_000), updated_at: formatApiDateTime(Date.now() - 60_000) };
		const api = await startScriptedApi((request) => {
			const query = new URL(request.url, 'http://x').searchParams;
			const status = query.get('status');
			return ok({ orders: status === 'Accepted' ? [] : status === 'accepted' || !query.has('updated_after') ? [recent] : [], pagination: { has_more: false } });
		});
		try {
			const h = new PollHarness({ events: ['order.created'], options: { status: 'Accepted' } }, credentialsFor(api.baseUrl, api.app));
			expect((await h.manual())!.map((i) => [i.order_item_id, i.event])).toEqual([[2, 'order.created']]);
		} finally {
			await api.close();
		}
	});

	test('Fetch Test Event with no change in a year says why and what to do, not n8n\'s "No data"', async () => {
		const api = await startScriptedApi([ok({ orders: [], pagination: { has_more: 0 } })]);
		try {
			const h = new PollHarness({ events: ['order.created'], options: {} }, credentialsFor(api.baseUrl, api.app));
			const error = await h.manual().catch((e: Error & { description?: string }) => e);
			expect(error).toMatchObject({
				message: 'No order items were updated in the last 365 days. Create or change an order item in the marketplace, then fetch a test event again.',
				description: expect.stringMatching(/^There is no change to show as a test event\./),
			});
		} finally {
			await api.close();
		}
	});

	describe('a list that moves while a poll pages (newest first: a change moves an entry to page one)', () => {
		beforeEach(() => sb.control('POST', '/list-order', { order: 'updated_at_desc' }));

		test('the move is noticed and the window read again; every state comes out once', async () => {
			const h = harness();
			await h.activate();
			await change({ newOrders: 150 }); // two pages
			await new Promise((r) => setTimeout(r, 1100)); // what changes next is a second newer: first in the list
			await sb.control('POST', '/stats/reset');
			await sb.control('POST', '/churn', { clientId: app().clientId, pages: [{ newOrders: 1, statusChanges: 2 }] });
			const { items, error } = await h.poll();
			expect(error).toBeUndefined();
			// Two pages, the move seen on the second, then the window again (two pages).
			expect(await listRequests()).toBe(4);
			// Each item's latest state, and an earlier one where the first read saw it before it changed.
			const texts = items!.map((i) => JSON.stringify(strip(i)));
			expect(new Set(texts).size).toBe(texts.length);
			expect(items!.map(strip)).toEqual(expect.arrayContaining(latestStates(await changes())));
			expect((await h.poll()).items).toBeNull();
		});

		test('a list that keeps moving for four reads: the window is kept and read again by the next poll, nothing lost or repeated', async () => {
			const h = harness();
			await h.activate();
			const since = h.state.since;
			await new Promise((r) => setTimeout(r, 2100)); // past the overlap: a settled read would move the window
			await change({ newOrders: 150 });
			await new Promise((r) => setTimeout(r, 1100)); // the next orders are a second newer: first in the list
			// A new order after every page served: newest first, it shifts every later page by one.
			await sb.control('POST', '/churn', { clientId: app().clientId, pages: Array(8).fill({ newOrders: 1 }) });
			await sb.control('POST', '/stats/reset');
			const moving = await h.poll();
			expect(moving.error).toBeUndefined();
			expect(await listRequests()).toBe(8); // four reads of two pages, each moved on its second
			expect(h.state.since).toBe(since); // not settled: the window's start is kept
			const calm = await h.poll();
			const emitted = [...(moving.items ?? []), ...(calm.items ?? [])].map(strip);
			const texts = emitted.map((e) => JSON.stringify(e));
			expect(new Set(texts).size).toBe(texts.length);
			expect(emitted).toEqual(expect.arrayContaining(latestStates(await changes())));
			expect(h.state.since).not.toBe(since); // settled now
		});
	});

	test.each([
		[{ events: [] }, {}, 'Choose at least one event under Events.'],
		[{}, { startFrom: 'last monday' }, 'Start From must be a date and time such as 2026-01-31 14:00:00 or 2026-01-31T14:00:00Z, but got "last monday".'],
		[{}, { includeDetail: true, detailConcurrency: 'five' }, 'Detail Concurrency must be a whole number, but got "five".'],
		[{}, { overlapSeconds: 'a minute' }, 'Overlap (Seconds) must be a whole number, but got "a minute".'],
		[{}, { skewSeconds: -1 }, 'Clock Skew Allowance (Seconds) must be 0 or more, but got -1.'],
	])('parameters %j, options %j: the poll fails with what to fix', async (parameters, options, message) => {
		const h = harness(parameters, options);
		const first = await h.activate();
		const outcome = first.error ? first : (await change({ newOrders: 1 }), await h.poll());
		expect(outcome.error?.message).toBe(message);
	});
});

const copy = (value: IDataObject): IDataObject => JSON.parse(JSON.stringify(value));
const byKey = (a: IDataObject, b: IDataObject) => `${a.order_item_id}${a.updated_at}`.localeCompare(`${b.order_item_id}${b.updated_at}`);

/** The last logged state of each order item. */
function latestStates(log: Change[]): IDataObject[] {
	const last = new Map<number, IDataObject>();
	for (const c of log) last.set(c.order_item_id, c.entry);
	return [...last.values()];
}
