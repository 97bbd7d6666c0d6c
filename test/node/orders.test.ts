/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Order › Get Many and Order > Get, run by n8n's engine against the sandbox over HTTP.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { logsSince, mark } from '../helpers/logs';
import { credentialsFor, hintsOf, loadOptionsContext, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { clampingList, ok, startScriptedApi, type ScriptedApi, type ScriptedRequest } from '../helpers/scriptedApi';

describe('Order operations in the n8n engine', () => {
	let sb: RunningSandbox;
	const credentials = (name = 'seller-a-full', extra = {}) => credentialsFor(sb.baseUrl, sb.apps[name], extra);
	const ordersOfA = () => sb.raw.state.ordersBySeller.get(1001) as Array<{ order_item_id: number; status: string; updated_ms: number }>;

	beforeAll(async () => (sb = await startSandbox({ orders: 260 })));
	beforeEach(() => sb.control('POST', '/stats/reset'));
	afterAll(() => sb.close());

	test('Get Many with a limit returns that many order items, paired to the input item', async () => {
		const { items, error } = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 5 }, credentials: credentials() });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(5);
		expect(items.map((i) => i.json.order_item_id)).toEqual(ordersOfA().slice(0, 5).map((o) => o.order_item_id));
		expect(items.every((i) => JSON.stringify(i.pairedItem) === '{"item":0}')).toBe(true);
	});

	test('Sort newest first fetches every matching item and returns the newest by created_at; the default keeps the API order', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'order', operation: 'getMany', limit: 7, sort: 'newestFirst' },
			credentials: credentials(),
		});
		expect(error).toBeUndefined();
		const all = (await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true }, credentials: credentials() })).items.map((i) => i.json);
		const newest = [...all]
			.sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)) || Number(b.order_item_id) - Number(a.order_item_id))
			.slice(0, 7)
			.map((o) => o.order_item_id);
		expect(items.map((i) => i.json.order_item_id)).toEqual(newest);
		expect(newest).not.toEqual(all.slice(0, 7).map((o) => o.order_item_id));
	});

	test('Sort is read where each version puts it: top level up to version 3, under Options from version 4', async () => {
		const ids = async (typeVersion: number, parameters: IDataObject) =>
			(await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 7, ...parameters }, typeVersion, credentials: credentials() })).items.map((i) => i.json.order_item_id);
		const newest = await ids(3, { sort: 'newestFirst' });
		const apiOrder = ordersOfA().slice(0, 7).map((o) => o.order_item_id);
		expect(newest).not.toEqual(apiOrder);
		expect(await ids(4, { options: { sort: 'newestFirst' } })).toEqual(newest);
		// A version 4 node saved with a stale top-level Sort keeps the default, as its panel shows.
		expect(await ids(4, { sort: 'newestFirst' })).toEqual(apiOrder);
		expect(await ids(3, { options: { sort: 'newestFirst' } })).toEqual(apiOrder);
	});

	/** The order item ids Get Many (Return All, Newest First) puts out for an API that lists `orders`. */
	async function newestFirstIds(orders: IDataObject[]) {
		const api = await startScriptedApi([ok({ orders, pagination: { has_more: false } })]);
		try {
			const { items, error } = await runNode({
				parameters: { resource: 'order', operation: 'getMany', returnAll: true, sort: 'newestFirst' },
				credentials: credentialsFor(api.baseUrl, api.app),
			});
			expect(error).toBeUndefined();
			return items.map((i) => i.json.order_item_id);
		} finally {
			await api.close();
		}
	}

	test('Newest First: order items created in the same second come newest id first, also across a digit boundary (99999, 100000)', async () => {
		const at = '2026-05-01 10:00:00';
		const orders = [99999, 100000, 100001, 9].map((order_item_id) => ({ order_item_id, created_at: at }));
		expect(await newestFirstIds(orders)).toEqual([100001, 100000, 99999, 9]);
	});

	test('Newest First over a list in no order at all: by created_at, then id; an entry without created_at last, one without id last in its second', async () => {
		const at = (second: number) => `2026-05-01 10:00:0${second}`;
		const orders = [
			{ order_item_id: 5, created_at: at(2) },
			{ order_item_id: 3, created_at: at(0) },
			{ order_item_id: 8 },
			{ order_item_id: 7, created_at: at(3) },
			{ order_item_id: 1, created_at: at(1) },
			{ created_at: at(3) },
			{ order_item_id: 9, created_at: at(3) },
		];
		expect(await newestFirstIds(orders)).toEqual([9, 7, undefined, 5, 1, 3, 8]);
	});

	test('Return All against an API that ignores offset stops with an error after the first page came back twice, not in an endless loop', async () => {
		const orders = [1, 2, 3].map((order_item_id) => ({ order_item_id, created_at: '2026-05-01 10:00:00' }));
		const api = await startScriptedApi([ok({ orders, pagination: { has_more: true } })]);
		try {
			const { items, error } = await runNode({
				parameters: { resource: 'order', operation: 'getMany', returnAll: true },
				credentials: credentialsFor(api.baseUrl, api.app),
			});
			expect(items).toEqual([]);
			expect(error?.message).toBe('The API answered offset 6 with the same order items as offset 0');
			expect(api.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('offset'))).toEqual(['0', '3', '6']);
		} finally {
			await api.close();
		}
	});

	describe.each([
		['writes the clamped offset in pagination.offset', true, 3, 'The API answered offset 150 with the page at offset 100 (its pagination.offset)'],
		['leaves pagination.offset out', false, 4, 'The API answered offset 200 with the same order items as offset 100'],
	])('an API that clamps offset at its last page and answers has_more: true forever, and %s', (_, writesOffset, requests, message) => {
		const description = 'It says more order items follow (has_more) but does not page on: it seems to ignore or clamp the offset parameter, so reading on would never end. The node stopped rather than read on: nothing was returned twice. Report this to the marketplace operator.';
		const offsetsAsked = (api: ScriptedApi) => api.requests.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('offset')));

		test.each([
			['Get Many › Return All', { operation: 'getMany', returnAll: true }],
			['Get Many › Sort Newest First', { operation: 'getMany', limit: 5, sort: 'newestFirst' }],
			['Get › By Order Number (the look-up reads the whole list)', { operation: 'get', orderItem: { __rl: true, mode: 'orderNo', value: 'ORD-NONE' } }],
		])('%s ends with an error naming the cause, at most two pages past the end', async (_, parameters) => {
			const api = await startScriptedApi(clampingList(150, { writesOffset }));
			try {
				const { items, error } = await runNode({ parameters: { resource: 'order', ...parameters }, credentials: credentialsFor(api.baseUrl, api.app), typeVersion: 3 });
				expect(items).toEqual([]);
				expect(error?.message).toBe(message);
				expect(error?.description).toBe(description);
				expect(offsetsAsked(api)).toEqual([0, 100, 150, 200].slice(0, requests));
			} finally {
				await api.close();
			}
		});

		test("the editor's order item list and status list end too", async () => {
			const api = await startScriptedApi(clampingList(150, { writesOffset }));
			try {
				const node = new MarketplacePartner();
				const context = () => loadOptionsContext(credentialsFor(api.baseUrl, api.app));
				await expect(node.methods.listSearch.searchOrderItems.call(context(), 'nothing matches')).rejects.toThrow(message);
				expect(api.requests).toHaveLength(requests);
				api.requests.length = 0;
				// The status list reads at most 3 pages: it ends either way, with the error once it sees the clamp.
				const statuses = node.methods.loadOptions.getStatuses.call(context());
				if (writesOffset) await expect(statuses).rejects.toThrow(message);
				else expect(await statuses).toEqual([{ name: 'Accepted', value: 'accepted', description: 'Sent as "accepted", as the API writes it' }]);
				expect(api.requests.length).toBeLessThanOrEqual(3);
			} finally {
				await api.close();
			}
		});
	});

	test('Return All over a list that never ends: stopped at 100,000 order items, with the cap named', async () => {
		// Full pages of new order items, has_more always (a page beyond the limit is read only as far as the limit).
		const api = await startScriptedApi((request) => {
			const query = new URL(request.url, 'http://x').searchParams;
			const offset = Number(query.get('offset'));
			return ok({ orders: Array.from({ length: Number(query.get('limit')) }, (_, n) => ({ order_item_id: offset + n + 1 })), pagination: { offset, has_more: true } });
		});
		try {
			const { items, error } = await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true }, credentials: credentialsFor(api.baseUrl, api.app) });
			expect(items).toEqual([]);
			expect(error?.message).toBe('The orders list goes on past 1,000 pages (100,000 order items), where the node stops reading it');
			expect(api.requests).toHaveLength(1000);
		} finally {
			await api.close();
		}
	});

	test('generated page sequences (pages read before anywhere, offsets that do not advance, pages that shrink): every Return All ends within two requests past the script, and no order item comes out twice', async () => {
		const pageOf = fc.record({
			ids: fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 5 }),
			hasMore: fc.constantFrom<boolean | undefined>(true, true, true, false, undefined),
			// The offset the API writes: none, the one asked for, or another (clamped, stuck at 0).
			writes: fc.constantFrom('none', 'asked', 'asked', 'zero', 'back'),
		});
		const causes = /^The API answered offset \d+ with (the same order items as offset \d+|the page at offset \d+ \(its pagination\.offset\))$/;
		await fc.assert(
			fc.asyncProperty(fc.array(pageOf, { minLength: 1, maxLength: 8 }), async (script) => {
				const api = await startScriptedApi((request) => {
					const { ids, hasMore, writes } = script[Math.min(api.requests.length, script.length) - 1];
					const asked = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
					const offset = { none: undefined, asked, zero: 0, back: Math.max(0, asked - 3) }[writes];
					return ok({ orders: ids.map((order_item_id) => ({ order_item_id })), pagination: { offset, has_more: hasMore } });
				});
				try {
					const { items, error } = await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true }, credentials: credentialsFor(api.baseUrl, api.app) });
					expect(api.requests.length).toBeLessThanOrEqual(script.length + 2);
					const ids = items.map((i) => i.json.order_item_id);
					expect(new Set(ids).size).toBe(ids.length);
					if (error) expect(error.message).toMatch(causes);
					else {
						// Every order item of the pages read, once, in the order first read.
						const read = api.requests.flatMap((_, n) => script[Math.min(n, script.length - 1)].ids);
						expect(ids).toEqual([...new Set(read)]);
					}
				} finally {
					await api.close();
				}
			}),
			{ numRuns: 60 },
		);
	});

	test('a limit over one page follows the pages and stops at the limit', async () => {
		const { items } = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 150 }, credentials: credentials() });
		expect(items).toHaveLength(150);
		expect(new Set(items.map((i) => i.json.order_item_id)).size).toBe(150);
		const recent = (await sb.control('GET', '/stats')).recent.filter((r: { endpoint: string }) => r.endpoint === '/orders.php');
		expect(recent).toHaveLength(2);
	});

	test('Return All follows has_more across pages at the maximum page size', async () => {
		const { items } = await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true }, credentials: credentials() });
		expect(items.map((i) => i.json.order_item_id)).toEqual(ordersOfA().map((o) => o.order_item_id));
		const stats = await sb.control('GET', '/stats');
		expect(stats.byEndpoint['GET /orders.php 200']).toBe(3); // 100 + 100 + 60
	});

	test('filters: status, and Updated After in the API form from an ISO date with a zone', async () => {
		const pivot = ordersOfA()[130].updated_ms;
		const expected = ordersOfA().filter((o) => o.status === 'accepted' && o.updated_ms > pivot).map((o) => o.order_item_id);
		const { items } = await runNode({
			parameters: {
				resource: 'order',
				operation: 'getMany',
				returnAll: true,
				filters: { status: 'accepted', updatedAfter: new Date(pivot).toISOString().replace('Z', '+00:00') },
			},
			credentials: credentials(),
		});
		expect(expected.length).toBeGreaterThan(10);
		expect(items.map((i) => i.json.order_item_id)).toEqual(expected);
		const sent = (await sb.control('GET', '/stats')).recent.find((r: { endpoint: string }) => r.endpoint === '/orders.php');
		expect(sent.status).toBe(200);
	});

	test('Get returns the detail blocks of the order item', async () => {
		const id = ordersOfA()[3].order_item_id;
		const { items } = await runNode({
			parameters: { resource: 'order', operation: 'get', orderItemId: `={{ $json.order_item_id }}` },
			items: [{ order_item_id: String(id) }],
			credentials: credentials(),
		});
		expect(items).toHaveLength(1);
		expect(Object.keys(items[0].json)).toEqual(['order', 'product', 'customer', 'shipment']);
		expect(items[0].json.order).toMatchObject({ order_item_id: id });
	});

	test("another seller's order item is refused with a message about sellers", async () => {
		const foreign = (sb.raw.state.ordersBySeller.get(1002) as Array<{ order_item_id: number }>)[0].order_item_id;
		const { error } = await runNode({ parameters: { resource: 'order', operation: 'get', orderItemId: foreign }, credentials: credentials() });
		expect(error?.message).toBe('The order item was not found');
		expect(error?.description).toMatch(/another seller/);
	});

	test('the read-only app is refused the detail with what permission to ask for', async () => {
		const { error } = await runNode({
			parameters: { resource: 'order', operation: 'get', orderItemId: ordersOfA()[0].order_item_id },
			credentials: credentials('seller-a-readonly'),
		});
		expect(error?.message).toBe('This partner application lacks the permission for this operation');
		expect(error?.description).toMatch(/orders:detail/);
	});

	test('a wrong secret fails with invalid_signature and the secret appears nowhere, logs included', async () => {
		const secret = 'cs_this_is_not_the_secret_123';
		const since = mark();
		const outcome = await runNode({
			parameters: { resource: 'order', operation: 'getMany', limit: 1 },
			credentials: credentials('seller-a-full', { clientSecret: secret }),
		});
		const logged = logsSince(since);
		expect(outcome.error?.message).toBe('The Partner API could not verify the request signature');
		expect(logged).toContain('could not verify'); // n8n did log the failure…
		for (const text of [JSON.stringify(outcome.run), logged]) {
			expect(text).not.toContain(secret); // …but never the secret
			expect(text).not.toContain(sb.apps['seller-a-full'].clientSecret);
		}
	});

	test('with Continue On Fail, each input gives a result or an error, in order', async () => {
		const foreign = (sb.raw.state.ordersBySeller.get(1002) as Array<{ order_item_id: number }>)[0].order_item_id;
		const good = ordersOfA()[0].order_item_id;
		const { items, error } = await runNode({
			parameters: { resource: 'order', operation: 'get', orderItemId: '={{ $json.id }}' },
			items: [{ id: good }, { id: foreign }, { id: 'abc' }, { id: good }],
			credentials: credentials(),
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items[0].json.order).toMatchObject({ order_item_id: good });
		expect(items[1].json).toEqual({
			error: 'The order item was not found',
			details: { httpCode: '404', code: 'order_not_found', description: expect.stringMatching(/another seller/), itemIndex: 1 },
		});
		expect(items[2].json.error).toBe('Order Item ID must be a whole number, but got "abc".');
		expect(items[3].json).toEqual(items[0].json);
	});

	test('an invalid Order Item ID without Continue On Fail names the item', async () => {
		const { error } = await runNode({
			parameters: { resource: 'order', operation: 'get', orderItemId: '={{ $json.id }}' },
			items: [{ id: 500001 }, { id: '' }],
			credentials: credentials(),
		});
		expect(error?.message).toBe('Order Item ID is empty; it needs a whole number of 1 or more.');
		expect(error?.context?.itemIndex).toBe(1);
	});

	const pagesAsked = async () =>
		(await sb.control('GET', '/stats')).recent
			.filter((r: { endpoint: string }) => r.endpoint === '/orders.php')
			.map((r: { query: Record<string, string> }) => r.query);

	test('the page sizes sent: full pages of 100, then only what the limit still needs', async () => {
		await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 130 }, credentials: credentials() });
		expect(await pagesAsked()).toEqual([
			{ limit: '100', offset: '0' },
			{ limit: '30', offset: '100' },
		]);
		await sb.control('POST', '/stats/reset');
		const { items } = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 1 }, credentials: credentials() });
		expect(items).toHaveLength(1);
		expect(await pagesAsked()).toEqual([{ limit: '1', offset: '0' }]);
	});

	test('Newest First reads every page at full size, whatever the limit', async () => {
		const { items } = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 2, sort: 'newestFirst' }, credentials: credentials() });
		expect(items).toHaveLength(2);
		expect(await pagesAsked()).toEqual([
			{ limit: '100', offset: '0' },
			{ limit: '100', offset: '100' },
			{ limit: '100', offset: '200' },
		]);
	});

	test('filters are sent in the API form: status trimmed, an empty status not sent, Updated After without a zone as written', async () => {
		await runNode({
			parameters: { resource: 'order', operation: 'getMany', limit: 3, filters: { status: '  accepted ', updatedAfter: '2026-03-01T08:30' } },
			credentials: credentials(),
		});
		await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 3, filters: { status: '   ' } }, credentials: credentials() });
		expect(await pagesAsked()).toEqual([
			{ limit: '3', offset: '0', status: 'accepted', updated_after: '2026-03-01 08:30:00' },
			{ limit: '3', offset: '0' },
		]);
	});

	test('an invalid Limit or Updated After is an error that names the field, and nothing is sent', async () => {
		const limit = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 0 }, credentials: credentials() });
		expect(limit.error?.message).toBe('Limit must be 1 or more, but got 0.');
		const after = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 1, filters: { updatedAfter: 'last week' } }, credentials: credentials() });
		expect(after.error?.message).toMatch(/^Updated After must be a date and time/);
		expect(await pagesAsked()).toEqual([]);
	});

	test('Return All past 1,000 order items: every one, once, in the API order', async () => {
		const big = await startSandbox({ orders: 1234 });
		try {
			const { items, error } = await runNode({
				parameters: { resource: 'order', operation: 'getMany', returnAll: true },
				credentials: credentialsFor(big.baseUrl, big.apps['seller-a-full']),
			});
			expect(error).toBeUndefined();
			const expected = (big.raw.state.ordersBySeller.get(1001) as Array<{ order_item_id: number }>).map((o) => o.order_item_id);
			expect(expected).toHaveLength(1234);
			expect(items.map((i) => i.json.order_item_id)).toEqual(expected);
			expect((await big.control('GET', '/stats')).byEndpoint['GET /orders.php 200']).toBe(13);
		} finally {
			await big.close();
		}
	});

	describe('against a server that pages carelessly', () => {
		afterEach(() => sb.control('POST', '/faults/reset'));

		test('pages larger than the limit asked: exactly Limit order items, the first ones, once', async () => {
			await sb.control('POST', '/faults', { listIgnoresLimit: true });
			for (const limit of [5, 130]) {
				const { items, error } = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit }, credentials: credentials() });
				expect(error).toBeUndefined();
				expect(items.map((i) => i.json.order_item_id)).toEqual(ordersOfA().slice(0, limit).map((o) => o.order_item_id));
			}
		});

		test('has_more on every page, the empty one past the end included: Return All stops at the empty page with every item once', async () => {
			await sb.control('POST', '/faults', { listHasMoreAlways: true });
			const { items, error } = await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true }, credentials: credentials() });
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json.order_item_id)).toEqual(ordersOfA().map((o) => o.order_item_id));
			expect((await pagesAsked()).map((q: Record<string, string>) => q.offset)).toEqual(['0', '100', '200', '260']);
		});

		test('has_more on a page that reaches the limit: no further page is asked for', async () => {
			await sb.control('POST', '/faults', { listHasMoreAlways: true });
			const { items } = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 100 }, credentials: credentials() });
			expect(items).toHaveLength(100);
			expect(await pagesAsked()).toEqual([{ limit: '100', offset: '0' }]);
		});
	});

	test('one Get Many per input item, each paired to its item', async () => {
		const { items } = await runNode({
			parameters: { resource: 'order', operation: 'getMany', limit: '={{ $json.n }}' },
			items: [{ n: 2 }, { n: 1 }],
			credentials: credentials(),
		});
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }]);
		expect(items.map((i) => i.json.order_item_id)).toEqual([...ordersOfA().slice(0, 2), ordersOfA()[0]].map((o) => o.order_item_id));
	});

	test('Ping answers once per input item, paired to it', async () => {
		const { items, error } = await runNode({ parameters: { resource: 'connection', operation: 'ping' }, items: [{ row: 1 }, { row: 2 }], credentials: credentials() });
		expect(error).toBeUndefined();
		expect(items.map((i) => [i.json.pong, i.pairedItem])).toEqual([
			[true, { item: 0 }],
			[true, { item: 1 }],
		]);
	});
});

