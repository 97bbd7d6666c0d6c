/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The saved-workflow contract: the nodes' parameters per typeVersion against test/contract/parameters.json,
// and the checker itself on small node descriptions, one change at a time.
import { readFileSync } from 'node:fs';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node';
import { MarketplacePartnerTrigger } from '../../nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node';
import { CONTRACT_FILE, packageNodeTypes } from './nodes';
import { additions, breakingChanges, contractOf, nodeTypesOf, type Contract } from './parameters';

describe('the nodes keep the parameters of every recorded typeVersion', () => {
	const recorded: Contract = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8'));
	const types = packageNodeTypes([new MarketplacePartner(), new MarketplacePartnerTrigger(), new MarketplacePartnerOrdersTrigger()]);

	test('no change breaks a saved workflow of a recorded version (additions pass)', () => {
		const breaking = breakingChanges(recorded, types);
		expect(breaking.join('\n')).toBe('');
		const added = additions(recorded, contractOf(types));
		// Not yet recorded is not yet released: RELEASING.md records them with each release.
		if (added.length) console.warn(`Parameters not in ${CONTRACT_FILE} yet (run \`npm run contract:update\` to record them):\n- ${added.join('\n- ')}`);
	});

	test('the contract records every node type, version, and the nested parameters of each operation', () => {
		expect(Object.keys(recorded).sort()).toEqual(Object.keys(types).sort());
		const action = recorded['n8n-nodes-marketplace-partner.marketplacePartner'];
		expect(Object.keys(action)).toEqual(['1', '2', '3']);
		expect(action['3']['resource=order, operation=get'].orderItem).toEqual({ type: 'resourceLocator', default: { mode: 'list', value: '' } });
		expect(Object.keys(action['2'])).toContain('resource=stock, operation=update, identifyBy=sku');
		expect(action['2']['resource=stock, operation=update, identifyBy=sku']['columnNames.sku']).toEqual({ type: 'string', default: '' });
		expect(action['1']['resource=stock, operation=update']['additionalFields.externalRef']).toEqual({ type: 'string', default: '' });
		// As a tool, Get Many's Limit has its own default (n8n's '@tool' condition).
		expect(recorded['n8n-nodes-marketplace-partner.marketplacePartnerTool']['2']['resource=order, operation=getMany, returnAll=false'].limit.default).toBe(20);
		expect(action['2']['resource=order, operation=getMany, returnAll=false'].limit.default).toBe(50);
	});
});

// The checker on a small node: version 1 and 2, a resource and operation, a collection, a fixed
// collection, a boolean that shows another parameter.
function baseNode(): INodeTypeDescription {
	const properties: INodeProperties[] = [
		{ displayName: 'Resource', name: 'resource', type: 'options', noDataExpression: true, options: [{ name: 'Order', value: 'order' }, { name: 'Stock', value: 'stock' }], default: 'order' },
		{ displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, displayOptions: { show: { resource: ['order'] } }, options: [{ name: 'Get', value: 'get' }], default: 'get' },
		{ displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, displayOptions: { show: { resource: ['stock'] } }, options: [{ name: 'Update', value: 'update' }], default: 'update' },
		{ displayName: 'A notice', name: 'hint', type: 'notice', default: '' },
		{ displayName: 'Return All', name: 'returnAll', type: 'boolean', default: false, displayOptions: { show: { resource: ['order'], operation: ['get'] } } },
		{ displayName: 'Limit', name: 'limit', type: 'number', default: 50, description: 'Max', displayOptions: { show: { resource: ['order'], operation: ['get'], returnAll: [false] } } },
		{ displayName: 'Old Field', name: 'oldField', type: 'string', default: '', displayOptions: { show: { resource: ['stock'], operation: ['update'], '@version': [1] } } },
		{ displayName: 'Mode', name: 'mode', type: 'options', options: [{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }], default: 'a', displayOptions: { show: { resource: ['stock'], operation: ['update'] } } },
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 32 },
				{ displayName: 'Only in Mode B', name: 'onlyB', type: 'string', default: '', displayOptions: { show: { '/mode': ['b'] } } },
			],
		},
		{
			displayName: 'Rows',
			name: 'rows',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			displayOptions: { show: { resource: ['stock'] } },
			options: [{ displayName: 'Row', name: 'row', values: [{ displayName: 'SKU', name: 'sku', type: 'string', default: '' }] }],
		},
		{ displayName: 'Sheet', name: 'sheet', type: 'options', typeOptions: { loadOptionsMethod: 'getSheets' }, default: '', displayOptions: { show: { resource: ['order'] } } },
	];
	return { displayName: 'Test', name: 'test', group: ['transform'], version: [1, 2], description: 'd', defaults: {}, inputs: [], outputs: [], properties } as unknown as INodeTypeDescription;
}

