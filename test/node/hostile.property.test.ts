// Issue 51, class 8: every operation and both triggers against generated hostile marketplaces
// (test/helpers/hostileApi.ts), through n8n's engine, n8n-core's poll executor and webhook path,
// over loopback. The invariants, whatever the marketplace does:
// - no crash: a result, or an error that says what happened (never a JavaScript TypeError);
// - output bounded and held to the request: no order item outside the filters asked, none twice,
//   at most the Limit; every discrepancy named (a hint or a log line);
// - requests bounded; the Orders Trigger emits an unchanged order item at most once, and its saved
//   state stays under its bound; the webhook trigger runs each signed delivery at most once;
// - no secret and no raw line break, escape or override from the network in n8n's log.
// `npm test` runs HOSTILE_RUNS (default 8) marketplaces per property; CI runs more (`npm run test:hostile`).
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { apiDate, FORGED, hostileAnswers, hostileMarketplace, readDate, type HostileMarketplace, type SentPage } from '../helpers/hostileApi';
import { logsSince, mark } from '../helpers/logs';
import { credentialsFor, hintsOf, runNode, type NodeRun } from '../helpers/n8n';
import { PollHarness } from '../helpers/poll';
import { startScriptedApi, type ScriptedApi } from '../helpers/scriptedApi';
import { postSigned, startTriggerServer } from '../helpers/triggerServer';

// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n
const RUNS = Number(process.env.HOSTILE_RUNS ?? 8);
jest.setTimeout(Math.max(120_000, RUNS * 20_000));

/** A status as the node compares a filter with it (trimmed, any case), written here: the test's own reading. */
const statusMatches = (value: unknown, status: string) => typeof value === 'string' && value.trim().toLowerCase() === status.trim().toLowerCase();

/** What a crash looks like in a message: JavaScript's own errors, not the node's. */
const CRASH = /TypeError|ReferenceError|RangeError|Cannot read prop|is not a function|is not iterable|Maximum call stack|undefined is not/;

/** n8n's log since `since` holds no secret and none of the raw text the marketplace forged. */
function expectCleanLog(since: number, secrets: string[]) {
	const logged = logsSince(since);
	for (const forged of FORGED) expect(logged).not.toContain(forged);
	for (const secret of secrets.filter(Boolean)) expect(logged).not.toContain(secret);
}

function expectNoCrash(run: NodeRun) {
	if (run.error) {
		expect(typeof run.error.message).toBe('string');
		expect(run.error.message).not.toMatch(CRASH);
	}
}

/** Runs `body` against a fresh scripted API playing a copy of `market` (fast-check reuses a value as it shrinks). */
async function against<T>(generated: HostileMarketplace, body: (api: ScriptedApi, market: HostileMarketplace, sent: SentPage[]) => Promise<T>): Promise<T> {
	const market = structuredClone(generated);
	const sent: SentPage[] = [];
	const api = await startScriptedApi(hostileAnswers(market, sent));
	try {
		return await body(api, market, sent);
	} finally {
		await api.close();
	}
}

const secretsOf = (api: ScriptedApi) => [api.app.clientSecret, api.app.webhookSecret].filter(Boolean);

