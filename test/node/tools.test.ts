/* eslint-disable @typescript-eslint/no-explicit-any, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The node for a model (issue 26): Simplify, the defaults and descriptions of the tool variant, errors
// that name the argument to change, and the guard on stock writes; run by n8n's engine against the sandbox.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INode, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { credentialsFor, NODE_TYPE, registerNodeType, runNode } from '../helpers/n8n';
import { callInSession, callOnWorker } from '../helpers/mcpPaths';
import { runNodeAs } from '../helpers/runAs';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { ok, startScriptedApi, type ScriptedApi } from '../helpers/scriptedApi';

/**
 * The tool variant as n8n makes it of a `usableAsTool` node: the same class under the name plus
 * "Tool" (n8n's '@tool' display condition reads that name). test/e2e/mcp.e2e.ts runs the real one.
 */
const TOOL_TYPE = `${NODE_TYPE}Tool`;
const toolNode = new MarketplacePartner();
toolNode.description = { ...toolNode.description, name: `${toolNode.description.name}Tool` };
registerNodeType(TOOL_TYPE, toolNode);

const SIMPLE_FIELDS = ['order_item_id', 'order_no', 'status', 'payment_status', 'product_id', 'sku', 'title', 'quantity', 'unit_price', 'currency', 'created_at', 'created_at_iso', 'updated_at', 'updated_at_iso', 'city'];

/** The parameters n8n runs a node with, defaults filled in, as node or as tool. */
function resolved(description: INodeTypeDescription, parameters: INode['parameters'], typeVersion = 2): INode['parameters'] {
	const node = { id: '1', name: 'n', type: description.name, typeVersion, position: [0, 0], parameters } as INode;
	return NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description)!;
}