const TYPE = 'pkg.test';
const recordedOf = (description: INodeTypeDescription) => contractOf({ [TYPE]: description });
const breaking = (change: (d: INodeTypeDescription) => void) => {
	const changed = baseNode();
	change(changed);
	return breakingChanges(recordedOf(baseNode()), { [TYPE]: changed });
};
const added = (change: (d: INodeTypeDescription) => void) => {
	const changed = baseNode();
	change(changed);
	return additions(recordedOf(baseNode()), recordedOf(changed));
};
const property = (d: INodeTypeDescription, name: string, index = 0) => d.properties.filter((p) => p.name === name)[index];
const ADVICE = 'add a new typeVersion instead (docs/versioning.md)';

describe('the contract checker', () => {
	test('records each version per setting of its selectors (options and booleans that show other parameters), nested parameters by path', () => {
		const contract = recordedOf(baseNode())[TYPE];
		expect(Object.keys(contract)).toEqual(['1', '2']);
		expect(Object.keys(contract['1'])).toEqual([
			'resource=order, operation=get, returnAll=false',
			'resource=order, operation=get, returnAll=true',
			'resource=stock, operation=update, mode=a',
			'resource=stock, operation=update, mode=b',
		]);
		expect(contract['1']['resource=order, operation=get, returnAll=false']).toEqual({
			resource: { type: 'options', default: 'order', options: ['order', 'stock'] },
			operation: { type: 'options', default: 'get', options: ['get'] },
			returnAll: { type: 'boolean', default: false },
			limit: { type: 'number', default: 50 },
			options: { type: 'collection', default: {} },
			'options.concurrency': { type: 'number', default: 32 },
			// Options loaded at run time have no values to record.
			sheet: { type: 'options', default: '' },
		});
		expect(Object.keys(contract['1']['resource=order, operation=get, returnAll=true'])).not.toContain('limit');
		expect(contract['1']['resource=stock, operation=update, mode=b']).toEqual({
			resource: { type: 'options', default: 'order', options: ['order', 'stock'] },
			operation: { type: 'options', default: 'update', options: ['update'] },
			oldField: { type: 'string', default: '' },
			mode: { type: 'options', default: 'a', options: ['a', 'b'] },
			options: { type: 'collection', default: {} },
			'options.concurrency': { type: 'number', default: 32 },
			'options.onlyB': { type: 'string', default: '' },
			rows: { type: 'fixedCollection (multiple values)', default: {} },
			'rows.row.sku': { type: 'string', default: '' },
		});
		expect(Object.keys(contract['1']['resource=stock, operation=update, mode=a'])).not.toContain('options.onlyB');
		expect(Object.keys(contract['2']['resource=stock, operation=update, mode=a'])).not.toContain('oldField');
	});

	test('an unchanged node passes with nothing added', () => {
		expect(breaking(() => {})).toEqual([]);
		expect(added(() => {})).toEqual([]);
	});

	test('labels, help texts, placeholders and notices may change', () => {
		expect(
			breaking((d) => {
				property(d, 'limit').displayName = 'Max Results';
				property(d, 'limit').description = 'Another help text';
				property(d, 'options').placeholder = 'Add';
				(property(d, 'resource').options as Array<{ name: string }>)[0].name = 'Orders';
				d.properties = d.properties.filter((p) => p.type !== 'notice');
			}),
		).toEqual([]);
	});

	test('a removed option value fails, naming the parameter and the value', () => {
		expect(breaking((d) => (property(d, 'mode').options = [{ name: 'A', value: 'a' }]))).toContain(
			`${TYPE} v1 (resource=stock, operation=update, mode=a): parameter "mode" lost the option value(s) "b"; ${ADVICE}.`,
		);
	});

	test('an added option value passes and is listed as an addition', () => {
		const change = (d: INodeTypeDescription) => (property(d, 'mode').options as Array<{ name: string; value: string }>).push({ name: 'C', value: 'c' });
		expect(breaking(change)).toEqual([]);
		expect(added(change)).toEqual(expect.arrayContaining([`${TYPE} v1 (resource=stock, operation=update, mode=a): option values of "mode"`, `${TYPE} v1 (resource=stock, operation=update, mode=c)`]));
	});

	test('an added parameter passes and is listed as an addition', () => {
		const change = (d: INodeTypeDescription) => d.properties.push({ displayName: 'New', name: 'newField', type: 'string', default: '' });
		expect(breaking(change)).toEqual([]);
		expect(added(change)).toContain(`${TYPE} v2 (resource=order, operation=get, returnAll=true): "newField"`);
		expect(added(change)).toHaveLength(8);
	});

	test('a renamed parameter fails as the old one gone', () => {
		const problems = breaking((d) => (property(d, 'limit').name = 'maxResults'));
		expect(problems).toEqual([
			`${TYPE} v1 (resource=order, operation=get, returnAll=false): parameter "limit" is gone (removed, renamed or hidden): saved values of it are lost; ${ADVICE}.`,
			`${TYPE} v2 (resource=order, operation=get, returnAll=false): parameter "limit" is gone (removed, renamed or hidden): saved values of it are lost; ${ADVICE}.`,
		]);
	});

	test('a changed default fails, naming both values', () => {
		expect(breaking((d) => (property(d, 'limit').default = 100))).toContain(
			`${TYPE} v2 (resource=order, operation=get, returnAll=false): parameter "limit" changed its default from 50 to 100: saved workflows that kept the default would change; ${ADVICE}.`,
		);
		expect(breaking((d) => (property(d, 'options').default = { concurrency: 32 }))).toHaveLength(8);
	});

	test('a changed type fails, and so does turning multiple values off', () => {
		expect(breaking((d) => (property(d, 'limit').type = 'string'))).toContain(
			`${TYPE} v1 (resource=order, operation=get, returnAll=false): parameter "limit" changed type from number to string; ${ADVICE}.`,
		);
		expect(breaking((d) => (property(d, 'rows').typeOptions = {}))).toContain(
			`${TYPE} v1 (resource=stock, operation=update, mode=a): parameter "rows" changed type from fixedCollection (multiple values) to fixedCollection; ${ADVICE}.`,
		);
	});

	test('a removed or changed option of a collection or fixed collection fails by its path', () => {
		expect(breaking((d) => (property(d, 'options').options = [])).join('\n')).toContain(`parameter "options.concurrency" is gone`);
		expect(breaking((d) => ((property(d, 'options').options![0] as INodeProperties).default = 8)).join('\n')).toContain(`parameter "options.concurrency" changed its default from 32 to 8`);
		expect(breaking((d) => ((property(d, 'rows').options![0] as { values: INodeProperties[] }).values[0].name = 'code'))).toContain(
			`${TYPE} v1 (resource=stock, operation=update, mode=a): parameter "rows.row.sku" is gone (removed, renamed or hidden): saved values of it are lost; ${ADVICE}.`,
		);
		expect(breaking((d) => ((property(d, 'rows').options![0] as { name: string }).name = 'line')).join('\n')).toContain(`parameter "rows.row.sku" is gone`);
	});

	test('display conditions that hide a parameter for a version fail for that version only', () => {
		const problems = breaking((d) => (property(d, 'limit').displayOptions = { show: { resource: ['order'], operation: ['get'], returnAll: [false], '@version': [2] } }));
		expect(problems).toEqual([`${TYPE} v1 (resource=order, operation=get, returnAll=false): parameter "limit" is gone (removed, renamed or hidden): saved values of it are lost; ${ADVICE}.`]);
		// Nested options hidden by a hide rule on a value of the root.
		expect(breaking((d) => ((property(d, 'options').options![0] as INodeProperties).displayOptions = { hide: { '/mode': ['a'] } })).join('\n')).toContain(
			`${TYPE} v1 (resource=stock, operation=update, mode=a): parameter "options.concurrency" is gone`,
		);
	});

	test('a parameter shown in more settings passes', () => {
		expect(breaking((d) => (property(d, 'limit').displayOptions = { show: { returnAll: [false] } }))).toEqual([]);
	});

	test('a new selector passes when its default keeps what saved workflows had, and fails when it hides their parameters', () => {
		const selector: INodeProperties = { displayName: 'Advanced', name: 'advanced', type: 'boolean', default: false, displayOptions: { show: { resource: ['order'] } } };
		const extra: INodeProperties = { displayName: 'Extra', name: 'extra', type: 'string', default: '', displayOptions: { show: { resource: ['order'], advanced: [true] } } };
		const withSelector = (d: INodeTypeDescription) => d.properties.push(selector, extra);
		expect(breaking(withSelector)).toEqual([]);
		expect(added(withSelector)).toContain(`${TYPE} v1 (resource=order, operation=get, returnAll=false, advanced=true)`);
		const problems = breaking((d) => {
			withSelector(d);
			property(d, 'limit').displayOptions = { show: { resource: ['order'], operation: ['get'], returnAll: [false], advanced: [true] } };
		});
		expect(problems).toHaveLength(2);
		expect(problems[0]).toContain('parameter "limit" is gone');
	});

	test('a removed typeVersion fails, and so does a removed node type', () => {
		expect(breaking((d) => (d.version = 2))).toEqual([`${TYPE} v1: the typeVersion is gone; saved workflows of it stop loading. Keep it in \`version\` and ${ADVICE}.`]);
		expect(breaking((d) => (d.version = [2, 3]))).toHaveLength(1);
		expect(breakingChanges(recordedOf(baseNode()), {})).toEqual([`${TYPE}: the node type is gone; its saved workflows stop loading ("Unrecognized node type").`]);
		const single = baseNode();
		single.version = 1;
		expect(Object.keys(recordedOf(single)[TYPE])).toEqual(['1']);
	});

	test('a new typeVersion passes and is listed as an addition', () => {
		const change = (d: INodeTypeDescription) => (d.version = [1, 2, 3]);
		expect(breaking(change)).toEqual([]);
		expect(added(change)).toContain(`${TYPE} v3 (resource=stock, operation=update, mode=b)`);
	});

	test("a tool variant is recorded for a node usable as a tool, with n8n's '@tool' conditions", () => {
		const tool = baseNode();
		tool.usableAsTool = true;
		tool.properties.push(
			{ displayName: 'Description', name: 'toolDescription', type: 'string', default: 'what a model reads', displayOptions: { show: { '@tool': [true] } } },
			{ displayName: 'Node Only', name: 'nodeOnly', type: 'string', default: '', displayOptions: { show: { '@tool': [false] } } },
		);
		const types = nodeTypesOf('pkg', [tool]);
		expect(Object.keys(types)).toEqual([TYPE, `${TYPE}Tool`]);
		const contract = contractOf(types);
		const setting = 'resource=order, operation=get, returnAll=true';
		expect(contract[`${TYPE}Tool`]['1'][setting].toolDescription).toEqual({ type: 'string' });
		expect(Object.keys(contract[`${TYPE}Tool`]['1'][setting])).not.toContain('nodeOnly');
		expect(Object.keys(contract[TYPE]['1'][setting])).toEqual(expect.arrayContaining(['nodeOnly']));
		expect(Object.keys(contract[TYPE]['1'][setting])).not.toContain('toolDescription');
		// The text a model reads may be reworded; the parameter itself must stay.
		const reworded = nodeTypesOf('pkg', [tool]);
		property(reworded[`${TYPE}Tool`], 'toolDescription').default = 'better words';
		expect(breakingChanges(contract, reworded)).toEqual([]);
		reworded[`${TYPE}Tool`].properties = reworded[`${TYPE}Tool`].properties.filter((p) => p.name !== 'toolDescription');
		expect(breakingChanges(contract, reworded).join('\n')).toContain('parameter "toolDescription" is gone');

		expect(Object.keys(nodeTypesOf('pkg', [baseNode()]))).toEqual([TYPE]);
	});
});
