// Stock › Update as an AI agent's tool: Maximum Products per Run counts the products one run changed
// across all its calls (an agent calls the tool once per answer step, each call an execute() of the
// same execution). Run by n8n's engine under execution ids chosen here, against a scripted API over
// loopback.
import type { IDataObject } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { credentialsFor, NODE_TYPE } from '../helpers/n8n';
import { runNodeAs } from '../helpers/runAs';
import { ok, startScriptedApi, type ScriptedApi } from '../helpers/scriptedApi';

const TOOL_TYPE = `${NODE_TYPE}Tool`;
const tool = new MarketplacePartner();
tool.description = { ...tool.description, name: `${tool.description.name}Tool` };

const parameters = { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}', additionalFields: { externalRef: '={{ $json.ref }}' }, toolMaxProducts: 1 };
const limit = 'This workflow lets a model change at most 1 products in one run, and 1 were changed already, so nothing was sent. Tell the person; they can run it again or raise Maximum Products per Run.';

describe('Maximum Products per Run, across the calls of one run', () => {
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
