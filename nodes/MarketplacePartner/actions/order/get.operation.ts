import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';
import { toWholeNumber } from '../../helpers/values';
import { forEachItem } from '../../helpers/items';
import { simplifyOrderItem } from '../../helpers/simplify';
import { apiRequest } from '../../transport';
import { explainOrderDetail } from '../../transport/errors';
import { giveUpAfterOption, optionsCollection } from '../runOptions';
import { valueName } from '../tool';
import { simplifyOption } from './simplify';

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
const properties: INodeProperties[] = [
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
			"The order item's order_item_id field (e.g. 500001), as returned by Order > Get Many or by the trigger's order events. Map it from the previous node with an expression.",
	},
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
	return await forEachItem.call(this, async (i) => {
		const orderItemId = toWholeNumber(this.getNodeParameter('orderItemId', i), valueName(this, 'order_item_id', 'Order Item ID'), { min: 1 });
		const data = await apiRequest
			.call(this, 'GET', '/order_detail.php', { qs: { order_item_id: orderItemId }, itemIndex: i })
			.catch((error: unknown) => {
				throw error instanceof NodeApiError ? explainOrderDetail(error) : error;
			});
		const json = this.getNodeParameter('simplify', i) ? simplifyOrderItem(data.order as IDataObject, data.product, data.customer) : data;
		return [{ json, pairedItem: { item: i } }];
	});
}