// Order › Get Many over list entries without an order_item_id: they cannot be compared with each
// other, so none is taken for a repeat of another. n8n's engine against a scripted API over loopback.
describe('Get Many over list entries without an order_item_id', () => {
	test('entries without an order_item_id are each output, none dropped as a repeat', async () => {
		const orders = [{ order_no: 'A' }, { order_no: 'B' }, { order_item_id: 3, order_no: 'C' }];
		const api = await startScriptedApi([ok({ orders, pagination: { has_more: false } })]);
		try {
			const { items, error } = await runNode({
				parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: {}, simplify: false },
				credentials: credentialsFor(api.baseUrl, api.app),
				typeVersion: 3,
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json.order_no)).toEqual(['A', 'B', 'C']);
		} finally {
			await api.close();
		}
	});
});

// Order › Get Many over a list that moves while it is read: an order item met again on a later page
// is output once, and the run says how many came again. n8n's engine against a scripted API over
// loopback that answers each page by its offset.
describe('Get Many over a list that moves while it is read', () => {
	test('order items met again on a later page: each output once, and the run tells how many came again', async () => {
		const pages: Record<number, { ids: number[]; more: boolean }> = { 0: { ids: [1, 2, 3], more: true }, 3: { ids: [2, 3, 4], more: false } };
		const api = await startScriptedApi((request: ScriptedRequest) => {
			const page = pages[Number(new URL(request.url, 'http://x').searchParams.get('offset'))] ?? { ids: [], more: false };
			return ok({ orders: page.ids.map((order_item_id) => ({ order_item_id })), pagination: { has_more: page.more } });
		});
		try {
			const run = await runNode({
				parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: {}, simplify: false },
				credentials: credentialsFor(api.baseUrl, api.app),
				typeVersion: 3,
			});
			expect(run.error).toBeUndefined();
			expect(run.items.map((i) => i.json.order_item_id)).toEqual([1, 2, 3, 4]);
			expect(hintsOf(run).map((h) => h.message)).toContain('2 order items came again on a later page (the list changed while it was read); each is in the output once.');
			expect(api.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('offset'))).toEqual(['0', '3']);
		} finally {
			await api.close();
		}
	});
});