describe('Marketplace Partner for AI agents', () => {
	let sb: RunningSandbox;
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
	const ordersOfA = () => sb.raw.state.ordersBySeller.get(1001) as Array<{ order_item_id: number }>;
	const requests = async () => (await sb.control('GET', '/stats')).requests as number;
	const stockOf = async (id: number) => (await sb.control('GET', `/products/${id}`)).stock as number;
	let productIds: number[];

	beforeAll(async () => {
		sb = await startSandbox({ orders: 80, products: 60 });
		const products: Array<{ product_id: number; variant_combination_ids: number[] }> = await sb.control('GET', '/products?sellerId=1001');
		productIds = products.filter((p) => p.variant_combination_ids.length === 0).map((p) => p.product_id);
	});
	beforeEach(() => sb.control('POST', '/stats/reset'));
	afterAll(() => sb.close());

	describe('Simplify', () => {
		test("Get Many: each order item in exactly Simplify's fields, flat, with the API's values", async () => {
			const parameters = { resource: 'order', operation: 'getMany', limit: 6 };
			const full = (await runNode({ parameters, credentials: credentials() })).items.map((i) => i.json);
			const { items, error } = await runNode({ parameters: { ...parameters, simplify: true }, credentials: credentials() });
			expect(error).toBeUndefined();
			expect(items).toHaveLength(6);
			items.forEach(({ json }, n) => {
				const o = full[n] as Record<string, any>;
				expect(Object.keys(json)).toEqual(SIMPLE_FIELDS);
				expect(json).toEqual({
					order_item_id: o.order_item_id,
					order_no: o.order_no,
					status: o.status,
					payment_status: o.payment_status,
					product_id: o.product.product_id,
					sku: o.product.sku,
					title: o.product.title,
					quantity: o.quantity,
					unit_price: o.unit_price,
					currency: o.currency,
					created_at: o.created_at,
					created_at_iso: o.created_at_iso,
					updated_at: o.updated_at,
					updated_at_iso: o.updated_at_iso,
					city: o.customer.city,
				});
			});
			expect(items.every((i) => JSON.stringify(i.pairedItem) === '{"item":0}')).toBe(true);
		});

		test('Get Many newest first still sorts simplified order items by created_at', async () => {
			const parameters = { resource: 'order', operation: 'getMany', limit: 5, sort: 'newestFirst' };
			const full = (await runNode({ parameters, credentials: credentials() })).items.map((i) => i.json.order_item_id);
			const { items } = await runNode({ parameters: { ...parameters, simplify: true }, credentials: credentials() });
			expect(items.map((i) => i.json.order_item_id)).toEqual(full);
		});

		test('an answer lacking fields or blocks: Simplify leaves out what is not there, and adds nothing', async () => {
			const orders = [
				{ order_item_id: 1, status: 'accepted', product: null, customer: 'Köln' },
				{ order_item_id: 2, order_no: 'ORD-2', product: { sku: 'SKU-2' }, customer: { city: 'Izmir', district: 'Konak' }, extra: 'x' },
			];
			const api = await startScriptedApi([ok({ orders, pagination: { has_more: false } })]);
			try {
				const { items, error } = await runNode({
					parameters: { resource: 'order', operation: 'getMany', returnAll: true, simplify: true },
					credentials: credentialsFor(api.baseUrl, api.app),
				});
				expect(error).toBeUndefined();
				expect(items.map((i) => Object.keys(i.json))).toEqual([['order_item_id', 'status'], ['order_item_id', 'order_no', 'sku', 'city']]);
				expect(items[1].json).toEqual({ order_item_id: 2, order_no: 'ORD-2', sku: 'SKU-2', city: 'Izmir' });
			} finally {
				await api.close();
			}
		});

		test("Get: the detail's order, product and the customer's city in Simplify's fields, nothing of the address or shipment", async () => {
			const id = ordersOfA()[2].order_item_id;
			const parameters = { resource: 'order', operation: 'get', orderItemId: id };
			const detail = (await runNode({ parameters, credentials: credentials() })).items[0].json as Record<string, any>;
			const { items, error } = await runNode({ parameters: { ...parameters, simplify: true }, credentials: credentials() });
			expect(error).toBeUndefined();
			expect(items[0].json).toEqual({
				...Object.fromEntries(['order_item_id', 'order_no', 'status', 'payment_status'].map((f) => [f, detail.order[f]])),
				product_id: detail.product.product_id,
				sku: detail.product.sku,
				title: detail.product.title,
				...Object.fromEntries(['quantity', 'unit_price', 'currency', 'created_at', 'created_at_iso', 'updated_at', 'updated_at_iso'].map((f) => [f, detail.order[f]])),
				city: detail.customer.city,
			});
			expect(Object.keys(items[0].json)).toEqual(SIMPLE_FIELDS);
			expect(items[0].json.order_item_id).toBe(id);
		});
	});

	describe('the tool variant', () => {
		test('as a node: Get Many returns 50 full order items by default; as a tool: 20, simplified', async () => {
			const parameters = { resource: 'order', operation: 'getMany' };
			const asNode = await runNode({ parameters, credentials: credentials() });
			expect(asNode.items).toHaveLength(50);
			expect(Object.keys(asNode.items[0].json)).toContain('customer');
			const asTool = await runNode({ parameters, credentials: credentials(), type: TOOL_TYPE });
			expect(asTool.error).toBeUndefined();
			expect(asTool.items).toHaveLength(20);
			expect(asTool.items.every((i) => Object.keys(i.json).join() === SIMPLE_FIELDS.join())).toBe(true);
			const get = await runNode({ parameters: { resource: 'order', operation: 'get', orderItemId: ordersOfA()[0].order_item_id }, credentials: credentials(), type: TOOL_TYPE });
			expect(Object.keys(get.items[0].json)).toEqual(SIMPLE_FIELDS);
		});

		test("each operation's tool description is what n8n hands the model; the node itself has none", () => {
			const node = new MarketplacePartner().description;
			const described = (resource: string, operation: string) => {
				const parameters = resolved(toolNode.description, { resource, operation });
				const asNode = resolved(node, { resource, operation });
				expect(asNode.toolDescription).toBeUndefined();
				return NodeHelpers.getToolDescriptionForNode({ parameters } as INode, toolNode);
			};
			const getMany = described('order', 'getMany');
			expect(getMany).toMatch(/^List the seller's order items \(Partner API GET \/orders\.php\)/);
			expect(getMany).toMatch(/filter by status \(e\.g\. accepted\) and by updated_after .*e\.g\. 2026-05-01 00:00:00/);
			expect(getMany).toMatch(/at most a few order items \(20 unless/);
			expect(described('order', 'get')).toMatch(/GET \/order_detail\.php\) by its order_item_id.*\(e\.g\. 500001\)/);
			const update = described('stock', 'update');
			expect(update).toMatch(/POST \/stock_update\.php\).*product_id.*e\.g\. 70001.*stock.*0 or more, e\.g\. 25.*external_ref, required/);
			expect(described('connection', 'ping')).toMatch(/GET \/ping\.php/);
			expect(described('connection', 'checkSetup')).toMatch(/Takes no arguments/);
		});

		test('the tool defaults apply to the tool only: Limit 20 and Simplify on, the node keeps 50 and off', () => {
			const node = new MarketplacePartner().description;
			const getMany = { resource: 'order', operation: 'getMany' };
			expect(resolved(node, getMany)).toMatchObject({ limit: 50, simplify: false });
			expect(resolved(toolNode.description, getMany)).toMatchObject({ limit: 20, simplify: true });
			expect(resolved(toolNode.description, { resource: 'order', operation: 'get' })).toMatchObject({ simplify: true });
		});
	});

	describe('errors a model can act on: they name the argument (the API field) to change', () => {
		test('an order_item_id of no order item', async () => {
			const { error } = await runNode({ parameters: { resource: 'order', operation: 'get', orderItemId: 999999 }, credentials: credentials(), type: TOOL_TYPE });
			expect(error?.message).toBe('The order item was not found');
			expect(error?.description).toMatch(/order_item_id/);
		});

		test('an order_item_id that is not a number, and a wrong limit or updated_after, are named by their API field', async () => {
			const get = await runNode({ parameters: { resource: 'order', operation: 'get', orderItemId: 'abc' }, credentials: credentials(), type: TOOL_TYPE });
			expect(get.error?.message).toBe('order_item_id must be a whole number, but got "abc".');
			const limit = await runNode({ parameters: { resource: 'order', operation: 'getMany', limit: 0 }, credentials: credentials(), type: TOOL_TYPE });
			expect(limit.error?.message).toBe('limit must be 1 or more, but got 0.');
			const since = await runNode({
				parameters: { resource: 'order', operation: 'getMany', filters: { updatedAfter: 'yesterday' } },
				credentials: credentials(),
				type: TOOL_TYPE,
			});
			expect(since.error?.message).toMatch(/^updated_after must be a date and time such as 2026-01-31 14:00:00/);
			expect(await requests()).toBe(0);
			// The node itself keeps the labels a person sees in the panel.
			const asNode = await runNode({ parameters: { resource: 'order', operation: 'get', orderItemId: 'abc' }, credentials: credentials() });
			expect(asNode.error?.message).toBe('Order Item ID must be a whole number, but got "abc".');
		});

		test('a negative stock is refused naming stock, and nothing is sent', async () => {
			const { error } = await runNode({
				parameters: { resource: 'stock', operation: 'update', productId: productIds[0], stock: -5, additionalFields: { externalRef: 'recount' } },
				credentials: credentials(),
				type: TOOL_TYPE,
			});
			expect(error?.message).toBe('stock must be 0 or more, but got -5 (stock cannot be negative).');
			expect(await requests()).toBe(0);
		});

		test('a SKU no product has: the answer says so and what to check', async () => {
			const { error } = await runNode({
				parameters: {
					resource: 'stock',
					operation: 'update',
					identifyBy: 'sku',
					columns: { mappingMode: 'defineBelow', value: { sku: 'SKU-A-99999', stock: '3', external_ref: 'recount' }, matchingColumns: [], schema: [] },
				},
				credentials: credentials(),
				type: TOOL_TYPE,
				typeVersion: 2,
			});
			expect(error?.message).toBe('No product has this SKU');
			expect(error?.description).toMatch(/^API code: product_not_found\. .*Check the SKU/);
		});
	});

	describe('the guard on stock writes', () => {
		const update = (stock: number | string, extra: Record<string, unknown> = {}, options: Record<string, unknown> = {}) => ({
			resource: 'stock',
			operation: 'update',
			productId: productIds[1],
			stock,
			additionalFields: extra,
			options,
		});

		test('as a tool, an empty stock is called empty, in the API\'s field name, and nothing is sent', async () => {
			const { error } = await runNode({ parameters: update('', { externalRef: 'recount' }), credentials: credentials(), type: TOOL_TYPE });
			expect(error?.message).toBe('stock is empty; it needs a whole number.');
			expect(await requests()).toBe(0);
		});

		test('as a tool, a change without external_ref (or a blank one) is refused before anything is sent', async () => {
			const before = await stockOf(productIds[1]);
			for (const extra of [{}, { externalRef: '   ' }]) {
				const { error } = await runNode({ parameters: update(7, extra), credentials: credentials(), type: TOOL_TYPE });
				expect(error?.message).toBe(
					'external_ref is empty: as a tool, every stock change needs one, the reason for it or the person\'s reference (e.g. "recount shelf B, asked by Ana"). Nothing was sent.',
				);
			}
			expect(await requests()).toBe(0);
			expect(await stockOf(productIds[1])).toBe(before);
			const { items, error } = await runNode({ parameters: update(7, { externalRef: 'recount shelf B' }), credentials: credentials(), type: TOOL_TYPE });
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ product_id: productIds[1], new_stock: 7, external_ref: 'recount shelf B' });
			expect(await requests()).toBe(1);
		});

		test('as a node (a sheet sync), external_ref stays optional; a blank one is not sent', async () => {
			const { items, error } = await runNode({ parameters: update(8, { externalRef: '  ' }), credentials: credentials() });
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ new_stock: 8 });
			expect(items[0].json.external_ref ?? '').toBe('');
			expect(await stockOf(productIds[1])).toBe(8);
		});

		test('Maximum Stock: a stock above it is refused unsent, naming the limit; at the limit it is sent', async () => {
			const before = await stockOf(productIds[2]);
			const above = await runNode({ parameters: { ...update(101, {}, { maxStock: 100 }), productId: productIds[2] }, credentials: credentials() });
			expect(above.error?.message).toBe(
				"Row 2 (item 0): Stock 101 is above the Maximum Stock of 100 this workflow allows, so nothing was sent. Send 100 or less, or have the workflow's Maximum Stock raised if 101 is right.",
			);
			expect(await requests()).toBe(0);
			expect(await stockOf(productIds[2])).toBe(before);
			const at = await runNode({ parameters: { ...update(100, {}, { maxStock: 100 }), productId: productIds[2] }, credentials: credentials() });
			expect(at.error).toBeUndefined();
			expect(await stockOf(productIds[2])).toBe(100);
			const asTool = await runNode({ parameters: update(50, { externalRef: 'x' }, { maxStock: 10 }), credentials: credentials(), type: TOOL_TYPE });
			expect(asTool.error?.message).toMatch(/^stock 50 is above the Maximum Stock of 10 /);
		});

		test('Maximum Stock in a sheet: only the rows above it fail, each reported, the others applied', async () => {
			const rows = [
				{ product_id: productIds[3], stock: 5 },
				{ product_id: productIds[4], stock: 5000 },
				{ product_id: productIds[5], stock: 20 },
			];
			const { items } = await runNode({
				parameters: { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}', options: { maxStock: 1000 } },
				items: rows,
				credentials: credentials(),
				continueOnFail: true,
			});
			expect(items.map((i) => i.json.new_stock ?? i.json.error)).toEqual([
				5,
				"Stock 5000 is above the Maximum Stock of 1000 this workflow allows, so nothing was sent. Send 1000 or less, or have the workflow's Maximum Stock raised if 5000 is right.",
				20,
			]);
			expect(await requests()).toBe(2);
		});

		test('a Maximum Stock that is not a whole number is an error naming it, and nothing is sent', async () => {
			const { error } = await runNode({ parameters: update(1, {}, { maxStock: -1 }), credentials: credentials() });
			expect(error?.message).toBe('Maximum Stock must be 0 or more, but got -1.');
			expect(await requests()).toBe(0);
		});

		test('as a tool the guard is on without any option: the node shows Maximum Stock 1000, a stock above is refused unsent and the model is told the limit', async () => {
			const description = new MarketplacePartner().description;
			const asTool = { ...description, name: `${description.name}Tool` };
			expect(resolved(asTool, { resource: 'stock', operation: 'update' }).toolMaxStock).toBe(1000);
			expect(resolved(description, { resource: 'stock', operation: 'update' })).not.toHaveProperty('toolMaxStock');
			const huge = await runNode({ parameters: update(Number.MAX_SAFE_INTEGER, { externalRef: 'x' }), credentials: credentials(), type: TOOL_TYPE });
			expect(huge.error?.message).toBe(
				`stock ${Number.MAX_SAFE_INTEGER} is above the Maximum Stock of 1000 this workflow allows, so nothing was sent. Send 1000 or less, or have the workflow's Maximum Stock raised if ${Number.MAX_SAFE_INTEGER} is right.`,
			);
			expect((await runNode({ parameters: update(1001, { externalRef: 'x' }), credentials: credentials(), type: TOOL_TYPE })).error?.message).toMatch(/^stock 1001 is above the Maximum Stock of 1000 /);
			expect(await requests()).toBe(0);
			expect((await runNode({ parameters: update(1000, { externalRef: 'x' }), credentials: credentials(), type: TOOL_TYPE })).error).toBeUndefined();
			expect(await requests()).toBe(1);
		});

		test('as a tool, a stock of 0 is refused unsent unless the user allows it in the node; as a node, 0 is a stock like any', async () => {
			const description = new MarketplacePartner().description;
			const asTool = { ...description, name: `${description.name}Tool` };
			expect(resolved(asTool, { resource: 'stock', operation: 'update' })).toMatchObject({ toolAllowZero: false, toolMaxProducts: 10 });
			expect(resolved(description, { resource: 'stock', operation: 'update' })).not.toHaveProperty('toolAllowZero');
			const before = await stockOf(productIds[6]);
			const refused = await runNode({ parameters: { ...update(0, { externalRef: 'sold out, says the order note' }), productId: productIds[6] }, credentials: credentials(), type: TOOL_TYPE });
			expect(refused.error?.message).toBe(
				'stock 0 would mark the product sold out, and this workflow does not let a model set a stock of 0, so nothing was sent. Leave it to a person, or have Allow Stock of 0 turned on in the workflow.',
			);
			expect(await requests()).toBe(0);
			expect(await stockOf(productIds[6])).toBe(before);
			const allowed = await runNode({ parameters: { ...update(0, { externalRef: 'x' }), productId: productIds[6], toolAllowZero: true }, credentials: credentials(), type: TOOL_TYPE });
			expect(allowed.error).toBeUndefined();
			expect(await stockOf(productIds[6])).toBe(0);
			const asNode = await runNode({ parameters: { ...update(0), productId: productIds[7] }, credentials: credentials() });
			expect(asNode.error).toBeUndefined();
			expect(await stockOf(productIds[7])).toBe(0);
		});

		test('as a tool, one run changes at most Maximum Products per Run products, counted across its calls; the same product again counts once; a new run starts afresh', async () => {
			const rows = productIds.slice(10, 15).map((product_id, i) => ({ product_id, stock: 3 + i, ref: `r${i}` }));
			const parameters = { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}', additionalFields: { externalRef: '={{ $json.ref }}' }, toolMaxProducts: 3 };
			const { items, error } = await runNode({ parameters, items: [...rows, rows[0]], credentials: credentials(), type: TOOL_TYPE, continueOnFail: true });
			expect(error).toBeUndefined();
			const limit = 'This workflow lets a model change at most 3 products in one run, and 3 were changed already, so nothing was sent. Tell the person; they can run it again or raise Maximum Products per Run.';
			expect(items.map((i) => i.json.new_stock ?? i.json.error)).toEqual([3, 4, 5, limit, limit, 3]);
			expect(await requests()).toBe(4);
			const next = await runNode({ parameters, items: [rows[3]], credentials: credentials(), type: TOOL_TYPE });
			expect(next.error).toBeUndefined();
			expect(next.items[0].json.new_stock).toBe(6);
			const empty = await runNode({ parameters: { ...parameters, toolMaxProducts: '' }, items: [rows[4]], credentials: credentials(), type: TOOL_TYPE });
			expect(empty.error?.message).toBe('Maximum Products per Run is empty; it needs a whole number of 1 or more.');
		});

		test("as a tool, the user sets the bound: raised it lets more through; the option's smaller bound still wins; an empty one is an error", async () => {
			const raised = await runNode({ parameters: { ...update(4000, { externalRef: 'x' }), toolMaxStock: 5000 }, credentials: credentials(), type: TOOL_TYPE });
			expect(raised.error).toBeUndefined();
			expect(raised.items[0].json).toMatchObject({ new_stock: 4000 });
			const both = await runNode({ parameters: { ...update(60, { externalRef: 'x' }, { maxStock: 50 }), toolMaxStock: 5000 }, credentials: credentials(), type: TOOL_TYPE });
			expect(both.error?.message).toMatch(/^stock 60 is above the Maximum Stock of 50 /);
			const lower = await runNode({ parameters: { ...update(60, { externalRef: 'x' }, { maxStock: 5000 }), toolMaxStock: 50 }, credentials: credentials(), type: TOOL_TYPE });
			expect(lower.error?.message).toMatch(/^stock 60 is above the Maximum Stock of 50 /);
			const empty = await runNode({ parameters: { ...update(6, { externalRef: 'x' }), toolMaxStock: '' }, credentials: credentials(), type: TOOL_TYPE });
			expect(empty.error?.message).toBe('Maximum Stock is empty; it needs a whole number.');
			expect(await requests()).toBe(1);
		});
	});
});

