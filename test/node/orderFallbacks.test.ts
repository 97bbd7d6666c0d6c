// Version 3's Order operations where the API or the workflow leaves something out: a list entry
// with nothing to label it by but its id, an Order Item locator whose value is null, and input items
// whose filters each find nothing (each reason told once). Run in n8n-core's load-options context and
// n8n's engine against a scripted API over loopback.
import type { IDataObject } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { credentialsFor, hintsOf, loadOptionsContext, runNode } from '../helpers/n8n';
import { ok, startScriptedApi, type Answer, type ScriptedRequest } from '../helpers/scriptedApi';

const node = new MarketplacePartner();
const testApp = { clientId: 'cli_x', clientSecret: 'cs_x', webhookSecret: '' };

async function withApi<T>(answers: Answer[] | ((request: ScriptedRequest) => Answer), use: (baseUrl: string, requests: ScriptedRequest[]) => Promise<T>): Promise<T> {
	const api = await startScriptedApi(answers);
	try {
		return await use(api.baseUrl, api.requests);
	} finally {
		await api.close();
	}
}

test('the order item list labels an entry with no order number, product or status by its id', async () => {
	const orders = [{ order_item_id: 5 }, { order_item_id: 6, status: 'accepted' }];
	const answer = await withApi([ok({ orders, pagination: { has_more: false } })], (baseUrl) =>
		node.methods.listSearch.searchOrderItems.call(loadOptionsContext(credentialsFor(baseUrl, testApp))),
	);
	expect(answer.results).toEqual([
		{ name: 'Order item 5', value: '5' },
		{ name: 'accepted', value: '6' },
	]);
});

test.each([
	['orderNo', 'Order Item (By Order Number) is empty; give an order number such as ORD-A-0000106.'],
	['id', 'Order Item ID is empty; it needs a whole number of 1 or more.'],
])('an Order Item (%s) mapped from a field that is null or missing is an empty value, and nothing is asked of the API', async (mode, message) => {
	const { items, error, requests } = await withApi([ok({ orders: [], pagination: { has_more: false } })], async (baseUrl, requests) => ({
		...(await runNode({
			parameters: { resource: 'order', operation: 'get', orderItem: { __rl: true, mode, value: '={{ $json.orderItem }}' } },
			items: [{ orderItem: null }, {}],
			credentials: credentialsFor(baseUrl, testApp),
			typeVersion: 3,
			continueOnFail: true,
		})),
		requests,
	}));
	expect(error).toBeUndefined();
	expect(items.map((item) => item.json.error)).toEqual([message, message]);
	expect(requests).toEqual([]);
});

test('input items whose Status filters find nothing: each reason is told once, however many items met it', async () => {
	// The filtered list is empty; the list read for the statuses the API has is not.
	const list = (request: ScriptedRequest): Answer =>
		new URL(request.url, 'http://x').searchParams.has('status')
			? ok({ orders: [], pagination: { has_more: false } })
			: ok({ orders: [{ order_item_id: 1, status: 'accepted' }, { order_item_id: 2, status: 'shipped' }], pagination: { has_more: false } });
	const run = await withApi(list, (baseUrl) =>
		runNode({
			parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: { status: '={{ $json.status }}' } },
			items: [{ status: 'lost' }, { status: 'gone' }, { status: 'lost' }],
			credentials: credentialsFor(baseUrl, testApp),
			typeVersion: 3,
		}),
	);
	expect(run.error).toBeUndefined();
	const pick = "Pick one of those in the Status filter's list.";
	expect(hintsOf(run).map((hint: IDataObject) => hint.message)).toEqual([
		`No order items have status "lost". The order items in the list have the statuses "accepted", "shipped". ${pick}`,
		`No order items have status "gone". The order items in the list have the statuses "accepted", "shipped". ${pick}`,
	]);
});
