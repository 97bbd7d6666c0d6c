// Reading the API's answers leniently. The spec shows one form of each answer; a real backend (PHP
// over MySQL is common) may write its flags as 1/0 or "true", its ids and numbers as strings, or
// leave has_more out. A wrong guess here may cost a request, never an order item.
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { textOf } from '../helpers/networkText';
import { parseApiDate } from '../helpers/orderChanges';

const TRUE_FLAGS = new Set<unknown>([true, 1, '1', 'true']);
const FALSE_FLAGS = new Set<unknown>([false, 0, '0', 'false']);

/**
 * The written forms readFlag reads as false, as a backend writes them (any case of the words): the
 * Test button, whose rules can only compare values, refuses exactly these.
 */
export const FALSE_FLAG_SPELLINGS: unknown[] = [...FALSE_FLAGS].flatMap((flag) =>
	typeof flag === 'string' ? [...new Set([flag, flag.charAt(0).toUpperCase() + flag.slice(1), flag.toUpperCase()])] : [flag],
);

/** true, false, or undefined when the value is not a flag any common backend writes. */
export function readFlag(value: unknown): boolean | undefined {
	const flag = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (TRUE_FLAGS.has(flag)) return true;
	if (FALSE_FLAGS.has(flag)) return false;
	return undefined;
}

/**
 * The `data` of a success envelope (`ok` as true, 1, "1" or "true"), or undefined. With `anyData`
 * (an endpoint whose shape is not known) a `data` that is not an object comes under `data`, and none as {}.
 */
export function successData(envelope: unknown, anyData = false): IDataObject | undefined {
	const { ok, data } = (envelope ?? {}) as { ok?: unknown; data?: unknown };
	if (readFlag(ok) !== true) return undefined;
	if (data !== null && typeof data === 'object' && !Array.isArray(data)) return data as IDataObject;
	if (!anyData) return undefined;
	return data === undefined ? {} : ({ data } as IDataObject);
}

/** The moment of an answer's Date header in ms (the API's clock), or NaN when it has none or it is unreadable. */
export function dateHeaderMs(headers: IDataObject): number {
	return Date.parse(String(headers.date));
}

/**
 * The wait a Retry-After header asks for, in ms from `nowMs`: delay-seconds or a date; undefined
 * when absent or unreadable. Only digits are seconds: V8's Date.parse reads "12" as a year.
 */
