// Issue 51 for the triggers: the Orders Trigger holds each answer to the window it asked for and
// keeps its saved state bounded whatever the API answers; the webhook trigger reads the Header
// Prefix and the secrets as every other reader of the credential does. Through n8n-core's poll
// executor and webhook path, over loopback.
import { sleep, type IDataObject } from 'n8n-workflow';
import { formatApiDateTime } from '../../nodes/shared/helpers/values';
import { MAX_SEEN_KEYS, remember } from '../../nodes/shared/helpers/orderChanges';
import { logOf, MAX_DELIVERY_IDS, MAX_SIGNED_KEYS, signedDigest } from '../../nodes/MarketplacePartnerTrigger/deliveryLog';
import { credentialsFor } from '../helpers/n8n';
import { logsSince, mark } from '../helpers/logs';
import { PollHarness } from '../helpers/poll';
import { ok, startScriptedApi, type ScriptedApi, type ScriptedRequest } from '../helpers/scriptedApi';
import { postSigned, startTriggerServer, type TriggerServer } from '../helpers/triggerServer';

const both = ['order.created', 'order.updated'];
const entry = (order_item_id: unknown, updated_at: unknown, status = 'accepted'): IDataObject => ({ order_item_id, status, created_at: '2026-01-01 08:00:00', updated_at }) as IDataObject;
const page = (orders: IDataObject[]) => ok({ orders, pagination: { has_more: false } });

