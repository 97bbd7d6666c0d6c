// The node as an AI tool (an AI Agent's tool, or a tool an MCP Server Trigger offers). n8n builds the
// tool variant from this node's description ("usableAsTool"), with the replacements made here, and
// runs the same execute: a model's arguments arrive through $fromAI() in the parameters.
import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { isRecord } from '../../shared/helpers/events';

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

/** The model run a tool call belongs to, as far as n8n names one: its key, and how a message names it. */
export interface ModelRun {
	key: string;
	/** Completes "change at most N products …". */
	scope: string;
	/** What the person can do once the budget of this run is spent. */
	next: string;
}

// An MCP session id as the MCP SDK makes it (a UUID); anything else is no session (network text, bounded).
const SESSION_ID = /^[\x21-\x7e]{1,128}$/;
const HOUR_MS = 60 * 60 * 1000;

/**
 * The model run of this tool call. n8n runs a tool on three paths, and names the run differently:
 * - an AI Agent's tool runs in the agent's execution: the execution id;
 * - an MCP Server Trigger (2.1 or later) hands its tools the request's headers (the item `$json`,
 *   in the process that holds the session and on a queue worker alike): the client's
 *   `mcp-session-id` is the run, one session per client;
 * - an earlier MCP Server Trigger hands the JSON-RPC request (in one process, where the call has no
 *   execution id) or an empty item (on a worker, where each call is an execution of its own): no
 *   run is named, so calls are counted per clock hour.
 */
export function modelRunOf(context: IExecuteFunctions, nowMs: number): ModelRun {
	let item: unknown;
	try {
		item = context.getWorkflowDataProxy(0).$json;
	} catch {
		// No input item: nothing names a run.
	}
	const json = isRecord(item) ? item : {};
	const session = isRecord(json.headers) ? json.headers['mcp-session-id'] : undefined;
	if (typeof session === 'string' && SESSION_ID.test(session)) {
		return { key: `mcp:${session}`, scope: 'in one MCP session', next: 'a new session of their MCP client starts a new count, or they can raise Maximum Products per Run' };
	}
	const request = isRecord(json.body) ? json.body : json;
	const mcpCall = Object.keys(json).length === 0 || request.method === 'tools/call';
	const executionId = context.getExecutionId();
	if (executionId && !mcpCall) return { key: `run:${executionId}`, scope: 'in one run', next: 'they can run it again or raise Maximum Products per Run' };
	const hour = Math.floor(nowMs / HOUR_MS);
	const nextHour = new Date((hour + 1) * HOUR_MS).toISOString().slice(11, 16);
	return {
		key: `hour:${hour}`,
		scope: 'in one hour (n8n names no run or MCP session for these calls)',
		next: `the count starts afresh at ${nextHour} UTC, or they can raise Maximum Products per Run`,
	};
}
