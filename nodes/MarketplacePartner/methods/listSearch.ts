// The editor's list of the order items to pick from (Order › Get), searchable by order number and
// product. The list of statuses is the Status parameter's own (shared/helpers/statusParameter.ts).
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { walkOrders } from '../../shared/transport/orderPages';
import { startRun } from '../../shared/transport/runPolicy';
import { LIST_LABEL_CHARS, oneLine, textOf } from '../../shared/helpers/networkText';

/** Order items per answer before the editor asks for more (as the user scrolls). */
const RESULTS = 50;
/**
 * Pages one answer reads at most: the API cannot search, so a search reads the list and keeps what
 * matches. Enough to find an order number among 5,000 order items at once; past them, the editor's
 * next page goes on from where this one stopped.
 */
const SEARCH_PAGES = 50;

function field(value: unknown): string {
	return oneLine(textOf(value ?? ''), LIST_LABEL_CHARS);
}

/** "ORD-A-0000106 · Wireless Mouse · SKU-A-70001 · accepted": what a person knows an order item by. */
export function orderItemLabel(order: IDataObject): string {
	const product = (order.product ?? {}) as IDataObject;
	return [order.order_no, product.title, product.sku, order.status].map(field).filter(Boolean).join(' · ') || `Order item ${field(order.order_item_id)}`;
}

function searchText(order: IDataObject): string {
	const product = (order.product ?? {}) as IDataObject;
	return [order.order_no, order.order_item_id, product.title, product.sku].map(field).join('\n').toLowerCase();
}

export async function searchOrderItems(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	startRun(this);
	const wanted = (filter ?? '').trim().toLowerCase();
	const results: INodeListSearchResult['results'] = [];
	let pages = 0;
	const next = await walkOrders.call(this, { offset: Number(paginationToken) || 0 }, (orders) => {
		for (const order of orders) {
			if (wanted && !searchText(order).includes(wanted)) continue;
			results.push({ name: orderItemLabel(order), value: textOf(order.order_item_id) });
		}
		return results.length < RESULTS && ++pages < (wanted ? SEARCH_PAGES : 1);
	});
	return { results, paginationToken: next === undefined ? undefined : String(next) };
}
