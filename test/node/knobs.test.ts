// Fewer knobs (issue #53 item 2): a node added to a workflow today (each node's newest version)
// offers no option a no-code user cannot judge (Concurrency, Detail Concurrency, Overlap, Clock Skew
// Allowance, Give Up After on Ping); its value is fixed, and the versions saved workflows use keep them.
import type { INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node';

/** The names of the parameters, and of the options in their collections, shown in this setting. */
function shownNames(description: INodeTypeDescription, version: number, values: INodeParameters): string[] {
	return description.properties
		.filter((p) => NodeHelpers.displayParameter(values, p, { typeVersion: version }, description, values))
		.flatMap((p: INodeProperties) => (p.type === 'collection' ? ((p.options ?? []) as INodeProperties[]).map((o) => `${p.name}.${o.name}`) : [p.name]))
		.sort();
}

const action = new MarketplacePartner().description;
const orders = new MarketplacePartnerOrdersTrigger().description;
const newest = (d: INodeTypeDescription) => (d.defaultVersion ?? Math.max(...(d.version as number[]))) as number;

test('new nodes are the newest versions: the action node 4, the Orders Trigger 3', () => {
	expect([newest(action), Math.max(...(action.version as number[]))]).toEqual([4, 4]);
	expect(Math.max(...(orders.version as number[]))).toBe(3);
});

test.each([
	['Ping: nothing to set', { resource: 'connection', operation: 'ping' }, ['operation', 'resource']],
	[
		'Stock › Update: Give Up After and Maximum Stock, no Concurrency',
		{ resource: 'stock', operation: 'update', identifyBy: 'productId', '@tool': false },
		['columns', 'identifyBy', 'markAsN8n', 'operation', 'options.giveUpAfter', 'options.maxStock', 'resource'],
	],
	[
		'Order › Get Many: Sort under Options',
		{ resource: 'order', operation: 'getMany', returnAll: false },
		['filters.status', 'filters.updatedAfter', 'limit', 'operation', 'options.giveUpAfter', 'options.sort', 'resource', 'returnAll', 'simplify'],
	],
])('action node v4, %s', (_, values, names) => {
	expect(shownNames(action, 4, values).filter((n) => !n.startsWith('tool'))).toEqual(names);
});

test('Orders Trigger v3: Include Order Detail, Start From and Status; no Clock Skew Allowance, Detail Concurrency or Overlap', () => {
	expect(shownNames(orders, 3, {})).toEqual(['events', 'options.includeDetail', 'options.startFrom', 'options.status', 'pollingNotice']);
});

test('the versions saved workflows use keep every option they had', () => {
	for (const version of [1, 2, 3]) {
		expect(shownNames(action, version, { resource: 'connection', operation: 'ping' })).toContain('options.giveUpAfter');
		expect(shownNames(action, version, { resource: 'stock', operation: 'update', identifyBy: 'productId' })).toContain('options.concurrency');
		expect(shownNames(action, version, { resource: 'order', operation: 'getMany', returnAll: false })).toContain('sort');
	}
	for (const version of [1, 2]) expect(shownNames(orders, version, {})).toEqual(expect.arrayContaining(['options.detailConcurrency', 'options.overlapSeconds', 'options.skewSeconds']));
});