describe('the action node against generated hostile marketplaces', () => {
	test('Order › Get Many (Return All, Status and Updated After): held to its request, each order item once, bounded, the discrepancy named', async () => {
		await fc.assert(
			fc.asyncProperty(hostileMarketplace, async (generated) => {
				await against(generated, async (api, market, sent) => {
					const since = mark();
					const after = apiDate(-86_400);
					const run = await runNode({
						parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: { status: 'accepted', updatedAfter: after.replace(' ', 'T') }, simplify: false, options: { giveUpAfter: 5 } },
						credentials: credentialsFor(api.baseUrl, api.app),
						typeVersion: 3,
					});
					expectNoCrash(run);
					const out = run.items.map((i) => i.json);
					// Bounded by what was read: at most the limit of each page (an entry without an id cannot be told from another, so it may come out twice).
					expect(out.length).toBeLessThanOrEqual(sent.reduce((sum, page) => sum + Math.min(page.limit, page.orders.length), 0));
					expect(out.filter((o) => o.order_item_id !== '' && o.order_item_id !== null && o.order_item_id !== undefined).length).toBeLessThanOrEqual(market.orders.length);
					const afterMs = readDate(after)!;
					for (const item of out) {
						expect(statusMatches(item.status, 'accepted')).toBe(true);
						const updated = readDate(item.updated_at);
						if (updated !== undefined) expect(updated).toBeGreaterThan(afterMs);
					}
					const ids = out.map((i) => i.order_item_id).filter((id) => (typeof id === 'number' || (typeof id === 'string' && id !== '')));
					expect(new Set(ids.map((id) => JSON.stringify(id))).size).toBe(ids.length);
					// 1,000 pages at most per walk, and the 429s before.
					expect(api.requests.length).toBeLessThanOrEqual(1_000 + market.hostility.throttle.times + 1);
					// An API that sent an order item outside a filter is named for it.
					const words = [...hintsOf(run).map((h) => h.message), logsSince(since)].join('\n');
					const outside = (page: SentPage, o: IDataObject) =>
						(page.status !== null && !statusMatches(o.status, page.status)) || (page.updatedAfter !== null && (readDate(o.updated_at) ?? Infinity) <= (readDate(page.updatedAfter) ?? -Infinity));
					// An entry whose id came before is left out as a repeat, and named as one: only the others must be named as outside.
					const idOf = (o: IDataObject) => (o.order_item_id === null || o.order_item_id === undefined || o.order_item_id === '' ? undefined : String(o.order_item_id).trim());
					const timesSent = new Map<string | undefined, number>();
					for (const o of sent.flatMap((page) => page.orders)) timesSent.set(idOf(o), (timesSent.get(idOf(o)) ?? 0) + 1);
					const once = (o: IDataObject) => idOf(o) === undefined || timesSent.get(idOf(o)) === 1;
					const sentOutside = !run.error && sent.some((page) => page.orders.slice(0, page.limit).some((o) => outside(page, o) && once(o)));
					if (sentOutside) expect(words).toMatch(/seems not to apply/);
					expectCleanLog(since, secretsOf(api));
				});
			}),
			{ numRuns: RUNS },
		);
	});

	test('Get Many with a Limit, Get, Stock › Update and Ping: a result or a clear error each, at most the Limit, nothing forged in the log', async () => {
		await fc.assert(
			fc.asyncProperty(hostileMarketplace, fc.integer({ min: 1, max: 7 }), async (market, limit) => {
				await against(market, async (api) => {
					const since = mark();
					const credentials = credentialsFor(api.baseUrl, api.app);
					const options = { giveUpAfter: 5 };
					const some = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit, simplify: true, options }, credentials, typeVersion: 3 });
					expectNoCrash(some);
					expect(some.items.length).toBeLessThanOrEqual(limit);
					const id = market.orders.find((o) => typeof o.order_item_id === 'number')?.order_item_id ?? 1;
					const one = await runNode({ parameters: { resource: 'order', operation: 'get', orderItem: { __rl: true, mode: 'id', value: String(id) }, options }, credentials, typeVersion: 3 });
					expectNoCrash(one);
					const stock = await runNode({ parameters: { resource: 'stock', operation: 'update', productId: 70_001, stock: 4, additionalFields: {}, options }, credentials });
					expectNoCrash(stock);
					const ping = await runNode({ parameters: { resource: 'connection', operation: 'ping', options }, credentials });
					expectNoCrash(ping);
					for (const run of [some, one, stock, ping]) for (const secret of secretsOf(api)) expect(JSON.stringify(run.run.data)).not.toContain(secret);
					expect(api.requests.length).toBeLessThanOrEqual(20 + market.hostility.throttle.times);
					expectCleanLog(since, secretsOf(api));
				});
			}),
			{ numRuns: RUNS },
		);
	});
});

