// Order › Get Many over a list that moves while it is read: an order item met again on a later page
// is output once, and the run says how many came again. n8n's engine against a scripted API over
// loopback that answers each page by its offset.
import { credentialsFor, hintsOf, runNode } from '../helpers/n8n';
import { ok, startScriptedApi, type ScriptedRequest } from '../helpers/scriptedApi';

test('order items met again on a later page: each output once, and the run tells how many came again', async () => {
	const pages: Record<number, { ids: number[]; more: boolean }> = { 0: { ids: [1, 2, 3], more: true }, 3: { ids: [2, 3, 4], more: false } };
	const api = await startScriptedApi((request: ScriptedRequest) => {
		const page = pages[Number(new URL(request.url, 'http://x').searchParams.get('offset'))] ?? { ids: [], more: false };
		return ok({ orders: page.ids.map((order_item_id) => ({ order_item_id })), pagination: { has_more: page.more } });
	});
	try {
		const run = await runNode({
			parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: {}, simplify: false },
			credentials: credentialsFor(api.baseUrl, api.app),
			typeVersion: 3,
		});
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => i.json.order_item_id)).toEqual([1, 2, 3, 4]);
		expect(hintsOf(run).map((h) => h.message)).toContain('2 order items came again on a later page (the list changed while it was read); each is in the output once.');
		expect(api.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('offset'))).toEqual(['0', '3']);
	} finally {
		await api.close();
	}
});
