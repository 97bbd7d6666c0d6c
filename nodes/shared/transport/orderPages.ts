// One walk over GET /orders.php for every reader of the list (Get Many, Get by order number, the
// order item and status lists of the editor): each page checked (PageCheck) so that the walk ends,
// and counted for the run's report.
import type { IDataObject } from 'n8n-workflow';
import type { QueryValue } from './signing';
import { apiRequest } from './index';
import { hasMoreOf, PageCheck, type CheckedPage, type ListFilter, type ListRequest } from './answerReading';
import type { RunReport } from './runReport';
import { runPolicyOf, type ApiContext } from './runPolicy';
import { cut } from '../helpers/networkText';

/** The API's maximum page size. */
export const MAX_PAGE_SIZE = 100;

export interface Walk {
	/** Filters of the list (status, updated_after). */
	qs?: Record<string, QueryValue>;
	/** Where to start; 0 unless a walk goes on from an earlier one (the editor's next page). */
	offset?: number;
	/** The page size to ask for next (at most MAX_PAGE_SIZE): it may shrink as a limit comes near. */
	pageSize?: () => number;
	itemIndex?: number;
}

/**
 * Walks the list page by page, handing each page's order items not handed on before to `visit`,
 * until the last page or until `visit` returns false. Returns the offset after the last entry read, or undefined when the
 * list has ended there.
 */
export async function walkOrders(
	this: ApiContext,
	{ qs = {}, offset = 0, pageSize = () => MAX_PAGE_SIZE, itemIndex }: Walk,
	visit: (orders: IDataObject[]) => boolean | void,
): Promise<number | undefined> {
	const request = listRequestOf(qs);
	const check = new PageCheck(this.getNode(), itemIndex, request);
	const { report } = runPolicyOf(this);
	for (;;) {
		const limit = pageSize();
		const data = await apiRequest.call(this, 'GET', '/orders.php', { qs: { limit, offset, ...qs }, itemIndex });
		const page = check.page(offset, data, limit);
		reportPage(report, offset, limit, data, page, request);
		const { orders, fresh, more } = page;
		offset += orders.length;
		const goOn = visit(fresh) !== false;
		if (!more) return undefined;
		if (!goOn) return offset;
		check.next();
	}
}

/** The filters of a list request's query, as the answer is held to them. */
export function listRequestOf(qs: Record<string, QueryValue>): ListRequest {
	const text = (value: QueryValue) => (typeof value === 'string' && value !== '' ? value : undefined);
	return { status: text(qs.status), updatedAfter: text(qs.updated_after) };
}

/** What one checked page tells the run's report: its size against the limit, repeats, entries outside the filters. */
export function reportPage(report: RunReport, offset: number, limit: number, data: IDataObject, page: CheckedPage, request: ListRequest, { countRepeats = true } = {}): void {
	report.page(offset, limit, page.orders.length, hasMoreOf(data));
	report.beyondLimit(limit, page.orders.length + page.beyondLimit);
	const outside = Object.values(page.outside).reduce((sum, n) => sum + n, 0);
	// The Orders Trigger reads entries again on purpose (its overlap, a moving list): it says so itself.
	if (countRepeats) report.repeated(page.orders.length - page.fresh.length - outside);
	for (const [filter, count] of Object.entries(page.outside) as Array<[ListFilter, number]>) report.outside(filter, request[filter] as string, count);
}

/** How many pages of order items tell the statuses the API writes (the editor's Status list, the trigger's check). */
export const STATUS_PAGES = 3;

/** The one order status the API documents; a list that shows none still offers it. */
const DOCUMENTED_STATUSES = ['accepted'];

/**
 * The order statuses the API writes, as it writes them: those of the order items on the first
 * `pages` pages, and the documented ones. The API has no list of its statuses.
 */
export async function knownStatuses(this: ApiContext, pages: number, itemIndex?: number): Promise<string[]> {
	const statuses = new Set(DOCUMENTED_STATUSES);
	let read = 0;
	await walkOrders.call(this, { itemIndex }, (orders) => {
		for (const order of orders) if (typeof order.status === 'string' && order.status.trim()) statuses.add(order.status);
		return ++read < pages;
	});
	return [...statuses].sort();
}

/** A filtered list that came back empty: its filters as the user set them, and what to do when the status is not the problem. */
export interface EmptyList {
	status?: string;
	/** The filter's window in words, e.g. "were updated after 2026-05-01 00:00:00 (…)". */
	window?: string;
	/** Said when the statuses are not why (none asked, or one the API writes). */
	otherwise: string;
}

/**
 * Why a filtered list came back empty, in the words every reader of the list uses (Get Many, the
 * Orders Trigger's test event): the filters, and the statuses the API's order items have. A status
 * that matched only by case comes back as `respelled` (the API's spelling, to send instead) when
 * `respell` is set; earlier node versions keep what the workflow says and are told.
 */
export async function explainEmptyList(
	this: ApiContext,
	{ status, window, otherwise }: EmptyList,
	{ respell, itemIndex, pages = 1 }: { respell: boolean; itemIndex?: number; pages?: number },
): Promise<{ respelled?: string; type: 'info' | 'warning'; message: string }> {
	const statuses = status === undefined ? [] : await knownStatuses.call(this, pages, itemIndex);
	const filters = [status === undefined ? undefined : `have status "${cut(status, 50)}"`, window].filter(Boolean);
	const none = `No order items ${filters.join(' and ')}.`;
	if (status === undefined || statuses.includes(status)) return { type: 'info', message: `${none} ${otherwise}` };
	const spelled = statuses.find((known) => known.toLowerCase() === status.toLowerCase());
	if (spelled !== undefined && respell) {
		return { respelled: spelled, type: 'info', message: `Status "${cut(status, 50)}" was sent as "${cut(spelled, 50)}", as the API writes it.` };
	}
	const fix = spelled === undefined ? "Pick one of those from the Status list." : `Statuses match exactly: use "${cut(spelled, 50)}".`;
	return {
		type: 'warning',
		message: `${none} The order items in the list have the statuses ${statuses.map((known) => `"${cut(known, 50)}"`).join(', ')}. ${fix}`,
	};
}
