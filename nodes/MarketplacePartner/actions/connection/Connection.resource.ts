import type { INodeProperties } from 'n8n-workflow';
import * as ping from './ping.operation';

export { ping };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['connection'] } },
		options: [
			{
				name: 'Ping',
				value: 'ping',
				description: 'Check that the credential signs requests the API accepts',
				action: 'Ping the API',
			},
		],
		default: 'ping',
	},
	...ping.description,
];
