import type { INodeProperties } from 'n8n-workflow';

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
/** n8n's conventional Simplify switch, for Order › Get and Order › Get Many (on by default as a tool). */
export const simplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether to return only the fields to act on, flat (order number, status, product, quantity, price, dates, city). Turn it off for the whole answer.',
};
// Stryker restore all