describe('Orders Trigger: every answer held to the window it asked for', () => {
	let api: ScriptedApi | undefined;
	afterEach(async () => {
		await api?.close();
		api = undefined;
	});

	test('an API that ignores updated_after: the old order items never come out, a new change comes out once, and the log names the filter', async () => {
		// 64 order items last changed in January, on every answer whatever updated_after says.
		const old = Array.from({ length: 64 }, (_, n) => entry(n + 1, `2026-01-0${1 + (n % 9)} 10:00:00`));
		let recent: IDataObject[] = [];
		api = await startScriptedApi(() => page([...old, ...recent]));
		const h = new PollHarness({ events: both }, credentialsFor(api.baseUrl, api.app));
		expect(await h.activate()).toEqual({ items: null, error: undefined });
		const logged = mark();
		for (let poll = 1; poll <= 6; poll++) {
			// Three new order items during the third poll, stamped now (the API writes UTC).
			if (poll === 3) recent = [101, 102, 103].map((id) => ({ ...entry(id, formatApiDateTime(Date.now())), created_at: formatApiDateTime(Date.now()) }));
			expect((await h.poll()).error).toBeUndefined();
		}
		expect(h.emitted.map((i) => [i.event, i.order_item_id])).toEqual([
			['order.created', 101],
			['order.created', 102],
			['order.created', 103],
		]);
		expect(logsSince(logged)).toMatch(/The API answered 64 order items updated at or before \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} although only later changes were asked \(updated_after\): it seems not to apply that filter\. The node left them out/);
		// Nothing of the old ones is kept either: the state holds the three new changes only.
		expect(Object.values(h.state.seen as IDataObject).flat()).toHaveLength(3);
	});

	test('answers whose updated_at cannot be read, with ids of 5,000 characters: each emitted once, the saved state stays small and forgets them after a day', async () => {
		let poll = 0;
		// 100 new order items every poll, each id 5,000 characters, updated_at not a datetime.
		// The log quotes the first of them (by updated_at), not the last.
		api = await startScriptedApi(() => page(Array.from({ length: 100 }, (_, n) => entry(`${String(poll).padStart(4, '0')}-${n}-${'x'.repeat(5_000)}`, n === 0 ? 'yesterday' : 'yesterday, later'))));
		const h = new PollHarness({ events: both, options: { startFrom: '2026-01-01T00:00:00Z' } }, credentialsFor(api.baseUrl, api.app));
		const logged = mark();
		for (; poll < 5; poll++) {
			const outcome = poll === 0 ? await h.activate() : await h.poll();
			expect(outcome.error).toBeUndefined();
			expect(outcome.items).toHaveLength(100);
		}
		// Each is an order item of its own, though every id is too long to keep: all 500 are creations.
		expect(h.emitted.filter((i) => i.event === 'order.created')).toHaveLength(500);
		const keys = Object.values(h.state.seen as IDataObject).flat() as string[];
		expect(keys).toHaveLength(500);
		expect(Math.max(...keys.map((key) => key.length))).toBeLessThanOrEqual(42);
		// Before: 2.5 MB after five polls, a megabyte more each.
		expect(JSON.stringify(h.state).length).toBeLessThan(30_000);
		expect(logsSince(logged)).toMatch(/100 changed order items had an updated_at the node cannot read as a datetime \(e\.g\. "yesterday"\), so no window can tell when they are old: each was emitted once and is remembered for 24 hours\./);
		// A day later they are forgotten.
		const { seen } = remember(h.state.seen as Record<string, string[]>, [], h.state.since as string, Date.now() + 24 * 3_600_000 + 1000);
		expect(seen).toEqual({});
	});

	test('an entry whose updated_at cannot be read does not hold the window back: it moves on from the newest readable one', async () => {
		// The readable change first: the newest is taken over the whole answer, whatever its order.
		api = await startScriptedApi(() => page([entry(1, '2026-02-01 00:00:10'), entry(2, 'yesterday')]));
		const h = new PollHarness({ events: both, options: { startFrom: '2026-01-01T00:00:00Z' } }, credentialsFor(api.baseUrl, api.app));
		expect((await h.activate()).items).toHaveLength(2);
		const since = h.state.since as string;
		expect(since > '2026-01-31 00:00:00' && since < '2026-02-01 00:00:10').toBe(true);
	});

	test('an order item created exactly at the window start was there before it: its change is an update', async () => {
		api = await startScriptedApi(() => page([{ ...entry(1, '2026-01-01 00:00:05'), created_at: '2026-01-01 00:00:00' }, { ...entry(2, '2026-01-01 00:00:05'), created_at: '2026-01-01 00:00:01' }]));
		const h = new PollHarness({ events: both, options: { startFrom: '2026-01-01T00:00:00Z' } }, credentialsFor(api.baseUrl, api.app));
		expect((await h.activate()).items?.map((i) => [i.order_item_id, i.event])).toEqual([
			[1, 'order.updated'],
			[2, 'order.created'],
		]);
	});

	test(`past ${MAX_SEEN_KEYS.toLocaleString('en-US')} remembered changes the oldest go and the window start moves past them, so none of them can come out again`, () => {
		const added: Array<[string, string]> = Array.from({ length: MAX_SEEN_KEYS + 500 }, (_, n) => [formatApiDateTime(Date.UTC(2026, 4, 1, 10) + n * 1000), `${n}:0000000000000000`]);
		const { seen, since } = remember({}, added, '2026-05-01 09:00:00', Date.now());
		expect(Object.values(seen).flat()).toHaveLength(MAX_SEEN_KEYS);
		// The 500 oldest went: the newest of them is the start.
		expect(since).toBe(added[499][0]);
		expect(Object.keys(seen).sort()[0]).toBe(added[500][0]);
	});

	test(`a window of more than ${MAX_SEEN_KEYS.toLocaleString('en-US')} changes: each comes out once, the state keeps the newest, and the log says where the next window starts`, async () => {
		// 50 changes a second before 10,000 others: all of them inside the next window's overlap.
		const changes = Array.from({ length: MAX_SEEN_KEYS + 50 }, (_, n) => entry(n + 1, n < 50 ? '2026-02-01 00:00:09' : '2026-02-01 00:00:10'));
		api = await startScriptedApi((request: ScriptedRequest) => {
			const query = new URL(request.url, 'http://x').searchParams;
			const offset = Number(query.get('offset') ?? 0);
			const limit = Number(query.get('limit'));
			return ok({ orders: changes.slice(offset, offset + limit), pagination: { has_more: offset + limit < changes.length } });
		});
		const h = new PollHarness({ events: both, options: { startFrom: '2026-01-01T00:00:00Z' } }, credentialsFor(api.baseUrl, api.app));
		const logged = mark();
		const outcome = await h.activate();
		expect(outcome.error).toBeUndefined();
		expect(outcome.items).toHaveLength(changes.length);
		expect(Object.values(h.state.seen as IDataObject).flat()).toHaveLength(MAX_SEEN_KEYS);
		// The 50 oldest were forgotten: their second is where the next window starts.
		expect(h.state.since).toBe('2026-02-01 00:00:09');
		expect(logsSince(logged)).toContain(`The trigger remembers at most 10,000 changes, and this window held more: the oldest were forgotten and the next window starts at 2026-02-01 00:00:09.`);
	});

	test('a poll that starts while the same trigger still polls gives nothing; another trigger polls on meanwhile', async () => {
		const changed = entry(1, formatApiDateTime(Date.now() - 1000));
		// Each answer trickles for about half a second, so that the polls overlap.
		api = await startScriptedApi(() => ({ ...page([changed]), trickleMs: 4 }));
		const [a, b] = [1, 2].map(() => new PollHarness({ events: both, options: { startFrom: '2026-01-01T00:00:00Z' } }, credentialsFor(api!.baseUrl, api!.app)));
		const [first, again, other] = await Promise.all([a.activate(), sleep(100).then(() => a.poll()), sleep(100).then(() => b.activate())]);
		expect(first.items).toHaveLength(1);
		expect(again).toEqual({ items: null, error: undefined });
		expect(other.items).toHaveLength(1);
	});

	test('one page of 300,000 empty entries: the poll ends with an error after three pages and saves nothing', async () => {
		const body = `{"ok":true,"data":{"orders":[${Array(300_000).fill('{}').join(',')}],"pagination":{"has_more":true}}}`;
		api = await startScriptedApi([{ status: 200, body }]);
		const h = new PollHarness({ events: both, options: { startFrom: '2026-01-01T00:00:00Z' } }, credentialsFor(api.baseUrl, api.app));
		const outcome = await h.activate();
		expect(outcome.error?.message).toMatch(/^The API answered offset \d+ with the same order items as offset 0$/);
		expect(api.requests).toHaveLength(3);
		expect(h.saved).toEqual({});
	});

	test('Fetch Test Event takes its sample only from order items inside the window and the status it asked for', async () => {
		const now = formatApiDateTime(Date.now());
		api = await startScriptedApi((request: ScriptedRequest) => {
			const status = new URL(request.url, 'http://x').searchParams.get('status');
			expect(status).toBe('accepted');
			// Newest first by text: the two outside the request would win the sort.
			return page([entry(1, '2099-01-01 00:00:00', 'shipped'), entry(2, '2020-01-01 00:00:00'), entry(3, now)]);
		});
		const h = new PollHarness({ events: both, options: { status: 'accepted' } }, credentialsFor(api.baseUrl, api.app));
		const sample = await h.manual();
		expect(sample?.map((i) => i.order_item_id)).toEqual([3]);
	});
});

