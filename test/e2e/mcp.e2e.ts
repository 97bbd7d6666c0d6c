/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The "Marketplace MCP server" example published in the real n8n (N8N_VERSION), with this package
// installed as a community package, used by the official MCP client (@modelcontextprotocol/sdk, the
// copy n8n ships) over Streamable HTTP: the tools it lists and what each call does in the sandbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as getOrder from '../../nodes/MarketplacePartner/actions/order/get.operation';
import * as listOrders from '../../nodes/MarketplacePartner/actions/order/getMany.operation';
import * as updateStock from '../../nodes/MarketplacePartner/actions/stock/update.operation';
import { connectMcp, untilMcpServerListens, type ToolResult } from '../helpers/mcpClient';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

/* eslint-disable @typescript-eslint/no-require-imports */
const { freePort, startN8n, N8N_MAJOR } = require('../../scripts/lib');
const { prepareWorkspace, exampleFor, setUpOwner, OWNER, MCP_WORKFLOW_ID } = require('../../scripts/workspace');
const { ownerPassword } = require('../../scripts/demo');
/* eslint-enable @typescript-eslint/no-require-imports */

const SIMPLE_FIELDS = ['order_item_id', 'order_no', 'status', 'payment_status', 'product_id', 'sku', 'title', 'quantity', 'unit_price', 'currency', 'created_at', 'created_at_iso', 'updated_at', 'updated_at_iso', 'city'];