export function retryAfterMs(header: unknown, nowMs: number): number | undefined {
	const value = String(Array.isArray(header) ? header[0] : header);
	if (/^\d+$/.test(value)) return Number(value) * 1000;
	const at = Date.parse(value);
	return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export interface OrdersPage {
	orders: IDataObject[];
	/** Whether to ask for the page after this one. */
	more: boolean;
}

/**
 * One answer of GET /orders.php. An empty page is always the last: an API that says "more" with
 * nothing in it cannot keep a walk going. A page shorter than asked is not the last while has_more
 * says more (an API may cap its pages), and without a readable has_more any page with entries may
 * have more behind it: one request more, never a page less.
 */
export function readOrdersPage(data: IDataObject): OrdersPage {
	const orders = Array.isArray(data.orders) ? (data.orders as IDataObject[]) : [];
	return { orders, more: orders.length > 0 && hasMoreOf(data) !== false };
}

/** has_more as the API wrote it; undefined when it left it out (or wrote something unreadable). */
export function hasMoreOf(data: IDataObject): boolean | undefined {
	return readFlag(((data.pagination ?? {}) as IDataObject).has_more);
}

/** pagination.offset as the API wrote it (a whole number, or digits); undefined otherwise. */
function offsetOf(data: IDataObject): number | undefined {
	const offset = ((data.pagination ?? {}) as IDataObject).offset;
	if (typeof offset === 'number') return Number.isSafeInteger(offset) ? offset : undefined;
	return typeof offset === 'string' && /^\d{1,15}$/.test(offset.trim()) ? Number(offset) : undefined;
}

/**
 * The most one walk reads (one Get Many of one input item, one scan of a poll, one look-up): a list
 * that goes on beyond it is stopped with an error, as is an API that keeps answering has_more with
 * new-looking pages. 100,000 order items is more than an n8n execution holds comfortably.
 */
export const MAX_WALK_PAGES = 1_000;
export const MAX_WALK_ORDERS = 100_000;

/** What a walk asked of the list besides its page: the filters the API is held to. */
export interface ListRequest {
	/** The status sent (matched as statusMatches reads it). */
	status?: string;
	/** The updated_after sent, as the API's datetime (strictly after). */
	updatedAfter?: string;
}

export type ListFilter = keyof ListRequest;

/**
 * Whether an order item's status is `status`, as every reader of a status filter compares them:
 * the API's own text and the one asked, trimmed, in any case (MySQL compares text without case by
 * default, so a backend may well answer "Accepted" with its "accepted" items).
 */
export function statusMatches(value: unknown, status: string): boolean {
	return typeof value === 'string' && value.trim().toLowerCase() === status.trim().toLowerCase();
}

export interface CheckedPage extends OrdersPage {
	/** The page's order items not read before in this walk and inside the request's filters, in the page's order. */
	fresh: IDataObject[];
	/** Order items of the page outside each filter, left out of `fresh`. */
	outside: Partial<Record<ListFilter, number>>;
	/** How many entries the page held beyond the limit asked, left unread (`orders` holds the rest). */
	beyondLimit: number;
}

/**
 * Watches the pages of one walk over GET /orders.php so that it always ends: an API that ignores or
 * clamps `offset` (a PHP backend that answers every offset past its end with its last page, and
 * has_more: true) would otherwise be read forever. A walk stops with an error that names the cause:
 * - a second page that is a page read before (the same order items in the same order) at another
 *   offset; one may be a list that moved while it was read. A page of order items read before in
 *   another arrangement is what a moving list gives: its repeats are left out, and the walk goes on;
 * - a page whose pagination.offset is not the offset asked for, from an API that wrote the offset
 *   asked for before (it clamped the offset);
 * - more than MAX_WALK_PAGES pages or MAX_WALK_ORDERS order items.
 * Each order item is handed on once: repeats (by order_item_id) are left out of `fresh`.
 */
export class PageCheck {
	private readonly ids = new Set<string>();
	/** The offset each page (by its ids) was first read at. */
	private readonly pages = new Map<string, number>();
	private pagesRead = 0;
	private ordersRead = 0;
	private repeatedPages = 0;
	/**
	 * Whether pagination.offset said the offset asked for, on a page past the first: only then is
	 * another offset in it a clamp (some backends write it wrong, or always 0, and page right).
	 */
	private echoes = false;

	/** The request's updated_after as parseApiDate reads it, once for the walk. */
	private readonly afterMs: number | undefined;

	constructor(
		private readonly node: INode,
		private readonly itemIndex?: number,
		private readonly request: ListRequest = {},
	) {
		this.afterMs = request.updatedAfter === undefined ? undefined : (parseApiDate(request.updatedAfter) ?? -Infinity);
	}

	/**
	 * The filter of the request that `entry` does not meet, or undefined when it meets them all (or
	 * cannot be told: an updated_at the node cannot read is not held against it).
	 */
	private outsideOf(entry: IDataObject): ListFilter | undefined {
		if (this.request.status !== undefined && !statusMatches(entry.status, this.request.status)) return 'status';
		if (this.afterMs !== undefined) {
			const updated = parseApiDate(entry.updated_at);
			if (updated !== undefined && updated <= this.afterMs) return 'updatedAfter';
		}
		return undefined;
	}

	/**
	 * The answer to the page asked for at `offset` with `limit`, checked and held to the request: at
	 * most `limit` entries are read (an API that ignores limit would hand one walk any number), and
	 * entries outside the request's filters are counted, not handed on. `overlap`: how many of its
	 * first order items the walk asked for again on purpose (the Orders Trigger's overlap of one); a
	 * page of no more than those is no repeated page.
	 */
	page(offset: number, data: IDataObject, limit: number, overlap = 0): CheckedPage {
		const whole = readOrdersPage(data);
		const beyondLimit = Math.max(0, whole.orders.length - limit);
		// A page cut at the limit has more behind it, whatever has_more says: the walk reads on.
		const read = beyondLimit > 0 ? { orders: whole.orders.slice(0, limit), more: true } : whole;
		this.pagesRead++;
		const pageIds = read.orders.map((entry) => textOf(entry.order_item_id ?? ''));
		const fresh: IDataObject[] = [];
		const outside: CheckedPage['outside'] = {};
		read.orders.forEach((entry, n) => {
			// An entry without an id cannot be compared: it counts as new (the caps still bound the walk).
			if (pageIds[n] !== '' && this.ids.has(pageIds[n])) return;
			this.ids.add(pageIds[n]);
			const filter = this.outsideOf(entry);
			if (filter) outside[filter] = (outside[filter] ?? 0) + 1;
			else if (this.ordersRead + fresh.length < MAX_WALK_ORDERS) fresh.push(entry);
			else {
				// The cap holds inside a page too.
				this.ordersRead += fresh.length;
				throw this.tooLong();
			}
		});
		const key = pageIds.join(',');
		const firstAt = this.pages.get(key);
		if (read.orders.length > 0 && firstAt === undefined) this.pages.set(key, offset);
		this.ordersRead += fresh.length;
		const checked = { ...read, fresh, outside, beyondLimit };
		// A last page ends the walk whatever it holds (repeats are left out all the same).
		if (!read.more) return checked;
		const answeredAt = offsetOf(data);
		if (answeredAt !== undefined && offset > 0) {
			if (answeredAt === offset) this.echoes = true;
			else if (this.echoes) throw this.circle(offset, `the page at offset ${answeredAt} (its pagination.offset)`);
		}
		if (firstAt !== undefined && read.orders.length > overlap && ++this.repeatedPages >= 2) {
			throw this.circle(offset, `the same order items as offset ${firstAt}`);
		}
		return checked;
	}

	/** Before the walk asks for another page: stops it at the caps. */
	next(): void {
		if (this.pagesRead < MAX_WALK_PAGES && this.ordersRead < MAX_WALK_ORDERS) return;
		throw this.tooLong();
	}

	private tooLong(): NodeOperationError {
		return new NodeOperationError(this.node, `The orders list goes on past ${this.pagesRead.toLocaleString('en-US')} page${this.pagesRead === 1 ? '' : 's'} (${this.ordersRead.toLocaleString('en-US')} order items), where the node stops reading it`, {
			description: `One read of the list stops at ${MAX_WALK_PAGES.toLocaleString('en-US')} pages or ${MAX_WALK_ORDERS.toLocaleString('en-US')} order items, so that a run cannot grow without end. Narrow the list with Filters (Status, Updated After) or a Limit. If the seller has not that many order items, the API pages in a circle: report it to the marketplace operator.`,
			itemIndex: this.itemIndex,
		});
	}

	private circle(offset: number, what: string): NodeOperationError {
		return new NodeOperationError(this.node, `The API answered offset ${offset} with ${what}`, {
			description: `It says more order items follow (has_more) but does not page on: it seems to ignore or clamp the offset parameter, so reading on would never end. The node stopped rather than read on: nothing was returned twice. Report this to the marketplace operator.`,
			itemIndex: this.itemIndex,
		});
	}
}
