// Version 3 of the action node, as a user meets it in the editor: Order › Get picks its order item
// from a list, by ID or by order number (never a value silently turned into another order item's
// id), and Get Many's Status lists the API's statuses and says why a filter found nothing. The
// editor's lists run in n8n-core's own load-options context; runs in n8n's engine; the sandbox
// over HTTP, or a scripted API for answers the sandbox does not give.
import type { IDataObject } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node';
import { credentialsFor, hintsOf, loadOptionsContext, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { ok, startScriptedApi, type Answer, type ScriptedRequest } from '../helpers/scriptedApi';

type Order = { order_item_id: number; order_no: string; status: string; updated_ms: number; product_id: number };

const node = new MarketplacePartner();
const locator = (mode: string, value: string) => ({ __rl: true, mode, value });

describe('Order › Get and Get Many, version 3', () => {
	let sb: RunningSandbox;
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
	const ordersOfA = () => sb.raw.state.ordersBySeller.get(1001) as Order[];
	const get = (orderItem: IDataObject, extra: { items?: IDataObject[]; continueOnFail?: boolean } = {}) =>
		runNode({ parameters: { resource: 'order', operation: 'get', orderItem }, credentials: credentials(), typeVersion: 3, ...extra });
	const detailRequests = async () =>
		(await sb.control('GET', '/stats')).recent.filter((r: { endpoint: string }) => r.endpoint === '/order_detail.php').length as number;

	beforeAll(async () => (sb = await startSandbox({ orders: 260 })));
	beforeEach(() => sb.control('POST', '/stats/reset'));
	afterAll(() => sb.close());

	describe('the order item list (From List)', () => {
		const search = (filter?: string, token?: string) => node.methods.listSearch.searchOrderItems.call(loadOptionsContext(credentials()), filter, token);

		test('lists order items by what a person knows them by, a page at a time, each page going on where the last ended', async () => {
			const first = await search();
			const orders = ordersOfA();
			expect(first.results).toHaveLength(100);
			expect(first.results[0]).toEqual({
				name: expect.stringMatching(new RegExp(`^${orders[0].order_no} · .+ · SKU-[^ ]+ · ${orders[0].status}$`)),
				value: String(orders[0].order_item_id),
			});
			expect(first.paginationToken).toBe('100');
			const last = await search(undefined, '200');
			expect(last.results.map((r) => r.value)).toEqual(orders.slice(200).map((o) => String(o.order_item_id)));
			expect(last.paginationToken).toBeUndefined();
		});

		test('searches by order number and by product (SKU or title), case aside, across pages', async () => {
			const wanted = ordersOfA()[230];
			const byNumber = await search(wanted.order_no.toLowerCase());
			expect(byNumber.results.map((r) => r.value)).toEqual([String(wanted.order_item_id)]);
			expect(byNumber.paginationToken).toBeUndefined();
			const detail = sb.raw.state.products.get(wanted.product_id) as { sku: string };
			const bySku = await search(` ${detail.sku} `);
			const ofProduct = ordersOfA().filter((o) => o.product_id === wanted.product_id).map((o) => String(o.order_item_id));
			expect(bySku.results.map((r) => r.value)).toEqual(ofProduct);
			expect((await search('no order is called this')).results).toEqual([]);
		});

		test('a search reads at most 50 pages an answer, and the next answer goes on from there', async () => {
			const page = (p: number) => ok({ orders: Array.from({ length: 100 }, (_, i) => ({ order_item_id: p * 100 + i + 1, order_no: `N-${p}-${i}` })), pagination: { has_more: true } });
			const api = await startScriptedApi(Array.from({ length: 60 }, (_, p) => page(p)));
			try {
				const context = loadOptionsContext(credentialsFor(api.baseUrl, api.app));
				const answer = await node.methods.listSearch.searchOrderItems.call(context, 'nothing matches');
				expect(answer).toEqual({ results: [], paginationToken: '5000' });
				expect(api.requests).toHaveLength(50);
			} finally {
				await api.close();
			}
		});
	});

	test('the Status list offers the statuses the order items have, as words, each sent as the API writes it', async () => {
		const options = await node.methods.loadOptions.getStatuses.call(loadOptionsContext(credentials()));
		const written = [...new Set([...ordersOfA().slice(0, 300).map((o) => o.status), 'accepted'])].sort();
		expect(options.map((o) => o.value)).toEqual(written);
		expect(options.find((o) => o.value === 'accepted')).toEqual({ name: 'Accepted', value: 'accepted', description: 'Sent as "accepted", as the API writes it' });
	});

	test("the Orders Trigger's Status list is the same list", async () => {
		const trigger = new MarketplacePartnerOrdersTrigger();
		const fromTrigger = await trigger.methods.loadOptions.getStatuses.call(loadOptionsContext(credentials()));
		expect(fromTrigger).toEqual(await node.methods.loadOptions.getStatuses.call(loadOptionsContext(credentials())));
		expect(fromTrigger.map((o) => o.value)).toContain('accepted');
	});

	test('From List and By ID get the order item the value names', async () => {
		const id = ordersOfA()[7].order_item_id;
		for (const orderItem of [locator('list', String(id)), locator('id', ` ${id} `), locator('id', '={{ $json.id }}')]) {
			const { items, error } = await get(orderItem, { items: [{ id }] });
			expect(error).toBeUndefined();
			expect(items.map((i) => (i.json.order as IDataObject).order_item_id)).toEqual([id]);
		}
	});

	test('an order number typed By ID is refused before the run; one mapped By ID is an error that names By Order Number; nothing is asked of the API', async () => {
		// The editor and n8n's engine check By ID before anything runs.
		await expect(get(locator('id', 'ORD-A-0000106'))).rejects.toThrow(
			'An order item ID is a whole number, e.g. 500001. For an order number such as ORD-A-0000106, choose By Order Number.',
		);
		const { error } = await get(locator('id', '={{ $json.id }}'), { items: [{ id: 'ORD-A-0000106' }] });
		expect(error?.message).toBe('Order Item ID must be a whole number, but got "ORD-A-0000106", which looks like an order number: choose Order Item › By Order Number.');
		expect(await detailRequests()).toBe(0);
		const byId = (node.description.properties.find((p) => p.name === 'orderItem')!.modes ?? []).find((m) => m.name === 'id')!;
		const pattern = new RegExp((byId.validation![0] as unknown as { properties: { regex: string } }).properties.regex);
		expect(['500001', ' 42 '].every((v) => pattern.test(v))).toBe(true);
		expect(['ORD-A-0000106', '106a', '', '1.5'].some((v) => pattern.test(v))).toBe(false);
	});

	test('By Order Number gets the order item of that number, for each input item, reading the list once', async () => {
		const [a, b] = [ordersOfA()[5], ordersOfA()[250]];
		const { items, error } = await get(locator('orderNo', '={{ $json.orderNo }}'), { items: [{ orderNo: b.order_no }, { orderNo: ` ${a.order_no}` }] });
		expect(error).toBeUndefined();
		expect(items.map((i) => [(i.json.order as IDataObject).order_no, i.pairedItem])).toEqual([
			[b.order_no, { item: 0 }],
			[a.order_no, { item: 1 }],
		]);
		expect((await sb.control('GET', '/stats')).byEndpoint['GET /orders.php 200']).toBe(3);
	});

	test('an order number that no order item has is an error saying how many were looked through; empty says what to give', async () => {
		const { items, error } = await get(locator('orderNo', '={{ $json.orderNo }}'), { items: [{ orderNo: 'ORD-A-9999999' }, { orderNo: '' }], continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items[0].json.error).toBe(
			'No order item has the order number "ORD-A-9999999": the node looked through all 260 order items of the seller. Check the number (it is matched exactly), or pick the order item From List.',
		);
		expect(items[1].json.error).toBe('Order Item (By Order Number) is empty; give an order number such as ORD-A-0000106.');
		expect(await detailRequests()).toBe(0);
	});

	test('an order number shared by several order items gets each of them', async () => {
		const orders = [
			{ order_item_id: 11, order_no: 'ORD-1' },
			{ order_item_id: 12, order_no: 'ORD-2' },
			{ order_item_id: 13, order_no: 'ORD-1' },
		];
		const detail = (id: number) => ok({ order: { order_item_id: id }, product: {}, customer: {}, shipment: {} });
		const api = await startScriptedApi([ok({ orders, pagination: { has_more: false } }), detail(11), detail(13)]);
		try {
			const { items, error } = await runNode({
				parameters: { resource: 'order', operation: 'get', orderItem: locator('orderNo', 'ORD-1') },
				credentials: credentialsFor(api.baseUrl, api.app),
				typeVersion: 3,
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => (i.json.order as IDataObject).order_item_id)).toEqual([11, 13]);
			expect(api.requests.slice(1).map((r) => new URL(r.url, 'http://x').searchParams.get('order_item_id'))).toEqual(['11', '13']);
		} finally {
			await api.close();
		}
	});

	describe('a filter that finds nothing says why', () => {
		const getMany = (filters: IDataObject, typeVersion = 3) =>
			runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters }, credentials: credentials(), typeVersion });
		const accepted = () => ordersOfA().filter((o) => o.status === 'accepted').map((o) => o.order_item_id);

		test('version 3 sends a status typed otherwise ("Accepted") as the API writes it, and says so', async () => {
			const run = await getMany({ status: ' Accepted ' });
			expect(run.error).toBeUndefined();
			expect(run.items.map((i) => i.json.order_item_id)).toEqual(accepted());
			expect(hintsOf(run)).toEqual([{ type: 'info', message: 'Status "Accepted" was sent as "accepted", as the API writes it.', location: 'outputPane' }]);
		});

		test('version 2 keeps sending what the workflow says, and its empty answer names the status to use', async () => {
			const run = await getMany({ status: 'Accepted' }, 2);
			expect(run.items).toEqual([]);
			const [hint] = hintsOf(run);
			expect(hint.type).toBe('warning');
			expect(hint.message).toMatch(/^No order items have status "Accepted"\. The order items in the list have the statuses .*"accepted".*\. Statuses match exactly: use "accepted"\.$/);
		});

		test('a status the API does not have lists the ones it has', async () => {
			const run = await getMany({ status: 'lost' });
			expect(run.items).toEqual([]);
			const statuses = [...new Set([...ordersOfA().slice(0, 100).map((o) => o.status), 'accepted'])].sort();
			expect(hintsOf(run)).toEqual([
				{
					type: 'warning',
					message: `No order items have status "lost". The order items in the list have the statuses ${statuses.map((s) => `"${s}"`).join(', ')}. Pick one of those from the Status list.`,
					location: 'outputPane',
				},
			]);
		});

		test('Updated After past every order item names the moment as sent and the time zone', async () => {
			const run = await getMany({ status: 'accepted', updatedAfter: '2099-01-01T00:00:00+00:00' });
			expect(run.items).toEqual([]);
			expect(hintsOf(run).map((h) => h.message)).toEqual([
				"No order items have status \"accepted\" and were updated after 2099-01-01 00:00:00 (in the credential's Time Zone of the API). Choose an earlier Updated After, or check the credential's Time Zone of the API.",
			]);
		});

		test('a filter that finds order items adds no hint', async () => {
			const run = await getMany({ status: 'accepted' });
			expect(run.items.length).toBeGreaterThan(0);
			expect(hintsOf(run)).toEqual([]);
		});
	});
});

