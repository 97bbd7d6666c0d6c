import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';
import { toWholeNumber } from '../../helpers/values';
import { forEachItem } from '../../helpers/items';
import { apiRequest } from '../../transport';
import { explainOrderDetail } from '../../transport/errors';
import { giveUpAfterOption, optionsCollection } from '../runOptions';

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
		description:
			"The order item's order_item_id field, as returned by Order > Get Many or by the trigger's order events. Map it from the previous node with an expression.",
	},
	optionsCollection(giveUpAfterOption),
];
// Stryker restore all

const displayOptions = { show: { resource: ['order'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, async (i) => {
		const orderItemId = toWholeNumber(this.getNodeParameter('orderItemId', i), 'Order Item ID', { min: 1 });
		const data = await apiRequest
			.call(this, 'GET', '/order_detail.php', { qs: { order_item_id: orderItemId }, itemIndex: i })
			.catch((error: unknown) => {
				throw error instanceof NodeApiError ? explainOrderDetail(error) : error;
			});
		return [{ json: data, pairedItem: { item: i } }];
	});
}
