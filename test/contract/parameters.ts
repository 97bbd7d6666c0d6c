/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The parameters a saved workflow relies on, per node type and typeVersion, and the check that a
// change keeps them. A saved workflow stores its node's typeVersion and only the parameters that
// differ from their defaults (docs/versioning.md): removing or renaming a parameter, changing its
// type or default, or removing an option value changes what an existing workflow does.
import { isDeepStrictEqual } from 'node:util';
import type { INodeParameters, INodeProperties, INodePropertyCollection, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

/** What a saved value depends on: the parameter's type (and value shape), default and option values. */
export interface ParameterContract {
	type: string;
	/** Absent for the text a model reads (MODEL_TEXT). */
	default?: unknown;
	/** The values an `options` or `multiOptions` parameter accepts (absent when loaded at run time). */
	options?: unknown[];
}

/** Parameters by path (`options.giveUpAfter`), for one setting of the selectors. */
export type Parameters = Record<string, ParameterContract>;
/** Per typeVersion, per setting of the selectors (`resource=order, operation=get`), the parameters shown. */
export type NodeContract = Record<string, Record<string, Parameters>>;
/** Per node type, as a saved workflow names it (`<package>.<node name>`). */
export type Contract = Record<string, NodeContract>;

type Selectors = Record<string, string | boolean>;

/** Versions a node declares, as numbers. */
function versionsOf(description: INodeTypeDescription): number[] {
	return Array.isArray(description.version) ? description.version : [description.version];
}

/** Types that hold no saved value (n8n stores nothing for them). */
const VALUELESS = new Set(['notice', 'callout', 'button']);

/** The shape a saved value has: multiple values make a list of what one value would be. */
function typeOf(property: INodeProperties): string {
	return property.typeOptions?.multipleValues ? `${property.type} (multiple values)` : property.type;
}

/**
 * Parameters whose default is text for a model to read, not a setting: n8n saves the value only when
 * a user rewrote it, and a better default wording changes nothing a workflow computes (as a better
 * `description` does not). Their presence and type stay in the contract.
 */
const MODEL_TEXT = new Set(['toolDescription']);

function parameterContract(property: INodeProperties): ParameterContract {
	const contract: ParameterContract = { type: typeOf(property), default: MODEL_TEXT.has(property.name) ? undefined : property.default };
	if ((property.type === 'options' || property.type === 'multiOptions') && Array.isArray(property.options)) {
		contract.options = (property.options as Array<{ value: unknown }>).map((option) => option.value);
	}
	return contract;
}

/**
 * The top-level parameters whose value decides which other parameters exist (named in a
 * displayOptions anywhere, as `name` or `/name`) and that have a fixed set of values to try.
 */
function selectorNames(properties: INodeProperties[]): Set<string> {
	const named = new Set<string>();
	const visit = (list: Array<INodeProperties | INodePropertyCollection>) => {
		for (const entry of list) {
			if ('displayOptions' in entry) {
				for (const rule of [entry.displayOptions?.show, entry.displayOptions?.hide]) {
					for (const key of Object.keys(rule ?? {})) named.add(key.replace(/^\//, ''));
				}
			}
			const children = 'values' in entry ? entry.values : 'options' in entry ? entry.options : undefined;
			if (Array.isArray(children)) visit(children as Array<INodeProperties | INodePropertyCollection>);
		}
	};
	visit(properties);
	return new Set(properties.filter((p) => named.has(p.name) && (p.type === 'boolean' || (p.type === 'options' && Array.isArray(p.options)))).map((p) => p.name));
}

/** The node's parameter values for these selectors, the rest at their defaults, as n8n resolves a saved node. */
function resolve(description: INodeTypeDescription, version: number, selectors: Selectors): INodeParameters {
	return NodeHelpers.getNodeParameters(description.properties, selectors, true, false, { typeVersion: version }, description) ?? {};
}

function shown(description: INodeTypeDescription, version: number, property: INodeProperties | INodePropertyCollection, values: INodeParameters, root: INodeParameters) {
	return NodeHelpers.displayParameter(values, property as INodeProperties, { typeVersion: version }, description, root);
}

/** Every setting of the selectors a workflow of this version can have, each as the selectors it sets. */
function settingsOf(description: INodeTypeDescription, version: number): Selectors[] {
	const selectors = selectorNames(description.properties);
	const expand = (chosen: Selectors): Selectors[] => {
		const values = resolve(description, version, chosen);
		const next = description.properties.find((p) => selectors.has(p.name) && !(p.name in chosen) && shown(description, version, p, values, values));
		if (!next) return [chosen];
		const choices = next.type === 'boolean' ? [false, true] : (next.options as Array<{ value: string }>).map((o) => o.value);
		return choices.flatMap((choice) => expand({ ...chosen, [next.name]: choice }));
	};
	return expand({});
}

/** How a setting is named in the contract and in messages: `resource=order, operation=get`. */
export function settingName(selectors: Selectors): string {
	return Object.entries(selectors)
		.map(([name, value]) => `${name}=${String(value)}`)
		.join(', ');
}

/** Reads a setting's name back (values `true`/`false` are booleans, as only booleans write them). */
function parseSetting(name: string): Selectors {
	if (!name) return {};
	return Object.fromEntries(
		name.split(', ').map((pair) => {
			const [key, value] = pair.split('=');
			return [key, value === 'true' ? true : value === 'false' ? false : value];
		}),
	);
}

/** The parameters a workflow of this version with these selectors has, nested ones by their path. */
export function parametersOf(description: INodeTypeDescription, version: number, selectors: Selectors): Parameters {
	const root = resolve(description, version, selectors);
	const found: Parameters = {};
	const visit = (properties: INodeProperties[], prefix: string, values: INodeParameters) => {
		for (const property of properties) {
			if (VALUELESS.has(property.type) || !shown(description, version, property, values, root)) continue;
			const path = `${prefix}${property.name}`;
			found[path] = parameterContract(property);
			// A collection's options start empty: which ones a user can add depends on the top level only.
			if (property.type === 'collection') visit((property.options ?? []) as INodeProperties[], `${path}.`, {});
			if (property.type === 'fixedCollection') {
				for (const group of (property.options ?? []) as INodePropertyCollection[]) visit(group.values, `${path}.${group.name}.`, {});
			}
		}
	};
	visit(description.properties, '', root);
	return found;
}

/** The contract of one node type: every version, every setting of its selectors. */
export function nodeContract(description: INodeTypeDescription): NodeContract {
	return Object.fromEntries(
		versionsOf(description).map((version) => [
			String(version),
			Object.fromEntries(settingsOf(description, version).map((selectors) => [settingName(selectors), parametersOf(description, version, selectors)])),
		]),
	);
}

/**
 * The node types a package's node adds to n8n: the node itself and, when it is usable as a tool,
 * the tool variant n8n derives from it, named `…Tool`. (To a node without a `toolDescription`
 * parameter n8n adds its own; this package's node has one, and n8n's are not this contract's.)
 */
function variantsOf(description: INodeTypeDescription): INodeTypeDescription[] {
	return description.usableAsTool ? [description, { ...description, name: `${description.name}Tool` }] : [description];
}

/** A package's node types by the name a saved workflow gives them (`<package>.<node name>`). */
export function nodeTypesOf(packageName: string, descriptions: INodeTypeDescription[]): Record<string, INodeTypeDescription> {
	return Object.fromEntries(descriptions.flatMap(variantsOf).map((d) => [`${packageName}.${d.name}`, d]));
}

export function contractOf(types: Record<string, INodeTypeDescription>): Contract {
	return Object.fromEntries(Object.entries(types).map(([type, description]) => [type, nodeContract(description)]));
}

const ADVICE = 'add a new typeVersion instead (docs/versioning.md)';

const show = (value: unknown) => JSON.stringify(value);

/**
 * What would break a saved workflow: each recorded parameter of each recorded version and setting,
 * looked up in the current description the way n8n resolves an old saved node (new selectors at
 * their defaults). Additions are not breaking.
 */
export function breakingChanges(recorded: Contract, current: Record<string, INodeTypeDescription>): string[] {
	const problems: string[] = [];
	for (const [type, versions] of Object.entries(recorded)) {
		const description = current[type];
		if (!description) {
			problems.push(`${type}: the node type is gone; its saved workflows stop loading ("Unrecognized node type").`);
			continue;
		}
		for (const [version, settings] of Object.entries(versions)) {
			if (!versionsOf(description).includes(Number(version))) {
				problems.push(`${type} v${version}: the typeVersion is gone; saved workflows of it stop loading. Keep it in \`version\` and ${ADVICE}.`);
				continue;
			}
			for (const [setting, parameters] of Object.entries(settings)) {
				const now = parametersOf(description, Number(version), parseSetting(setting));
				const where = `${type} v${version}${setting ? ` (${setting})` : ''}`;
				for (const [path, before] of Object.entries(parameters)) {
					const after = now[path];
					if (!after) {
						problems.push(`${where}: parameter "${path}" is gone (removed, renamed or hidden): saved values of it are lost; ${ADVICE}.`);
						continue;
					}
					if (after.type !== before.type) problems.push(`${where}: parameter "${path}" changed type from ${before.type} to ${after.type}; ${ADVICE}.`);
					if (!isDeepStrictEqual(after.default, before.default)) {
						problems.push(`${where}: parameter "${path}" changed its default from ${show(before.default)} to ${show(after.default)}: saved workflows that kept the default would change; ${ADVICE}.`);
					}
					const removed = (before.options ?? []).filter((value) => !(after.options ?? []).some((v) => isDeepStrictEqual(v, value)));
					if (removed.length) problems.push(`${where}: parameter "${path}" lost the option value(s) ${removed.map(show).join(', ')}; ${ADVICE}.`);
				}
			}
		}
	}
	return problems;
}

/** What the current contract has that the recorded one does not: versions, settings, parameters, option values. */
export function additions(recorded: Contract, current: Contract): string[] {
	const added: string[] = [];
	for (const [type, versions] of Object.entries(current)) {
		for (const [version, settings] of Object.entries(versions)) {
			for (const [setting, parameters] of Object.entries(settings)) {
				const before = recorded[type]?.[version]?.[setting];
				const where = `${type} v${version}${setting ? ` (${setting})` : ''}`;
				if (!before) {
					added.push(where);
					continue;
				}
				for (const [path, contract] of Object.entries(parameters)) {
					const was = before[path];
					if (!was) added.push(`${where}: "${path}"`);
					else if ((contract.options ?? []).some((value) => !(was.options ?? []).some((v) => isDeepStrictEqual(v, value)))) added.push(`${where}: option values of "${path}"`);
				}
			}
		}
	}
	return added;
}
