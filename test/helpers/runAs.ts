// Runs a node under an execution id the test chooses, through the real n8n engine (runWorkflow), for
// what a node keeps per execution, e.g. an AI agent's several calls of one tool in one run.
import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import { registerNodeType, runWorkflow } from './n8n';

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
	registerNodeType(ROWS_TYPE, rowsNodeType(rows));
	registerNodeType(type, nodeType);
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
	const { run } = await runWorkflow([start, node], connections, start.name, [{}], { marketplacePartnerApi: credentials }, executionId);
	const items = (run.data.resultData.runData[node.name]?.[0]?.data?.main?.[0] ?? []) as INodeExecutionData[];
	return { items, error: run.data.resultData.error as RunAs['error'] };
}