// The order item list's search (Order › Get, From List): what it matches, and where one answer stops.
// n8n-core's load-options context against a scripted API over loopback that answers each page by its
// offset.
describe("the order item list's search against a scripted API", () => {
	async function search(pages: Record<number, { orders: IDataObject[]; more: boolean }>, filter: string) {
		const api = await startScriptedApi((request: ScriptedRequest) => {
			const page = pages[Number(new URL(request.url, 'http://x').searchParams.get('offset'))] ?? { orders: [], more: false };
			return ok({ orders: page.orders, pagination: { has_more: page.more } });
		});
		try {
			const context = loadOptionsContext(credentialsFor(api.baseUrl, api.app));
			const answer = await node.methods.listSearch.searchOrderItems.call(context, filter);
			return { answer, offsets: api.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('offset')) };
		} finally {
			await api.close();
		}
	}

	test('a search matches within one field, never across the end of one and the start of the next', async () => {
		const { answer } = await search({ 0: { orders: [{ order_item_id: 12, order_no: 'AB' }, { order_item_id: 34, order_no: 'XB1' }], more: false } }, 'b1');
		expect(answer.results.map((r) => r.value)).toEqual(['34']);
	});

	test('a search that has 50 matches when a page ends answers with them, and goes on from the next page when asked', async () => {
		const orders = Array.from({ length: 100 }, (_, i) => ({ order_item_id: i + 1, order_no: i % 2 === 0 ? `MATCH-${i}` : `OTHER-${i}` }));
		const { answer, offsets } = await search({ 0: { orders, more: true }, 100: { orders: [{ order_item_id: 101, order_no: 'MATCH-100' }], more: false } }, 'match');
		expect(answer.results).toHaveLength(50);
		expect(answer.paginationToken).toBe('100');
		expect(offsets).toEqual(['0']);
	});
});

