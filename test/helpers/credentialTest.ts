// Runs the credential's Test button the way n8n's credentials tester does for a declarative
// `test` (n8n's CredentialsTesterService.runRequestTest, which lives in the unpublished n8n CLI
// package): a temporary node whose one parameter routes the test request, run by n8n-core's
// RoutingNode with the credential's real `authenticate`, then n8n's verdict from the rules. The
// end-to-end suite checks the same answers through the real n8n's /rest/credentials/test.
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	IDataObject,
	INode,
	INodeCredentialTestResult,
	INodeType,
	INodeTypes,
} from 'n8n-workflow';
import { createEmptyRunExecutionData, Workflow } from 'n8n-workflow';
import { MarketplacePartnerApi } from '../../credentials/MarketplacePartnerApi.credentials';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node';
import { MarketplacePartnerTrigger } from '../../nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node';
import { createAdditionalData } from './n8n';

export const CREDENTIAL_TYPE = 'marketplacePartnerApi';

/** New instances, as n8n loads them (made inside a test, so coverage links the nodes to it). */
export const nodeTypesUsingCredential = (): INodeType[] => [new MarketplacePartner(), new MarketplacePartnerTrigger(), new MarketplacePartnerOrdersTrigger()];

type TestError = Error & { cause?: { code?: string; response?: { status: number; statusText?: string } } };

/** n8n's verdict on a test request that threw (a non-2xx answer, a network failure, a signing error). */
function verdictOnError(error: TestError, testRequest: ICredentialTestRequest): INodeCredentialTestResult {
	if (error.cause?.response) {
		const { status, statusText } = error.cause.response;
		for (const rule of testRequest.rules ?? []) {
			if (rule.type === 'responseCode' && status === rule.properties.value) return { status: 'Error', message: rule.properties.message };
		}
		if (status < 199 || status > 299) return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
	} else if (error.cause?.code) {
		return { status: 'Error', message: error.cause.code };
	}
	return { status: 'Error', message: error.message.toString() };
}

export async function testCredential(data: ICredentialDataDecryptedObject): Promise<INodeCredentialTestResult> {
	const testRequest = new MarketplacePartnerApi().test;
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
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' }],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [CREDENTIAL_TYPE]: { id: '1', name: 'test' } },
	};
	const nodeTypes: INodeTypes = { getByName: () => nodeType, getByNameAndVersion: () => nodeType, getKnownTypes: () => ({}) };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const context = new ExecuteContext(
		workflow,
		node,
		createAdditionalData({ [CREDENTIAL_TYPE]: data }),
		'internal',
		createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, nodeType, { id: '1', name: 'test', type: CREDENTIAL_TYPE, data });
	let response;
	try {
		response = await routingNode.runNode();
	} catch (error) {
		return verdictOnError(error as TestError, testRequest);
	}
	const json = (response?.[0]?.[0]?.json ?? {}) as IDataObject;
	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && getPath(json, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/** lodash's get for a dotted key, as n8n reads a rule's key. */
function getPath(value: unknown, key: string): unknown {
	return key.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as IDataObject)[k] : undefined), value);
}
