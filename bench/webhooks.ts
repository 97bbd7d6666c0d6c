/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- benchmark code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm run bench:webhooks [-- --quick] [-- --n=5000] [-- --single | --queue] [-- --engine=vm,legacy]`: the Marketplace
// Partner Trigger inside the real n8n (.state/runtime) under a burst of signed deliveries, beside
// n8n's own Webhook node with Header Auth, each followed by the same No-Op node. N distinct
// deliveries (order.created, the sandbox's order payloads, signed as the sandbox signs) at a fixed
// concurrency; for each scenario a fresh n8n process (or, in queue mode, a fresh webhook process and
// worker), so that each one's memory starts from the same point. Prints one table and the ratios
// against the targets; writes bench/results/webhooks.json. --engine: n8n's expression engine
// (N8N_EXPRESSION_ENGINE; n8n 2.41's default `vm` builds an isolate per webhook request of any
// trigger but its own Webhook node, see docs/benchmarks.md), one run per engine named.
// A scenario stops early when one n8n process passes RSS_LIMIT_MIB: this machine is shared.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, request } from 'undici';
import type { IDataObject } from 'n8n-workflow';
import { MAX_DELIVERY_IDS, seenBefore } from '../nodes/MarketplacePartner/helpers/deliveryLog';
import { n8nRest } from '../test/helpers/n8nRest';

/* eslint-disable @typescript-eslint/no-require-imports */
const { STATE, provision, freePort, startN8n, n8nCommand, packPackage, installPackageInto } = require('../scripts/lib');
const { startQueueInstallation, treeRssKb } = require('../scripts/queue');
const { seed, orderListEntry } = require('../sandbox/data');
const { webhookSignature } = require('../sandbox/auth');
const { formatApiDate } = require('../sandbox/time');
/* eslint-enable @typescript-eslint/no-require-imports */

const CONCURRENCY = 20;
const HEADER_PREFIX = 'X-SVC-';
const WEBHOOK_SECRET = 'whs_bench_0123456789abcdef0123456789abcdef';
const HEADER_AUTH = { name: 'X-Bench-Token', value: 'bench-token-0123456789abcdef' };
const TRIGGER_NODE = 'Order Created';
const OWNER = { email: 'bench@example.com', firstName: 'Bench', lastName: 'User', password: 'Bench-Partner-2026' };
const MEMORY_PRELOAD = path.join(__dirname, 'memory-preload.cjs');
const RSS_LIMIT_MIB = Number(option('rss-limit-mib') ?? 4096);

type Scenario = 'webhook' | 'triggerEmpty' | 'triggerFull';
const SCENARIOS: Record<Scenario, { label: string; workflowId: string; path: string }> = {
	webhook: { label: "n8n's Webhook node, Header Auth", workflowId: 'benchWebhookNode01', path: 'bench-webhook-node' },
	triggerEmpty: { label: 'our trigger, record empty', workflowId: 'benchTriggerEmpty1', path: 'b0000000-0000-4000-8000-00000000e001/webhook' },
	triggerFull: { label: `our trigger, record full (${MAX_DELIVERY_IDS.toLocaleString('en-US')} ids)`, workflowId: 'benchTriggerFull01', path: 'b0000000-0000-4000-8000-00000000f001/webhook' },
};

function option(name: string): string | undefined {
	const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
	return arg?.split('=')[1] ?? process.env[name.toUpperCase()];
}

/** Memory of one n8n process: resident (with its task runner), and V8's own view from the preload. */
interface MemorySample {
	rssMiB: number;
	heapUsedMiB?: number;
	externalMiB?: number;
}

/** What `memory-preload.cjs` last wrote for a process (V8 heap and external memory), if anything. */
function v8View(dir: string, pid: number): { heapUsed: number; external: number } | undefined {
	try {
		return JSON.parse(readFileSync(path.join(dir, `${pid}.json`), 'utf8'));
	} catch {
		return undefined;
	}
}

function sample(dir: string, pid: number): MemorySample {
	const v8 = v8View(dir, pid);
	const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
	return { rssMiB: Math.round(treeRssKb(pid) / 1024), heapUsedMiB: v8 && mib(v8.heapUsed), externalMiB: v8 && mib(v8.external) };
}

// Order payloads as the sandbox sends them for order.created: one order list entry each.
function deliveries(n: number, runTag: string) {
	const state = seed({ ordersA: n, ordersB: 1, productsPerSeller: 200 });
	return [...state.orders.values()].slice(0, n).map((order: unknown, i: number) => {
		const eventId = `evt_${runTag}${String(i).padStart(8, '0')}`;
		const body = JSON.stringify({ id: eventId, event: 'order.created', created_at: formatApiDate(Date.now()), test: false, data: orderListEntry(state, order) });
		return { id: `whd_${runTag}${String(i).padStart(16, '0')}`, body: Buffer.from(body) };
	});
}

function workflows(credentialId: string, headerAuthId: string, fullRecord: IDataObject) {
	const noOp = { id: 'b0000000-0000-4000-8000-0000000000a0', name: 'No Operation', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [240, 0], parameters: {} };
	const connections = (from: string) => ({ [from]: { main: [[{ node: 'No Operation', type: 'main', index: 0 }]] } });
	const trigger = (scenario: Scenario, webhookId: string, staticData?: IDataObject) => ({
		id: SCENARIOS[scenario].workflowId,
		name: `Bench: ${SCENARIOS[scenario].label}`,
		nodes: [
			{
				id: `${webhookId.slice(0, -4)}aaaa`,
				name: TRIGGER_NODE,
				type: 'n8n-nodes-marketplace-partner.marketplacePartnerTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: { events: ['order.created'], options: {} },
				credentials: { marketplacePartnerApi: { id: credentialId, name: 'Bench partner' } },
			},
			noOp,
		],
		connections: connections(TRIGGER_NODE),
		settings: { executionOrder: 'v1' },
		...(staticData ? { staticData } : {}),
	});
	return [
		{
			id: SCENARIOS.webhook.workflowId,
			name: `Bench: ${SCENARIOS.webhook.label}`,
			nodes: [
				{
					id: 'b0000000-0000-4000-8000-00000000c001',
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: 'b0000000-0000-4000-8000-00000000c002',
					parameters: { httpMethod: 'POST', path: SCENARIOS.webhook.path, authentication: 'headerAuth', options: {} },
					credentials: { httpHeaderAuth: { id: headerAuthId, name: 'Bench header auth' } },
				},
				noOp,
			],
			connections: connections('Webhook'),
			settings: { executionOrder: 'v1' },
		},
		trigger('triggerEmpty', 'b0000000-0000-4000-8000-00000000e001'),
		trigger('triggerFull', 'b0000000-0000-4000-8000-00000000f001', { [`node:${TRIGGER_NODE}`]: fullRecord }),
	];
}

/** The record as MAX_DELIVERY_IDS earlier deliveries of the last hour leave it. */
function fullRecord(): IDataObject {
	const state: IDataObject = {};
	const now = Date.now();
	for (let i = 0; i < MAX_DELIVERY_IDS; i++) {
		const id = `whd_prefill${String(i).padStart(17, '0')}`;
		seenBefore([state], { id, timestamp: String(Math.floor(now / 1000)), rawBody: Buffer.from(id) }, now - 3_600_000 + i * 300, 300);
	}
	return state;
}

/** Imports the credentials and the bench workflows into a user folder, and publishes them. */
async function prepare(userFolder: string, env: IDataObject, tarball: string) {
	installPackageInto(userFolder, tarball);
	const dir = path.join(userFolder, 'import');
	mkdirSync(dir, { recursive: true });
	const credentials = [
		{ id: 'benchPartnerCred1', name: 'Bench partner', type: 'marketplacePartnerApi', data: { baseUrl: 'http://127.0.0.1:9/api/partner/v1', clientId: 'bench', clientSecret: 'bench', webhookSecret: WEBHOOK_SECRET, headerPrefix: HEADER_PREFIX } },
		{ id: 'benchHeaderAuth01', name: 'Bench header auth', type: 'httpHeaderAuth', data: HEADER_AUTH },
	];
	writeFileSync(path.join(dir, 'credentials.json'), JSON.stringify(credentials));
	await n8nCommand(userFolder, ['import:credentials', `--input=${path.join(dir, 'credentials.json')}`], env);
	const wfDir = path.join(dir, 'workflows');
	mkdirSync(wfDir, { recursive: true });
	for (const wf of workflows('benchPartnerCred1', 'benchHeaderAuth01', fullRecord())) writeFileSync(path.join(wfDir, `${wf.id}.json`), JSON.stringify(wf));
	await n8nCommand(userFolder, ['import:workflow', '--separate', `--input=${wfDir}`], env);
	for (const scenario of Object.values(SCENARIOS)) await n8nCommand(userFolder, ['publish:workflow', `--id=${scenario.workflowId}`], env);
}

interface Load {
	seconds: number;
	latenciesMs: number[];
	statuses: Record<string, number>;
}

/** Sends every delivery once, CONCURRENCY at a time, until `onProgress` (after each answer) says stop. */
async function send(url: string, scenario: Scenario, list: Array<{ id: string; body: Buffer }>, onProgress: (done: number) => boolean): Promise<Load> {
	const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });
	const latenciesMs: number[] = [];
	const statuses: Record<string, number> = {};
	let next = 0;
	let stopped = false;
	const started = performance.now();
	const worker = async () => {
		while (next < list.length && !stopped) {
			const { id, body } = list[next++];
			const ts = String(Math.floor(Date.now() / 1000));
			const headers: Record<string, string> =
				scenario === 'webhook'
					? { 'content-type': 'application/json', [HEADER_AUTH.name]: HEADER_AUTH.value }
					: {
							'content-type': 'application/json',
							[`${HEADER_PREFIX}WEBHOOK-ID`]: id,
							[`${HEADER_PREFIX}WEBHOOK-TIMESTAMP`]: ts,
							[`${HEADER_PREFIX}WEBHOOK-SIGNATURE`]: webhookSignature(WEBHOOK_SECRET, ts, body),
							[`${HEADER_PREFIX}WEBHOOK-EVENT`]: 'order.created',
						};
			const t0 = performance.now();
			const res = await request(url, { method: 'POST', body, headers, dispatcher: agent, headersTimeout: 60_000, bodyTimeout: 60_000 });
			await res.body.text();
			latenciesMs.push(performance.now() - t0);
			statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
			stopped ||= !onProgress(latenciesMs.length);
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	const seconds = (performance.now() - started) / 1000;
	await agent.close();
	return { seconds, latenciesMs, statuses };
}

const percentile = (values: number[], p: number) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The n8n processes of one installation, as the bench needs them. */
interface Installation {
	/** (Re)starts the processes that take webhooks and run executions; resolves with the webhook URL base and the pids to watch. */
	fresh(): Promise<{ base: string; pids: Record<string, number> }>;
	executions(workflowId: string): Promise<number>;
	stop(): Promise<void>;
}

async function singleProcess(tarball: string, env: IDataObject): Promise<Installation> {
	const userFolder = path.join(STATE, 'bench-webhooks', 'single');
	rmSync(userFolder, { recursive: true, force: true });
	mkdirSync(userFolder, { recursive: true });
	await prepare(userFolder, {}, tarball);
	let n8n: { url: string; child: { pid: number }; stop(): Promise<void> } | undefined;
	const { rest } = n8nRest(() => n8n!.url);
	return {
		async fresh() {
			await n8n?.stop();
			n8n = await startN8n(userFolder, { port: await freePort(), extraEnv: env });
			if ((await rest('POST', '/owner/setup', OWNER)).status !== 200) await rest('POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
			return { base: n8n!.url, pids: { n8n: n8n!.child.pid } };
		},
		executions: (workflowId) => countExecutions(rest, workflowId),
		stop: async () => n8n?.stop(),
	};
}

async function queueMode(tarball: string, env: IDataObject): Promise<Installation> {
	const q = await startQueueInstallation({ extraEnv: env });
	await prepare(q.userFolder('main'), q.env, tarball);
	for (const name of ['worker', 'webhook']) installPackageInto(q.userFolder(name), tarball);
	await q.start('main');
	const { rest } = n8nRest(() => q.process('main').url);
	if ((await rest('POST', '/owner/setup', OWNER)).status !== 200) throw new Error('owner set-up failed');
	const webhookPort = await freePort();
	return {
		async fresh() {
			await Promise.all(['worker', 'webhook'].map((name) => q.process(name)?.stop()));
			const [worker, webhook] = await Promise.all([q.start('worker'), q.start('webhook', { port: webhookPort })]);
			return { base: webhook.url, pids: { main: q.process('main').child.pid, webhook: webhook.child.pid, worker: worker.child.pid } };
		},
		executions: (workflowId) => countExecutions(rest, workflowId),
		stop: () => q.stop(),
	};
}

/** Executions of a workflow that ended, once every one has ended (none new, running or waiting). */
async function countExecutions(rest: ReturnType<typeof n8nRest>['rest'], workflowId: string): Promise<number> {
	const count = async (status?: string) => {
		const filter = JSON.stringify(status ? { workflowId, status: [status] } : { workflowId });
		const res = await rest('GET', `/executions?filter=${encodeURIComponent(filter)}&limit=1`);
		if (res.status !== 200) throw new Error(`listing executions: ${res.status} ${JSON.stringify(res.json)}`);
		return res.json.data.count as number;
	};
	// Bounded: a run whose executions never all end reports what it found instead of waiting forever.
	const deadline = Date.now() + 10 * 60_000;
	for (let stable = 0, last = -1; ; ) {
		const [all, running] = await Promise.all([count(), count('running')]);
		stable = all === last && running === 0 ? stable + 1 : 0;
		last = all;
		if (stable >= 3) return all;
		if (Date.now() > deadline) {
			process.stderr.write(`executions of ${workflowId}: ${all}, ${running} still running after 10 minutes; counted as they are\n`);
			return all - running;
		}
		await sleep(1000);
	}
}

interface Result {
	mode: string;
	scenario: Scenario;
	n: number;
	/** Deliveries sent: n, or fewer when an n8n process passed RSS_LIMIT_MIB. */
	sent: number;
	perSecond: number;
	p50: number;
	p99: number;
	ok: number;
	executions: number;
	memory: Record<string, { before: MemorySample; half: MemorySample; peak: MemorySample; after: MemorySample }>;
}

async function runScenario(mode: string, inst: Installation, scenario: Scenario, n: number, memoryDir: string): Promise<Result> {
	const { base, pids } = await inst.fresh();
	const list = deliveries(n, `${scenario.slice(0, 4)}${Date.now().toString(36)}`);
	await sleep(2000);
	const snap = () => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, sample(memoryDir, pid)]));
	const before = snap();
	const peak = snap();
	let half = before;
	const watch = setInterval(() => {
		for (const [name, s] of Object.entries(snap())) if (s.rssMiB > peak[name].rssMiB) peak[name] = s;
	}, 250);
	process.stderr.write(`${mode}: ${SCENARIOS[scenario].label}: ${n} deliveries…\n`);
	const load = await send(`${base}/webhook/${SCENARIOS[scenario].path}`, scenario, list, (done) => {
		if (done === Math.floor(n / 2)) half = snap();
		return Object.values(peak).every((s) => s.rssMiB < RSS_LIMIT_MIB);
	});
	const sent = load.latenciesMs.length;
	const executions = await inst.executions(SCENARIOS[scenario].workflowId);
	clearInterval(watch);
	const after = snap();
	const memory = Object.fromEntries(Object.keys(pids).map((name) => [name, { before: before[name], half: half[name], peak: peak[name], after: after[name] }]));
	const ok = Object.entries(load.statuses).reduce((sum, [status, count]) => sum + (status.startsWith('2') ? count : 0), 0);
	return { mode, scenario, n, sent, perSecond: sent / load.seconds, p50: percentile(load.latenciesMs, 50), p99: percentile(load.latenciesMs, 99), ok, executions, memory };
}

const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mem = (s: MemorySample) => `${fmt(s.rssMiB)}${s.heapUsedMiB === undefined ? '' : ` (heap ${s.heapUsedMiB}, ext ${s.externalMiB})`}`;

/** Each trigger scenario against the Webhook node of the same mode and engine, by the targets of issue #27. */
export function comparisons(results: Result[]) {
	const peakRise = (r: Result) => Math.max(...Object.values(r.memory).map((m) => m.peak.rssMiB - m.before.rssMiB));
	const secondHalf = (r: Result) => Math.max(...Object.values(r.memory).map((m) => m.peak.rssMiB - m.half.rssMiB));
	return results
		.filter((ours) => ours.scenario !== 'webhook')
		.flatMap((ours) => {
			const ref = results.find((r) => r.mode === ours.mode && r.scenario === 'webhook');
			if (!ref) return [];
			const throughput = ours.perSecond / ref.perSecond;
			const p99 = ours.p99 / ref.p99;
			const peak = Math.max(...Object.keys(ours.memory).map((p) => ours.memory[p].peak.rssMiB / ref.memory[p].peak.rssMiB));
			const checks = [
				{ name: 'throughput', text: `throughput ${fmt(throughput, 2)}x`, target: '>= 0.8x', met: throughput >= 0.8 },
				{ name: 'p99', text: `p99 ${fmt(p99, 2)}x`, target: '<= 1.5x', met: p99 <= 1.5 },
				{ name: 'peak RSS', text: `peak RSS ${fmt(peak, 2)}x`, target: '<= 1.5x', met: peak <= 1.5 },
				{
					name: 'growth',
					text: `RSS growth in the second half ${fmt(secondHalf(ours))} MiB (Webhook node ${fmt(secondHalf(ref))} MiB; whole run ${fmt(peakRise(ours))} MiB)`,
					target: 'flat: at most 1.5x the Webhook node\'s or 64 MiB',
					met: secondHalf(ours) <= Math.max(64, 1.5 * secondHalf(ref)),
				},
				{
					name: 'executions',
					text: `executions ${ours.executions} of ${ours.sent} and ${ref.executions} of ${ref.sent}`,
					target: 'exactly one per delivery sent',
					met: ours.executions === ours.sent && ref.executions === ref.sent,
				},
			];
			return [{ mode: ours.mode, scenario: ours.scenario, label: SCENARIOS[ours.scenario].label, ours, ref, checks }];
		});
}

/** The table and the target lines of one mode. */
export function report(results: Result[]): string[] {
	const lines = [
		'| mode | scenario | N | deliveries/s | p50 ms | p99 ms | 2xx | executions | process | RSS MiB before | at N/2 | peak | after |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|---|',
	];
	for (const r of results) {
		for (const [name, m] of Object.entries(r.memory)) {
			lines.push(
				`| ${r.mode} | ${SCENARIOS[r.scenario].label} | ${r.sent === r.n ? r.n : `${r.sent} of ${r.n} (stopped: RSS over ${RSS_LIMIT_MIB} MiB)`} | ${fmt(r.perSecond, 1)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.ok} | ${r.executions} | ${name} | ${mem(m.before)} | ${mem(m.half)} | ${mem(m.peak)} | ${mem(m.after)} |`,
			);
		}
	}
	for (const c of comparisons(results)) {
		lines.push(`${c.mode}, ${SCENARIOS[c.scenario].label} vs the Webhook node: ${c.checks.map((k) => `${k.text} (${k.target}: ${k.met ? 'met' : 'MISSED'})`).join('; ')}`);
	}
	return lines;
}

/** Runs the bench; `bench/run.ts` calls it with a small N. */
export async function runWebhooksBench({ n, modes, engines }: { n: number; modes: Array<'single' | 'queue'>; engines: string[] }): Promise<{ lines: string[]; results: Result[] }> {
	provision();
	const tarball = packPackage();
	const memoryDir = path.join(STATE, 'bench-webhooks', 'memory');
	rmSync(memoryDir, { recursive: true, force: true });
	mkdirSync(memoryDir, { recursive: true });
	const results: Result[] = [];
	for (const mode of modes) {
		for (const engine of engines) {
			const env = { NODE_OPTIONS: `--require ${MEMORY_PRELOAD}`, BENCH_MEMORY_DIR: memoryDir, N8N_EXPRESSION_ENGINE: engine };
			const inst = mode === 'single' ? await singleProcess(tarball, env) : await queueMode(tarball, env);
			try {
				for (const scenario of ['webhook', 'triggerEmpty', 'triggerFull'] as Scenario[]) results.push(await runScenario(`${mode}, ${engine}`, inst, scenario, n, memoryDir));
			} finally {
				await inst.stop();
			}
		}
	}
	return { lines: report(results), results };
}

if (require.main === module) {
	const n = Number(option('n') ?? (process.argv.includes('--quick') ? 500 : 5000));
	const modes = process.argv.includes('--single') ? ['single' as const] : process.argv.includes('--queue') ? ['queue' as const] : ['single' as const, 'queue' as const];
	const engines = (option('engine') ?? 'vm').split(',');
	runWebhooksBench({ n, modes, engines })
		.then(({ lines, results }) => {
			process.stdout.write(`${lines.join('\n')}\n`);
			mkdirSync(path.join(__dirname, 'results'), { recursive: true });
			writeFileSync(path.join(__dirname, 'results', 'webhooks.json'), JSON.stringify({ at: new Date().toISOString(), concurrency: CONCURRENCY, results }, null, 2));
			process.exit(0);
		})
		.catch((error) => {
			process.stderr.write(`${error.stack ?? error}\n`);
			process.exit(1);
		});
}
