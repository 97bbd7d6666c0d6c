// Simplify: the fields of an order item a person or a model acts on, flat and under the API's own
// names, instead of the whole answer (an order detail also holds the customer's address and the shipment).
import type { IDataObject } from 'n8n-workflow';

const ORDER_FIELDS = ['order_item_id', 'order_no', 'status', 'payment_status'] as const;
const PRODUCT_FIELDS = ['product_id', 'sku', 'title'] as const;
const AMOUNT_FIELDS = ['quantity', 'unit_price', 'currency', 'created_at', 'created_at_iso', 'updated_at', 'updated_at_iso'] as const;

function pick(target: IDataObject, source: unknown, fields: readonly string[]) {
	for (const field of fields) {
		// A block the answer lacks (null, or not an object) gives no fields.
		const value = (source as IDataObject | null | undefined)?.[field];
		if (value !== undefined) target[field] = value;
	}
}

/**
 * One order item, simplified: `order` holds the order fields (a list entry, or an order detail's
 * `order` block), `product` and `customer` its blocks. A field the answer lacks is left out.
 */
export function simplifyOrderItem(order: IDataObject, product: unknown, customer: unknown): IDataObject {
	const simple: IDataObject = {};
	pick(simple, order, ORDER_FIELDS);
	pick(simple, product, PRODUCT_FIELDS);
	pick(simple, order, AMOUNT_FIELDS);
	pick(simple, customer, ['city']);
	return simple;
}
