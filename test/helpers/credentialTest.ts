// Runs a credential type's `test` request the way n8n's credentials tester does: a temporary
// node whose one property routes the test request, run by n8n-core's RoutingNode, then the
// tester's rules on the answer (n8n's tester lives in the n8n CLI package, not installable here).
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INode,
	INodeType,
	INodeTypes,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { MarketplacePartnerApi } from '../../credentials/MarketplacePartnerApi.credentials';
import { createAdditionalData } from './n8n';

const get = (value: unknown, path: string): unknown =>
	path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as IDataObject)[key] : undefined), value);

export async function testCredential(data: ICredentialDataDecryptedObject): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const credentialType: ICredentialType = new MarketplacePartnerApi();
	const testRequest = credentialType.test!;
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' }],
		},
	} as unknown as INodeType;
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType.name]: { id: '1', name: 'test' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData: IWorkflowExecuteAdditionalData = createAdditionalData({ [credentialType.name]: data });
	const runExecutionData = { resultData: { runData: {} } } as unknown as IRunExecutionData;
	const context = new ExecuteContext(workflow, node, additionalData, 'internal', runExecutionData, 0, [], { main: [[{ json: {} }]] }, { node, data: {}, source: null }, []);
	const routingNode = new RoutingNode(context, nodeType, { id: '1', name: 'test', type: credentialType.name, data });
	let response;
	try {
		response = await routingNode.runNode();
	} catch (error) {
		const cause = (error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }).cause;
		if (cause?.response) return { status: 'Error', message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}` };
		if (cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: (error as Error).message };
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && get(response?.[0]?.[0]?.json, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
