import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameterResourceLocator, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';
import { toWholeNumber } from '../../../shared/helpers/values';
import { forEachItem } from '../../../shared/helpers/items';
import { simplifyOrderItem } from '../../helpers/simplifyOrderItem';
import { apiCredentials, apiRequest } from '../../../shared/transport';
import { withIsoDates } from '../../../shared/helpers/orderChanges';
import { isRecord } from '../../../shared/helpers/events';
import { walkOrders } from '../../../shared/transport/orderPages';
import { cut, textOf } from '../../../shared/helpers/networkText';
import { explainOrderDetail } from '../../../shared/transport/errors';
import { giveUpAfterOption, optionsCollection } from '../../../shared/runOptions';
import { isTool, valueName } from '../tool';
import { simplifyOption } from './simplifyOption';

/** An order item id, as the editor checks By ID before anything runs: digits only. */
const ORDER_ITEM_ID_PATTERN = '^\\s*[0-9]+\\s*$';
const ORDER_ITEM_ID_ERROR = 'An order item ID is a whole number, e.g. 500001. For an order number such as ORD-A-0000106, choose By Order Number.';

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
/** Versions 1 and 2: the order item's id, typed or mapped. */
const orderItemIdProperty: INodeProperties =
	{
		displayName: 'Order Item ID',
		name: 'orderItemId',
		type: 'number',
		typeOptions: { minValue: 1 },
		// Empty, not 0: there is no order item 0.
		default: null,
		required: true,
		placeholder: 'e.g. 500001',
		description:
			"The order item's order_item_id field (e.g. 500001), as returned by Order › Get Many or by the trigger's order events. Map it from the previous node with an expression.",
	};

/** Version 3: picked from a list, by ID (checked before anything is sent), or by order number. */
const orderItemLocator: INodeProperties = {
	displayName: 'Order Item',
	name: 'orderItem',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The order item to get: pick it from the list, or give its ID or its order number',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an order item...',
			typeOptions: { searchListMethod: 'searchOrderItems', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 500001',
			validation: [
				{
					type: 'regex',
					properties: { regex: ORDER_ITEM_ID_PATTERN, errorMessage: ORDER_ITEM_ID_ERROR },
				},
			],
		},
		{
			displayName: 'By Order Number',
			name: 'orderNo',
			type: 'string',
			placeholder: 'e.g. ORD-A-0000106',
		},
	],
};

const properties: INodeProperties[] = [
	...updateDisplayOptions({ show: { '@version': [1, 2] } }, [orderItemIdProperty]),
	...updateDisplayOptions({ show: { '@version': [{ _cnd: { gte: 3 } }] } }, [orderItemLocator]),
	simplifyOption,
	optionsCollection(giveUpAfterOption),
];

/** What a model reads about Order › Get used as a tool. */
export const toolDescription =
	"Get one order item of the seller in detail (Partner API GET /order_detail.php) by its order_item_id, a whole number taken from the list of order items (e.g. 500001). Returns its order_no, status, payment_status, product_id, sku and title, quantity, unit_price, currency, created_at, updated_at and the customer's city. An order_item_id that is not this seller's is answered as not found.";
// Stryker restore all

const displayOptions = { show: { resource: ['order'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const byLocator = this.getNode().typeVersion >= 3;
	// Read once per run, when an item names its order item by order number.
	let orderNumbers: Promise<OrderNumbers> | undefined;
	const orderNumbersOnce = () => (orderNumbers ??= readOrderNumbers.call(this));
	return await forEachItem.call(this, async (i) => {
		const { timeZone } = await apiCredentials.call(this, i);
		const ids = byLocator
			? await orderItemIdsOf.call(this, i, orderNumbersOnce)
			: [toWholeNumber(this.getNodeParameter('orderItemId', i), valueName(this, 'order_item_id', 'Order Item ID'), { min: 1 }) as number];
		const items: INodeExecutionData[] = [];
		for (const orderItemId of ids) {
			const data = await apiRequest
				.call(this, 'GET', '/order_detail.php', { qs: { order_item_id: orderItemId }, itemIndex: i })
				.catch((error: unknown) => {
					throw error instanceof NodeApiError ? explainOrderDetail(error) : error;
				});
			const order = isRecord(data.order) ? withIsoDates(data.order, timeZone) : data.order;
			const json = this.getNodeParameter('simplify', i) ? simplifyOrderItem(order as IDataObject, data.product, data.customer) : { ...data, order };
			items.push({ json, pairedItem: { item: i } });
		}
		return items;
	});
}

/** The order items of each order number, from the whole list, and how many order items it holds. */
interface OrderNumbers {
	ids: Map<string, number[]>;
	read: number;
}

async function readOrderNumbers(this: IExecuteFunctions): Promise<OrderNumbers> {
	const ids = new Map<string, number[]>();
	let read = 0;
	await walkOrders.call(this, {}, (orders) => {
		for (const order of orders) {
			read++;
			const orderNo = textOf(order.order_no ?? '').trim();
			// Digits only: Number() reads a missing or empty id as 0, which is another order item's id.
			const idText = textOf(order.order_item_id ?? '').trim();
			if (!orderNo || !/^\d{1,15}$/.test(idText)) continue;
			const id = Number(idText);
			const list = ids.get(orderNo);
			if (list) list.push(id);
			else ids.set(orderNo, [id]);
		}
	});
	return { ids, read };
}

/** Version 3: the order item ids the Order Item parameter names (an order number may name several). */
async function orderItemIdsOf(this: IExecuteFunctions, i: number, orderNumbers: () => Promise<OrderNumbers>): Promise<number[]> {
	const { mode, value } = this.getNodeParameter('orderItem', i) as INodeParameterResourceLocator;
	const text = textOf(value ?? '').trim();
	if (mode === 'orderNo') {
		if (!text) throw new Error('Order Item (By Order Number) is empty; give an order number such as ORD-A-0000106.');
		const { ids, read } = await orderNumbers();
		const found = ids.get(text);
		if (found) return found;
		throw new Error(
			`No order item has the order number "${cut(text, 100)}": the node looked through all ${read} order items of the seller. Check the number (it is matched exactly), or pick the order item From List.`,
		);
	}
	// Text such as an order number is an error that says where it goes, never some other order item's id.
	const ifLetters = isTool(this) ? undefined : 'which looks like an order number: choose Order Item › By Order Number';
	return [toWholeNumber(text, valueName(this, 'order_item_id', 'Order Item ID'), { min: 1, ifLetters }) as number];
}
