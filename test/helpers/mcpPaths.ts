/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The two paths on which n8n's MCP Server Trigger runs a tool, with n8n-core's own code (read in
// n8n 2.41.1: @n8n/n8n-nodes-langchain's McpTrigger and McpServer, n8n's JobProcessor.invokeTool):
// - in the process that holds the MCP session: the trigger's webhook builds its tools with
//   WebhookContext.getInputConnectionData (n8n-core makes a usableAsTool node a tool with
//   createNodeAsTool) and invokes the one called, inside the request: no execution id;
// - on a queue worker: each call is an execution of its own, and the worker runs the tool node's
//   execute in a SupplyDataContext of it, the call's arguments as its ai_tool input.
// What the tool sees as its item (`$json`): the trigger's toolInput, `{ body, headers }` from version
// 2.1 on; before, the JSON-RPC request in one process and an empty item on a worker.
import type { StructuredTool } from '@langchain/core/tools';
import { SupplyDataContext, WebhookContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeType, IRunExecutionData, IWebhookData } from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';
import { createAdditionalData, nodeTypes, registerNodeType } from './n8n';

const TRIGGER_TYPE = 'test.mcpTrigger';
const TRIGGER: INode = { id: 'c1b2c3d4-0000-4000-8000-000000000000', name: 'MCP Server Trigger', type: TRIGGER_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };

/** A stand-in for the MCP Server Trigger: a webhook node with tools as its input. */
const triggerType = {
	description: { displayName: 'MCP', name: 'mcpTrigger', group: ['trigger'], version: 1, description: 'Tools as an MCP server', defaults: {}, inputs: [{ type: NodeConnectionTypes.AiTool, displayName: 'Tools' }], outputs: [], properties: [] },
} as unknown as INodeType;

export interface McpCall {
	/** The tool node's type (the tool variant) and parameters, as the workflow has it. */
	type: string;
	nodeType: INodeType;
	parameters: IDataObject;
	credentials: ICredentialDataDecryptedObject;
	/** The model's arguments. */
	args: IDataObject;
	/** What the trigger hands its tools: `{ body, headers }` (2.1), the JSON-RPC request or nothing (before). */
	toolInput?: IDataObject;
}

function workflowOf({ type, nodeType, parameters }: McpCall): { workflow: Workflow; tool: INode } {
	registerNodeType(TRIGGER_TYPE, triggerType);
	// As n8n makes the tool variant (tool-generation/ai-tools.js): no inputs, a tool as its output.
	const variant = Object.assign(Object.create(Object.getPrototypeOf(nodeType) as object) as INodeType, nodeType, {
		description: { ...nodeType.description, inputs: [], outputs: [NodeConnectionTypes.AiTool] },
	});
	registerNodeType(type, variant);
	const tool: INode = {
		id: 'c1b2c3d4-0000-4000-8000-000000000001',
		name: 'update_stock',
		type,
		typeVersion: 2,
		position: [0, 200],
		parameters: parameters as INode['parameters'],
		credentials: { marketplacePartnerApi: { id: '1', name: 'Partner test' } },
	};
	const connections = { [tool.name]: { ai_tool: [[{ node: TRIGGER.name, type: NodeConnectionTypes.AiTool, index: 0 }]] } };
	const workflow = new Workflow({ id: 'mcp-workflow', nodes: [TRIGGER, tool], connections, nodeTypes: nodeTypes(), active: true });
	return { workflow, tool };
}

/** The call in the process of the session: the tool's answer text, or the error it threw. */
export async function callInSession(call: McpCall): Promise<string> {
	const { workflow } = workflowOf(call);
	// A webhook request has no execution yet.
	const additionalData = { ...createAdditionalData({ marketplacePartnerApi: call.credentials }), executionId: undefined, httpRequest: { body: call.toolInput ?? {} } };
	const webhookData = { node: TRIGGER.name, workflowId: workflow.id, httpMethod: 'POST', path: 'mcp' } as unknown as IWebhookData;
	const context = new WebhookContext(workflow, TRIGGER, additionalData as never, 'webhook', webhookData, [], null);
	const tools = (await context.getInputConnectionData(NodeConnectionTypes.AiTool, 0, call.toolInput ? { inputData: call.toolInput } : undefined)) as StructuredTool[];
	try {
		return String(await tools[0].invoke(call.args));
	} catch (error) {
		return `error: ${(error as Error).message}`;
	}
}

let workerExecutions = 0;

/** The call on a queue worker, as an execution of its own: the tool's answer items as text, or the error it threw. */
export async function callOnWorker(call: McpCall): Promise<string> {
	const { workflow, tool } = workflowOf(call);
	const additionalData = createAdditionalData({ marketplacePartnerApi: call.credentials }, undefined, `worker-execution-${++workerExecutions}`);
	const inputData = [[{ json: call.toolInput ?? {} }]];
	const runExecutionData = createRunExecutionData() as IRunExecutionData;
	const executeData = { node: tool, data: { main: inputData }, source: null };
	const context = new SupplyDataContext(workflow, tool, additionalData, 'webhook', runExecutionData, 0, inputData[0], { main: inputData }, NodeConnectionTypes.AiTool, executeData, [], undefined, TRIGGER);
	context.addInputData(NodeConnectionTypes.AiTool, [[{ json: call.args }]]);
	try {
		const result = (await call.nodeType.execute!.call(context as unknown as IExecuteFunctions)) as INodeExecutionData[][];
		return JSON.stringify(result[0].map((item) => item.json));
	} catch (error) {
		return `error: ${(error as Error).message}`;
	}
}
