// What a webhook event is about, whatever envelope the marketplace wraps it in (the spec shows no
// payload), and the mark by which Stock › Update's own changes are known when they come back as
// stock.updated events.
import type { IDataObject } from 'n8n-workflow';
import { textOf } from './networkText';

/** How Stock › Update (version 3 on) starts the external reference of the changes it makes. */
export const N8N_MARK = 'n8n:';

/** A JSON object (not null, not a list). */
export function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The event's record, to put at the top of the trigger's item: `data` when the payload wraps it
 * there ({ event, data: {…} }), else the payload itself; an order item nested one level deeper
 * (`order` or `order_item`, as the order detail nests it) comes up, its siblings kept beside it,
 * so `order_item_id` is where the Orders Trigger puts it. Nothing is dropped: the trigger keeps
 * the whole payload beside the record.
 */
export function eventRecord(payload: IDataObject): IDataObject {
	const record = isRecord(payload.data) ? payload.data : payload;
	if (Object.hasOwn(record, 'order_item_id')) return record;
	for (const key of ['order_item', 'order']) {
		const nested = record[key];
		if (isRecord(nested) && Object.hasOwn(nested, 'order_item_id')) {
			const siblings = Object.fromEntries(Object.entries(record).filter(([name]) => name !== key));
			return { ...nested, ...siblings };
		}
	}
	return record;
}

/** Whether a stock change was made by this package's Stock › Update: its external reference carries the mark. */
export function madeByN8n(record: IDataObject): boolean {
	return textOf(record.external_ref ?? '').startsWith(N8N_MARK);
}

/** The external reference Stock › Update sends when it marks its changes: the mark once, then the row's own. */
export function markedRef(externalRef: string | undefined): string {
	const ref = externalRef ?? '';
	return ref.startsWith(N8N_MARK) ? ref : `${N8N_MARK}${ref}`;
}
