/* eslint-disable @typescript-eslint/no-unused-vars -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Runs workflows in-process through the real n8n engine (n8n-core's WorkflowExecute with the real
// n8n-workflow), the way n8n's own node tests do, without their unpublished harness.
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
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
	NodeExecutionHint,
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
/** The name runNode gives the node under test. */
export const NODE_NAME = 'Marketplace Partner';

// Built on first use, so a caller (the benchmark) can register the built dist/ classes instead.
const nodeClasses: Record<string, INodeType> = {};
const credentialTypes: Record<string, ICredentialType> = {};

export function registerNodeType(type: string, node: INodeType) {
	nodeClasses[type] = node;
}

export function registerCredentialType(name: string, type: ICredentialType) {
	credentialTypes[name] = type;
}

function ensureDefaults() {
	nodeClasses[NODE_TYPE] ??= new MarketplacePartner();
	credentialTypes.marketplacePartnerApi ??= new MarketplacePartnerApi();
}

class NodeTypes implements INodeTypes {
	getByName(type: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(type);
	}

	getByNameAndVersion(type: string): INodeType {
		ensureDefaults();
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
	/** How often a node asked for a credential (in n8n: a database read and a decryption each). */
	reads = 0;

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
		ensureDefaults();
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
		this.reads++;
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
	/** Every output of the node (the error output is the last under continueErrorOutput). */
	outputs: INodeExecutionData[][];
	/** The execution's error, when the node failed the run. */
	error?: { message: string; description?: string | null; context?: IDataObject; httpCode?: string };
	/** How often the run asked n8n for the credential. */
	credentialReads: number;
}

const SHEET_TYPE = 'test.sheet';

/** A stand-in for the node before ours (a spreadsheet read, say): it emits the given rows. */
function sheetNodeType(rows: IDataObject[]): INodeType {
	return {
		description: {
			displayName: 'Sheet',
			name: 'sheet',
			group: ['input'],
			version: 1,
			description: 'Emits the test rows',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute() {
			return [rows.map((json) => ({ json: { ...json }, pairedItem: { item: 0 } }))];
		},
	} as unknown as INodeType;
}

/**
 * Runs a Marketplace Partner node on the given rows: a two-node workflow, Sheet -> node, so the
 * node has a real upstream for expressions, pairing and the error output.
 */
export async function runNode(options: {
	parameters: IDataObject;
	credentials: ICredentialDataDecryptedObject;
	items?: IDataObject[];
	continueOnFail?: boolean;
	onError?: 'continueRegularOutput' | 'continueErrorOutput';
	type?: string;
	/** The node's version, as saved in a workflow (default 1, the version existing workflows have). */
	typeVersion?: number;
}): Promise<NodeRun> {
	registerNodeType(SHEET_TYPE, sheetNodeType(options.items ?? [{}]));
	const sheet: INode = { id: 'a1b2c3d4-0000-4000-8000-000000000000', name: 'Sheet', type: SHEET_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
	const node: INode = {
		id: 'a1b2c3d4-0000-4000-8000-000000000001',
		name: NODE_NAME,
		type: options.type ?? NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [200, 0],
		parameters: options.parameters as INode['parameters'],
		credentials: { marketplacePartnerApi: { id: '1', name: 'Partner test' } },
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.onError ? { onError: options.onError } : {}),
	};
	const connections: IConnections = { Sheet: { main: [[{ node: node.name, type: 'main', index: 0 }]] } };
	const { run, credentialReads } = await runWorkflow([sheet, node], connections, sheet.name, [{}], { marketplacePartnerApi: options.credentials });
	const taskData = run.data.resultData.runData[node.name]?.[0];
	const outputs = (taskData?.data?.main ?? []) as INodeExecutionData[][];
	const error = run.data.resultData.error as NodeRun['error'];
	return { run, items: outputs[0] ?? [], outputs, error, credentialReads };
}

/** What the engine needs of an n8n instance around it, with the test credentials helper. */
export function createAdditionalData(
	credentials: Record<string, ICredentialDataDecryptedObject>,
	hooks?: ExecutionLifecycleHooks,
	executionId = 'test-execution',
): IWorkflowExecuteAdditionalData {
	return {
		hooks,
		credentialsHelper: new CredentialsHelper(credentials),
		executionId,
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

/**
 * What the editor's lists run in (a list search, a dropdown's options): n8n-core's own context for
 * the action node of the given version and parameters, with the test credential.
 */
export function loadOptionsContext(credentials: ICredentialDataDecryptedObject, parameters: IDataObject = {}, typeVersion = 3): LoadOptionsContext {
	const node: INode = {
		id: 'a1b2c3d4-0000-4000-8000-000000000002',
		name: NODE_NAME,
		type: NODE_TYPE,
		typeVersion,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: { marketplacePartnerApi: { id: '1', name: 'Partner test' } },
	};
	const workflow = new Workflow({ id: 'test-workflow', nodes: [node], connections: {}, nodeTypes: new NodeTypes(), active: false });
	return new LoadOptionsContext(workflow, node, createAdditionalData({ marketplacePartnerApi: credentials }), 'parameters');
}

/** The execution hints the node under test left on its output (none when it left none). */
export function hintsOf({ run }: Pick<NodeRun, 'run'>): NodeExecutionHint[] {
	return run.data.resultData.runData[NODE_NAME]?.[0]?.hints ?? [];
}

/** The node types the tests registered, for a Workflow built by hand. */
export function nodeTypes(): INodeTypes {
	return new NodeTypes();
}

let executions = 0;

export async function runWorkflow(
	nodes: INode[],
	connections: IConnections,
	startNodeName: string,
	inputItems: IDataObject[],
	credentials: Record<string, ICredentialDataDecryptedObject>,
	// Each run its own execution, as in n8n, unless a test runs several under one (an agent's tool calls).
	executionId = `test-execution-${++executions}`,
): Promise<{ run: IRun; credentialReads: number }> {
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
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	let finished!: (run: IRun) => void;
	const done = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => finished(fullRunData));
	const additionalData = createAdditionalData(credentials, hooks, executionId);
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
	const run = await done;
	return { run, credentialReads: (additionalData.credentialsHelper as CredentialsHelper).reads };
}