// Order › Get Many's Status list (version 3) over a list the API writes loosely: statuses that are
// blank or not text, written with underscores and hyphens, and spread over more pages than the list
// reads. n8n-core's load-options context against a scripted API over loopback that answers each page
// by its offset.
describe('the Status list over a list the API writes loosely', () => {
	/** The Status list's options over a list whose page at offset n is pages[n] (has_more while pages follow). */
	async function statusOptions(pages: IDataObject[][]) {
		const starts = pages.map((_, p) => pages.slice(0, p).reduce((sum, page) => sum + page.length, 0));
		const api = await startScriptedApi((request: ScriptedRequest) => {
			const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
			const p = starts.indexOf(offset);
			return ok({ orders: p < 0 ? [] : pages[p], pagination: { has_more: p >= 0 && p < pages.length - 1 } });
		});
		try {
			const context = loadOptionsContext(credentialsFor(api.baseUrl, api.app));
			const options = await node.methods.loadOptions.getStatuses.call(context);
			return { options, offsets: api.requests.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('offset'))) };
		} finally {
			await api.close();
		}
	}

	test('statuses that are blank or not text are left out; words are shown capitalised, each sent as the API writes it', async () => {
		const { options } = await statusOptions([
			[
				{ order_item_id: 1, status: 'label_ready' },
				{ order_item_id: 2, status: '   ' },
				{ order_item_id: 3, status: 5 },
				{ order_item_id: 4, status: null },
				{ order_item_id: 5, status: 'in-transit' },
				{ order_item_id: 6, status: 'on__hold' },
				{ order_item_id: 7 },
			],
		]);
		expect(options.map((o) => [o.name, o.value])).toEqual([
			['Accepted', 'accepted'],
			['In Transit', 'in-transit'],
			['Label Ready', 'label_ready'],
			['On Hold', 'on__hold'],
		]);
	});

	test('the Status list reads the first three pages only: a status seen first on the fourth is not offered', async () => {
		const { options, offsets } = await statusOptions([
			[{ order_item_id: 1, status: 'packed' }],
			[{ order_item_id: 2, status: 'shipped' }],
			[{ order_item_id: 3, status: 'delivered' }],
			[{ order_item_id: 4, status: 'returned' }],
		]);
		expect(offsets).toEqual([0, 1, 2]);
		expect(options.map((o) => o.value)).toEqual(['accepted', 'delivered', 'packed', 'shipped']);
	});
});

