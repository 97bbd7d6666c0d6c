// Stock > Update from spreadsheet-like rows, run by n8n's engine against the sandbox over HTTP.
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { ok, startScriptedApi } from '../helpers/scriptedApi';

type Product = { product_id: number; stock: number; seller_id: number; variant_combination_ids: number[] };

describe('Stock > Update in the n8n engine', () => {
	let sb: RunningSandbox;
	let simple: Product[];
	let withVariants: Product;
	let foreign: Product;
	const credentials = (name = 'seller-a-full') => credentialsFor(sb.baseUrl, sb.apps[name]);
	const stockOf = async (id: number) => (await sb.control('GET', `/products/${id}`)).stock;
	const fromSheet = { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}' };

	beforeAll(async () => {
		sb = await startSandbox({ products: 500 });
		const products: Product[] = await sb.control('GET', '/products?sellerId=1001');
		simple = products.filter((p) => p.variant_combination_ids.length === 0);
		withVariants = products.find((p) => p.variant_combination_ids.length > 1)!;
		foreign = (await sb.control('GET', '/products?sellerId=1002'))[0];
	});
	beforeEach(async () => {
		await sb.control('POST', '/stats/reset');
		await sb.control('POST', '/faults/reset');
	});
	afterAll(() => sb.close());

	test('sheet strings are numbers: "12" sets the stock to 12, old and new are reported', async () => {
		const before = await stockOf(simple[0].product_id);
		const { items, error } = await runNode({
			parameters: { ...fromSheet, additionalFields: { externalRef: '={{ $json.ref }}' } },
			items: [{ product_id: String(simple[0].product_id), stock: '12', ref: 'row-2 · Köln' }],
			credentials: credentials(),
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ product_id: simple[0].product_id, old_stock: before, new_stock: 12, external_ref: 'row-2 · Köln' });
		expect(await stockOf(simple[0].product_id)).toBe(12);
	});

	test('a variant is updated through Variant Combination ID; an empty one means none', async () => {
		const variant = withVariants.variant_combination_ids[1];
		const { items } = await runNode({
			parameters: { ...fromSheet, additionalFields: { variantCombinationId: '={{ $json.variant }}' } },
			items: [
				{ product_id: withVariants.product_id, stock: 4, variant: String(variant) },
				{ product_id: simple[1].product_id, stock: 5, variant: '' },
			],
			credentials: credentials(),
		});
		expect(items[0].json).toMatchObject({ variant_combination_id: variant, new_stock: 4 });
		expect(items[1].json).toMatchObject({ product_id: simple[1].product_id, variant_combination_id: null, new_stock: 5 });
	});

	test('the variants of one product are different targets: their rows go out together', async () => {
		const variants = withVariants.variant_combination_ids;
		await sb.control('POST', '/faults', { latencyMs: 50 });
		const { items, error } = await runNode({
			parameters: { ...fromSheet, additionalFields: { variantCombinationId: '={{ $json.variant }}' } },
			items: variants.map((variant, i) => ({ product_id: withVariants.product_id, stock: 10 + i, variant: String(variant) })),
			credentials: credentials(),
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => [i.json.variant_combination_id, i.json.new_stock])).toEqual(variants.map((v, i) => [v, 10 + i]));
		expect((await sb.control('GET', '/stats')).maxInFlight).toBe(variants.length);
	});

	test.each([
		['-1', 'Stock must be 0 or more, but got -1 (stock cannot be negative).'],
		['12.5', 'Stock must be a whole number, but got "12.5".'],
		['abc', 'Stock must be a whole number, but got "abc".'],
		['', 'Stock is blank; it needs a whole number.'],
	])('stock %j is a per-item error and nothing at all is sent', async (bad, message) => {
		const before = await stockOf(simple[2].product_id);
		const { error } = await runNode({
			parameters: fromSheet,
			items: [{ product_id: simple[2].product_id, stock: 3 }, { product_id: simple[3].product_id, stock: bad }],
			credentials: credentials(),
		});
		expect(error?.message).toBe(`Row 3 (item 1): ${message}`);
		expect(error?.context?.itemIndex).toBe(1);
		expect((await sb.control('GET', '/stats')).requests).toBe(0);
		expect(await stockOf(simple[2].product_id)).toBe(before);
	});

	test('with Continue On Fail every row comes out as a result or an error, in input order', async () => {
		const rows = [
			{ product_id: simple[4].product_id, stock: '7' },
			{ product_id: simple[5].product_id, stock: '-1' },
			{ product_id: foreign.product_id, stock: '1' },
			{ product_id: 1, stock: '1' },
			{ product_id: withVariants.product_id, stock: '1' },
			{ product_id: 'abc', stock: '1' },
			{ product_id: simple[6].product_id, stock: '8' },
		];
		const { items, error } = await runNode({ parameters: fromSheet, items: rows, credentials: credentials(), continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		expect(items[0].json).toMatchObject({ new_stock: 7 });
		expect(items[1].json.error).toMatch(/Stock must be 0 or more/);
		expect(items[2].json).toMatchObject({ error: 'The product belongs to another seller', details: { code: 'forbidden_product', httpCode: '403' } });
		expect(items[3].json).toMatchObject({ error: 'The product was not found', details: { code: 'product_not_found' } });
		expect(items[4].json).toMatchObject({ details: { code: 'variant_required' } });
		expect(items[5].json.error).toBe('Product ID must be a whole number, but got "abc".');
		// A refused value reads like an API error: a code, what to do, and which item it was.
		// Exactly these fields, none present and undefined (a later node's Object.keys would see it).
		expect(items[5].json.details).toStrictEqual({
			code: 'invalid_value',
			description: expect.stringMatching(/^Nothing was sent for this item\. Fix the value/),
			itemIndex: 5,
		});
		expect(items[2].json.details).toStrictEqual({
			description: expect.stringMatching(/^API code: forbidden_product\. /),
			code: 'forbidden_product',
			httpCode: '403',
			itemIndex: 2,
		});
		expect(items[6].json).toMatchObject({ new_stock: 8 });
		// The invalid rows never reached the API; the others did, once each.
		expect((await sb.control('GET', '/stats')).requests).toBe(5);
	});

	test('with "Continue (using error output)" failed rows go down the error output, merged with their row', async () => {
		const rows = [
			{ product_id: simple[8].product_id, stock: '3', sheet_row: 2 },
			{ product_id: foreign.product_id, stock: '3', sheet_row: 3 },
			{ product_id: simple[9].product_id, stock: 'x', sheet_row: 4 },
		];
		const { outputs, error } = await runNode({ parameters: fromSheet, items: rows, credentials: credentials(), onError: 'continueErrorOutput' });
		expect(error).toBeUndefined();
		const [success, failed] = outputs;
		expect(success.map((i) => i.json.product_id)).toEqual([simple[8].product_id]);
		expect(failed.map((i) => i.json.sheet_row)).toEqual([3, 4]);
		expect(failed[0].json).toMatchObject({ error: 'The product belongs to another seller', details: { code: 'forbidden_product' }, product_id: foreign.product_id });
		expect(failed[1].json.error).toBe('Stock must be a whole number, but got "x".');
	});

	test("another seller's product is refused and left unchanged", async () => {
		const before = await stockOf(foreign.product_id);
		const { error } = await runNode({ parameters: { ...fromSheet }, items: [{ product_id: foreign.product_id, stock: 0 }], credentials: credentials() });
		expect(error?.message).toBe('The product belongs to another seller');
		expect(await stockOf(foreign.product_id)).toBe(before);
	});

	test('the read-only app is refused with the permission to ask for', async () => {
		const { error } = await runNode({ parameters: fromSheet, items: [{ product_id: simple[0].product_id, stock: 1 }], credentials: credentials('seller-a-readonly') });
		expect(error?.message).toBe('This partner application lacks the permission for this operation');
		expect(error?.description).toMatch(/stock:write/);
	});

	test('300 rows run with bounded concurrency and keep input order and pairing', async () => {
		await sb.control('POST', '/faults', { latencyMs: 5 });
		const rows = simple.slice(0, 300).map((p, i) => ({ product_id: p.product_id, stock: String(i) }));
		expect(rows).toHaveLength(300);
		const { items, error } = await runNode({ parameters: { ...fromSheet, options: { concurrency: 6 } }, items: rows, credentials: credentials() });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.product_id)).toEqual(rows.map((r) => r.product_id));
		expect(items.map((i) => i.json.new_stock)).toEqual(rows.map((_, i) => i));
		expect(items.map((i) => (i.pairedItem as { item: number }).item)).toEqual(rows.map((_, i) => i));
		const stats = await sb.control('GET', '/stats');
		expect(stats.maxInFlight).toBeGreaterThan(1);
		expect(stats.maxInFlight).toBeLessThanOrEqual(6);
		expect(await stockOf(rows[299].product_id)).toBe(299);
	});

	test('without the option, 32 requests are in flight at once (the default Concurrency)', async () => {
		// Answers slow enough that all 32 are sent before the first returns, on a loaded machine too
		// (at 200 ms a fresh clone's run beside an n8n install reached 27).
		await sb.control('POST', '/faults', { latencyMs: 600 });
		const rows = simple.slice(300, 364).map((p) => ({ product_id: p.product_id, stock: 3 }));
		const { error } = await runNode({ parameters: fromSheet, items: rows, credentials: credentials() });
		expect(error).toBeUndefined();
		expect((await sb.control('GET', '/stats')).maxInFlight).toBe(32);
	});

	test('identical rows all apply even when the server refuses a reused signature', async () => {
		await sb.control('POST', '/faults', { replay: true });
		const row = { product_id: simple[7].product_id, stock: '21' };
		const rows = Array.from({ length: 20 }, () => row);
		const { items, error } = await runNode({ parameters: fromSheet, items: rows, credentials: credentials() });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(20);
		const stats = await sb.control('GET', '/stats');
		expect(stats.byEndpoint['POST /stock_update.php 200']).toBe(20);
		expect(stats.duplicateSignatures).toBe(0);
	});

	test.each([
		['-3', 'Variant Combination ID must be 1 or more, but got -3.'],
		['0', 'Variant Combination ID must be 1 or more, but got 0.'],
		['v12', 'Variant Combination ID must be a whole number, but got "v12".'],
	])('Variant Combination ID %j is an error for its row and nothing is sent', async (bad, message) => {
		const { error } = await runNode({
			parameters: { ...fromSheet, additionalFields: { variantCombinationId: '={{ $json.variant }}' } },
			items: [{ product_id: withVariants.product_id, stock: 1, variant: bad }],
			credentials: credentials(),
		});
		expect(error?.message).toBe(`Row 2 (item 0): ${message}`);
		expect((await sb.control('GET', '/stats')).requests).toBe(0);
	});

	test('a bad first row stops the sheet before anything is sent, and says which row', async () => {
		const { error } = await runNode({
			parameters: fromSheet,
			items: [{ product_id: 'P-1', stock: 1 }, { product_id: simple[10].product_id, stock: 1 }],
			credentials: credentials(),
		});
		expect(error?.message).toBe('Row 2 (item 0): Product ID must be a whole number, but got "P-1".');
		expect(error?.context?.itemIndex).toBe(0);
		expect((await sb.control('GET', '/stats')).requests).toBe(0);
	});

	test('the body sent: product_id and stock as numbers, and only the optional fields given', async () => {
		const api = await startScriptedApi([ok({ new_stock: 1 })]);
		try {
			const { error } = await runNode({
				parameters: { ...fromSheet, additionalFields: { variantCombinationId: '={{ $json.variant }}', externalRef: '={{ $json.ref }}' } },
				items: [
					{ product_id: '70001', stock: ' 4 ', variant: '', ref: '' },
					{ product_id: 70002, stock: 0, variant: '900003', ref: 'erp-9' },
				],
				credentials: credentialsFor(api.baseUrl, api.app),
			});
			expect(error).toBeUndefined();
			expect(api.requests.map((r) => [r.method, r.url, r.headers['content-type'], r.rawBody]).sort()).toEqual([
				['POST', '/api/partner/v1/stock_update.php', 'application/json', '{"product_id":70001,"stock":4}'],
				['POST', '/api/partner/v1/stock_update.php', 'application/json', '{"product_id":70002,"stock":0,"variant_combination_id":900003,"external_ref":"erp-9"}'],
			]);
		} finally {
			await api.close();
		}
	});

	test('a row that fails while an earlier row waits out a 429: the failed row is the error, and the waiting row is not sent', async () => {
		const waiting = simple[17];
		const before = await stockOf(waiting.product_id);
		// The first request to arrive (row 1's, as a rule) is answered 429 with Retry-After: 1.
		await sb.control('POST', '/faults', { next429: 1, retryAfterSec: 1 });
		const { error } = await runNode({
			parameters: fromSheet,
			items: [{ product_id: waiting.product_id, stock: before + 1 }, { product_id: foreign.product_id, stock: 1 }],
			credentials: credentials(),
		});
		expect(error?.message).toBe('The product belongs to another seller');
		expect(error?.context?.itemIndex).toBe(1);
		expect(error?.description).toMatch(/ Row 3 \(item 1\) failed, of 2 rows; 0 rows were applied, the other 2 not\. /);
		expect(await stockOf(waiting.product_id)).toBe(before);
	});

	test('without Continue On Fail, rows after the failed one are not sent', async () => {
		const rows = [foreign, ...simple.slice(12, 16)].map((p) => ({ product_id: p.product_id, stock: 1 }));
		const { error } = await runNode({ parameters: { ...fromSheet, options: { concurrency: 1 } }, items: rows, credentials: credentials() });
		expect(error?.message).toBe('The product belongs to another seller');
		expect(error?.description).toBe(
			`API code: forbidden_product. The API said: Product ${foreign.product_id} does not belong to this seller. This app can change only its own seller's products. ` +
				"Check the Product ID, or use the credential of the seller who owns this product. Row 2 (item 0) failed, of 5 rows; 0 rows were applied, the other 5 not. " +
				'Stock updates set absolute values, so running the whole sheet again is safe: rows already applied are set to the same values.',
		);
		expect((await sb.control('GET', '/stats')).requests).toBe(1);
	});
});
