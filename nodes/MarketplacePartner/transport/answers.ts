// Reading the API's answers leniently. The spec shows one form of each answer; a real backend (PHP
// over MySQL is common) may write its flags as 1/0 or "true", its ids and numbers as strings, or
// leave has_more out. A wrong guess here may cost a request, never an order item.
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { textOf } from '../helpers/untrusted';

const TRUE_FLAGS = new Set<unknown>([true, 1, '1', 'true']);
const FALSE_FLAGS = new Set<unknown>([false, 0, '0', 'false']);

/** true, false, or undefined when the value is not a flag any common backend writes. */
export function readFlag(value: unknown): boolean | undefined {
	const flag = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (TRUE_FLAGS.has(flag)) return true;
	if (FALSE_FLAGS.has(flag)) return false;
	return undefined;
}

/** The `data` of a success envelope (`ok` as true, 1, "1" or "true"), or undefined. */
export function successData(envelope: unknown): IDataObject | undefined {
	const { ok, data } = (envelope ?? {}) as { ok?: unknown; data?: unknown };
	return readFlag(ok) === true && data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : undefined;
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

/**
 * Watches the pages of one walk (or one poll's reads) for an API that ignores `offset`: it answers
 * every page with the first, and a walk would never end (or, cut short, silently miss all the
 * rest). A page at a later offset equal to the first page a second time stops the walk with an
 * error; once may be a list that moved while we paged.
 */
export class OffsetCheck {
	private first: string | undefined;
	private repeats = 0;

	constructor(
		private readonly node: INode,
		private readonly itemIndex?: number,
	) {}

	page(orders: IDataObject[], offset: number): void {
		const ids = orders.map((entry) => textOf(entry.order_item_id)).join(',');
		if (offset === 0) {
			this.first ??= ids;
			return;
		}
		if (ids === '' || ids !== this.first || ++this.repeats < 2) return;
		throw new NodeOperationError(this.node, `The API answered offset ${offset} with the same order items as the first page`, {
			description:
				'It seems to ignore the offset parameter, so the order items after the first page cannot be read. Nothing was skipped silently: report this to the marketplace operator.',
			itemIndex: this.itemIndex,
		});
	}
}
