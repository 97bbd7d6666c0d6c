// stock_update.php of the sandbox, over real HTTP.
import { PartnerClient } from '../helpers/partnerClient';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

describe('sandbox stock update', () => {
	let sb: RunningSandbox;
	let a: PartnerClient;
	let simpleA: { product_id: number; stock: number; sku: string };
	let variantA: { product_id: number; variant_combination_ids: number[]; sku: string };
	let productB: { product_id: number; sku: string };

	beforeAll(async () => {
		sb = await startSandbox();
		const app = sb.apps['seller-a-full'];
		a = new PartnerClient(sb.baseUrl, app.clientId, app.clientSecret);
		const productsA = await sb.control('GET', '/products?sellerId=1001');
		simpleA = productsA.find((p: { variant_combination_ids: number[] }) => p.variant_combination_ids.length === 0);
		variantA = productsA.find((p: { variant_combination_ids: number[] }) => p.variant_combination_ids.length > 1);
		productB = (await sb.control('GET', '/products?sellerId=1002'))[0];
	});
	afterAll(async () => {
		await a.close();
		await sb.close();
	});

	test('the quantity replaces the stock; old and new are reported; external_ref is echoed', async () => {
		const before = (await sb.control('GET', `/products/${simpleA.product_id}`)).stock;
		const res = await a.post('/stock_update.php', { product_id: simpleA.product_id, stock: 17, external_ref: 'Lager Köln #1' });
		expect(res.status).toBe(200);
		expect(res.json).toEqual({
			ok: true,
			data: {
				product_id: simpleA.product_id,
				variant_combination_id: null,
				old_stock: before,
				new_stock: 17,
				updated: true,
				external_ref: 'Lager Köln #1',
				updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
			},
		});
		expect((await sb.control('GET', `/products/${simpleA.product_id}`)).stock).toBe(17);
		const again = await a.post('/stock_update.php', { product_id: simpleA.product_id, stock: 0 });
		expect(again.json.data).toMatchObject({ old_stock: 17, new_stock: 0, external_ref: null });
	});

	test('a variant is updated on its own; its siblings keep their stock', async () => {
		const [first, second] = variantA.variant_combination_ids;
		const before = await sb.control('GET', `/products/${variantA.product_id}`);
		const res = await a.post('/stock_update.php', { product_id: variantA.product_id, variant_combination_id: first, stock: 9 });
		expect(res.json.data).toMatchObject({ variant_combination_id: first, new_stock: 9 });
		const after = await sb.control('GET', `/products/${variantA.product_id}`);
		const stockOf = (p: { variants: { variant_combination_id: number; stock: number }[] }, id: number) =>
			p.variants.find((v) => v.variant_combination_id === id)?.stock;
		expect(stockOf(after, first)).toBe(9);
		expect(stockOf(after, second)).toBe(stockOf(before, second));
	});

	test.each([
		['a negative stock', () => ({ product_id: simpleA.product_id, stock: -1 }), 'negative_stock', 'stock'],
		['a fractional stock', () => ({ product_id: simpleA.product_id, stock: 12.5 }), 'invalid_field', 'stock'],
		['a string stock', () => ({ product_id: simpleA.product_id, stock: '12' }), 'invalid_field', 'stock'],
		['a missing stock', () => ({ product_id: simpleA.product_id }), 'missing_field', 'stock'],
		['a missing product_id', () => ({ stock: 4 }), 'missing_field', 'product_id'],
		['a string product_id', () => ({ product_id: 'x', stock: 4 }), 'invalid_field', 'product_id'],
		['a non-string external_ref', () => ({ product_id: simpleA.product_id, stock: 4, external_ref: 5 }), 'invalid_field', 'external_ref'],
		['a variant product without its variant', () => ({ product_id: variantA.product_id, stock: 4 }), 'variant_required', 'variant_combination_id'],
		['a variant of another product', () => ({ product_id: simpleA.product_id, variant_combination_id: variantA.variant_combination_ids[0], stock: 4 }), 'variant_not_found', 'variant_combination_id'],
	])('%s is refused with %s', async (_, body, code, field) => {
		const res = await a.post('/stock_update.php', body());
		expect(res.status).toBeGreaterThanOrEqual(400);
		expect(res.status).toBeLessThan(500);
		expect(res.json.error).toMatchObject({ code, field, message: expect.any(String) });
	});

	test.each(['{"product_id":', '[1,2]', 'null', ''])('malformed body %j is invalid_json', async (body) => {
		const res = await a.post('/stock_update.php', body);
		expect(res.status).toBe(400);
		expect(res.json.error.code).toBe('invalid_json');
	});

	test('a body that is not declared application/json is refused with 415', async () => {
		const res = await a.post('/stock_update.php', { product_id: simpleA.product_id, stock: 1 }, { contentType: 'text/plain' });
		expect(res.status).toBe(415);
		expect(res.json.error.code).toBe('unsupported_media_type');
		const none = await a.post('/stock_update.php', { product_id: simpleA.product_id, stock: 1 }, { contentType: null });
		expect(none.status).toBe(415);
	});

	test('an unknown product is product_not_found; another seller\'s is forbidden_product and unchanged', async () => {
		const missing = await a.post('/stock_update.php', { product_id: 1, stock: 1 });
		expect(missing.status).toBe(404);
		expect(missing.json.error.code).toBe('product_not_found');
		const before = await sb.control('GET', `/products/${productB.product_id}`);
		const foreign = await a.post('/stock_update.php', { product_id: productB.product_id, stock: 1 });
		expect(foreign.status).toBe(403);
		expect(foreign.json.error.code).toBe('forbidden_product');
		expect(await sb.control('GET', `/products/${productB.product_id}`)).toEqual(before);
	});

	test.each([
		['a stock over 1,000,000,000', { stock: 1_000_000_001 }, 'stock', 'stock must not exceed 1000000000.'],
		['variant_combination_id 0', { stock: 1, variant_combination_id: 0 }, 'variant_combination_id', 'variant_combination_id must be a positive integer or null.'],
		['a negative variant_combination_id', { stock: 1, variant_combination_id: -3 }, 'variant_combination_id', 'variant_combination_id must be a positive integer or null.'],
		['a fractional variant_combination_id', { stock: 1, variant_combination_id: 2.5 }, 'variant_combination_id', 'variant_combination_id must be a positive integer or null.'],
		['a string variant_combination_id', { stock: 1, variant_combination_id: '7' }, 'variant_combination_id', 'variant_combination_id must be a positive integer or null.'],
	])('%s is invalid_field with a message naming the limit; the stock is unchanged', async (_, fields, field, message) => {
		const before = (await sb.control('GET', `/products/${variantA.product_id}`)).variants;
		const res = await a.post('/stock_update.php', { product_id: variantA.product_id, ...fields });
		expect(res.status).toBe(400);
		expect(res.json).toEqual({ ok: false, error: { code: 'invalid_field', message, field } });
		expect((await sb.control('GET', `/products/${variantA.product_id}`)).variants).toEqual(before);
	});

	test('the largest stock accepted is 1,000,000,000', async () => {
		const res = await a.post('/stock_update.php', { product_id: simpleA.product_id, stock: 1_000_000_000 });
		expect(res.json.data.new_stock).toBe(1_000_000_000);
	});

	test.each([
		['a negative stock', { stock: -1 }, { code: 'negative_stock', message: 'stock must not be negative.', field: 'stock' }],
		['a fractional stock', { stock: 1.5 }, { code: 'invalid_field', message: 'stock must be an integer.', field: 'stock' }],
		['no stock', {}, { code: 'missing_field', message: 'stock is required.', field: 'stock' }],
		['a product_id of 0', { product_id: 0, stock: 1 }, { code: 'invalid_field', message: 'product_id must be a positive integer.', field: 'product_id' }],
		['both product_id and sku', { sku: 'SKU-A-1', stock: 1 }, { code: 'invalid_field', message: 'Send product_id or sku, not both.', field: 'sku' }],
		['an empty sku', { product_id: undefined, sku: '', stock: 1 }, { code: 'invalid_field', message: 'sku must be a non-empty string of at most 64 characters.', field: 'sku' }],
		['an external_ref of 256 characters', { stock: 1, external_ref: 'r'.repeat(256) }, { code: 'invalid_field', message: 'external_ref must be a string of at most 255 characters.', field: 'external_ref' }],
	])('%s: the error in full', async (_, fields, error) => {
		const res = await a.post('/stock_update.php', { product_id: simpleA.product_id, ...fields });
		expect(res.json).toEqual({ ok: false, error });
	});

	test('variant errors name the product, the variant, and the variants to choose from', async () => {
		const [first, second] = variantA.variant_combination_ids;
		const required = await a.post('/stock_update.php', { product_id: variantA.product_id, stock: 1 });
		expect(required.json.error).toEqual({
			code: 'variant_required',
			message: `Product ${variantA.product_id} has variants; send variant_combination_id (one of ${variantA.variant_combination_ids.join(', ')}).`,
			field: 'variant_combination_id',
		});
		expect(variantA.variant_combination_ids.length).toBeGreaterThan(1);
		const foreign = await a.post('/stock_update.php', { product_id: simpleA.product_id, variant_combination_id: second, stock: 1 });
		expect(foreign.json.error).toEqual({
			code: 'variant_not_found',
			message: `Variant combination ${second} was not found for product ${simpleA.product_id}.`,
			field: 'variant_combination_id',
		});
		expect(first).not.toBe(second);
	});

	test('product errors by id name the product', async () => {
		expect((await a.post('/stock_update.php', { product_id: 1, stock: 1 })).json.error).toEqual({ code: 'product_not_found', message: 'Product 1 was not found.' });
		expect((await a.post('/stock_update.php', { product_id: productB.product_id, stock: 1 })).json.error).toEqual({
			code: 'forbidden_product',
			message: `Product ${productB.product_id} does not belong to this seller.`,
		});
	});

	test('an external_ref of 255 characters is accepted and echoed', async () => {
		const external_ref = 'r'.repeat(255);
		const res = await a.post('/stock_update.php', { product_id: simpleA.product_id, stock: 2, external_ref });
		expect(res.json.data.external_ref).toBe(external_ref);
	});

	test.each([
		['{"product_id":', 'The request body is not valid JSON.'],
		['5', 'The request body must be a JSON object.'],
		['"text"', 'The request body must be a JSON object.'],
		['[1]', 'The request body must be a JSON object.'],
	])('the body %s: invalid_json, saying which', async (body, message) => {
		const res = await a.post('/stock_update.php', body);
		expect(res.json).toEqual({ ok: false, error: { code: 'invalid_json', message } });
	});

	test.each([
		['application/json; charset=utf-8', 200],
		['Application/JSON', 200],
		['application/json ; charset=utf-8', 200],
		['application/json-patch+json', 415],
		['text/application/json', 415],
	])('Content-Type %s: %i', async (contentType, status) => {
		const res = await a.post('/stock_update.php', { product_id: simpleA.product_id, stock: 3 }, { contentType });
		expect(res.status).toBe(status);
		if (status === 415) expect(res.json.error).toEqual({ code: 'unsupported_media_type', message: 'Content-Type must be application/json.' });
	});

	test('a body over 64 KiB is refused with 413', async () => {
		const res = await a.post('/stock_update.php', { product_id: simpleA.product_id, stock: 1, external_ref: 'x'.repeat(70_000) });
		expect(res.status).toBe(413);
		expect(res.json.error.code).toBe('payload_too_large');
	});

	describe('by sku, the alternative to product_id', () => {
		test('SKUs follow the documented format, are listed and found by the control API', async () => {
			const state = await sb.control('GET', '/state');
			expect(state.skuFormat).toBe('SKU-<seller key A|B>-<product_id>');
			expect(simpleA.sku).toBe(`SKU-A-${simpleA.product_id}`);
			expect(productB.sku).toBe(`SKU-B-${productB.product_id}`);
			expect(await sb.control('GET', `/products?sku=${simpleA.sku}`)).toEqual([
				expect.objectContaining({ product_id: simpleA.product_id, sku: simpleA.sku, seller_id: 1001 }),
			]);
			expect(await sb.control('GET', '/products?sku=SKU-A-1')).toEqual([]);
		});

		test('sets the stock of the product with that SKU and answers with its product_id', async () => {
			const before = (await sb.control('GET', `/products/${simpleA.product_id}`)).stock;
			const res = await a.post('/stock_update.php', { sku: simpleA.sku, stock: 31, external_ref: 'by-sku' });
			expect(res.status).toBe(200);
			expect(res.json.data).toEqual({
				product_id: simpleA.product_id,
				variant_combination_id: null,
				old_stock: before,
				new_stock: 31,
				updated: true,
				external_ref: 'by-sku',
				updated_at: expect.any(String),
			});
			expect((await sb.control('GET', `/products/${simpleA.product_id}`)).stock).toBe(31);
		});

		test('a variant of a product named by SKU is updated on its own', async () => {
			const [, second] = variantA.variant_combination_ids;
			const res = await a.post('/stock_update.php', { sku: variantA.sku, variant_combination_id: second, stock: 6 });
			expect(res.json.data).toMatchObject({ product_id: variantA.product_id, variant_combination_id: second, new_stock: 6 });
			const after = await sb.control('GET', `/products/${variantA.product_id}`);
			expect(after.variants.find((v: { variant_combination_id: number }) => v.variant_combination_id === second).stock).toBe(6);
		});

		test('an unknown SKU is product_not_found, naming the SKU', async () => {
			const res = await a.post('/stock_update.php', { sku: 'NO-SUCH-SKU', stock: 1 });
			expect(res.status).toBe(404);
			expect(res.json.error).toEqual({ code: 'product_not_found', message: 'Product with SKU "NO-SUCH-SKU" was not found.' });
			// SKUs are matched exactly: case and spaces count.
			expect((await a.post('/stock_update.php', { sku: simpleA.sku.toLowerCase(), stock: 1 })).json.error.code).toBe('product_not_found');
			expect((await a.post('/stock_update.php', { sku: ` ${simpleA.sku}`, stock: 1 })).json.error.code).toBe('product_not_found');
		});

		test("another seller's SKU is forbidden_product and changes nothing", async () => {
			const before = await sb.control('GET', `/products/${productB.product_id}`);
			const res = await a.post('/stock_update.php', { sku: productB.sku, stock: 1 });
			expect(res.status).toBe(403);
			expect(res.json.error).toEqual({
				code: 'forbidden_product',
				message: `Product with SKU "${productB.sku}" does not belong to this seller.`,
			});
			expect(await sb.control('GET', `/products/${productB.product_id}`)).toEqual(before);
		});

		test.each([
			['a variant product without its variant', () => ({ sku: variantA.sku, stock: 4 }), 400, 'variant_required', 'variant_combination_id'],
			['a variant of another product', () => ({ sku: simpleA.sku, variant_combination_id: variantA.variant_combination_ids[0], stock: 4 }), 404, 'variant_not_found', 'variant_combination_id'],
			['a negative stock', () => ({ sku: simpleA.sku, stock: -1 }), 400, 'negative_stock', 'stock'],
			['a missing stock', () => ({ sku: simpleA.sku }), 400, 'missing_field', 'stock'],
			['a numeric sku', () => ({ sku: 70001, stock: 1 }), 400, 'invalid_field', 'sku'],
			['an empty sku', () => ({ sku: '', stock: 1 }), 400, 'invalid_field', 'sku'],
			['an sku over 64 characters', () => ({ sku: 'S'.repeat(65), stock: 1 }), 400, 'invalid_field', 'sku'],
			['both product_id and sku', () => ({ product_id: simpleA.product_id, sku: simpleA.sku, stock: 1 }), 400, 'invalid_field', 'sku'],
		])('%s is refused as it is by product_id', async (_, body, status, code, field) => {
			const res = await a.post('/stock_update.php', body());
			expect(res.status).toBe(status);
			expect(res.json.error).toMatchObject({ code, field, message: expect.any(String) });
		});

		test('neither product_id nor sku is missing_field, naming both', async () => {
			const res = await a.post('/stock_update.php', { sku: null, stock: 4 });
			expect(res.json.error).toEqual({ code: 'missing_field', field: 'product_id', message: 'product_id (or sku) is required.' });
		});

		test('an invalid stock is reported before the SKU is looked up, as for product_id', async () => {
			const res = await a.post('/stock_update.php', { sku: 'NO-SUCH-SKU', stock: -3 });
			expect(res.json.error.code).toBe('negative_stock');
		});

		test('an SKU of 64 characters is looked up (the limit is inclusive)', async () => {
			const res = await a.post('/stock_update.php', { sku: 'S'.repeat(64), stock: 1 });
			expect(res.json.error.code).toBe('product_not_found');
		});
	});

	describe('a marketplace without updates by sku (--no-sku, POST /sku-updates)', () => {
		beforeEach(() => sb.control('POST', '/sku-updates', { accepted: false }));
		afterAll(() => sb.control('POST', '/sku-updates', { accepted: true }));

		test('sku is ignored like any unknown field: the request misses product_id, and nothing changes', async () => {
			const before = (await sb.control('GET', `/products/${simpleA.product_id}`)).stock;
			const res = await a.post('/stock_update.php', { sku: simpleA.sku, stock: before + 1 });
			expect(res.status).toBe(400);
			expect(res.json).toEqual({ ok: false, error: { code: 'missing_field', field: 'product_id', message: 'product_id is required.' } });
			expect((await sb.control('GET', `/products/${simpleA.product_id}`)).stock).toBe(before);
		});

		test('updates by product_id go on as before; an sku beside it is ignored, not refused as ambiguous', async () => {
			expect((await a.post('/stock_update.php', { product_id: simpleA.product_id, stock: 12 })).json.data.new_stock).toBe(12);
			const res = await a.post('/stock_update.php', { product_id: simpleA.product_id, sku: productB.sku, stock: 13 });
			expect(res.json.data).toMatchObject({ product_id: simpleA.product_id, new_stock: 13 });
		});

		test('the control API shows and changes the setting, refuses anything but a boolean, and /reset restores it', async () => {
			expect(await sb.control('GET', '/sku-updates')).toEqual({ accepted: false });
			expect((await sb.control('GET', '/state')).skuUpdates).toBe(false);
			await expect(sb.control('POST', '/sku-updates', { accepted: 'no' })).rejects.toThrow(/accepted must be true or false/);
			await sb.control('POST', '/reset', {});
			expect(await sb.control('GET', '/sku-updates')).toEqual({ accepted: true });
			expect((await a.post('/stock_update.php', { sku: simpleA.sku, stock: 3 })).json.data.new_stock).toBe(3);
		});
	});
});
