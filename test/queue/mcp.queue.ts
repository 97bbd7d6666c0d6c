/* eslint-disable @typescript-eslint/no-explicit-any, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The Marketplace MCP server example in queue mode (Redis, PostgreSQL, main, a worker and one webhook
// process, each with its own user folder): MCP clients connect to main and to the webhook process (n8n
// wants all /mcp requests of a session on one process); the tool calls run on the worker.
import { connectMcp, untilMcpServerListens, type ToolResult } from '../helpers/mcpClient';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

/* eslint-disable @typescript-eslint/no-require-imports */
const { freePort, packPackage, installPackageInto } = require('../../scripts/lib');
const { prepareWorkspace, MCP_WORKFLOW_ID } = require('../../scripts/workspace');
const { startQueueInstallation } = require('../../scripts/queue');
/* eslint-enable @typescript-eslint/no-require-imports */

describe('queue mode: the MCP server example on main and on a webhook process, its tools run by a worker', () => {
	let sb: RunningSandbox;
	let q: any;
	let client: any;
	let url: string;
	let token: string;
	let onMain: any;

	const connect = (at: string) => connectMcp(at, 'marketplace-queue', token);
	const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => await client.callTool({ name, arguments: args });
	const workerRuns = () => (q.process('worker').output().match(/Worker started execution \d+/g) ?? []).length;

	beforeAll(async () => {
		sb = await startSandbox({ orders: 60 });
		q = await startQueueInstallation();
		const tarball = packPackage();
		const { mcpToken, mcpUrl } = await prepareWorkspace({
			userFolder: q.userFolder('main'),
			sandbox: sb.raw.describe(),
			n8nPort: 0,
			extraEnv: q.env,
			tarball,
			publish: [MCP_WORKFLOW_ID],
		});
		for (const name of ['worker', 'webhook']) installPackageInto(q.userFolder(name), tarball);
		await q.start('main');
		const webhookPort = await freePort();
		await Promise.all([q.start('worker'), q.start('webhook', { port: webhookPort })]);
		url = mcpUrl.replace('127.0.0.1:0', `127.0.0.1:${webhookPort}`);
		await untilMcpServerListens(url);
		token = mcpToken;
		client = await connect(url);
	}, 900_000);

	afterAll(async () => {
		await onMain?.close();
		await client?.close();
		await q?.stop();
		await sb?.close();
	}, 120_000);

	test('the webhook process lists the three tools; list_orders and get_order answer from the sandbox through the worker', async () => {
		const { tools } = await client.listTools();
		expect(tools.map((t: any) => t.name).sort()).toEqual(['get_order', 'list_orders', 'update_stock']);
		const before = workerRuns();
		const list = await call('list_orders', { status: '', updated_after: '' });
		expect(list.isError).toBeFalsy();
		const items = JSON.parse(list.content[0].text);
		const ordersOfA = sb.raw.state.ordersBySeller.get(1001) as Array<{ order_item_id: number }>;
		expect(items.map((i: any) => i.order_item_id)).toEqual(ordersOfA.slice(0, 20).map((o) => o.order_item_id));
		const one = await call('get_order', { order_item_id: ordersOfA[3].order_item_id });
		expect(JSON.parse(one.content[0].text)[0].order_item_id).toBe(ordersOfA[3].order_item_id);
		expect(workerRuns()).toBeGreaterThanOrEqual(before + 2);
	});

	test('update_stock through the worker: the write lands once; the guard refuses without a request', async () => {
		const products: Array<{ product_id: number; stock: number; variant_combination_ids: number[] }> = await sb.control('GET', '/products?sellerId=1001');
		const product = products.find((p) => p.variant_combination_ids.length === 0 && p.stock !== 33)!;
		await sb.control('POST', '/stats/reset');
		const done = await call('update_stock', { product_id: product.product_id, stock: 33, external_ref: 'queue: recount' });
		expect(done.isError).toBeFalsy();
		expect(JSON.parse(done.content[0].text)).toEqual([expect.objectContaining({ product_id: product.product_id, old_stock: product.stock, new_stock: 33 })]);
		const refused = await call('update_stock', { product_id: product.product_id, stock: 3, external_ref: '' });
		expect(refused.isError).toBe(true);
		expect(refused.content[0].text).toMatch(/external_ref is empty/);
		expect((await sb.control('GET', '/stats')).byEndpoint).toEqual({ 'POST /stock_update.php 200': 1 });
		expect((await sb.control('GET', `/products/${product.product_id}`)).stock).toBe(33);
	});

	test('on main too: the same tools, and list_orders answers through the worker', async () => {
		onMain = await connect(url.replace(/:\d+\//, `:${new URL(q.process('main').url).port}/`));
		const { tools } = await onMain.listTools();
		expect(tools.map((t: any) => t.name).sort()).toEqual(['get_order', 'list_orders', 'update_stock']);
		const before = workerRuns();
		const list: ToolResult = await onMain.callTool({ name: 'list_orders', arguments: { status: 'accepted', updated_after: '' } });
		expect(list.isError).toBeFalsy();
		const accepted = (sb.raw.state.ordersBySeller.get(1001) as Array<{ order_item_id: number; status: string }>).filter((o) => o.status === 'accepted');
		expect(JSON.parse(list.content[0].text).map((i: any) => i.order_item_id)).toEqual(accepted.slice(0, 20).map((o) => o.order_item_id));
		expect(workerRuns()).toBeGreaterThan(before);
	});

	// Issue 51: each tool call is a worker execution of its own, so an execution id names no model
	// run; MCP Server Trigger 2.1 hands the worker the client's session. Three clients in a row (on
	// the webhook process, on main, on the webhook process): each its own Maximum Products per Run.
	test("Maximum Products per Run: three MCP clients in a row, on the webhook process and on main, each its own count of 10 through the worker", async () => {
		const products: Array<{ product_id: number; variant_combination_ids: number[] }> = await sb.control('GET', '/products?sellerId=1001');
		const spare = products.filter((p) => p.variant_combination_ids.length === 0).map((p) => p.product_id).slice(40, 80);
		await sb.control('POST', '/stats/reset');
		const mainUrl = url.replace(/:\d+\//, `:${new URL(q.process('main').url).port}/`);
		const measured: Array<{ at: string; changed: number; refusal: string }> = [];
		for (const at of [url, mainUrl, url]) {
			const other = await connect(at);
			try {
				let changed = 0;
				let refusal = '';
				while (!refusal && changed <= 10) {
					const r: ToolResult = await other.callTool({ name: 'update_stock', arguments: { product_id: spare.shift(), stock: 7, external_ref: 'queue: budget' } });
					if (r.isError) refusal = r.content[0].text;
					else changed++;
				}
				measured.push({ at: at === url ? 'webhook process' : 'main', changed, refusal });
			} finally {
				await other.close();
			}
		}
		process.stdout.write(`MCP budget, queue mode (one worker): ${measured.map((m, i) => `client ${i + 1} on ${m.at} changed ${m.changed}`).join(', ')}; refusal: ${measured[0].refusal.split('.')[0]}\n`);
		expect(measured.map((m) => m.changed)).toEqual([10, 10, 10]);
		// A worker hands the client the error's message and name only (JobProcessor.invokeTool): the message says it all.
		for (const { refusal } of measured) expect(refusal).toMatch(/This workflow lets a model change at most 10 products in one MCP session, and 10 were changed already, so nothing was sent\. Tell the person; a new session/);
		expect((await sb.control('GET', '/stats')).byEndpoint).toEqual({ 'POST /stock_update.php 200': 30 });
	});
});