describe('Marketplace Partner Trigger: one reading of the Header Prefix and the secrets', () => {
	let server: TriggerServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});
	const base = { baseUrl: 'https://partner.example.com/api/partner/v1', clientId: 'cli_1', clientSecret: 'cs_1' };
	const body = '{"event":"order.created","data":{"order_item_id":1}}';

	test('a Header Prefix pasted with a space around it verifies genuine deliveries, as the action node signs with it', async () => {
		server = await startTriggerServer({ ...base, webhookSecret: 'whs_current', headerPrefix: ' X-SVC- ' } as never, { events: ['*'] });
		expect((await postSigned(server.url, body, { secret: 'whs_current' })).status).toBe(200);
		expect(server.runs).toHaveLength(1);
	});

	test('an emptied Webhook Secret with the Previous Webhook Secret left in accepts nothing, signed with either', async () => {
		server = await startTriggerServer({ ...base, webhookSecret: '', previousWebhookSecret: 'whs_previous', headerPrefix: 'X-SVC-' } as never, { events: ['*'] });
		const answer = await postSigned(server.url, body, { secret: 'whs_previous' });
		expect(answer).toEqual({ status: 401, text: 'Unauthorized: the Webhook Secret of the n8n credential is empty; set it to verify webhooks' });
		expect(server.runs).toHaveLength(0);
	});
});

