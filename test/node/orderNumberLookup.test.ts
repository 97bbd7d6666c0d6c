// Order › Get, version 3, By Order Number, over a list whose entries are written loosely: an order
// number with spaces around it, an id that is not a number. n8n's engine against a scripted API over
// loopback that answers the list, then each order item's detail.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor, runNode } from '../helpers/n8n';
import { ok, startScriptedApi, type Answer, type ScriptedRequest } from '../helpers/scriptedApi';

test('By Order Number matches an order number written with spaces around it, and skips an entry whose id is missing, empty or not a number (never order item 0)', async () => {
	const orders: IDataObject[] = [
		{ order_item_id: 11, order_no: ' ORD-1 ' },
		{ order_item_id: 'x-12', order_no: 'ORD-1' },
		{ order_no: 'ORD-1' },
		{ order_item_id: '', order_no: 'ORD-1' },
		{ order_item_id: ' 15 ', order_no: 'ORD-1' },
		{ order_item_id: 13, order_no: 'ORD-1' },
		{ order_item_id: 14, order_no: 'ORD-2' },
	];
	const answer = (request: ScriptedRequest): Answer => {
		const url = new URL(request.url, 'http://x');
		if (url.pathname.endsWith('/orders.php')) return ok({ orders, pagination: { has_more: false } });
		return ok({ order: { order_item_id: Number(url.searchParams.get('order_item_id')) }, product: {}, customer: {}, shipment: {} });
	};
	const api = await startScriptedApi(answer);
	try {
		const { items, error } = await runNode({
			parameters: { resource: 'order', operation: 'get', orderItem: { __rl: true, mode: 'orderNo', value: 'ORD-1' } },
			credentials: credentialsFor(api.baseUrl, api.app),
			typeVersion: 3,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => (i.json.order as IDataObject).order_item_id)).toEqual([11, 15, 13]);
		const details = api.requests.filter((r) => r.url.includes('/order_detail.php')).map((r) => new URL(r.url, 'http://x').searchParams.get('order_item_id'));
		expect(details).toEqual(['11', '15', '13']);
	} finally {
		await api.close();
	}
});
