/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The do-it-yourself way, in the real n8n: what a user without this package would build (a Code
// node that signs each request with crypto, then the HTTP Request node), against our node in the
// same n8n, on the same data. Timed by n8n's own execution start and stop times, so n8n's CLI
// start-up is not counted on either side.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { control, median, type SandboxInfo } from './common';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isProvisioned, installPackageInto, n8nCommand, parseRawOutput } = require('../scripts/lib');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { importCredential, CREDENTIAL_ID } = require('../scripts/workspace');

type App = SandboxInfo['apps'][number];
export const CREDENTIAL = { marketplacePartnerApi: { id: CREDENTIAL_ID, name: 'Marketplace Partner (sandbox)' } };

export const node = (name: string, type: string, typeVersion: number, x: number, parameters: object, extra: object = {}) => ({
	id: `00000000-0000-4000-8000-${String(x).padStart(12, '0')}`,
	name,
	type,
	typeVersion,
	position: [x, 0],
	parameters,
	...extra,
});

const chain = (names: string[]) =>
	Object.fromEntries(names.slice(0, -1).map((n, i) => [n, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]));

export function workflow(id: string, nodes: Array<{ name: string }>) {
	return { id, name: id, nodes, connections: chain(nodes.map((n) => n.name)), settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

export const start = () => node('Start', 'n8n-nodes-base.manualTrigger', 1, 0, {});
export const rowsCode = (rows: unknown[]) =>
	node('Rows', 'n8n-nodes-base.code', 2, 200, { jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));` });

export function signCode(app: App, method: string, pathExpr: string, bodyExpr: string) {
	// What a careful user writes: sign exactly the bytes the HTTP Request node will send.
	return `const crypto = require('crypto');
const secret = ${JSON.stringify(app.clientSecret)};
return $input.all().map((item) => {
  const path = ${pathExpr};
  const body = ${bodyExpr};
  const ts = Math.floor(Date.now() / 1000);
  const sig = crypto.createHmac('sha256', secret).update('${method}\\n' + path + '\\n' + ts + '\\n' + body).digest('hex');
  return { json: { path, body, ts: String(ts), sig } };
});`;
}

export function signedHeaders(app: App) {
	return {
		sendHeaders: true,
		headerParameters: {
			parameters: [
				{ name: 'X-SVC-CLIENT-ID', value: app.clientId },
				{ name: 'X-SVC-TIMESTAMP', value: '={{ $json.ts }}' },
				{ name: 'X-SVC-SIGNATURE', value: '={{ $json.sig }}' },
			],
		},
	};
}

export async function runDiy(options: {
	sandbox: SandboxInfo;
	app: App;
	rows: Array<{ product_id: number; stock: number }>;
	pullOrders: number;
	latencyMs: number;
	reps: number;
}) {
	if (!isProvisioned()) return null;
	const { sandbox, app, rows, pullOrders, latencyMs, reps } = options;
	const userFolder = mkdtempSync(path.join(tmpdir(), 'n8n-partner-diy-'));
	try {
		installPackageInto(userFolder);
		const importDir = await importCredential(userFolder, sandbox, app);
		const pages = Array.from({ length: Math.ceil(pullOrders / 100) }, (_, i) => ({ offset: i * 100 }));
		const workflows = [
			workflow('benchNodeSync', [
				start(),
				rowsCode(rows),
				// As the editor saves a new node: columns mapped automatically, no expression per row.
				node('Update Stock', 'n8n-nodes-marketplace-partner.marketplacePartner', 2, 400, {
					resource: 'stock', operation: 'update', identifyBy: 'productId', columns: { mappingMode: 'autoMapInputData', value: {}, matchingColumns: [], schema: [] }, columnNames: {}, options: {},
				}, { credentials: CREDENTIAL }),
			]),
			// The same at Concurrency 8, the former default: n8n waits on the latency between requests.
			workflow('benchNodeSync8', [
				start(),
				rowsCode(rows),
				node('Update Stock', 'n8n-nodes-marketplace-partner.marketplacePartner', 2, 400, {
					resource: 'stock', operation: 'update', identifyBy: 'productId', columns: { mappingMode: 'autoMapInputData', value: {}, matchingColumns: [], schema: [] }, columnNames: {}, options: { concurrency: 8 },
				}, { credentials: CREDENTIAL }),
			]),
			workflow('benchNodeV1Sync', [
				start(),
				rowsCode(rows),
				node('Update Stock', 'n8n-nodes-marketplace-partner.marketplacePartner', 1, 400, {
					resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}', additionalFields: {}, options: {},
				}, { credentials: CREDENTIAL }),
			]),
			workflow('benchDiySync', [
				start(),
				rowsCode(rows),
				node('Sign', 'n8n-nodes-base.code', 2, 400, { jsCode: signCode(app, 'POST', "'/stock_update.php'", 'JSON.stringify({ product_id: item.json.product_id, stock: item.json.stock })') }),
				node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, 600, {
					method: 'POST', url: `${sandbox.baseUrl}/stock_update.php`, ...signedHeaders(app),
					sendBody: true, contentType: 'raw', rawContentType: 'application/json', body: '={{ $json.body }}', options: {},
				}),
			]),
			workflow('benchNodePull', [
				start(),
				node('Get Orders', 'n8n-nodes-marketplace-partner.marketplacePartner', 1, 200, { resource: 'order', operation: 'getMany', returnAll: true, filters: {} }, { credentials: CREDENTIAL }),
			]),
			workflow('benchDiyPull', [
				start(),
				node('Pages', 'n8n-nodes-base.code', 2, 200, { jsCode: `return ${JSON.stringify(pages)}.map((json) => ({ json }));` }),
				node('Sign', 'n8n-nodes-base.code', 2, 400, { jsCode: signCode(app, 'GET', "'/orders.php?limit=100&offset=' + item.json.offset", "''") }),
				node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, 600, { method: 'GET', url: `=${sandbox.baseUrl}{{ $json.path }}`, ...signedHeaders(app), options: {} }),
				node('Split Orders', 'n8n-nodes-base.code', 2, 800, { jsCode: 'return $input.all().flatMap((item) => item.json.data.orders.map((json) => ({ json })));' }),
			]),
		];
		for (const wf of workflows) {
			const file = path.join(importDir, `${wf.id}.json`);
			writeFileSync(file, JSON.stringify(wf));
			await n8nCommand(userFolder, ['import:workflow', `--input=${file}`]);
		}
		/** Runs a workflow; returns n8n's own execution time and the last node's item count. */
		const run = async (id: string, lastNode: string) => {
			const out: string = await n8nCommand(userFolder, ['execute', `--id=${id}`, '--rawOutput'], { NODE_FUNCTION_ALLOW_BUILTIN: 'crypto' });
			const result = parseRawOutput(out);
			if (result.data.resultData.error) throw new Error(`${id}: ${result.data.resultData.error.message}`);
			const runData = result.data.resultData.runData as Record<string, Array<{ executionTime: number; data: { main: unknown[][] } }>>;
			const items = runData[lastNode][0].data.main[0].length;
			const nodeSeconds = Object.fromEntries(Object.entries(runData).map(([name, runs]) => [name, runs[0].executionTime / 1000]));
			return { seconds: (Date.parse(result.stoppedAt) - Date.parse(result.startedAt)) / 1000, items, nodeSeconds };
		};
		const times = { nodeSync: [] as number[], nodeSync8: [] as number[], nodeV1Sync: [] as number[], diySync: [] as number[], nodePull: [] as number[], diyPull: [] as number[] };
		const perNode: Record<string, Record<string, number>> = {}; // last repetition: where each workflow spent its time
		for (let r = 0; r < reps; r++) {
			await control(sandbox, 'POST', '/faults', { latencyMs });
			for (const [key, id, last, expected] of [
				['nodeSync', 'benchNodeSync', 'Update Stock', rows.length],
				['nodeSync8', 'benchNodeSync8', 'Update Stock', rows.length],
				['nodeV1Sync', 'benchNodeV1Sync', 'Update Stock', rows.length],
				['diySync', 'benchDiySync', 'HTTP Request', rows.length],
			] as const) {
				const { seconds, items, nodeSeconds } = await run(id, last);
				if (items !== expected) throw new Error(`${id}: ${items} items, expected ${expected}`);
				times[key].push(seconds);
				perNode[key] = nodeSeconds;
			}
			await control(sandbox, 'POST', '/faults/reset');
			for (const [key, id, last] of [
				['nodePull', 'benchNodePull', 'Get Orders'],
				['diyPull', 'benchDiyPull', 'Split Orders'],
			] as const) {
				const { seconds, items, nodeSeconds } = await run(id, last);
				if (items !== pullOrders) throw new Error(`${id}: ${items} items, expected ${pullOrders}`);
				times[key].push(seconds);
				perNode[key] = nodeSeconds;
			}
		}
		return {
			rows: rows.length,
			orders: pullOrders,
			latencyMs,
			nodeSyncSeconds: median(times.nodeSync),
			diySyncSeconds: median(times.diySync),
			stockSyncSpeedup: median(times.diySync) / median(times.nodeSync),
			nodeSync8Seconds: median(times.nodeSync8),
			stockSyncSpeedup8: median(times.diySync) / median(times.nodeSync8),
			nodeV1SyncSeconds: median(times.nodeV1Sync),
			stockSyncSpeedupV1: median(times.diySync) / median(times.nodeV1Sync),
			nodePullSeconds: median(times.nodePull),
			diyPullSeconds: median(times.diyPull),
			pullSpeedup: median(times.diyPull) / median(times.nodePull),
			nodeSecondsPerWorkflow: perNode,
		};
	} finally {
		rmSync(userFolder, { recursive: true, force: true });
	}
}
