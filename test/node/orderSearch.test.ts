// The order item list's search (Order › Get, From List): what it matches, and where one answer stops.
// n8n-core's load-options context against a scripted API over loopback that answers each page by its
// offset.
import type { IDataObject } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { credentialsFor, loadOptionsContext } from '../helpers/n8n';
import { ok, startScriptedApi, type ScriptedRequest } from '../helpers/scriptedApi';

const node = new MarketplacePartner();

async function search(pages: Record<number, { orders: IDataObject[]; more: boolean }>, filter: string) {
	const api = await startScriptedApi((request: ScriptedRequest) => {
		const page = pages[Number(new URL(request.url, 'http://x').searchParams.get('offset'))] ?? { orders: [], more: false };
		return ok({ orders: page.orders, pagination: { has_more: page.more } });
	});
	try {
		const context = loadOptionsContext(credentialsFor(api.baseUrl, api.app));
		const answer = await node.methods.listSearch.searchOrderItems.call(context, filter);
		return { answer, offsets: api.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('offset')) };
	} finally {
		await api.close();
	}
}

test('a search matches within one field, never across the end of one and the start of the next', async () => {
	const { answer } = await search({ 0: { orders: [{ order_item_id: 12, order_no: 'AB' }, { order_item_id: 34, order_no: 'XB1' }], more: false } }, 'b1');
	expect(answer.results.map((r) => r.value)).toEqual(['34']);
});

test('a search that has 50 matches when a page ends answers with them, and goes on from the next page when asked', async () => {
	const orders = Array.from({ length: 100 }, (_, i) => ({ order_item_id: i + 1, order_no: i % 2 === 0 ? `MATCH-${i}` : `OTHER-${i}` }));
	const { answer, offsets } = await search({ 0: { orders, more: true }, 100: { orders: [{ order_item_id: 101, order_no: 'MATCH-100' }], more: false } }, 'match');
	expect(answer.results).toHaveLength(50);
	expect(answer.paginationToken).toBe('100');
	expect(offsets).toEqual(['0']);
});
