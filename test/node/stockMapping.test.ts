// Stock > Update, version 2: columns mapped automatically or one by one (n8n's resource mapper), and
// products identified by SKU. Run by n8n's engine against the sandbox over HTTP.
import type { IDataObject, ILoadOptionsFunctions, INodeProperties, ResourceMapperField } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { ok, startScriptedApi } from '../helpers/scriptedApi';

type Product = { product_id: number; sku: string; stock: number; seller_id: number; variant_combination_ids: number[] };

const node = new MarketplacePartner();

async function columnsOf(identifyBy: string): Promise<ResourceMapperField[]> {
	const context = { getNodeParameter: (name: string) => (name === 'identifyBy' ? identifyBy : undefined) } as unknown as ILoadOptionsFunctions;
	return (await node.methods.resourceMapping.getStockColumns.call(context)).fields;
}

/** Stock › Update with Map Automatically: the item's columns are the row. */
const auto = { resource: 'stock', operation: 'update', columns: { mappingMode: 'autoMapInputData', value: null } };

describe('Stock > Update v2 in the n8n engine', () => {
	let sb: RunningSandbox;
	let simple: Product[];
	let withVariants: Product;
	let foreign: Product;
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
	const stockOf = async (id: number) => (await sb.control('GET', `/products/${id}`)).stock;
	const requests = async () => (await sb.control('GET', '/stats')).requests as number;
	const run = (parameters: object, items: object[], extra: { continueOnFail?: boolean } = {}) =>
		runNode({ parameters: parameters as never, items: items as never, credentials: credentials(), typeVersion: 2, ...extra });

	beforeAll(async () => {
		sb = await startSandbox({ products: 200 });
		const products: Product[] = await sb.control('GET', '/products?sellerId=1001');
		simple = products.filter((p) => p.variant_combination_ids.length === 0);
		withVariants = products.find((p) => p.variant_combination_ids.length > 1)!;
		foreign = (await sb.control('GET', '/products?sellerId=1002'))[0];
	});
	beforeEach(() => sb.control('POST', '/stats/reset'));
	afterAll(() => sb.close());

	describe("a sheet's errors in one run, in the sheet's words", () => {
		const bySkuAuto = { ...auto, identifyBy: 'sku' };
		const nothingSent = (good: string, rows: string) =>
			`Nothing was sent${good}: fix ${rows} in your data (or the mapping) and run it again, or set Settings › On Error to Continue to send the good rows and get each bad one as an error item.`;

		test('every bad row is named at once, in the rows the sheet shows and the item beside them; a blank cell is blank; nothing is sent', async () => {
			const rows = [
				{ sku: simple[50].sku, stock: '5' },
				{ sku: withVariants.sku, stock: '2' },
				{ sku: simple[51].sku, stock: '-3' },
				{ sku: simple[52].sku, stock: 'abc' },
				// n8n's spreadsheet reader leaves a blank cell out of the item.
				{ sku: simple[53].sku },
				{ sku: simple[54].sku, stock: '7' },
			];
			const before = await stockOf(simple[50].product_id);
			const { error } = await run(bySkuAuto, rows);
			expect(error?.message).toBe('3 rows have values that cannot be sent (rows 4, 5, 6)');
			expect(error?.description).toBe(
				[
					'Row 4 (item 2): Stock (column "stock") must be 0 or more, but got -3 (stock cannot be negative).',
					'Row 5 (item 3): Stock (column "stock") must be a whole number, but got "abc".',
					'Row 6 (item 4): Stock (column "stock") is blank; it needs a whole number.',
					nothingSent(', not even the 3 good rows', 'these 3 rows'),
				].join('\n'),
			);
			expect(error?.context?.itemIndex).toBeUndefined();
			expect(await requests()).toBe(0);
			expect(await stockOf(simple[50].product_id)).toBe(before);
		});

		test("rows from Google Sheets are named by their own row_number; the run's other errors say the same row", async () => {
			const { error } = await run(bySkuAuto, [
				{ row_number: 10, sku: simple[55].sku, stock: '1' },
				{ row_number: 12, sku: simple[56].sku, stock: '1.5' },
			]);
			expect(error?.message).toBe('Row 12 (item 1): Stock (column "stock") must be a whole number, but got "1.5".');
			expect(error?.context?.itemIndex).toBe(1);
			expect(error?.description).toBe(nothingSent(', not even the 1 good row', 'this row'));
			// An answer the API refuses names the sheet's row too, and how far the sheet got.
			const refused = await run(bySkuAuto, [
				{ row_number: 10, sku: simple[55].sku, stock: '1' },
				{ row_number: 11, sku: 'SKU-NOT-THERE', stock: '1' },
			]);
			expect(refused.error?.description).toMatch(/ Row 11 \(item 1\) failed, of 2 rows; 1 row was applied, the other 1 not\. /);
			// A row_number that is no row is not believed: the row under a header row.
			const odd = await run(bySkuAuto, [{ row_number: 0, sku: simple[55].sku, stock: 'x' }, { row_number: '7', sku: simple[55].sku, stock: 'x' }, { row_number: 2.5, sku: simple[55].sku, stock: 'y' }]);
			expect(odd.error?.message).toBe('3 rows have values that cannot be sent (rows 2, 3, 4)');
		});

		test('exactly at the caps nothing is counted as more: five rows of one error, twenty errors', async () => {
			const five = await run(bySkuAuto, [...Array.from({ length: 5 }, (_, i) => ({ sku: simple[60 + i].sku, stock: '' })), { sku: simple[65].sku, stock: 'x' }]);
			expect(five.error!.description!.split('\n')[0]).toBe('Row 2 (item 0), row 3 (item 1), row 4 (item 2), row 5 (item 3), row 6 (item 4): Stock (column "stock") is blank; it needs a whole number.');
			const twenty = await run(bySkuAuto, Array.from({ length: 20 }, (_, i) => ({ sku: simple[70].sku, stock: `bad${i}` })));
			const lines = twenty.error!.description!.split('\n');
			expect(lines).toHaveLength(21);
			expect(lines[19]).toBe('Row 21 (item 19): Stock (column "stock") must be a whole number, but got "bad19".');
			expect(lines[20]).toBe(nothingSent('', 'these 20 rows'));
		});

		test('one error of many rows is said once with the first rows; many errors are capped, the rest counted', async () => {
			const same = await run(bySkuAuto, Array.from({ length: 8 }, (_, i) => ({ SKU: simple[60 + i].sku, Qty: '1' })));
			expect(same.error?.message).toMatch(/^Row 2 \(item 0\), row 3 \(item 1\), row 4 \(item 2\), row 5 \(item 3\), row 6 \(item 4\) and 3 more rows: This item has no Stock column\. /);
			expect(same.error?.description).toBe(nothingSent('', 'these 8 rows'));

			const many = await run(bySkuAuto, [{ sku: simple[70].sku, stock: '1' }, ...Array.from({ length: 25 }, (_, i) => ({ sku: simple[70].sku, stock: `bad${i}` }))]);
			expect(many.error?.message).toBe('25 rows have values that cannot be sent (rows 3, 4, 5, …)');
			const lines = many.error!.description!.split('\n');
			expect(lines).toHaveLength(22);
			expect(lines[0]).toBe('Row 3 (item 1): Stock (column "stock") must be a whole number, but got "bad0".');
			expect(lines[19]).toBe('Row 22 (item 20): Stock (column "stock") must be a whole number, but got "bad19".');
			expect(lines[20]).toBe('… and 5 other errors.');
			expect(lines[21]).toBe(nothingSent(', not even the 1 good row', 'these 25 rows'));
			expect(await requests()).toBe(0);
		});

		test('with Continue On Fail the good rows are sent and each bad one is its error item', async () => {
			const { items, error } = await run(bySkuAuto, [{ sku: simple[71].sku, stock: '4' }, { sku: simple[72].sku }], { continueOnFail: true });
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ new_stock: 4 });
			expect(items[1].json).toMatchObject({ error: 'Stock (column "stock") is blank; it needs a whole number.', details: { itemIndex: 1, code: 'invalid_value' } });
			expect(await stockOf(simple[71].product_id)).toBe(4);
		});

		test('a column no row has is still a missing column, not a blank cell', async () => {
			const { error } = await run(bySkuAuto, [{ sku: simple[73].sku }]);
			expect(error?.message).toMatch(/^Row 2 \(item 0\): This item has no Stock column\./);
		});

		test('with Continue On Fail a row without a column is its error item, saying nothing was sent for it', async () => {
			const { items, error } = await run(bySkuAuto, [{ sku: simple[73].sku }], { continueOnFail: true });
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				error: expect.stringMatching(/^This item has no Stock column\./),
				details: { itemIndex: 0, description: 'Nothing was sent for this item. Make the change the message names (or rename the columns in your data) and run it again.' },
			});
		});
	});

	describe('Map Automatically', () => {
		test('a new node maps automatically: rows read product_id, stock, variant and reference by column name', async () => {
			const [a, b] = simple;
			const variant = withVariants.variant_combination_ids[1];
			const { items, error } = await run({ resource: 'stock', operation: 'update' }, [
				{ product_id: String(a.product_id), stock: '12', title: 'ignored', external_ref: 'row-2' },
				{ product_id: withVariants.product_id, variant_combination_id: String(variant), stock: 4 },
				{ product_id: b.product_id, variant_combination_id: '', stock: '0', external_ref: 1234 },
			]);
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toEqual([
				expect.objectContaining({ product_id: a.product_id, variant_combination_id: null, new_stock: 12, external_ref: 'row-2' }),
				// No reference column: no external_ref is sent.
				expect.objectContaining({ product_id: withVariants.product_id, variant_combination_id: variant, new_stock: 4, external_ref: null }),
				expect.objectContaining({ product_id: b.product_id, new_stock: 0, external_ref: '1234' }),
			]);
			expect(await stockOf(a.product_id)).toBe(12);
			expect(await stockOf(b.product_id)).toBe(0);
		});

		test.each([
			[{ 'Product ID': 'p', Stock: 's', 'Variant Combination ID': 'v', 'External Ref': 'r' }],
			[{ productId: 'p', STOCK: 's', variantCombinationId: 'v', externalReference: 'r' }],
			[{ 'product-id': 'p', ' stock ': 's', VARIANT_COMBINATION_ID: 'v', 'External Reference': 'r' }],
		])('header variants are the same columns: %j', async (headers) => {
			const variant = withVariants.variant_combination_ids[0];
			const values: Record<string, unknown> = { p: String(withVariants.product_id), s: '9', v: String(variant), r: 'ERP-9' };
			const row = Object.fromEntries(Object.entries(headers).map(([header, key]) => [header, values[key]]));
			const { items, error } = await run(auto, [row]);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ product_id: withVariants.product_id, variant_combination_id: variant, new_stock: 9, external_ref: 'ERP-9' });
		});

		test('a column named exactly wins over a header variant', async () => {
			const { items } = await run(auto, [{ stock: '3', Stock: '4', product_id: simple[3].product_id }]);
			expect(items[0].json).toMatchObject({ new_stock: 3 });
		});

		test('columns named otherwise are named once under Column Names, for every row', async () => {
			const rows = simple.slice(4, 7).map((p, i) => ({ 'Artikel-Nr': String(p.product_id), Qty: String(20 + i), Note: `n${i}`, stock: '999' }));
			const { items, error } = await run({ ...auto, columnNames: { productId: 'Artikel-Nr', stock: 'qty', externalRef: ' Note ' } }, rows);
			expect(error).toBeUndefined();
			expect(items.map((i) => [i.json.product_id, i.json.new_stock, i.json.external_ref])).toEqual(simple.slice(4, 7).map((p, i) => [p.product_id, 20 + i, `n${i}`]));
		});

		test('a column named under Column Names with spaces around it is that column, and is quoted without them when missing', async () => {
			const product = simple[9];
			const { items, error } = await run({ ...auto, columnNames: { stock: '  Qty ' } }, [{ product_id: product.product_id, Qty: '6' }]);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ product_id: product.product_id, new_stock: 6 });
			const missing = await run({ ...auto, columnNames: { stock: '  Menge ' } }, [{ product_id: product.product_id, Qty: '6' }]);
			expect(missing.error?.message).toBe(
				'Row 2 (item 0): This item has no Stock column. The column "Menge" named under Column Names › Stock Column is not in this item. The item\'s columns: "product_id", "Qty".',
			);
		});

		test('a Product ID of 0 is refused before anything is sent: ids start at 1', async () => {
			const { error } = await run(auto, [{ product_id: '0', stock: '1' }]);
			expect(error?.message).toBe('Row 2 (item 0): Product ID (column "product_id") must be 1 or more, but got 0.');
			expect(await requests()).toBe(0);
		});

		test('a bad value names its field and column, and nothing at all is sent', async () => {
			const { error } = await run({ ...auto, columnNames: { stock: 'Qty' } }, [
				{ product_id: simple[7].product_id, Qty: '5' },
				{ 'Product ID': simple[8].product_id, Qty: '12.5' },
			]);
			expect(error?.message).toBe('Row 3 (item 1): Stock (column "Qty") must be a whole number, but got "12.5".');
			expect(error?.context?.itemIndex).toBe(1);
			expect(error?.description).toMatch(/^Nothing was sent, not even the 1 good row: fix this row in your data/);
			expect(await requests()).toBe(0);
		});

		test.each([
			// The one column no field reads is offered for the one field without a column.
			[{}, { Product: 1, stock: 1 }, 'This item has no Product ID column. If "Product" is your Product ID column, name it under Column Names › Product ID Column. The item\'s columns: "Product", "stock".'],
			[{}, { Product: 1, Title: 'x', stock: 1 }, 'This item has no Product ID column. Looked for "product_id" or a header such as "Product ID"; name your Product ID column under Column Names › Product ID Column. The item\'s columns: "Product", "Title", "stock".'],
			[{ stock: 'Qty' }, { product_id: 1, stock: 1 }, 'This item has no Stock column. The column "Qty" named under Column Names › Stock Column is not in this item. The item\'s columns: "product_id", "stock".'],
			[{}, { product_id: 1, 'Product ID': 2, stock: 1 }, null],
			[{}, { 'Product ID': 1, productId: 2, stock: 1 }, 'The columns "Product ID" and "productId" all read as product_id; keep one of them, or name the one to use under Column Names.'],
			// Every missing column at once, each with its fix: one run to find them all.
			[
				{},
				{},
				'This item has no Product ID column and no Stock column. Looked for "product_id" or a header such as "Product ID"; name your Product ID column under Column Names › Product ID Column. ' +
					'Looked for "stock" or a header such as "Stock"; name your Stock column under Column Names › Stock Column. The item\'s columns: none.',
			],
			[
				{ stock: 'Menge' },
				{ Artikel: 1, Qty: 2 },
				'This item has no Product ID column and no Stock column. Looked for "product_id" or a header such as "Product ID"; name your Product ID column under Column Names › Product ID Column. ' +
					'The column "Menge" named under Column Names › Stock Column is not in this item. The item\'s columns: "Artikel", "Qty".',
			],
		])('with Column Names %j, the row %j is refused: %s', async (columnNames, row, message) => {
			const { error } = await run({ ...auto, columnNames }, [row]);
			if (message === null) {
				// product_id written exactly is read, and product 1 does not exist
				expect(error?.message).toBe('The product was not found');
				return;
			}
			expect(error?.message).toBe(`Row 2 (item 0): ${message}`);
			expect(await requests()).toBe(0);
		});

		describe('a sheet of SKU and Qty, met with the defaults (Identify Product By: Product ID)', () => {
			const products = () => simple.slice(40, 43);
			const sheet = (stocks: number[]) => products().map((p, i) => ({ SKU: p.sku, Qty: String(stocks[i]) }));
			const stocks = () => Promise.all(products().map((p) => stockOf(p.product_id)));
			const bothFixes =
				'This item has no Product ID column and no Stock column. Its column "SKU" reads as SKU: to update by SKU, set Identify Product By › SKU. ' +
				'If "Qty" is your Stock column, name it under Column Names › Stock Column. The item\'s columns: "SKU", "Qty".';

			test('applies every row within two runs: the first error names both fixes at once, the second run follows them', async () => {
				const before = await stocks();
				const wanted = before.map((stock) => stock + 7);
				const first = await run({ resource: 'stock', operation: 'update' }, sheet(wanted));
				// One fix for every row: named once, with the rows it holds for.
				expect(first.error?.message).toBe(`Row 2 (item 0), row 3 (item 1), row 4 (item 2): ${bothFixes}`);
				expect(first.error?.description).toMatch(/^Nothing was sent: fix these 3 rows in your data \(or the mapping\) and run it again/);
				expect(await requests()).toBe(0);
				expect(await stocks()).toEqual(before);

				const second = await run({ resource: 'stock', operation: 'update', identifyBy: 'sku', columnNames: { stock: 'Qty' } }, sheet(wanted));
				expect(second.error).toBeUndefined();
				expect(second.items.map((i) => [i.json.product_id, i.json.new_stock])).toEqual(products().map((p, i) => [p.product_id, wanted[i]]));
				expect(await stocks()).toEqual(wanted);
			});

			test('with Continue On Fail every row comes out as an error item naming both fixes, and nothing is sent', async () => {
				const { items, error } = await run(auto, sheet([1, 2, 3]), { continueOnFail: true });
				expect(error).toBeUndefined();
				expect(items.map((i) => [i.json.error, (i.json.details as { code: string }).code, i.pairedItem])).toEqual([0, 1, 2].map((item) => [bothFixes, 'invalid_value', { item }]));
				expect(await requests()).toBe(0);
			});

			test('its SKUs named as the Product ID column: the error says they look like SKUs and points to Identify Product By › SKU', async () => {
				const { error } = await run({ ...auto, columnNames: { productId: 'SKU', stock: 'Qty' } }, [
					{ SKU: String(simple[44].product_id), Qty: '5' },
					{ SKU: 'SKU-A-70001', Qty: '5' },
				]);
				expect(error?.message).toBe('Row 3 (item 1): Product ID (column "SKU") must be a whole number, but got "SKU-A-70001", which looks like a SKU: to update by SKU, set Identify Product By › SKU.');
				expect(error?.context?.itemIndex).toBe(1);
				expect(await requests()).toBe(0);
				// A number mistyped is not taken for a SKU.
				const mistyped = await run(auto, [{ product_id: '12.5', stock: '5' }]);
				expect(mistyped.error?.message).toBe('Row 2 (item 0): Product ID (column "product_id") must be a whole number, but got "12.5".');
			});
		});
	});

	describe('Map Each Column Manually', () => {
		const defineBelow = async (value: Record<string, string>) => ({
			resource: 'stock',
			operation: 'update',
			columns: { mappingMode: 'defineBelow', value, matchingColumns: [], schema: await columnsOf('productId'), attemptToConvertTypes: false, convertFieldsToString: false },
		});

		test('each column maps an expression or a fixed value', async () => {
			const parameters = await defineBelow({ product_id: '={{ $json.pid }}', stock: '={{ $json.qty }}', external_ref: 'fixed' });
			const { items, error } = await run(parameters, [
				{ pid: String(simple[9].product_id), qty: '31' },
				{ pid: simple[10].product_id, qty: 32 },
			]);
			expect(error).toBeUndefined();
			expect(items.map((i) => [i.json.product_id, i.json.new_stock, i.json.external_ref])).toEqual([
				[simple[9].product_id, 31, 'fixed'],
				[simple[10].product_id, 32, 'fixed'],
			]);
		});

		test('an empty stock cell is an error, never stock 0 (n8n does not turn it into a number first)', async () => {
			const before = await stockOf(simple[11].product_id);
			const parameters = await defineBelow({ product_id: '={{ $json.pid }}', stock: '={{ $json.qty }}' });
			const { error } = await run(parameters, [{ pid: simple[11].product_id, qty: '' }]);
			expect(error?.message).toBe('Row 2 (item 0): Stock is blank; it needs a whole number.');
			expect(await stockOf(simple[11].product_id)).toBe(before);
		});

		test('a SKU mapped as the Product ID is said to look like one, pointing to Identify Product By › SKU', async () => {
			const parameters = await defineBelow({ product_id: '={{ $json.code }}', stock: '={{ $json.qty }}' });
			const { error } = await run(parameters, [{ code: simple[45].sku, qty: '1' }]);
			expect(error?.message).toBe(`Row 2 (item 0): Product ID must be a whole number, but got "${simple[45].sku}", which looks like a SKU: to update by SKU, set Identify Product By › SKU.`);
			expect(await requests()).toBe(0);
		});
	});

	describe('Identify Product By: SKU', () => {
		const bySku = { ...auto, identifyBy: 'sku' };

		test('the body carries sku; the result reports the product it resolved to', async () => {
			const variant = withVariants.variant_combination_ids[0];
			const { items, error } = await run(bySku, [
				{ SKU: ` ${simple[12].sku} `, Stock: '15' },
				{ sku: withVariants.sku, 'Variant Combination ID': variant, stock: 6 },
			]);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ product_id: simple[12].product_id, new_stock: 15 });
			expect(items[1].json).toMatchObject({ product_id: withVariants.product_id, variant_combination_id: variant, new_stock: 6 });
			expect(await stockOf(simple[12].product_id)).toBe(15);
			const sent = (await sb.control('GET', '/stats')).recent.filter((r: { endpoint: string }) => r.endpoint === '/stock_update.php');
			expect(sent).toHaveLength(2);
		});

		test('rows of different SKUs go out concurrently; rows of one SKU one after the other, the last row winning', async () => {
			try {
				const others = simple.slice(20, 36).map((p, i) => ({ sku: p.sku, stock: i }));
				const same = Array.from({ length: 6 }, (_, i) => ({ sku: simple[16].sku, stock: 100 + i }));
				// The first request (row 1) is answered 429: its retry must still come before rows 2 to 6.
				await sb.control('POST', '/faults', { latencyMs: 20, next429: 1, retryAfterSec: 1 });
				const { error } = await run(bySku, [...same, ...others]);
				expect(error).toBeUndefined();
				expect(await stockOf(simple[16].product_id)).toBe(105);
				expect((await sb.control('GET', '/stats')).maxInFlight).toBeGreaterThan(1);
			} finally {
				await sb.control('POST', '/faults/reset');
			}
		});

		test('Column Names offers the SKU column, not the Product ID column, when identifying by SKU', () => {
			const columnNames = node.description.properties.find((p) => p.name === 'columnNames')!;
			const shown = (identifyBy: string) =>
				(columnNames.options as INodeProperties[])
					.filter((o) => NodeHelpers.displayParameterPath({ identifyBy, columnNames: {} }, o, 'columnNames', { typeVersion: 2 }, node.description))
					.map((o) => o.name);
			expect(shown('sku')).toEqual(['externalRef', 'sku', 'stock', 'variantCombinationId']);
			expect(shown('productId')).toEqual(['externalRef', 'productId', 'stock', 'variantCombinationId']);
		});

		test('a sheet of product_id met by SKU: the error says to set Identify Product By › Product ID', async () => {
			const { error } = await run(bySku, [{ 'Product ID': simple[46].product_id, Stock: 1 }]);
			expect(error?.message).toBe(
				'Row 2 (item 0): This item has no SKU column. Its column "Product ID" reads as Product ID: to update by Product ID, set Identify Product By › Product ID. The item\'s columns: "Product ID", "Stock".',
			);
			expect(await requests()).toBe(0);
		});

		test('a SKU column named otherwise is named once', async () => {
			const { items, error } = await run({ ...bySku, columnNames: { sku: 'Item Code', stock: 'Qty' } }, [{ 'Item Code': simple[13].sku, Qty: 2 }]);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ product_id: simple[13].product_id, new_stock: 2 });
		});

		test('every SKU error is a per-row result saying what to fix, with Continue On Fail', async () => {
			const rows = [
				{ sku: 'SKU-NOT-THERE', stock: 1 },
				{ sku: foreign.sku, stock: 1 },
				{ sku: withVariants.sku, stock: 1 },
				{ sku: withVariants.sku, variant_combination_id: 1, stock: 1 },
				{ sku: '  ', stock: 1 },
				{ stock: 1 },
				{ sku: simple[14].sku, stock: 'x' },
				{ sku: simple[14].sku, stock: 8 },
			];
			const foreignBefore = await stockOf(foreign.product_id);
			const { items, error } = await run(bySku, rows, { continueOnFail: true });
			expect(error).toBeUndefined();
			expect(items.map((i) => i.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
			expect(items[0].json).toMatchObject({ error: 'No product has this SKU', details: { code: 'product_not_found', httpCode: '404', itemIndex: 0 } });
			expect(items[0].json.details).toMatchObject({ description: expect.stringMatching(/Check the SKU/) });
			expect(items[1].json).toMatchObject({ error: 'The SKU belongs to another seller', details: { code: 'forbidden_product', httpCode: '403' } });
			expect(items[2].json).toMatchObject({ error: 'This product has variants: the stock must be set per variant', details: { code: 'variant_required' } });
			expect(items[3].json).toMatchObject({ details: { code: 'variant_not_found' } });
			expect(items[4].json).toMatchObject({ error: 'SKU (column "sku") is blank; it needs the product\'s SKU.', details: { code: 'invalid_value', itemIndex: 4 } });
			// Other rows have the column: this row's cell is blank (n8n's sheet reader leaves blank cells out).
			expect(items[5].json.error).toBe('SKU (column "sku") is blank; it needs the product\'s SKU.');
			expect(items[6].json.error).toBe('Stock (column "stock") must be a whole number, but got "x".');
			expect(items[7].json).toMatchObject({ product_id: simple[14].product_id, new_stock: 8 });
			expect(await stockOf(foreign.product_id)).toBe(foreignBefore);
			// Rows refused by the node never reached the API.
			expect(await requests()).toBe(5);
		});

		describe('a marketplace that does not accept sku (the sandbox with updates by sku off)', () => {
			beforeEach(() => sb.control('POST', '/sku-updates', { accepted: false }));
			afterEach(() => sb.control('POST', '/sku-updates', { accepted: true }));

			test('its answer (product_id is missing) tells the user to use Product ID, with the API\'s words; nothing changes', async () => {
				const target = simple[20];
				const before = await stockOf(target.product_id);
				const { error } = await run(bySku, [{ sku: target.sku, stock: before + 1 }]);
				expect(error?.message).toBe('This marketplace does not accept updates by SKU');
				expect(error?.description).toContain('API code: missing_field. The API said: product_id is required (field: product_id).');
				expect(error?.description).toContain('Set Identify Product By to Product ID');
				expect(error?.httpCode).toBe('400');
				expect(await stockOf(target.product_id)).toBe(before);
			});

			test('the same marketplace takes the sheet by Product ID', async () => {
				const target = simple[20];
				const { items, error } = await run(auto, [{ product_id: target.product_id, stock: 9 }]);
				expect(error).toBeUndefined();
				expect(items[0].json).toMatchObject({ product_id: target.product_id, new_stock: 9 });
			});
		});
	});

	describe('what the editor says about Map Automatically', () => {
		const shown = () =>
			node.description.properties.filter((p) =>
				NodeHelpers.displayParameter({ resource: 'stock', operation: 'update', columns: { mappingMode: 'autoMapInputData' } }, p, { typeVersion: 2 }, node.description),
			);

		test("our notice goes on from n8n's own, which no typeOption hides or rewords: the same columns, and what else counts as their name", () => {
			const columns = shown().find((p) => p.name === 'columns')!;
			// n8n 2.41's resourceMapper.autoMappingNotice as the editor fills it in: {fieldWord} from the
			// mapper's fieldWords, {serviceName} the node's display name.
			const n8nNotice = `In this mode, make sure the incoming data fields are named the same as the ${columns.typeOptions?.resourceMapper?.fieldWords?.plural} in ${node.description.displayName}. (Use an 'Edit Fields' node before this node to change them if required.)`;
			expect(n8nNotice).toBe("In this mode, make sure the incoming data fields are named the same as the columns in Marketplace Partner. (Use an 'Edit Fields' node before this node to change them if required.)");
			expect(shown().find((p) => p.name === 'autoMapNotice')?.displayName).toBe(
				'The columns in Marketplace Partner are product_id (or sku, as Identify Product By says) and stock, plus variant_combination_id and external_ref if needed, in any spelling ("Product ID").',
			);
		});

		test("the help texts are in the user's words: no API spec, no sandbox", () => {
			const texts: string[] = [];
			const collect = (value: unknown): void => {
				if (Array.isArray(value)) value.forEach(collect);
				else if (value && typeof value === 'object') {
					for (const [key, v] of Object.entries(value)) {
						if (['displayName', 'name', 'description', 'hint', 'placeholder'].includes(key) && typeof v === 'string') texts.push(v);
						else collect(v);
					}
				}
			};
			collect(shown());
			expect(texts.filter((text) => /\b(spec|sandbox)\b/i.test(text))).toEqual([]);
			const sku = (shown().find((p) => p.name === 'identifyBy')?.options as Array<{ value: string; description: string }>).find((o) => o.value === 'sku');
			expect(sku?.description).toBe('Your own SKU, sent in place of product_id. Not every marketplace accepts SKUs; Connection › Check Setup, given a Test Product and its SKU, tells you whether yours does.');
		});
	});

	describe('versions', () => {
		test('version 1 keeps its parameters (Product ID, Stock, Additional Fields); version 2 has the mapper', () => {
			const shown = (typeVersion: number) =>
				node.description.properties
					.filter((p) => NodeHelpers.displayParameter({ resource: 'stock', operation: 'update', columns: { mappingMode: 'autoMapInputData' } }, p, { typeVersion }, node.description))
					.map((p) => p.name)
					.filter((name) => name !== 'resource' && name !== 'operation');
			expect(shown(1)).toEqual(['productId', 'stock', 'additionalFields', 'options']);
			expect(shown(2)).toEqual(['identifyBy', 'columns', 'autoMapNotice', 'columnNames', 'options']);
			const mapped = node.description.properties.filter((p) =>
				NodeHelpers.displayParameter({ resource: 'stock', operation: 'update', columns: { mappingMode: 'defineBelow' } }, p, { typeVersion: 2 }, node.description),
			);
			expect(mapped.map((p) => p.name).filter((name) => name !== 'resource' && name !== 'operation')).toEqual(['identifyBy', 'columns', 'options']);
			expect(node.description.version).toEqual([1, 2, 3, 4]);
			expect(node.description.defaultVersion).toBe(4);
		});

		test("n8n 1.x can order the parameters: every displayOptions key names a top-level parameter, the root ('/…') or a special ('@…')", () => {
			// n8n 1.x resolves parameters in the order their displayOptions need and gives up ("Could not
			// resolve parameter dependencies. Max iterations reached!") on a key that names no parameter,
			// such as 'columns.mappingMode'; 2.x reads such a key as a path. '/columns.mappingMode' works on both.
			const names = new Set(node.description.properties.map((p) => p.name));
			const keys = node.description.properties.flatMap((p) => Object.values(p.displayOptions ?? {}).flatMap((rule) => Object.keys(rule ?? {})));
			expect(keys.filter((key) => !names.has(key) && !key.startsWith('/') && !key.startsWith('@'))).toEqual([]);
		});

		test("a version 1 node with today's parameters still runs", async () => {
			const { items, error } = await runNode({
				parameters: { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}', additionalFields: { externalRef: '={{ $json.ref }}' } },
				items: [{ product_id: simple[15].product_id, stock: '17', ref: 'v1' }],
				credentials: credentials(),
				typeVersion: 1,
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ product_id: simple[15].product_id, new_stock: 17, external_ref: 'v1' });
		});

		test('the resource mapper offers the identifier chosen, then stock, variant and reference, all read as text', async () => {
			const fields = await columnsOf('sku');
			expect(fields.map((f) => [f.id, f.displayName, f.required, f.type])).toEqual([
				['sku', 'SKU', true, 'string'],
				['stock', 'Stock', true, 'string'],
				['variant_combination_id', 'Variant Combination ID', false, 'string'],
				['external_ref', 'External Reference', false, 'string'],
			]);
			expect((await columnsOf('productId'))[0]).toMatchObject({ id: 'product_id', displayName: 'Product ID', required: true });
			// Every field shown in the mapper, none offered for matching: a stock update matches
			// nothing, it sets the value (n8n's mapper would otherwise show "Columns to match on").
			for (const field of fields) expect(field).toMatchObject({ display: true, defaultMatch: false, canBeUsedToMatch: false });
		});
	});
});

