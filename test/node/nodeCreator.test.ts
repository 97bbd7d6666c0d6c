// n8n's node creator merges a trigger into the action node whose name is the trigger's name without
// "Trigger", and shows the trigger's description for the merged entry (editor-ui
// useActionsGeneration.ts, generateMergedNodesAndActions). Our entry must read right under that rule.
import { Workflow } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node';
import { MarketplacePartnerTrigger } from '../../nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node';

const action = new MarketplacePartner().description;
const webhookTrigger = new MarketplacePartnerTrigger().description;
const pollingTrigger = new MarketplacePartnerOrdersTrigger().description;
const mergesInto = (trigger: { name: string }) => trigger.name.replace('Trigger', '');

test('the webhook trigger merges into the action entry, and its description names webhooks, orders and stock', () => {
	expect(mergesInto(webhookTrigger)).toBe(action.name);
	expect(webhookTrigger.description).toMatch(/webhooks/);
	expect(webhookTrigger.description).toMatch(/orders/);
	expect(webhookTrigger.description).toMatch(/stock/);
});

test('the polling trigger stays an entry of its own, described as polling', () => {
	expect(mergesInto(pollingTrigger)).not.toBe(action.name);
	expect(pollingTrigger.description).toMatch(/polling/);
});

test('the action node\'s subtitle on the canvas is a literal expression (as verification wants) that reads "operation: resource"', () => {
	// n8n's scanner wants a literal; the editor evaluates it against the node's parameters.
	expect(action.subtitle).toBe('={{$parameter["operation"] + ": " + $parameter["resource"]}}');
	const workflow = new Workflow({
		nodes: [{ id: '1', name: 'Marketplace Partner', type: 'mp', typeVersion: 2, position: [0, 0], parameters: { resource: 'order', operation: 'getMany' } }],
		connections: {},
		active: false,
		nodeTypes: { getByName: () => new MarketplacePartner(), getByNameAndVersion: () => new MarketplacePartner(), getKnownTypes: () => ({}) },
	});
	const node = workflow.getNode('Marketplace Partner')!;
	expect(workflow.expression.getSimpleParameterValue(node, action.subtitle!, 'internal', {})).toBe('getMany: order');
});

test("the triggers' subtitles on the canvas name their events as the Events list does, not by their values", () => {
	const subtitleOf = (node: MarketplacePartnerTrigger | MarketplacePartnerOrdersTrigger, type: string, events: string[]) => {
		const workflow = new Workflow({
			nodes: [{ id: '1', name: 'Trigger', type, typeVersion: 2, position: [0, 0], parameters: { events } }],
			connections: {},
			active: false,
			nodeTypes: { getByName: () => node, getByNameAndVersion: () => node, getKnownTypes: () => ({}) },
		});
		return workflow.expression.getSimpleParameterValue(workflow.getNode('Trigger')!, node.description.subtitle!, 'internal', {});
	};
	const webhook = new MarketplacePartnerTrigger();
	const polling = new MarketplacePartnerOrdersTrigger();
	expect(subtitleOf(webhook, 'wh', ['*'])).toBe('All events');
	expect(subtitleOf(webhook, 'wh', ['order.created', 'order.updated', 'return.requested', 'stock.updated'])).toBe('Order created, Order updated, Return requested, Stock updated');
	// Each option's name, lower-cased after its first word, as n8n writes a sentence.
	const names = webhookTrigger.properties.find((p) => p.name === 'events')!.options!.map((o) => [(o as { value: string }).value, o.name]);
	for (const [value, name] of names) expect(subtitleOf(webhook, 'wh', [value])).toBe(name.replace(/ (\w)/g, (_, c: string) => ` ${c.toLowerCase()}`));
	expect(subtitleOf(polling, 'poll', ['order.created', 'order.updated'])).toBe('New order item, Updated order item');
	expect(subtitleOf(polling, 'poll', ['order.updated'])).toBe('Updated order item');
});