describe('the Orders Trigger against generated hostile marketplaces', () => {
	test('activation and four polls while order items change: no unchanged order item emitted twice, saved state bounded, nothing forged in the log', async () => {
		await fc.assert(
			fc.asyncProperty(hostileMarketplace, fc.array(fc.nat(300), { minLength: 4, maxLength: 4 }), async (generated, changes) => {
				await against(generated, async (api, market) => {
					const since = mark();
					const h = new PollHarness({ events: ['order.created', 'order.updated'], options: { startFrom: apiDate(-3 * 86_400).replace(' ', 'T') } }, credentialsFor(api.baseUrl, api.app));
					const outcome = await h.activate();
					expect(String(outcome.error?.message ?? '')).not.toMatch(CRASH);
					for (const n of changes) {
						// A live list: some order items change (a new updated_at), one is new.
						for (const o of market.orders.slice(0, n % 5)) o.updated_at = apiDate(0);
						market.orders.push({ order_item_id: 1_000 + n, status: 'accepted', updated_at: apiDate(0), order_no: `NEW-${n}` });
						const polled = await h.poll();
						expect(String(polled.error?.message ?? '')).not.toMatch(CRASH);
					}
					// An order item in one state comes out once: all it says, whatever event it came out as
					// (two entries that share an id but differ are two states of a broken list, each once).
					const states = h.emitted.map((item) => JSON.stringify(Object.entries(item).filter(([key]) => key !== 'event').sort(([a], [b]) => a.localeCompare(b))));
					expect(new Set(states).size).toBe(states.length);
					expect(Buffer.byteLength(JSON.stringify(h.state))).toBeLessThan(1_500_000);
					expect(api.requests.length).toBeLessThanOrEqual(5 * 1_000 + market.hostility.throttle.times);
					expectCleanLog(since, secretsOf(api));
				});
			}),
			{ numRuns: RUNS },
		);
	});
});

describe('the webhook trigger against generated hostile deliveries', () => {
	const delivery = fc.record({
		body: fc.oneof(
			fc.constant('{"event":"order.created","data":{"order_item_id":1}}'),
			fc.string({ maxLength: 200 }).map((s) => JSON.stringify({ event: 'order.created', data: { note: `${s}\r\nFORGED\u001b[2J\u202e\u0007` } })),
			fc.constant('not json\r\nFORGED'),
			fc.constant('[1,2]'),
		),
		// Header values as HTTP carries them (no line breaks): visible ASCII, spaces, Latin-1.
		id: fc.oneof(fc.stringMatching(/^[\x21-\x7e]{1,30}$/).map((s) => `whd_${s}`), fc.constant('x'.repeat(4_000)), fc.constant('whd_ é\t')),
		event: fc.constantFrom('order.created', 'order.updated', 'order.créé', ''),
		signed: fc.boolean(),
		skewSeconds: fc.constantFrom(0, 0, 10, -400, 5_000),
	});

	test('each signed body runs at most once whatever id it comes under; every answer is one the trigger documents; the record stays bounded; nothing forged in the log', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(delivery, { minLength: 1, maxLength: 25 }), async (deliveries) => {
				const credentials = { baseUrl: 'https://partner.example.com/api/partner/v1', clientId: 'cli_1', clientSecret: 'cs_hostile_secret', webhookSecret: 'whs_hostile_secret', headerPrefix: 'X-SVC-' };
				const store = { json: '{}' };
				const server = await startTriggerServer(credentials as never, { events: ['*'] }, store);
				const since = mark();
				try {
					const ts = String(Math.floor(Date.now() / 1000));
					for (const d of deliveries) {
						const answer = await postSigned(server.url, d.body, { secret: d.signed ? credentials.webhookSecret : 'whs_wrong', id: d.id, event: d.event || null, ts: String(Number(ts) + d.skewSeconds) });
						expect([200, 400, 401, 409, 503]).toContain(answer.status);
					}
					// Each signed body (timestamp and bytes) started at most one run.
					const bodies = server.runs.map((items) => JSON.stringify(items[0].json.payload) + String(items[0].json.timestamp));
					expect(new Set(bodies).size).toBe(bodies.length);
					expect(Buffer.byteLength(store.json)).toBeLessThan(200_000);
					expectCleanLog(since, [credentials.webhookSecret, credentials.clientSecret]);
				} finally {
					await server.close();
				}
			}),
			{ numRuns: RUNS },
		);
	});
});
