/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The saved workflows of test/contract/workflows/ (one per node version, as n8n saves them) load and
// run in n8n's real engine against the sandbox over loopback. They are pinned: a change to the
// nodes that stops one from running breaks workflows users saved (README in that folder).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IConnections, IDataObject, INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node';
import { MarketplacePartnerTrigger } from '../../nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node';
import { credentialsFor, registerNodeType, runWorkflow } from '../helpers/n8n';
import { PollHarness } from '../helpers/poll';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { startTriggerServer, type TriggerServer } from '../helpers/triggerServer';
import { packageNodeTypes } from './nodes';

interface SavedWorkflow {
	id: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
}

const dir = path.join(__dirname, 'workflows');
const fixtures: Record<string, SavedWorkflow> = Object.fromEntries(
	readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.map((f) => [f, JSON.parse(readFileSync(path.join(dir, f), 'utf8'))]),
);
const types = packageNodeTypes([new MarketplacePartner(), new MarketplacePartnerTrigger(), new MarketplacePartnerOrdersTrigger()]);
const ours = (workflow: SavedWorkflow) => workflow.nodes.filter((node) => node.type in types);

// n8n's own Manual Trigger (n8n-nodes-base is not a dependency here): it starts the run with one empty item.
registerNodeType('n8n-nodes-base.manualTrigger', {
	description: { displayName: 'Manual Trigger', name: 'manualTrigger', group: ['trigger'], version: 1, description: '', defaults: {}, inputs: [], outputs: ['main'], properties: [] },
	async execute() {
		return [[{ json: {} }]];
	},
} as unknown as INodeType);

describe('the saved-workflow fixtures', () => {
	test('one fixture per node version, each node saved as n8n saves it: only parameters that exist and differ from their defaults', () => {
		const versions = Object.values(fixtures).flatMap((w) => ours(w).map((node) => `${node.type}@${node.typeVersion}`));
		const declared = Object.entries(types)
			.filter(([type]) => !type.endsWith('Tool'))
			.flatMap(([type, d]) => (Array.isArray(d.version) ? d.version : [d.version]).map((v) => `${type}@${v}`));
		expect([...new Set(versions)].sort()).toEqual(declared.sort());
		for (const [file, workflow] of Object.entries(fixtures)) {
			expect(workflow.id.length).toBeLessThanOrEqual(16); // n8n 1.x keeps static data only for such ids
			for (const node of ours(workflow)) {
				// pollTimes is n8n's own parameter of every polling node, added when n8n loads it.
				const { pollTimes, ...parameters } = node.parameters;
				const description = types[node.type];
				expect({ file, node: node.name, pollTimes: Boolean(pollTimes) }).toEqual({ file, node: node.name, pollTimes: Boolean(description.polling) });
				const saved = NodeHelpers.getNodeParameters(description.properties, parameters, false, false, node, description);
				expect({ file, node: node.name, parameters: saved }).toEqual({ file, node: node.name, parameters });
			}
		}
	});

	test('the action node fixtures hold every operation of each version', () => {
		const description = types['n8n-nodes-marketplace-partner.marketplacePartner'];
		const operations = (file: string) =>
			ours(fixtures[file])
				.map((node) => NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node, description)!)
				.map((p) => `${p.resource}.${p.operation}`)
				.sort();
		const all = ['connection.checkSetup', 'connection.ping', 'order.get', 'order.getMany', 'stock.update'];
		expect([...new Set(operations('action-v1.json'))]).toEqual(all);
		expect([...new Set(operations('action-v2.json'))]).toEqual(all);
		expect([...new Set(operations('action-v3.json'))]).toEqual(all);
		expect([...new Set(operations('action-v4.json'))]).toEqual(all);
	});
});

