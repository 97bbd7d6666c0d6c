// The Status filter as every node that has one offers it (Order › Get Many v3, the Orders Trigger v2):
// the statuses the API writes, to pick from; read by toStatusFilter, explained by explainEmptyList.
import type { INodeProperties } from 'n8n-workflow';

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
export const statusParameter: INodeProperties = {
	displayName: 'Status Name or ID',
	name: 'status',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getStatuses' },
	// Any status the workflow names is sent (a marketplace's own, or one typed otherwise than the
	// list): the editor then marks no value outside the list as an issue.
	allowArbitraryValues: true,
	default: '',
	description:
		'Only order items in this order status: the statuses your marketplace\'s order items have. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};
// Stryker restore all
