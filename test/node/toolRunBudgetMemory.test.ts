// Stock › Update as an AI agent's tool keeps the products each run changed for the last 100 runs it
// counted, so that a process running for months holds a bounded record: a run counted 100 runs ago
// has long ended. Its own file, so that the record starts empty. n8n's engine under execution ids
// chosen here, against a scripted API over loopback; the other runs ask for a stock of 0, which the
// tool refuses before sending, after counting the run.
import type { IDataObject } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { credentialsFor, NODE_TYPE } from '../helpers/n8n';
import { runNodeAs } from '../helpers/runAs';
import { ok, startScriptedApi } from '../helpers/scriptedApi';

const TOOL_TYPE = `${NODE_TYPE}Tool`;
const tool = new MarketplacePartner();
tool.description = { ...tool.description, name: `${tool.description.name}Tool` };
const parameters = { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}', additionalFields: { externalRef: '={{ $json.ref }}' }, toolMaxProducts: 1 };

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
