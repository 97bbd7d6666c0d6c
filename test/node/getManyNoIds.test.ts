// Order › Get Many over list entries without an order_item_id: they cannot be compared with each
// other, so none is taken for a repeat of another. n8n's engine against a scripted API over loopback.
import { credentialsFor, runNode } from '../helpers/n8n';
import { ok, startScriptedApi } from '../helpers/scriptedApi';

test('entries without an order_item_id are each output, none dropped as a repeat', async () => {
	const orders = [{ order_no: 'A' }, { order_no: 'B' }, { order_item_id: 3, order_no: 'C' }];
	const api = await startScriptedApi([ok({ orders, pagination: { has_more: false } })]);
	try {
		const { items, error } = await runNode({
			parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: {}, simplify: false },
			credentials: credentialsFor(api.baseUrl, api.app),
			typeVersion: 3,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.order_no)).toEqual(['A', 'B', 'C']);
	} finally {
		await api.close();
	}
});
