// The action node against the sandbox answering as a real marketplace may (sandbox/README.md,
// "Answer styles"): datetimes in a zone ahead of or behind UTC, PHP types, has_more in each form
// or absent, pages capped below what is asked, errors with HTTP 200 or in other shapes, another
// seller's order item as 403. Return All loses nothing, errors say what the API said, and with
// Continue On Fail every row comes out as a result or an error.
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

type Product = { product_id: number; stock: number; variant_combination_ids: number[] };

const STYLES: Array<[string, Record<string, unknown>]> = [
	['PHP types, behind UTC, pages of 50', { answerStyle: 'php', timeZone: 'America/New_York', pageCap: 50 }],
	['has_more absent, ahead of UTC, errors as HTTP 200', { hasMoreStyle: 'absent', timeZone: 'Europe/Istanbul', errorStyle: 'http200' }],
	['has_more as text, flat errors, pages of 30', { hasMoreStyle: 'string', errorStyle: 'flat', pageCap: 30, foreignOrderStatus: 403 }],
	['has_more as numbers, JSend errors, far ahead', { hasMoreStyle: 'number', errorStyle: 'jsend', timeZone: 'Asia/Tokyo' }],
	['PHP types, a list of errors, pages of 7, another seller as 403', { answerStyle: 'php', errorStyle: 'errors', pageCap: 7, foreignOrderStatus: 403 }],
];

describe.each(STYLES)('the action node against a marketplace with %s', (_, style) => {
	let sb: RunningSandbox;
	let simple: Product[];
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full'], { timeZone: style.timeZone ?? 'UTC' });
	const ordersOfA = () => sb.raw.state.ordersBySeller.get(1001) as Array<{ order_item_id: number; updated_ms: number }>;

	beforeAll(async () => {
		sb = await startSandbox({ orders: 250, products: 60, ...style });
		simple = ((await sb.control('GET', '/products?sellerId=1001')) as Product[]).filter((p) => p.variant_combination_ids.length === 0);
	});
	afterAll(() => sb.close());

	test('Return All reads every order item of the seller, once each', async () => {
		const { items, error } = await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true }, credentials: credentials() });
		expect(error).toBeUndefined();
		expect(items.map((i) => String(i.json.order_item_id))).toEqual(ordersOfA().map((o) => String(o.order_item_id)));
	});

	test('a limit over a page follows capped pages and stops at the limit', async () => {
		const { items, error } = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 120 }, credentials: credentials() });
		expect(error).toBeUndefined();
		expect(items.map((i) => String(i.json.order_item_id))).toEqual(ordersOfA().slice(0, 120).map((o) => String(o.order_item_id)));
	});

	test('Updated After with a zone is the same moment in the API\'s zone: exactly the items updated after it', async () => {
		const sorted = [...ordersOfA()].sort((a, b) => a.updated_ms - b.updated_ms);
		const cut = sorted[Math.floor(sorted.length / 2)].updated_ms;
		const expected = sorted.filter((o) => Math.floor(o.updated_ms / 1000) > Math.floor(cut / 1000)).map((o) => String(o.order_item_id));
		const { items, error } = await runNode({
			parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: { updatedAfter: new Date(cut).toISOString() } },
			credentials: credentials(),
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => String(i.json.order_item_id)).sort()).toEqual(expected.sort());
		expect(expected.length).toBeGreaterThan(50);
	});

	test('a missing order item is an error with the API\'s code, whatever status and shape it came in', async () => {
		const { error } = await runNode({ parameters: { resource: 'order', operation: 'get', orderItemId: 999999 }, credentials: credentials() });
		expect(error?.message).toBe('The order item was not found');
		expect(error?.description).toMatch(/^API code: order_not_found\. The API said: Order item 999999 was not found\. /);
		expect(error?.httpCode).toBe(style.errorStyle === 'http200' ? '200' : '404');
	});

	test("another seller's order item is refused as the marketplace does, and explained", async () => {
		const foreign = (sb.raw.state.ordersBySeller.get(1002) as Array<{ order_item_id: number }>)[0].order_item_id;
		const { error } = await runNode({ parameters: { resource: 'order', operation: 'get', orderItemId: foreign }, credentials: credentials() });
		if (style.foreignOrderStatus === 403) {
			expect(error?.message).toBe("The order item is not this seller's");
			expect(error?.description).toMatch(/^API code: forbidden_order\. .*HTTP 403/);
		} else {
			expect(error?.message).toBe('The order item was not found');
		}
	});

	test('Stock › Update with Continue On Fail: every row a result or an error, and an ok:false answer is never a success', async () => {
		const rows = [
			{ product_id: simple[0].product_id, stock: '7' },
			{ product_id: 1, stock: '1' },
			{ product_id: simple[1].product_id, stock: '8' },
		];
		const { items, error } = await runNode({
			parameters: { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}' },
			items: rows,
			credentials: credentials(),
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual(rows.map((__, item) => ({ item })));
		expect(String(items[0].json.new_stock)).toBe('7');
		expect(items[1].json).toMatchObject({ error: 'The product was not found', details: { code: 'product_not_found' } });
		expect(String(items[2].json.new_stock)).toBe('8');
		expect((await sb.control('GET', `/products/${simple[0].product_id}`)).stock).toBe(7);
	});
});
