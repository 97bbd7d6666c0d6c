// Words at a glance (issue #53 item 1): every text the editor shows a user of any released node
// version (tooltips, option descriptions, hints, notices, the trigger's panel) is one or two short
// sentences, and none names the local demo, the spec or an n8n version; the detail is in docs/.
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { MarketplacePartnerApi } from '../../credentials/MarketplacePartnerApi.credentials';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { MarketplacePartnerTrigger } from '../../nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node';

type Text = { where: string; text: string };

function textsOf(where: string, properties: INodeProperties[]): Text[] {
	return properties.flatMap((p) => {
		const at = `${where} › ${p.name}`;
		const own: Text[] = [];
		if (p.type === 'notice') own.push({ where: `${at} (notice)`, text: p.displayName });
		for (const key of ['description', 'hint'] as const) if (typeof p[key] === 'string' && p[key]) own.push({ where: `${at} (${key})`, text: p[key] as string });
		for (const option of (p.options ?? []) as Array<INodePropertyOptions | INodeProperties | { name: string; values: INodeProperties[] }>) {
			if ('values' in option) own.push(...textsOf(`${at}.${option.name}`, option.values));
			else if ('type' in option) own.push(...textsOf(at, [option as INodeProperties]));
			else if (typeof option.description === 'string' && option.description) own.push({ where: `${at}.${option.name} (option)`, text: option.description });
		}
		return own;
	});
}

function descriptionTexts(where: string, description: INodeTypeDescription): Text[] {
	const panel = description.triggerPanel;
	const panelTexts =
		panel && typeof panel === 'object'
			? [panel.header, panel.executionsHelp, panel.activationHint].flatMap((t) => (typeof t === 'string' ? [t] : t && typeof t === 'object' ? Object.values(t) : [])).map((text) => ({ where: `${where} (trigger panel)`, text: String(text) }))
			: [];
	return [...textsOf(where, description.properties), ...panelTexts];
}

const versionsOf = (node: { description: INodeTypeDescription; nodeVersions?: Record<number, { description: INodeTypeDescription }> }) =>
	node.nodeVersions ? Object.entries(node.nodeVersions).map(([version, n]) => [`${n.description.displayName} v${version}`, n.description] as const) : [[node.description.displayName, node.description] as const];

const all: Text[] = [
	...[new MarketplacePartner(), new MarketplacePartnerTrigger(), new MarketplacePartnerOrdersTrigger()].flatMap((node) =>
		versionsOf(node as never).flatMap(([where, description]) => descriptionTexts(where, description)),
	),
	...textsOf('credential', new MarketplacePartnerApi().properties),
];
// The trigger panel's help is a few short paragraphs, each under the same bound.
const pieces = all.flatMap(({ where, text }) => text.split('<br /><br />').map((piece) => ({ where, text: piece })));

test('every tooltip, hint, notice and panel text of every node version is at most 200 characters', () => {
	expect(all.length).toBeGreaterThan(100);
	expect(pieces.filter(({ text }) => text.length > 200).map(({ where, text }) => `${where}: ${text.length}`)).toEqual([]);
});

test("no text a user reads names the local demo, its address, the spec or an n8n version's aside, and a path through the editor is written with n8n's ›", () => {
	const asides = /npm start|127\.0\.0\.1:8787|\bspec\b|\bsandbox\b|\(n8n [12]\.x|\b[A-Z]\w* > [A-Z]/i;
	expect(all.filter(({ text }) => asides.test(text)).map(({ where, text }) => `${where}: ${text}`)).toEqual([]);
});