// Version 3's Order operations where the API or the workflow leaves something out: a list entry
// with nothing to label it by but its id, an Order Item locator whose value is null, and input items
// whose filters each find nothing (each reason told once). Run in n8n-core's load-options context and
// n8n's engine against a scripted API over loopback.
describe('version 3 where the API or the workflow leaves something out', () => {
	const testApp = { clientId: 'cli_x', clientSecret: 'cs_x', webhookSecret: '' };

	async function withApi<T>(answers: Answer[] | ((request: ScriptedRequest) => Answer), use: (baseUrl: string, requests: ScriptedRequest[]) => Promise<T>): Promise<T> {
		const api = await startScriptedApi(answers);
		try {
			return await use(api.baseUrl, api.requests);
		} finally {
			await api.close();
		}
	}

	test('the order item list labels an entry with no order number, product or status by its id', async () => {
		const orders = [{ order_item_id: 5 }, { order_item_id: 6, status: 'accepted' }];
		const answer = await withApi([ok({ orders, pagination: { has_more: false } })], (baseUrl) =>
			node.methods.listSearch.searchOrderItems.call(loadOptionsContext(credentialsFor(baseUrl, testApp))),
		);
		expect(answer.results).toEqual([
			{ name: 'Order item 5', value: '5' },
			{ name: 'accepted', value: '6' },
		]);
	});

	test.each([
		['orderNo', 'Order Item (By Order Number) is empty; give an order number such as ORD-A-0000106.'],
		['id', 'Order Item ID is empty; it needs a whole number of 1 or more.'],
	])('an Order Item (%s) mapped from a field that is null or missing is an empty value, and nothing is asked of the API', async (mode, message) => {
		const { items, error, requests } = await withApi([ok({ orders: [], pagination: { has_more: false } })], async (baseUrl, requests) => ({
			...(await runNode({
				parameters: { resource: 'order', operation: 'get', orderItem: { __rl: true, mode, value: '={{ $json.orderItem }}' } },
				items: [{ orderItem: null }, {}],
				credentials: credentialsFor(baseUrl, testApp),
				typeVersion: 3,
				continueOnFail: true,
			})),
			requests,
		}));
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.error)).toEqual([message, message]);
		expect(requests).toEqual([]);
	});

	test('input items whose Status filters find nothing: each reason is told once, however many items met it', async () => {
		// The filtered list is empty; the list read for the statuses the API has is not.
		const list = (request: ScriptedRequest): Answer =>
			new URL(request.url, 'http://x').searchParams.has('status')
				? ok({ orders: [], pagination: { has_more: false } })
				: ok({ orders: [{ order_item_id: 1, status: 'accepted' }, { order_item_id: 2, status: 'shipped' }], pagination: { has_more: false } });
		const run = await withApi(list, (baseUrl) =>
			runNode({
				parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: { status: '={{ $json.status }}' } },
				items: [{ status: 'lost' }, { status: 'gone' }, { status: 'lost' }],
				credentials: credentialsFor(baseUrl, testApp),
				typeVersion: 3,
			}),
		);
		expect(run.error).toBeUndefined();
		const pick = "Pick one of those from the Status list.";
		expect(hintsOf(run).map((hint: IDataObject) => hint.message)).toEqual([
			`No order items have status "lost". The order items in the list have the statuses "accepted", "shipped". ${pick}`,
			`No order items have status "gone". The order items in the list have the statuses "accepted", "shipped". ${pick}`,
		]);
	});
});

