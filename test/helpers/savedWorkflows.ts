/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The saved workflows an installed package must keep running, each run through a running n8n the
// way a user starts it: the examples of a workflow of each node and, where they exist, the contract
// fixtures (test/contract/workflows/, one per node version). Manual workflows and the Orders
// Trigger run as "Execute workflow" does; webhook workflows are published and get a signed delivery
// from the sandbox. Every node of this package must have run without an error.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { n8nRest } from './n8nRest';
import type { RunningSandbox } from './sandbox';

/* eslint-disable @typescript-eslint/no-require-imports */
const { ROOT, PACKAGE_NAME, N8N_MAJOR, N8N_LINE } = require('../../scripts/lib');
const { exampleFor } = require('../../scripts/workspace');
/* eslint-enable @typescript-eslint/no-require-imports */

type Client = ReturnType<typeof n8nRest>;
type Rest = Client['rest'];
type Node = { name: string; type: string; typeVersion: number; webhookId?: string };
type Kind = 'manual' | 'webhook' | 'poll';

export interface SavedWorkflow {
	id: string;
	kind: Kind;
	/** This package's nodes in it, as `<type>@<typeVersion>`. */
	nodeVersions: string[];
	/** Publishes (activates) a webhook workflow through the REST API, as the editor's Publish does. */
	publishIfTriggered(rest: Rest): Promise<void>;
	/** Starts one run and waits for it: success, and every node of this package ran without an error. Resolves with its execution id. */
	runAndCheck(client: Client): Promise<string>;
}

/** A workflow of each node among the examples: the action node (v1 and v2), both triggers. */
const EXAMPLES = ['check-setup.json', 'spreadsheet-to-stock.json', 'new-order-to-warehouse.json', 'incremental-order-sync.json'];
const FIXTURES_DIR = path.join(ROOT, 'test', 'contract', 'workflows');
const ours = (node: Node) => node.type.startsWith(`${PACKAGE_NAME}.`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(300);
	}
}

function kindOf(nodes: Node[]): { kind: Kind; start: Node } {
	const start = nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	if (start) return { kind: 'manual', start };
	const webhook = nodes.find((n) => n.type === `${PACKAGE_NAME}.marketplacePartnerTrigger`);
	if (webhook) return { kind: 'webhook', start: webhook };
	const poll = nodes.find((n) => n.type === `${PACKAGE_NAME}.marketplacePartnerOrdersTrigger`);
	if (poll) return { kind: 'poll', start: poll };
	throw new Error(`no start node this test knows in ${nodes.map((n) => n.type).join(', ')}`);
}

/**
 * The saved workflows for `userFolder`: the examples (imported by prepareWorkspace already) and the
 * contract fixtures, imported here with `importWorkflows(folder)` (one n8n CLI run for them all: each
 * run starts n8n, seconds). `webhookOrigin()` is where
 * production webhooks are served (main, or a webhook process in queue mode).
 */
export async function savedWorkflows(options: {
	sandbox: RunningSandbox;
	webhookOrigin: () => string;
	importWorkflows: (folder: string) => Promise<unknown>;
}): Promise<SavedWorkflow[]> {
	const { sandbox, webhookOrigin } = options;
	const clientId = sandbox.apps['seller-a-full'].clientId;
	const definitions: Array<{ id: string; nodes: Node[] }> = EXAMPLES.map((file) => exampleFor(file, sandbox.baseUrl));
	if (existsSync(FIXTURES_DIR)) {
		await options.importWorkflows(FIXTURES_DIR);
		for (const file of readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.json')).sort()) {
			definitions.push(JSON.parse(readFileSync(path.join(FIXTURES_DIR, file), 'utf8')));
		}
	}

	const executionIds = async (rest: Rest, workflowId: string): Promise<string[]> =>
		(await rest('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100`)).json.data.results.map((e: { id: string }) => String(e.id));

	return definitions.map(({ id, nodes }) => {
		const { kind, start } = kindOf(nodes);
		const webhookUrl = () => `${webhookOrigin()}/webhook/${start.webhookId}/webhook`;

		/** Starts a run as the editor's "Execute workflow" does (1.x and 2.0 send the workflow along). */
		const runManually = async (rest: Rest): Promise<string> => {
			const body: Record<string, unknown> = { triggerToStartFrom: { name: start.name } };
			if (N8N_MAJOR < 2 || N8N_LINE === '2.0') body.workflowData = (await rest('GET', `/workflows/${id}`)).json.data;
			const res = await rest('POST', `/workflows/${id}/run`, body);
			if (res.status !== 200 || !res.json?.data?.executionId) throw new Error(`n8n did not start ${id}: ${res.status} ${JSON.stringify(res.json)}`);
			return String(res.json.data.executionId);
		};

		/** A signed order.created from the sandbox to the published workflow's production URL. */
		const deliver = async (rest: Rest): Promise<string> => {
			// Earlier deliveries (of orders made for a test run) land first: they would start runs too.
			await sandbox.control('POST', '/deliveries/wait');
			const seen = new Set(await executionIds(rest, id));
			await sandbox.control('POST', `/apps/${clientId}/webhook`, { url: webhookUrl() });
			const created = await sandbox.control('POST', '/orders', { clientId });
			await sandbox.control('POST', '/deliveries/wait');
			const attempts = await sandbox.control('GET', `/deliveries?deliveryId=${created.deliveries[0].deliveryId}`);
			if (attempts[0]?.statusCode !== 200) throw new Error(`the delivery to ${id} was answered ${attempts.map((a: { statusCode: number }) => a.statusCode)}`);
			return until(`an execution of ${id}`, async () => (await executionIds(rest, id)).find((e) => !seen.has(e)));
		};

		return {
			id,
			kind,
			nodeVersions: nodes.filter(ours).map((n) => `${n.type}@${n.typeVersion}`),
			async publishIfTriggered(rest) {
				if (kind !== 'webhook') return;
				const { versionId } = (await rest('GET', `/workflows/${id}`)).json.data;
				const res = N8N_MAJOR >= 2 ? await rest('POST', `/workflows/${id}/activate`, { versionId }) : await rest('PATCH', `/workflows/${id}`, { active: true, versionId });
				if (res.status !== 200) throw new Error(`publishing ${id} failed: ${res.status} ${JSON.stringify(res.json)}`);
				// Registered once an unsigned call is refused (401) rather than unknown (404).
				await until(`${id}'s production URL`, async () => ((await fetch(webhookUrl(), { method: 'POST' })).status === 401 ? true : undefined));
			},
			async runAndCheck({ rest, executionData }) {
				// A new accepted order, so that the Orders Trigger's test run has a latest change to show.
				if (kind === 'poll') await sandbox.control('POST', '/orders', { clientId });
				const executionId = kind === 'webhook' ? await deliver(rest) : await runManually(rest);
				const execution = await until(`execution ${executionId} of ${id} to end`, async () => {
					const e = (await rest('GET', `/executions/${executionId}`)).json?.data;
					return e && !['new', 'running', 'waiting'].includes(e.status) ? e : undefined;
				});
				const data = (await executionData(executionId))!.resultData as any;
				const ran = nodes.filter(ours).map((n) => ({ workflow: id, node: n.name, ran: Boolean(data.runData[n.name]?.[0]), error: data.runData[n.name]?.[0]?.error?.message }));
				expect({ workflow: id, status: execution.status, error: data.error?.message }).toEqual({ workflow: id, status: 'success', error: undefined });
				expect(ran).toEqual(nodes.filter(ours).map((n) => ({ workflow: id, node: n.name, ran: true, error: undefined })));
				return executionId;
			},
		};
	});
}