// A PHP backend that clamps offset at its last page, says has_more on every page and writes
// pagination.offset as text with spaces around it: Order › Get Many stops at the first page whose
// written offset is not the one asked for. n8n's engine against a scripted API over loopback.
describe('Get Many against an API that writes pagination.offset as text', () => {
	test('pagination.offset written as text (" 100 ") is read: the walk stops where the API answers another offset than asked', async () => {
		const total = 150;
		const api = await startScriptedApi((request: ScriptedRequest) => {
			const offset = Math.min(Number(new URL(request.url, 'http://x').searchParams.get('offset')), 100);
			const orders = Array.from({ length: Math.min(100, total - offset) }, (_, n) => ({ order_item_id: offset + n + 1 }));
			return ok({ orders, pagination: { offset: ` ${offset} `, has_more: true } });
		});
		try {
			const { error } = await runNode({
				parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: {} },
				credentials: credentialsFor(api.baseUrl, api.app),
				typeVersion: 3,
			});
			expect(error?.message).toBe('The API answered offset 150 with the page at offset 100 (its pagination.offset)');
			expect(api.requests).toHaveLength(3);
		} finally {
			await api.close();
		}
	});

	test('a pagination.offset that is not only digits ("x100", "150x") is not read as an offset: the walk reads on to the end', async () => {
		const written: Record<number, string> = { 0: '0', 50: '50', 100: 'x100', 150: '150x' };
		const api = await startScriptedApi((request: ScriptedRequest) => {
			const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
			const orders = offset < 200 ? Array.from({ length: 50 }, (_, n) => ({ order_item_id: offset + n + 1 })) : [];
			return ok({ orders, pagination: { offset: written[offset] ?? String(offset), has_more: orders.length > 0 } });
		});
		try {
			const { items, error } = await runNode({
				parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: {} },
				credentials: credentialsFor(api.baseUrl, api.app),
				typeVersion: 3,
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(200);
		} finally {
			await api.close();
		}
	});
});
