// Runs a Marketplace Partner node under an execution id the test chooses, through the real n8n
// engine (n8n-core's WorkflowExecute), as test/helpers/n8n.ts's runNode does under an id of its own:
// for what a node keeps per execution, e.g. an AI agent's several calls of one tool in one run.
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeExecutionData, INodeType, INodeTypes, IRun, IRunExecutionData, IWorkflowBase } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { createAdditionalData } from './n8n';

const ROWS_TYPE = 'test.rows';

/** A stand-in for the node before ours: it emits the given rows. */
function rowsNodeType(rows: IDataObject[]): INodeType {
	return {
		description: { displayName: 'Rows', name: 'rows', group: ['input'], version: 1, description: 'Emits the test rows', defaults: {}, inputs: ['main'], outputs: ['main'], properties: [] },
		async execute() {
			return [rows.map((json) => ({ json: { ...json }, pairedItem: { item: 0 } }))];
		},
	} as unknown as INodeType;
}

export interface RunAs {
	items: INodeExecutionData[];
	error?: { message: string };
}

/** Runs Rows -> `node` (of type `type`, the class `nodeType`) once, as execution `executionId`. */
export async function runNodeAs(
	executionId: string,
	{ type, nodeType, parameters, rows, credentials, continueOnFail = false }: { type: string; nodeType: INodeType; parameters: IDataObject; rows: IDataObject[]; credentials: ICredentialDataDecryptedObject; continueOnFail?: boolean },
): Promise<RunAs> {
	const types: Record<string, INodeType> = { [ROWS_TYPE]: rowsNodeType(rows), [type]: nodeType };
	const nodeTypes: INodeTypes = {
		getByName: (name: string) => types[name],
		getByNameAndVersion: (name: string) => types[name],
		getKnownTypes: () => ({}),
	} as INodeTypes;
	const start: INode = { id: 'b1b2c3d4-0000-4000-8000-000000000000', name: 'Rows', type: ROWS_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
	const node: INode = {
		id: 'b1b2c3d4-0000-4000-8000-000000000001',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [200, 0],
		parameters: parameters as INode['parameters'],
		credentials: { marketplacePartnerApi: { id: '1', name: 'Partner test' } },
		...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
	const connections = { Rows: { main: [[{ node: node.name, type: 'main' as const, index: 0 }]] } };
	const workflowData = { id: 'test-workflow-as', name: 'test', active: false, isArchived: false, nodes: [start, node], connections, createdAt: new Date(), updatedAt: new Date(), activeVersionId: null } as unknown as IWorkflowBase;
	const workflow = new Workflow({ id: workflowData.id, nodes: [start, node], connections, nodeTypes, active: false });
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	let finished!: (run: IRun) => void;
	const done = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => finished(fullRunData));
	const runExecutionData = {
		version: 1,
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			nodeExecutionStack: [{ node: start, data: { main: [[{ json: {} }]] }, source: null }],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as unknown as IRunExecutionData;
	await new WorkflowExecute(createAdditionalData({ marketplacePartnerApi: credentials }, hooks, executionId), 'manual', runExecutionData).processRunExecutionData(workflow);
	const run = await done;
	const items = (run.data.resultData.runData[node.name]?.[0]?.data?.main?.[0] ?? []) as INodeExecutionData[];
	return { items, error: run.data.resultData.error as RunAs['error'] };
}