describe('the saved workflows run against the sandbox', () => {
	let sb: RunningSandbox;
	const app = () => sb.apps['seller-a-full'];
	const credentials = () => ({ marketplacePartnerApi: credentialsFor(sb.baseUrl, app()) });

	beforeAll(async () => {
		sb = await startSandbox({ orders: 300 });
	});
	afterEach(() => sb.control('POST', '/reset'));
	afterAll(() => sb.close());

	async function run(file: string) {
		const { nodes, connections } = fixtures[file];
		const { run } = await runWorkflow(structuredClone(nodes), connections, 'Start', [{}], credentials());
		expect(run.data.resultData.error).toBeUndefined();
		const runData = run.data.resultData.runData;
		// Every node ran once, without an error.
		expect(Object.keys(runData).sort()).toEqual(nodes.map((n) => n.name).sort());
		for (const [name, tasks] of Object.entries(runData)) expect({ name, runs: tasks.length, error: tasks[0].error }).toEqual({ name, runs: 1, error: undefined });
		return (name: string) => (runData[name][0].data!.main[0] as INodeExecutionData[]).map((item) => item.json);
	}

	/** The stock the sandbox holds now for a product, or for its variant. */
	const stockOf = async (productId: number, variantId: number | null) => {
		const product = await sb.control('GET', `/products/${productId}`);
		return variantId ? product.variants.find((v: IDataObject) => v.variant_combination_id === variantId).stock : product.stock;
	};

	/** Runs an action fixture; both ping, check the setup, and list 2 accepted order items, simplified. */
	async function runAction(file: string) {
		const out = await run(file);
		expect(out('Ping')).toHaveLength(1);
		expect(out('Check Setup').length).toBeGreaterThan(0);
		const listed = out('Get Many');
		expect(listed).toHaveLength(2);
		expect(listed.every((o) => o.status === 'accepted' && 'city' in o && !('customer' in o))).toBe(true); // simplified
		return { out, listed };
	}

	test('action v1: ping, check setup, the newest accepted order items, their detail, and their stock set by an expression', async () => {
		const { out, listed } = await runAction('action-v1.json');
		expect(String(listed[0].created_at) >= String(listed[1].created_at)).toBe(true); // newest first
		const detail = out('Get');
		expect(detail.map((d) => (d.order as IDataObject).order_item_id)).toEqual(listed.map((o) => o.order_item_id));
		const updated = out('Update Stock');
		expect(updated).toHaveLength(2);
		for (const [i, result] of updated.entries()) {
			const { order, product } = detail[i] as { order: IDataObject; product: IDataObject };
			const stock = (order.quantity as number) + 10;
			expect(result).toMatchObject({ product_id: product.product_id, new_stock: stock, external_ref: `contract-v1-${order.order_item_id}` });
			expect(await stockOf(product.product_id as number, (product.variant_combination_id as number) ?? null)).toBe(stock);
		}
	});

	test('action v2: the same operations, stock set by SKU through mapped columns, then set back from each answered item', async () => {
		const { out, listed } = await runAction('action-v2.json');
		const detail = out('Get') as Array<{ order: IDataObject; product: IDataObject }>;
		expect(detail.map((d) => d.order.order_item_id)).toEqual(listed.map((o) => o.order_item_id));
		const bySku = out('Update Stock by SKU');
		expect(bySku.map((r) => [r.product_id, r.variant_combination_id ?? null, r.new_stock, r.external_ref])).toEqual(
			detail.map((d) => [d.product.product_id, d.product.variant_combination_id ?? null, (d.order.quantity as number) + 20, `contract-v2-sku-${d.order.order_item_id}`]),
		);
		// Read from each item the SKU update answered: product_id, variant_combination_id and external_ref
		// by name, Stock from "old_stock" (Column Names): the stock goes back to what it was.
		const restored = out('Update Stock from Items');
		expect(restored.map((r) => [r.product_id, r.new_stock, r.external_ref])).toEqual(bySku.map((r) => [r.product_id, r.old_stock, r.external_ref]));
		for (const r of restored) expect(await stockOf(r.product_id as number, (r.variant_combination_id as number) ?? null)).toBe(r.new_stock);
	});

	test('action v3: a status typed as people type it, each order item found by its order number, stock set by SKU and set back', async () => {
		const { out, listed } = await runAction('action-v3.json');
		const detail = out('Get by Order Number') as Array<{ order: IDataObject; product: IDataObject }>;
		expect(detail.map((d) => [d.order.order_item_id, d.order.order_no])).toEqual(listed.map((o) => [o.order_item_id, o.order_no]));
		const bySku = out('Update Stock by SKU');
		expect(bySku.map((r) => [r.product_id, r.new_stock, r.external_ref])).toEqual(
			detail.map((d) => [d.product.product_id, (d.order.quantity as number) + 30, `n8n:contract-v3-sku-${d.order.order_item_id}`]),
		);
		// Marked as made by a workflow once, also when the reference read back already is.
		const restored = out('Update Stock from Items');
		expect(restored.map((r) => [r.product_id, r.new_stock, r.external_ref])).toEqual(bySku.map((r) => [r.product_id, r.old_stock, r.external_ref]));
	});

	test('action v4: Ping without options, Get Many sorted newest first under Options, stock set by SKU within Maximum Stock and set back', async () => {
		const { out, listed } = await runAction('action-v4.json');
		expect(String(listed[0].created_at) >= String(listed[1].created_at)).toBe(true); // newest first
		const newest = (sb.raw.state.ordersBySeller.get(app().sellerId) as IDataObject[])
			.filter((o) => o.status === 'accepted')
			.sort((a, b) => (b.created_ms as number) - (a.created_ms as number))
			.map((o) => o.order_item_id);
		expect(listed.map((o) => o.order_item_id)).toEqual(newest.slice(0, 2));
		const detail = out('Get by Order Number') as Array<{ order: IDataObject; product: IDataObject }>;
		const bySku = out('Update Stock by SKU');
		expect(bySku.map((r) => [r.product_id, r.new_stock, r.external_ref])).toEqual(
			detail.map((d) => [d.product.product_id, (d.order.quantity as number) + 40, `n8n:contract-v4-sku-${d.order.order_item_id}`]),
		);
		const restored = out('Update Stock from Items');
		expect(restored.map((r) => [r.product_id, r.new_stock, r.external_ref])).toEqual(bySku.map((r) => [r.product_id, r.old_stock, r.external_ref]));
	});

	describe('the triggers', () => {
		let server: TriggerServer | undefined;
		afterEach(async () => {
			await server?.close();
			server = undefined;
			await sb.control('POST', `/apps/${app().clientId}/webhook`, { url: null, encoding: 'hex' });
		});

		test('webhook trigger v1: the selected events start runs, with the headers; others are acknowledged and dropped', async () => {
			const [node] = fixtures['webhook-trigger-v1.json'].nodes;
			expect(node.typeVersion).toBe(1); // the version the trigger server runs
			server = await startTriggerServer(credentials().marketplacePartnerApi, node.parameters);
			await sb.control('POST', `/apps/${app().clientId}/webhook`, { url: server.url, encoding: 'hex' });
			await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'return.requested' });
			await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'stock.updated' });
			await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'order.created' });
			const attempts = await sb.control('POST', '/deliveries/wait');
			expect(attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([200, 200, 200]);
			expect(server.runs.map((r) => r[0].json.event)).toEqual(['stock.updated', 'order.created']);
			expect(server.runs[0][0].json.headers).toEqual(expect.objectContaining({ 'x-svc-webhook-event': 'stock.updated' }));
		});

		test("webhook trigger v2: the order item at the top of the item; the stock changes of n8n's own Stock › Update skipped", async () => {
			const [node] = fixtures['webhook-trigger-v2.json'].nodes;
			expect(node.typeVersion).toBe(2);
			server = await startTriggerServer(credentials().marketplacePartnerApi, node.parameters, undefined, undefined, undefined, undefined, 2);
			await sb.control('POST', `/apps/${app().clientId}/webhook`, { url: server.url, encoding: 'hex' });
			const { order } = await sb.control('POST', '/orders', { clientId: app().clientId });
			const own = await run('action-v3.json'); // its Stock › Update nodes mark their changes
			await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'stock.updated' });
			const attempts = await sb.control('POST', '/deliveries/wait');
			expect(attempts.every((a: { statusCode: number }) => a.statusCode === 200)).toBe(true);
			expect(own('Update Stock by SKU').length).toBeGreaterThan(0);
			expect(server.runs.map((r) => [r[0].json.event, r[0].json.order_item_id ?? r[0].json.external_ref])).toEqual([
				['order.created', order.order_item_id],
				['stock.updated', 'operator-test'],
			]);
		});

		test('orders trigger v1: a new accepted order item comes out once, with its detail', async () => {
			const [node] = fixtures['orders-trigger-v1.json'].nodes;
			expect(node.typeVersion).toBe(1); // the version the poll harness runs
			const h = new PollHarness(node.parameters, credentials().marketplacePartnerApi);
			expect(await h.activate()).toEqual({ items: null, error: undefined });
			const {
				orderItemIds: [created],
			} = await sb.control('POST', '/changes', { clientId: app().clientId, changes: { newOrders: 1 } });
			// An older order item shipped now: neither a new one nor accepted.
			const older = (sb.raw.state.ordersBySeller.get(app().sellerId) as IDataObject[]).find((o) => o.status === 'accepted' && o.order_item_id !== created)!;
			await sb.control('POST', `/orders/${older.order_item_id}/status`, { status: 'shipped' });
			const { items, error } = await h.poll();
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(items![0]).toMatchObject({ event: 'order.created', order_item_id: created, detail: expect.objectContaining({ order: expect.any(Object) }) });
			expect((await h.poll()).items).toBeNull();
		});

		test('orders trigger v2: Status typed "Accepted" is read as Get Many reads it; a new accepted order item comes out once, with its detail', async () => {
			const [node] = fixtures['orders-trigger-v2.json'].nodes;
			const h = new PollHarness(node.parameters, credentials().marketplacePartnerApi, undefined, undefined, node.typeVersion);
			expect(await h.activate()).toEqual({ items: null, error: undefined });
			const {
				orderItemIds: [created],
			} = await sb.control('POST', '/changes', { clientId: app().clientId, changes: { newOrders: 1 } });
			const { items, error } = await h.poll();
			expect(error).toBeUndefined();
			expect(items!.map((i) => [i.event, i.order_item_id, i.status])).toEqual([['order.created', created, 'accepted']]);
			expect(items![0].detail).toEqual(expect.objectContaining({ order: expect.any(Object) }));
			// Fetch Test Event finds it too, by the same reading.
			expect((await h.manual())!.map((i) => [i.order_item_id, i.status])).toEqual([[created, 'accepted']]);
		});

		test('orders trigger v3: without the tuning options, new and changed accepted order items come out once each, with their detail', async () => {
			const [node] = fixtures['orders-trigger-v3.json'].nodes;
			const h = new PollHarness(node.parameters, credentials().marketplacePartnerApi, undefined, undefined, node.typeVersion);
			expect(await h.activate()).toEqual({ items: null, error: undefined });
			const { orderItemIds } = await sb.control('POST', '/changes', { clientId: app().clientId, changes: { newOrders: 7 } });
			const { items, error } = await h.poll();
			expect(error).toBeUndefined();
			expect(items!.map((i) => [i.event, i.order_item_id]).sort()).toEqual(orderItemIds.map((id: number) => ['order.created', id]).sort());
			expect(items!.every((i) => (i.detail as IDataObject).order !== undefined)).toBe(true);
			expect((await h.poll()).items).toBeNull();
		});
	});
});