describe('the Marketplace MCP server example in real n8n, used by an MCP client', () => {
	let sb: RunningSandbox;
	let userFolder: string;
	let n8n: { stop(): Promise<void>; output(): string; url: string };
	let url: string;
	let token: string;
	let client: any;

	const connect = (bearer?: string) => connectMcp(url, 'marketplace-e2e', bearer);
	const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => await client.callTool({ name, arguments: args });
	const answer = (result: ToolResult) => {
		expect(result.isError).toBeFalsy();
		return JSON.parse(result.content[0].text);
	};
	const stockWrites = async () => (await sb.control('GET', '/stats')).byEndpoint['POST /stock_update.php 200'] ?? 0;
	const ordersOfA = () => sb.raw.state.ordersBySeller.get(1001) as Array<Record<string, any>>;
	const skuOf = (order: Record<string, any>) => sb.raw.state.products.get(order.product_id).sku;

	beforeAll(async () => {
		sb = await startSandbox({ orders: 120 });
		userFolder = mkdtempSync(path.join(tmpdir(), 'n8n-partner-mcp-'));
		const port = await freePort();
		const prepared = await prepareWorkspace({ userFolder, sandbox: sb.raw.describe(), n8nPort: port, publish: [MCP_WORKFLOW_ID] });
		url = prepared.mcpUrl;
		token = prepared.mcpToken;
		n8n = await startN8n(userFolder, { port });
		await untilMcpServerListens(url);
		client = await connect(token);
	}, 600_000);

	afterAll(async () => {
		await client?.close();
		await n8n?.stop();
		await sb?.close();
		if (userFolder) rmSync(userFolder, { recursive: true, force: true });
	});

	test("this n8n's node types: ours has a tool variant with the tool defaults and a description per operation; every node of the order assistant exists, its human review included", async () => {
		const password = ownerPassword();
		expect(await setUpOwner(n8n.url, password)).toBe(true);
		const login = await fetch(`${n8n.url}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password }),
		});
		const cookie = login.headers.get('set-cookie')!.split(';')[0];
		const types = (await (await fetch(`${n8n.url}/types/nodes.json`, { headers: { cookie } })).json()) as Array<Record<string, any>>;
		const versionsOf = (name: string) => types.filter((t) => t.name === name).flatMap((t) => [t.version].flat());
		const tool = types.find((t) => t.name === 'n8n-nodes-marketplace-partner.marketplacePartnerTool')!;
		expect(tool.outputs).toEqual(['ai_tool']);
		expect(tool.properties.filter((p: any) => p.name === 'toolDescription').map((p: any) => p.displayOptions.show)).toEqual([
			{ resource: ['order'], operation: ['get'], '@tool': [true] },
			{ resource: ['order'], operation: ['getMany'], '@tool': [true] },
			{ resource: ['stock'], operation: ['update'], '@tool': [true] },
			{ resource: ['connection'], operation: ['checkSetup'], '@tool': [true] },
			{ resource: ['connection'], operation: ['ping'], '@tool': [true] },
			{ resource: ['otherEndpoint'], operation: ['send'], '@tool': [true] },
		]);
		// Ours replaces n8n's own "Tool Description: Set Automatically" (which says only "Get many order items in Marketplace Partner").
		expect(tool.properties.some((p: any) => p.name === 'descriptionType')).toBe(false);
		expect(tool.properties.filter((p: any) => p.name === 'limit').map((p: any) => [p.default, p.displayOptions.show['@tool']])).toEqual([
			[50, [false]],
			[20, [true]],
		]);
		if (N8N_MAJOR < 2) return; // human review for tools (…HitlTool) and Agent 3 came with n8n 2
		for (const node of exampleFor('order-assistant.json', sb.baseUrl).nodes) expect([node.type, versionsOf(node.type)]).toEqual([node.type, expect.arrayContaining([node.typeVersion])]);
		const review = types.find((t) => t.name === '@n8n/n8n-nodes-langchain.chatHitlTool')!;
		expect(review.outputs).toEqual([expect.objectContaining({ displayName: 'Human review', type: 'ai_tool' })]);
	});

	test('without the bearer token the MCP server refuses the client', async () => {
		// n8n's webhook authentication answers 403 with this text.
		await expect(connect()).rejects.toThrow(/Authorization (is required|data is wrong)/);
		await expect(connect('not-the-token')).rejects.toThrow(/Authorization data is wrong/);
	});

	test('lists the three tools with the operations\' descriptions and an input schema of the API\'s field names', async () => {
		const { tools } = await client.listTools();
		const byName = Object.fromEntries(tools.map((t: any) => [t.name, t]));
		expect(Object.keys(byName).sort()).toEqual(['get_order', 'list_orders', 'update_stock']);
		expect(byName.list_orders.description).toBe(listOrders.toolDescription);
		expect(byName.get_order.description).toBe(getOrder.toolDescription);
		expect(byName.update_stock.description).toBe(updateStock.toolDescription);
		const schema = (name: string) => byName[name].inputSchema;
		expect(Object.keys(schema('list_orders').properties).sort()).toEqual(['status', 'updated_after']);
		expect(schema('list_orders').properties.status).toMatchObject({ type: 'string', description: expect.stringMatching(/e\.g\. accepted/) });
		expect(schema('get_order').properties).toEqual({ order_item_id: expect.objectContaining({ type: 'number', description: expect.stringMatching(/e\.g\. 500001/) }) });
		expect(schema('get_order').required).toEqual(['order_item_id']);
		expect(Object.keys(schema('update_stock').properties).sort()).toEqual(['external_ref', 'product_id', 'stock']);
		expect(schema('update_stock').properties.stock).toMatchObject({ type: 'number', description: expect.stringMatching(/0 or more, e\.g\. 25/) });
		expect([...schema('update_stock').required].sort()).toEqual(['external_ref', 'product_id', 'stock']);
	});

	test("list_orders: the seller's first 20 order items, in Simplify's fields only, with the sandbox's values; filters narrow it", async () => {
		const items = answer(await call('list_orders', { status: '', updated_after: '' }));
		const expected = ordersOfA().slice(0, 20);
		expect(items.map((i: any) => i.order_item_id)).toEqual(expected.map((o) => o.order_item_id));
		for (const item of items) expect(Object.keys(item)).toEqual(SIMPLE_FIELDS);
		expect(items[0]).toMatchObject({ order_no: expected[0].order_no, status: expected[0].status, product_id: expected[0].product_id, sku: skuOf(expected[0]), city: expected[0].customer.city });

		const accepted = answer(await call('list_orders', { status: 'accepted', updated_after: '' }));
		const acceptedInSandbox = ordersOfA().filter((o) => o.status === 'accepted');
		expect(accepted.map((i: any) => i.order_item_id)).toEqual(acceptedInSandbox.slice(0, 20).map((o) => o.order_item_id));
		expect(accepted.every((i: any) => i.status === 'accepted')).toBe(true);
	});

	test('get_order: the order item by order_item_id, simplified; an unknown one and a wrong argument are tool errors naming order_item_id', async () => {
		const order = ordersOfA()[7];
		const item = answer(await call('get_order', { order_item_id: order.order_item_id }));
		expect(item).toEqual([
			expect.objectContaining({ order_item_id: order.order_item_id, order_no: order.order_no, product_id: order.product_id, sku: skuOf(order), city: order.customer.city }),
		]);
		expect(Object.keys(item[0])).toEqual(SIMPLE_FIELDS);

		const unknown = await call('get_order', { order_item_id: 999999 });
		expect(unknown.isError).toBe(true);
		// n8n hands the model the error's message and its description (2.x names the error class, 1.x says Error).
		expect(unknown.content[0].text).toMatch(/^(NodeOperation)?Error: The order item was not found\n\nDetails: API code: order_not_found\. .*\(field order_item_id\)/);
		const wrong = await call('get_order', { order_item_id: 'the last one' });
		expect(wrong.isError).toBe(true);
		// n8n checks the arguments against the tool's input schema before the node runs.
		expect(wrong.content[0].text).toMatch(/did not match expected schema[\s\S]*Expected number, received string[\s\S]*at order_item_id/);
	});

	test('update_stock: the write lands in the sandbox exactly once; the guard refuses a missing external_ref, a stock over 500 and a negative one, unsent', async () => {
		const products: Array<{ product_id: number; stock: number; variant_combination_ids: number[] }> = await sb.control('GET', '/products?sellerId=1001');
		const product = products.find((p) => p.variant_combination_ids.length === 0 && p.stock !== 12)!;
		await sb.control('POST', '/stats/reset');
		const result = answer(await call('update_stock', { product_id: product.product_id, stock: 12, external_ref: 'e2e: recount shelf B' }));
		expect(result).toEqual([expect.objectContaining({ product_id: product.product_id, old_stock: product.stock, new_stock: 12, external_ref: 'e2e: recount shelf B' })]);
		expect((await sb.control('GET', `/products/${product.product_id}`)).stock).toBe(12);
		expect(await stockWrites()).toBe(1);

		const refused = async (args: Record<string, unknown>, message: RegExp) => {
			const r = await call('update_stock', { product_id: product.product_id, stock: 3, external_ref: 'e2e', ...args });
			expect(r.isError).toBe(true);
			expect(r.content[0].text).toMatch(message);
		};
		await refused({ external_ref: '' }, /external_ref is empty: as a tool, every stock change needs one/);
		await refused({ stock: 501 }, /stock 501 is above the Maximum Stock of 500/);
		await refused({ stock: -1 }, /stock must be 0 or more, but got -1/);
		expect((await sb.control('GET', '/stats')).byEndpoint).toEqual({ 'POST /stock_update.php 200': 1 });
		expect((await sb.control('GET', `/products/${product.product_id}`)).stock).toBe(12);
	});

	// Issue 51: three clients in a row, as three people's assistants. The tools run inside each MCP
	// request (no execution): n8n 2.x's MCP Server Trigger 2.1 hands them the client's session, so
	// each session has its own Maximum Products per Run (10, the example's); n8n 1.x names none, so
	// there the calls of one hour share it, and the message says so.
	test('Maximum Products per Run: three MCP clients in a row, each its own count on n8n 2.x; the refusal says what holds', async () => {
		const products: Array<{ product_id: number; variant_combination_ids: number[] }> = await sb.control('GET', '/products?sellerId=1001');
		const spare = products.filter((p) => p.variant_combination_ids.length === 0).map((p) => p.product_id).slice(40, 80);
		await sb.control('POST', '/stats/reset');
		const measured: Array<{ changed: number; refusal: string }> = [];
		for (let n = 0; n < 3; n++) {
			const other = await connect(token);
			try {
				let changed = 0;
				let refusal = '';
				while (!refusal && changed <= 10) {
					const r: ToolResult = await other.callTool({ name: 'update_stock', arguments: { product_id: spare.shift(), stock: 7, external_ref: `e2e: client ${n + 1}` } });
					if (r.isError) refusal = r.content[0].text;
					else changed++;
				}
				measured.push({ changed, refusal });
			} finally {
				await other.close();
			}
		}
		process.stdout.write(`MCP budget, n8n ${N8N_MAJOR}.x, one process: ${measured.map((m, i) => `client ${i + 1} changed ${m.changed}`).join(', ')}; refusal: ${measured[0].refusal.split('.')[0]}\n`);
		expect(await stockWrites()).toBe(measured.reduce((sum, m) => sum + m.changed, 0));
		if (N8N_MAJOR >= 2) {
			expect(measured.map((m) => m.changed)).toEqual([10, 10, 10]);
			for (const { refusal } of measured) expect(refusal).toContain('only a person can change it, in the workflow');
		for (const { refusal } of measured) expect(refusal).toMatch(/This workflow lets a model change at most 10 products in one MCP session, and 10 were changed already, so nothing was sent\. Tell the person; a new session of their MCP client starts a new count/);
		} else {
			// The hour's count: the products changed earlier in this file count too.
			expect(measured.reduce((sum, m) => sum + m.changed, 0)).toBeLessThanOrEqual(10);
			expect(measured[2]).toEqual({ changed: 0, refusal: expect.stringMatching(/This workflow lets a model change at most 10 products in one hour \(n8n names no run or MCP session for these calls\)/) });
		}
	});
});