// Stock › Update as the tool (the variant registered above) with Maximum Products per Run set to 1.
describe('Maximum Products per Run (Stock › Update as a tool)', () => {
	const tool = toolNode;
	const parameters = { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}', additionalFields: { externalRef: '={{ $json.ref }}' }, toolMaxProducts: 1 };

	// Stock › Update as an AI agent's tool: Maximum Products per Run counts the products one run changed
	// across all its calls (an agent calls the tool once per answer step, each call an execute() of the
	// same execution). Run by n8n's engine under execution ids chosen here, against a scripted API over
	// loopback.
	describe('Maximum Products per Run, across the calls of one run', () => {
		const limit = 'This workflow lets a model change at most 1 products in one run, and 1 were changed already, so nothing was sent. Tell the person; they can run it again or raise Maximum Products per Run.';

		let api: ScriptedApi;
		beforeAll(async () => {
			api = await startScriptedApi((request) => {
				const body = JSON.parse(request.rawBody) as IDataObject;
				return ok({ product_id: body.product_id, new_stock: body.stock });
			});
		});
		afterAll(() => api.close());

		const call = (executionId: string, productId: number) =>
			runNodeAs(executionId, {
				type: TOOL_TYPE,
				nodeType: tool,
				parameters,
				rows: [{ product_id: productId, stock: 5, ref: 'agent' }],
				credentials: credentialsFor(api.baseUrl, api.app),
			});

		test('a second call of the same run may not change another product past the limit; the same product again is allowed; another run starts afresh', async () => {
			expect((await call('run-a', 1)).error).toBeUndefined();
			const second = await call('run-a', 2);
			expect(second.error?.message).toBe(limit);
			expect((await call('run-a', 1)).error).toBeUndefined();
			expect((await call('run-b', 2)).error).toBeUndefined();
			expect(api.requests.map((r) => (JSON.parse(r.rawBody) as IDataObject).product_id)).toEqual([1, 1, 2]);
		});
	});

	// Stock › Update as an AI agent's tool keeps the products each run changed for the last 100 runs it
	// counted, so that a process running for months holds a bounded record: a run counted 100 runs ago
	// has long ended. The oldest run leaves first, so the runs this file's earlier tests counted leave
	// before this test's: it needs no empty record. n8n's engine under execution ids chosen here,
	// against a scripted API over loopback; the other runs ask for a stock of 0, which the tool refuses
	// before sending, after counting the run.
	describe("a run's count, kept for the last 100 runs counted", () => {
		test("a run's count is kept while 99 other runs are counted after it, and forgotten at the 100th", async () => {
			const api = await startScriptedApi((request) => {
				const body = JSON.parse(request.rawBody) as IDataObject;
				return ok({ product_id: body.product_id, new_stock: body.stock });
			});
			try {
				const credentials = credentialsFor(api.baseUrl, api.app);
				const call = (executionId: string, productId: number, stock = 5) =>
					runNodeAs(executionId, { type: TOOL_TYPE, nodeType: tool, parameters, rows: [{ product_id: productId, stock, ref: 'agent' }], credentials });
				const otherRun = async (n: number) => expect((await call(`run-${n}`, 1, 0)).error?.message).toMatch(/^stock 0 would mark the product sold out/);
				expect((await call('long-run', 1)).error).toBeUndefined();
				for (let n = 1; n <= 99; n++) await otherRun(n);
				expect((await call('long-run', 2)).error?.message).toMatch(/^This workflow lets a model change at most 1 products in one run, and 1 were changed already/);
				await otherRun(100);
				expect((await call('long-run', 2)).error).toBeUndefined();
				expect(api.requests.map((r) => (JSON.parse(r.rawBody) as IDataObject).product_id)).toEqual([1, 2]);
			} finally {
				await api.close();
			}
		});
	});
});

