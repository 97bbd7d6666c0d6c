/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// A webhook endpoint that hands each real request to the trigger's webhook() through n8n-core's
// WebhookContext, the way n8n's webhook server does (express, raw body kept for JSON and text).
// Static data as n8n keeps it for live webhooks: read from the store on every request, written
// back as the answer is sent, when changed. Servers given one store act as processes sharing a
// database. Either n8n line's order of answering and starting the run (N8nLine).
import express from 'express';
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import type { Server } from 'node:http';
import { WebhookContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeExecutionData, IWebhookData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { MarketplacePartnerTrigger } from '../../nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node';
import { createAdditionalData } from './n8n';

export interface TriggerServer {
	url: string;
	/** Items of each workflow run the trigger started. */
	runs: INodeExecutionData[][];
	/** Every answer given: status and body. */
	answers: Array<{ status: number; body: string }>;
	/** How often the static data was written back (n8n does it only when changed). */
	staticDataSaves: number;
	/**
	 * How many of the next accepted deliveries n8n fails to queue (a process stopping, a database or
	 * Redis error): n8n 2.x then answers 500, reads no answer from the node and saves nothing.
	 */
	failNextRuns: number;
	/** How long n8n takes to create and queue a run (milliseconds), during which other requests are served. */
	queueDelayMs: number;
	close(): Promise<void>;
}

/**
 * When n8n answers a delivery its trigger accepted (responseMode onReceived): n8n 2.x after it has
 * started (queued) the run, n8n 1.x before (webhook-helpers.js, executeWebhook, in 2.41.1 and
 * 1.123.81).
 */
export type N8nLine = 1 | 2;

/** The workflow's stored static data (n8n's database column), shareable between servers. */
export interface StaticDataStore {
	json: string;
}

export async function startTriggerServer(
	credentials: ICredentialDataDecryptedObject,
	parameters: IDataObject = { events: ['*'] },
	store: StaticDataStore = { json: '{}' },
	workflowId = `wf-${Math.random()}`,
	n8nLine: N8nLine = 2,
	// The benchmark passes the built class (dist/), what users install.
	trigger: MarketplacePartnerTrigger = new MarketplacePartnerTrigger(),
	typeVersion = 1,
): Promise<TriggerServer> {
	const node: INode = {
		id: 'trigger-node-1',
		name: 'Marketplace Partner Trigger',
		type: 'n8n-nodes-marketplace-partner.marketplacePartnerTrigger',
		typeVersion,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: { marketplacePartnerApi: { id: '1', name: 'Partner test' } },
	};
	const nodeTypes = { getByName: () => trigger, getByNameAndVersion: () => trigger, getKnownTypes: () => ({}) };
	// Like n8n's LiveWebhooks: a Workflow over the stored static data, read afresh per request; the
	// raw object is kept because n8n hands that same object to the run it starts.
	const rawStaticData = new WeakMap<Workflow, IDataObject>();
	const loadWorkflow = () => {
		const staticData = JSON.parse(store.json) as IDataObject;
		const workflow = new Workflow({ id: workflowId, nodes: [node], connections: {}, active: true, nodeTypes, staticData });
		rawStaticData.set(workflow, staticData);
		return workflow;
	};
	const runs: INodeExecutionData[][] = [];
	const answers: TriggerServer['answers'] = [];
	let staticDataSaves = 0;
	const control = { failNextRuns: 0, queueDelayMs: 0 };

	const app = express();
	// As n8n: the raw bytes are kept for JSON and text bodies; other types are read on demand.
	app.use((req, _res, next) => {
		const raw = req as unknown as { rawBody?: Buffer; readRawBody: () => Promise<void> };
		let reading: Promise<void> | undefined;
		raw.readRawBody = () =>
			(reading ??= new Promise((resolve, reject) => {
				const chunks: Buffer[] = [];
				req.on('data', (c: Buffer) => chunks.push(c));
				req.on('end', () => {
					raw.rawBody = Buffer.concat(chunks);
					resolve();
				});
				req.on('error', reject);
			}));
		// And, like n8n's body parser, the parsed JSON as req.body: the node must not verify that.
		if (/json|text/.test(req.headers['content-type'] ?? '')) {
			raw.readRawBody().then(() => {
				if (/json/.test(req.headers['content-type'] ?? '')) {
					try {
						req.body = JSON.parse(raw.rawBody!.toString('utf8'));
					} catch {
						req.body = {};
					}
				}
				next();
			}, next);
		} else next();
	});
	app.use((_req, res, next) => {
		const send = res.send.bind(res);
		res.send = (body?: unknown) => {
			answers.push({ status: res.statusCode, body: String(body) });
			return send(body);
		};
		next();
	});
	app.post('/webhook', async (req, res) => {
		const additionalData = { ...createAdditionalData({ marketplacePartnerApi: credentials }), httpRequest: req, httpResponse: res };
		const workflow = loadWorkflow();
		const webhookData = { webhookDescription: trigger.description.webhooks![0], node: node.name, workflowId: workflow.id, httpMethod: 'POST', path: 'webhook' } as unknown as IWebhookData;
		const context = new WebhookContext(workflow, node, additionalData, 'webhook', webhookData, [], null);
		try {
			const result = await trigger.webhook.call(context);
			// n8n saves the static data as it sends the answer, if it changed (LiveWebhooks' response
			// callback); a node that answered itself is answered for at once.
			const answered = () => {
				if (!workflow.staticData.__dataChanged) return;
				store.json = JSON.stringify(workflow.staticData);
				staticDataSaves++;
			};
			const startRun = () => {
				// Starting the run builds a second Workflow over the same static data, which clears
				// its changed flag (n8n 2.41's WorkflowRunner.establishContextForPersistence).
				new Workflow({ id: workflow.id, nodes: [node], connections: {}, active: true, nodeTypes, staticData: rawStaticData.get(workflow) });
				runs.push(result.workflowData![0]);
			};
			if (result.noWebhookResponse) answered();
			if (result.workflowData && control.queueDelayMs) await new Promise((resolve) => setTimeout(resolve, control.queueDelayMs));
			if (result.workflowData && n8nLine === 2 && control.failNextRuns > 0) {
				control.failNextRuns--;
				res.status(500).send('Error in workflow');
				return;
			}
			if (result.workflowData && n8nLine === 2) startRun();
			if (!result.noWebhookResponse) {
				// n8n's extractWebhookOnReceivedResponse: the node's webhookResponse, read now, else its default.
				const body = result.webhookResponse ?? { message: 'Workflow was started' };
				answered();
				res.status(200).send(JSON.stringify(body));
			}
			if (result.workflowData && n8nLine === 1) startRun();
		} catch (error) {
			// n8n answers a trigger that threw with 500, and still starts the workflow with an empty
			// item (webhook-helpers.js executeWebhook, n8n 2.41.1).
			res.status(500).send(String((error as Error).message));
			runs.push([{ json: {} }]);
		}
	});
	const server: Server = await new Promise((resolve) => {
		const s = app.listen(0, '127.0.0.1', () => resolve(s));
	});
	const { port } = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${port}/webhook`,
		runs,
		answers,
		get staticDataSaves() {
			return staticDataSaves;
		},
		get failNextRuns() {
			return control.failNextRuns;
		},
		set failNextRuns(count: number) {
			control.failNextRuns = count;
		},
		get queueDelayMs() {
			return control.queueDelayMs;
		},
		set queueDelayMs(ms: number) {
			control.queueDelayMs = ms;
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/**
 * Posts a delivery to `url`, signed here with bare crypto (neither the sandbox's code nor the
 * node's), to shape cases the sandbox does not send. `sentTs` is the timestamp header as sent,
 * where it differs from the text signed; `omit` leaves a header out.
 */
export async function postSigned(
	url: string,
	body: string,
	{
		secret,
		id = 'whd_manual_1',
		event = 'order.created' as string | null,
		contentType = 'application/json' as string | null,
		omit = '',
		ts = String(Math.floor(Date.now() / 1000)),
		sentTs = undefined as string | undefined,
		prefix = 'x-svc-',
	}: { secret: string; id?: string; event?: string | null; contentType?: string | null; omit?: string; ts?: string; sentTs?: string; prefix?: string },
): Promise<{ status: number; text: string; retryAfter?: string }> {
	const signature = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
	const headers: Record<string, string> = {
		[`${prefix}webhook-id`]: id,
		[`${prefix}webhook-timestamp`]: sentTs ?? ts,
		[`${prefix}webhook-signature`]: signature,
	};
	if (event !== null) headers[`${prefix}webhook-event`] = event;
	if (contentType !== null) headers['content-type'] = contentType;
	delete headers[omit];
	const res = await request(url, { method: 'POST', body, headers });
	return { status: res.statusCode, text: await res.body.text(), retryAfter: res.headers['retry-after'] as string | undefined };
}
