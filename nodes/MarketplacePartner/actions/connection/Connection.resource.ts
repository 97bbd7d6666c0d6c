import type { INodeProperties } from 'n8n-workflow';
import * as checkSetup from './checkSetup.operation';
import * as ping from './ping.operation';

export { checkSetup, ping };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['connection'] } },
		options: [
			{
				name: 'Check Setup',
				value: 'checkSetup',
				description: 'Report what your marketplace answers (authentication, clock, permissions, paging, errors, time zone) and which settings it needs',
				action: 'Check the marketplace setup',
			},
			{
				name: 'Ping',
				value: 'ping',
				description: 'Check that the credential signs requests the API accepts',
				action: 'Ping the API',
			},
		],
		default: 'ping',
	},
	...checkSetup.description,
	...ping.description,
];