// Stock › Update's message for an item without a required column (Map Automatically): which of the
// item's columns it offers, and when. Run by n8n's engine; a scripted API over loopback shows that
// nothing is sent for such an item.
describe('Stock › Update, version 3, Map Automatically: an item without a required column', () => {
	async function refusal(row: IDataObject, columnNames: IDataObject = {}) {
		const api = await startScriptedApi([ok({})]);
		try {
			const { error } = await runNode({ parameters: { ...auto, columnNames }, items: [row], credentials: credentialsFor(api.baseUrl, api.app), typeVersion: 3 });
			expect(api.requests).toEqual([]);
			return error?.message.replace(/^Row 2 \(item 0\): /, '');
		} finally {
			await api.close();
		}
	}

	test('with the Product ID found, an item lacking only Stock is offered its one spare column, even one that reads as SKU (no switch is proposed)', async () => {
		expect(await refusal({ product_id: 5, SKU: 'SKU-5' })).toBe(
			'This item has no Stock column. If "SKU" is your Stock column, name it under Column Names › Stock Column. The item\'s columns: "product_id", "SKU".',
		);
	});

	test('two columns missing and one spare: the spare is not offered for either, as it cannot be both', async () => {
		expect(await refusal({ Qty: 3 })).toBe(
			'This item has no Product ID column and no Stock column. Looked for "product_id" or a header such as "Product ID"; name your Product ID column under Column Names › Product ID Column. ' +
				'Looked for "stock" or a header such as "Stock"; name your Stock column under Column Names › Stock Column. The item\'s columns: "Qty".',
		);
	});

	test('a Product ID column named under Column Names but absent: no switch to SKU is proposed, and the item\'s SKU column is offered as the spare one', async () => {
		expect(await refusal({ SKU: 'SKU-5' }, { productId: 'Artikel' })).toBe(
			'This item has no Product ID column and no Stock column. The column "Artikel" named under Column Names › Product ID Column is not in this item. ' +
				'If "SKU" is your Stock column, name it under Column Names › Stock Column. The item\'s columns: "SKU".',
		);
	});
});