describe('Marketplace Partner Trigger: the replay record is held by time, not by count', () => {
	let server: TriggerServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});
	const credentials = { baseUrl: 'https://partner.example.com/api/partner/v1', clientId: 'cli_1', clientSecret: 'cs_1', webhookSecret: 'whs_current', headerPrefix: 'X-SVC-' };
	const nowSeconds = () => Math.floor(Date.now() / 1000);
	/** The trigger's stored record after `count` deliveries of these bodies, one a `every` seconds up to now. */
	const storeOf = (log: 'signed' | 'deliveries', count: number, every: number, ts: string) => {
		const now = nowSeconds();
		const keys = Array.from({ length: count }, (_, i): [string, number] => [
			log === 'signed' ? signedDigest(ts, Buffer.from(`{"event":"order.created","n":${i}}`)) : `${i.toString(36).padStart(8, '0')}`,
			now - Math.floor((count - i) * every),
		]);
		return { json: JSON.stringify({ 'node:Marketplace Partner Trigger': { [log]: logOf(keys) } }) };
	};

	test(`${MAX_SIGNED_KEYS} deliveries within twice the tolerance: the next is answered 503 with Retry-After and starts nothing; the first, re-sent under a fresh id, is still a duplicate`, async () => {
		const ts = String(nowSeconds() - 100);
		server = await startTriggerServer(credentials as never, { events: ['*'] }, storeOf('signed', MAX_SIGNED_KEYS, 0.05, ts));
		const logged = mark();
		const next = await postSigned(server.url, '{"event":"order.created","n":"next"}', { secret: 'whs_current', id: 'whd_next' });
		expect(next.status).toBe(503);
		expect(next.text).toBe('Service Unavailable: too many deliveries within the timestamp tolerance; send it again after Retry-After');
		// The oldest key leaves at the end of its minute plus twice the tolerance: at most 11 minutes.
		expect(Number(next.retryAfter)).toBeGreaterThanOrEqual(1);
		expect(Number(next.retryAfter)).toBeLessThanOrEqual(659);
		expect(server.runs).toHaveLength(0);
		expect(logsSince(logged)).toContain(`more than ${MAX_SIGNED_KEYS} deliveries within 10 minutes (twice the timestamp tolerance)`);
		// Once an hour per trigger, not once per refused delivery; another trigger's is its own. (The
		// test log holds each line of n8n's logger as often as it is written out: counted relative to one.)
		const warnings = () => logsSince(logged).split('deliveries within 10 minutes').length - 1;
		const once = warnings();
		expect((await postSigned(server.url, '{"event":"order.created","n":"again"}', { secret: 'whs_current', id: 'whd_again' })).status).toBe(503);
		expect(warnings()).toBe(once);
		const other = await startTriggerServer(credentials as never, { events: ['*'] }, storeOf('signed', MAX_SIGNED_KEYS, 0.05, ts));
		try {
			expect((await postSigned(other.url, '{"event":"order.created","n":"next"}', { secret: 'whs_current', id: 'whd_next' })).status).toBe(503);
		} finally {
			await other.close();
		}
		expect(warnings()).toBe(2 * once);
		const replay = await postSigned(server.url, '{"event":"order.created","n":0}', { secret: 'whs_current', id: 'whd_fresh_id', ts });
		expect(replay).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		expect(server.runs).toHaveLength(0);
	});

	test(`${MAX_DELIVERY_IDS} ids within a day: a new delivery still runs, and n8n's log says from when ids are remembered`, async () => {
		server = await startTriggerServer(credentials as never, { events: ['*'] }, storeOf('deliveries', MAX_DELIVERY_IDS, 5, ''));
		const logged = mark();
		expect((await postSigned(server.url, '{"event":"order.created","n":"new"}', { secret: 'whs_current', id: 'whd_new' })).status).toBe(200);
		expect(server.runs).toHaveLength(1);
		const said = new RegExp(`more than ${MAX_DELIVERY_IDS} deliveries within a day; delivery ids are remembered only from (\\S+), so a marketplace retry of an older delivery runs again`).exec(logsSince(logged));
		// The oldest of the 10,000 ids came 50,000 s ago: ids are remembered from the minute after it.
		expect(Math.abs(Date.parse(said![1]) / 1000 - (nowSeconds() - 50_000))).toBeLessThanOrEqual(121);
		// Once an hour: the next delivery says nothing more.
		const once = logsSince(logged).split('deliveries within a day').length - 1;
		expect((await postSigned(server.url, '{"event":"order.created","n":"newer"}', { secret: 'whs_current', id: 'whd_newer' })).status).toBe(200);
		expect(logsSince(logged).split('deliveries within a day').length - 1).toBe(once);
		// Another trigger's warning is its own.
		const other = await startTriggerServer(credentials as never, { events: ['*'] }, storeOf('deliveries', MAX_DELIVERY_IDS, 5, ''));
		try {
			expect((await postSigned(other.url, '{"event":"order.created","n":"new"}', { secret: 'whs_current', id: 'whd_new' })).status).toBe(200);
		} finally {
			await other.close();
		}
		expect(logsSince(logged).split('deliveries within a day').length - 1).toBe(2 * once);
	});
});