// Issue 51: the budget has a key on every path n8n runs the tool. An MCP Server Trigger runs it in
// the process that holds the session (no execution id) or on a queue worker (each call an execution
// of its own); from version 2.1 it hands the tool the request's headers, the client's mcp-session-id.
describe('Maximum Products per Run on the MCP Server Trigger: one budget per MCP session, on both paths', () => {
	let api: ScriptedApi;
	beforeAll(async () => {
		api = await startScriptedApi((request) => {
			const body = JSON.parse(request.rawBody) as IDataObject;
			return ok({ product_id: body.product_id, new_stock: body.stock });
		});
	});
	afterAll(() => api.close());
	// The example's update_stock, its bound lowered to 2.
	const example = JSON.parse(readFileSync(path.join(__dirname, '../../examples/marketplace-mcp-server.json'), 'utf8')) as { nodes: INode[] };
	const parameters = { ...example.nodes.find((n) => n.name === 'update_stock')!.parameters, toolMaxProducts: 2 } as IDataObject;
	const rpc = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'update_stock' } });
	const session = (id: string, n = 1) => ({ body: rpc(n), headers: { 'mcp-session-id': id, 'content-type': 'application/json' } });
	const call = (path: typeof callInSession, toolInput: IDataObject | undefined, productId: number) =>
		path({ type: TOOL_TYPE, nodeType: toolNode, parameters, credentials: credentialsFor(api.baseUrl, api.app), args: { product_id: productId, stock: 4, external_ref: 'mcp' }, toolInput });
	const refusedIn = (scope: string) => new RegExp(`This workflow lets a model change at most 2 products ${scope}, and 2 were changed already, so nothing was sent\\. Tell the person; `);

	test.each([
		['in the process of the session', callInSession],
		['on a queue worker', callOnWorker],
	])('%s: three clients in a row each change 2 products; the third product of a session is refused and the model is told a new session starts a new count', async (_, path) => {
		const before = api.requests.length;
		for (const [n, client] of ['3f1c-a', '3f1c-b', '3f1c-c'].map((id) => `${id}-${path.name}`).entries()) {
			// Each client its own products: one count shared by all would refuse the second client's first.
			const product = (k: number) => 100 * (n + 1) + k;
			expect(await call(path, session(client), product(1))).not.toMatch(/error/);
			expect(await call(path, session(client, 2), product(2))).not.toMatch(/error/);
			expect(await call(path, session(client, 3), product(1))).not.toMatch(/error/); // the same product again counts once
			const third = await call(path, session(client, 4), product(3));
			expect(third).toMatch(refusedIn('in one MCP session'));
			expect(third).toContain('a new session of their MCP client starts a new count, or they can raise Maximum Products per Run.');
			// In the process of the session n8n adds the error's description for the model; a worker passes the message only.
			if (path === callInSession) expect(third).toContain('only a person can change it, in the workflow.');
		}
		expect(api.requests.length - before).toBe(9);
	});

	test.each([
		['the JSON-RPC request, in the process of the session', callInSession, rpc(1)],
		['an empty item, on a queue worker', callOnWorker, undefined],
		['a request whose session id is no token (a space in it)', callOnWorker, { body: { jsonrpc: '2.0', id: 1, method: 'tools/call' }, headers: { 'mcp-session-id': 'a b' } }],
	])('an MCP Server Trigger before 2.1 hands %s: calls are counted per clock hour, and the message says so and when it starts afresh', async (_, path, toolInput) => {
		// Each case its own hour's count would need a clock; the three share this hour's: only the first two products pass.
		const answers: string[] = [];
		for (const productId of [101, 102, 103]) answers.push(await (path as typeof callInSession)({ type: TOOL_TYPE, nodeType: toolNode, parameters, credentials: credentialsFor(api.baseUrl, api.app), args: { product_id: productId, stock: 4, external_ref: 'mcp' }, toolInput: toolInput as IDataObject | undefined }));
		expect(answers[2]).toMatch(refusedIn('in one hour \\(n8n names no run or MCP session for these calls\\)'));
		expect(answers[2]).toMatch(/the count starts afresh at \d\d:00 UTC, or they can raise Maximum Products per Run\./);
		expect(answers.slice(0, 2)).toEqual([expect.not.stringMatching(/error/), expect.not.stringMatching(/error/)]);
	});
});
