// What the editor's panels offer by default must not do harm: a field left at its default is either
// harmless or a clear error, never a request with a made-up value (findings of the browser walk).
import type { INodeProperties } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

type Product = { product_id: number; stock: number; variant_combination_ids: number[] };

const properties = new MarketplacePartner().description.properties;
const field = (name: string, operation: string): INodeProperties =>
	properties.find((p) => p.name === name && p.displayOptions?.show?.operation?.includes(operation))!;
const option = (collection: string, name: string, operation: string) =>
	(field(collection, operation).options as INodeProperties[]).find((o) => o.name === name)!;

describe('defaults and limits of the panels', () => {
	let sb: RunningSandbox;
	let simple: Product;
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
	const stockOf = async (id: number) => (await sb.control('GET', `/products/${id}`)).stock;

	beforeAll(async () => {
		sb = await startSandbox();
		const products: Product[] = await sb.control('GET', '/products?sellerId=1001');
		simple = products.find((p) => p.variant_combination_ids.length === 0 && p.stock > 0)!;
	});
	afterAll(() => sb.close());

	test('Variant Combination ID added from Additional Fields and left at its default updates a product without variants', async () => {
		const { items, error } = await runNode({
			parameters: {
				resource: 'stock',
				operation: 'update',
				productId: simple.product_id,
				stock: 6,
				additionalFields: { variantCombinationId: option('additionalFields', 'variantCombinationId', 'update').default },
			},
			credentials: credentials(),
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ product_id: simple.product_id, variant_combination_id: null, new_stock: 6 });
	});

	test('setting only Product ID does not zero the stock: Stock left at its default is an error and nothing is sent', async () => {
		const before = await stockOf(simple.product_id);
		expect(before).toBeGreaterThan(0);
		const { error } = await runNode({
			parameters: { resource: 'stock', operation: 'update', productId: simple.product_id },
			credentials: credentials(),
		});
		expect(error?.message).toBe('Row 2 (item 0): Stock is blank; it needs a whole number.');
		expect(await stockOf(simple.product_id)).toBe(before);
	});

	test('Order Item ID left at its default says it is empty, not "must be 1 or more, but got 0"', async () => {
		const { error } = await runNode({ parameters: { resource: 'order', operation: 'get' }, credentials: credentials() });
		expect(error?.message).toBe('Order Item ID is empty; it needs a whole number of 1 or more.');
	});

	test('the Status filter of versions 1 and 2 says it is an exact, lower-case match; a capitalised one matches nothing', async () => {
		const status = option('filters', 'status', 'getMany');
		expect(status.description).toMatch(/exactly this order status.*lower case.*accepted.*"Accepted" or "Shipped" match nothing/);
		const run = (value: string) =>
			runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: { status: value } }, credentials: credentials() });
		expect((await run('shipped')).items.length).toBeGreaterThan(0);
		expect((await run('Shipped')).items).toHaveLength(0);
	});

	test('the editor refuses what the API refuses: Stock has minimum 0, ids minimum 1', () => {
		expect(field('stock', 'update').typeOptions?.minValue).toBe(0);
		expect(field('productId', 'update').typeOptions?.minValue).toBe(1);
		expect(field('orderItemId', 'get').typeOptions?.minValue).toBe(1);
		expect(option('additionalFields', 'variantCombinationId', 'update').typeOptions?.minValue).toBe(1);
	});

	test.each([
		[{ concurrency: 'eight' }, 'Concurrency must be a whole number, but got "eight".'],
		[{ concurrency: 0 }, 'Concurrency must be 1 or more, but got 0.'],
		[{ giveUpAfter: 0 }, 'Give Up After must be 1 or more, but got 0.'],
	])('Options %j is an error that names the option, and nothing is sent', async (options, message) => {
		await sb.control('POST', '/stats/reset');
		const { error } = await runNode({
			parameters: { resource: 'stock', operation: 'update', columns: { mappingMode: 'autoMapInputData', value: null }, options },
			items: [{ product_id: simple.product_id, stock: 3 }],
			credentials: credentials(),
		});
		expect(error?.message).toBe(message);
		expect((await sb.control('GET', '/stats')).requests).toBe(0);
	});

	test('an operation this version does not have (a workflow from a newer version) is named in the error', async () => {
		const { error } = await runNode({ parameters: { resource: 'order', operation: 'cancel' }, credentials: credentials() });
		expect(error?.message).toBe('The operation "cancel" of "order" is not supported');
	});

	test.each([
		[{ resource: '__CUSTOM_API_CALL__', operation: 'get' }],
		[{ resource: 'order', operation: '__CUSTOM_API_CALL__' }],
	])("n8n's Custom API Call entry (%j) says to use the HTTP Request node with this credential, and sends nothing", async (parameters) => {
		await sb.control('POST', '/stats/reset');
		const { error } = await runNode({ parameters, credentials: credentials() });
		expect(error?.message).toBe('A custom API call is made with the HTTP Request node, not this one: nothing was sent');
		expect(error?.description).toMatch(/^Add an HTTP Request node, set Authentication to Predefined Credential Type and Credential Type to Marketplace Partner API/);
		expect((await sb.control('GET', '/stats')).requests).toBe(0);
	});
});
