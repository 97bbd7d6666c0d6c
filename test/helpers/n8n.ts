// Runs workflows in-process through the real n8n engine (n8n-core's WorkflowExecute with the real
// n8n-workflow), the way n8n's own node tests do, without their unpublished harness.
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IConnections,
} from 'n8n-workflow';
import { ICredentialsHelper, Workflow } from 'n8n-workflow';
import { MarketplacePartnerApi } from '../../credentials/MarketplacePartnerApi.credentials';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import type { SandboxApp } from './sandbox';

export const PACKAGE = 'n8n-nodes-marketplace-partner';
export const NODE_TYPE = `${PACKAGE}.marketplacePartner`;

const nodeClasses: Record<string, INodeType> = {
	[NODE_TYPE]: new MarketplacePartner(),
};

export function registerNodeType(type: string, node: INodeType) {
	nodeClasses[type] = node;
}

const credentialTypes: Record<string, ICredentialType> = {
	marketplacePartnerApi: new MarketplacePartnerApi(),
};

class NodeTypes implements INodeTypes {
	getByName(type: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(type);
	}

	getByNameAndVersion(type: string): INodeType {
		const node = nodeClasses[type];
		if (!node) throw new Error(`Unknown node type ${type}`);
		return node;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** Hands the node the test credentials and applies the credential type's real `authenticate`. */
class CredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(credentials: ICredentialDataDecryptedObject, typeName: string, requestOptions: IHttpRequestOptions) {
		const type = credentialTypes[typeName];
		if (typeof type?.authenticate !== 'function') return requestOptions;
		return await type.authenticate(credentials, requestOptions);
	}

	async preAuthentication(_h: IHttpRequestHelper, _c: ICredentialDataDecryptedObject, _t: string, _n: INode, _e: boolean) {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by these nodes');
	}

	async getDecrypted(_a: IWorkflowExecuteAdditionalData, _n: unknown, type: string): Promise<ICredentialDataDecryptedObject> {
		const found = this.data[type];
		if (!found) throw new Error(`No test credentials of type ${type}`);
		return { ...found };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(): INodeProperties[] {
		return [];
	}
}

export function credentialsFor(
	baseUrl: string,
	app: Pick<SandboxApp, 'clientId' | 'clientSecret' | 'webhookSecret'>,
	extra: IDataObject = {},
): ICredentialDataDecryptedObject {
	return {
		baseUrl,
		clientId: app.clientId,
		clientSecret: app.clientSecret,
		webhookSecret: app.webhookSecret,
		headerPrefix: 'X-SVC-',
		...extra,
	} as ICredentialDataDecryptedObject;
}

export interface NodeRun {
	run: IRun;
	/** Output items of the node (first output), with pairedItem. */
	items: INodeExecutionData[];
	/** The execution's error, when the node failed the run. */
	error?: { message: string; description?: string | null; context?: IDataObject; httpCode?: string };
}

/** Runs one Marketplace Partner node with the given parameters on the given input items. */
export async function runNode(options: {
	parameters: IDataObject;
	credentials: ICredentialDataDecryptedObject;
	items?: IDataObject[];
	continueOnFail?: boolean;
	type?: string;
}): Promise<NodeRun> {
	const node: INode = {
		id: 'a1b2c3d4-0000-4000-8000-000000000001',
		name: 'Marketplace Partner',
		type: options.type ?? NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters as INode['parameters'],
		credentials: { marketplacePartnerApi: { id: '1', name: 'Partner test' } },
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
	const run = await runWorkflow([node], {}, node.name, options.items ?? [{}], { marketplacePartnerApi: options.credentials });
	const taskData = run.data.resultData.runData[node.name]?.[0];
	const items = (taskData?.data?.main?.[0] ?? []) as INodeExecutionData[];
	const error = run.data.resultData.error as NodeRun['error'];
	return { run, items, error };
}

/** What the engine needs of an n8n instance around it, with the test credentials helper. */
export function createAdditionalData(
	credentials: Record<string, ICredentialDataDecryptedObject>,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		hooks,
		credentialsHelper: new CredentialsHelper(credentials),
		executionId: 'test-execution',
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		webhookBaseUrl: 'http://localhost:5678/webhook/',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting/',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test/',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting/',
		variables: {},
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'test-user',
	} as unknown as IWorkflowExecuteAdditionalData;
}

export async function runWorkflow(
	nodes: INode[],
	connections: IConnections,
	startNodeName: string,
	inputItems: IDataObject[],
	credentials: Record<string, ICredentialDataDecryptedObject>,
): Promise<IRun> {
	const workflowData: IWorkflowBase = {
		id: 'test-workflow',
		name: 'test',
		active: false,
		isArchived: false,
		nodes,
		connections,
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as unknown as IWorkflowBase;
	const workflow = new Workflow({
		id: workflowData.id,
		nodes,
		connections,
		nodeTypes: new NodeTypes(),
		active: false,
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', workflowData);
	let finished!: (run: IRun) => void;
	const done = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => finished(fullRunData));
	const additionalData = createAdditionalData(credentials, hooks);
	const startNode = workflow.getNode(startNodeName)!;
	const runExecutionData: IRunExecutionData = {
		version: 1,
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			nodeExecutionStack: [
				{ node: startNode, data: { main: [inputItems.map((json) => ({ json }))] }, source: null },
			],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as unknown as IRunExecutionData;
	const execute = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	await execute.processRunExecutionData(workflow);
	return await done;
}
