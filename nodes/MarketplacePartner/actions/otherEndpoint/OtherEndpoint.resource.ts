import type { INodeProperties } from 'n8n-workflow';
import * as send from './send.operation';

export { send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['otherEndpoint'] } },
		options: [
			{
				name: 'Send Request',
				value: 'send',
				description: 'Send a request to an endpoint this node has no operation for, with the same signing, retries and error messages',
				action: 'Send a request to an endpoint',
			},
		],
		default: 'send',
	},
	...send.description,
];
