// n8n's node creator merges a trigger into the action node whose name is the trigger's name without
// "Trigger", and shows the trigger's description for the merged entry (editor-ui
// useActionsGeneration.ts, generateMergedNodesAndActions). Our entry must read right under that rule.
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartner/MarketplacePartnerOrdersTrigger.node';
import { MarketplacePartnerTrigger } from '../../nodes/MarketplacePartner/MarketplacePartnerTrigger.node';

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
