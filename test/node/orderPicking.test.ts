// Version 3 of the action node, as a user meets it in the editor: Order › Get picks its order item
// from a list, by ID or by order number (never a value silently turned into another order item's
// id), and Get Many's Status lists the API's statuses and says why a filter found nothing. The
// editor's lists run in n8n-core's own load-options context; runs in n8n's engine; the sandbox
// over HTTP, or a scripted API for answers the sandbox does not give.
import type { IDataObject } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { credentialsFor, hintsOf, loadOptionsContext, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { ok, startScriptedApi } from '../helpers/scriptedApi';

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
					message: `No order items have status "lost". The order items in the list have the statuses ${statuses.map((s) => `"${s}"`).join(', ')}. Pick one of those in the Status filter's list.`,
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
