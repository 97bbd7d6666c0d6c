import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['order'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get the detail of an order item: order, product, customer and shipment',
				action: 'Get an order item',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: "List the seller's order items, in the API's order or newest first",
				action: 'Get many order items',
			},
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
];
