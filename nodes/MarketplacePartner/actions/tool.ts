// The node as an AI tool (an AI Agent's tool, or a tool an MCP Server Trigger offers). n8n builds the
// tool variant from this node's description ("usableAsTool"), with the replacements made here, and
// runs the same execute: a model's arguments arrive through $fromAI() in the parameters.
import type { INode, INodeProperties } from 'n8n-workflow';

/** Whether this node runs as a tool: n8n names the tool variant's type after the node's, plus "Tool". */
export function isTool(context: { getNode(): INode }): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * How an error names a value: as a tool by the API's field name (the name a model's argument has,
 * when the workflow keeps the API's names for $fromAI keys, as the examples do), else by its label.
 */
export function valueName(context: { getNode(): INode }, apiName: string, label: string): string {
	return isTool(context) ? apiName : label;
}

/** Defaults of the tool variant that differ from the node's: small answers, in few fields. */
const TOOL_DEFAULTS: Record<string, number | boolean> = { limit: 20, simplify: true };

/** A property shown only in the tool variant (`true`) or only in the node (`false`): n8n's '@tool' condition. */
function onlyAsTool(property: INodeProperties, tool: boolean): INodeProperties {
	return { ...property, displayOptions: { ...property.displayOptions, show: { ...property.displayOptions?.show, '@tool': [tool] } } };
}

/**
 * The node's properties with what differs when n8n runs it as a tool: the tool defaults, and a
 * Description per operation (what n8n hands the model as the tool's description; the user may
 * rewrite it). n8n adds no description setting of its own to a node that has `toolDescription`.
 */
export function withToolVariants(
	properties: INodeProperties[],
	descriptions: Record<string, Record<string, string>>,
): INodeProperties[] {
	const toolDescriptions = Object.entries(descriptions).flatMap(([resource, operations]) =>
		Object.entries(operations).map(([operation, description]) =>
			onlyAsTool(
				{
					// Stryker disable next-line StringLiteral: n8n UI label of the tool's description
					displayName: 'Description',
					name: 'toolDescription',
					type: 'string',
					typeOptions: { rows: 4 },
					default: description,
					// Stryker disable next-line StringLiteral: n8n UI help text
					description: "What the model reads about this tool. It names the arguments the way the workflow's $fromAI() keys do.",
					displayOptions: { show: { resource: [resource], operation: [operation] } },
				},
				true,
			),
		),
	);
	const variants = properties.flatMap((property) =>
		property.name in TOOL_DEFAULTS
			? [onlyAsTool(property, false), onlyAsTool({ ...property, default: TOOL_DEFAULTS[property.name] }, true)]
			: [property],
	);
	return [...toolDescriptions, ...variants];
}
