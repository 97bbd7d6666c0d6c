// The Status filter as every node that has one offers it (Order › Get Many v3, the Orders Trigger v2):
// the statuses the API writes, to pick from (getStatuses, the list both nodes' editors load); read by
// toStatusFilter, explained by explainEmptyList.
import type { ILoadOptionsFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { knownStatuses, STATUS_PAGES } from '../transport/orderPages';
import { startRun } from '../transport/runPolicy';
import { LIST_LABEL_CHARS, oneLine } from './networkText';

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

/** "label_ready" as "Label Ready": the status list shows words, and sends the API's own spelling. */
function statusName(status: string): string {
	return oneLine(status.replace(/[_-]+/g, ' '), LIST_LABEL_CHARS).replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

export async function getStatuses(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	startRun(this);
	const statuses = await knownStatuses.call(this, STATUS_PAGES);
	return statuses.map((status) => ({ name: statusName(status), value: status, description: `Sent as "${oneLine(status, LIST_LABEL_CHARS)}", as the API writes it` }));
}
