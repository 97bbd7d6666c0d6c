import type { INodeProperties } from 'n8n-workflow';
import * as update from './update.operation';

export { update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['stock'] } },
		options: [
			{
				name: 'Update',
				value: 'update',
				description: 'Set the stock of a product or product variant',
				action: 'Update stock',
			},
		],
		default: 'update',
	},
	...update.description,
];