// Order › Get, version 3, By Order Number, over a list whose entries are written loosely: an order
// number with spaces around it, an id that is not a number. n8n's engine against a scripted API over
// loopback that answers the list, then each order item's detail.
describe('By Order Number over list entries written loosely', () => {
	test('By Order Number matches an order number written with spaces around it, and skips an entry whose id is missing, empty or not a number (never order item 0)', async () => {
		const orders: IDataObject[] = [
			{ order_item_id: 11, order_no: ' ORD-1 ' },
			{ order_item_id: 'x-12', order_no: 'ORD-1' },
			{ order_item_id: '16abc', order_no: 'ORD-1' },
			{ order_no: 'ORD-1' },
			{ order_item_id: '', order_no: 'ORD-1' },
			{ order_item_id: ' 15 ', order_no: 'ORD-1' },
			{ order_item_id: 13, order_no: 'ORD-1' },
			{ order_item_id: 14, order_no: 'ORD-2' },
		];
		const answer = (request: ScriptedRequest): Answer => {
			const url = new URL(request.url, 'http://x');
			if (url.pathname.endsWith('/orders.php')) return ok({ orders, pagination: { has_more: false } });
			return ok({ order: { order_item_id: Number(url.searchParams.get('order_item_id')) }, product: {}, customer: {}, shipment: {} });
		};
		const api = await startScriptedApi(answer);
		try {
			const { items, error } = await runNode({
				parameters: { resource: 'order', operation: 'get', orderItem: { __rl: true, mode: 'orderNo', value: 'ORD-1' } },
				credentials: credentialsFor(api.baseUrl, api.app),
				typeVersion: 3,
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => (i.json.order as IDataObject).order_item_id)).toEqual([11, 15, 13]);
			const details = api.requests.filter((r) => r.url.includes('/order_detail.php')).map((r) => new URL(r.url, 'http://x').searchParams.get('order_item_id'));
			expect(details).toEqual(['11', '15', '13']);
		} finally {
			await api.close();
		}
	});
});

// Order › Get Many, version 3, filtered by Updated After alone and finding nothing: the run says why,
// without reading the list for statuses it does not need. n8n's engine against a scripted API over
// loopback. Without filters, an empty list is no finding.
describe('Get Many, version 3, filtered by Updated After alone and finding nothing', () => {
	test('Updated After alone past every order item: one hint naming the moment and the time zone, and no read of the statuses', async () => {
		const api = await startScriptedApi([ok({ orders: [], pagination: { has_more: false } })]);
		try {
			const run = await runNode({
				parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: { updatedAfter: '2099-01-01T00:00:00+00:00' } },
				credentials: credentialsFor(api.baseUrl, api.app),
				typeVersion: 3,
			});
			expect(run.error).toBeUndefined();
			expect(run.items).toEqual([]);
			expect(hintsOf(run)).toEqual([
				{
					type: 'info',
					message:
						"No order items were updated after 2099-01-01 00:00:00 (in the credential's Time Zone of the API). Choose an earlier Updated After, or check the credential's Time Zone of the API.",
					location: 'outputPane',
				},
			]);
			expect(api.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('updated_after'))).toEqual(['2099-01-01 00:00:00']);
		} finally {
			await api.close();
		}
	});

	test('an empty list read without filters: no hint, and no read of the statuses', async () => {
		const api = await startScriptedApi([ok({ orders: [], pagination: { has_more: false } })]);
		try {
			const run = await runNode({
				parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: {} },
				credentials: credentialsFor(api.baseUrl, api.app),
				typeVersion: 3,
			});
			expect(run.error).toBeUndefined();
			expect(run.items).toEqual([]);
			expect(hintsOf(run)).toEqual([]);
			expect(api.requests).toHaveLength(1);
		} finally {
			await api.close();
		}
	});
});
