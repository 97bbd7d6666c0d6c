/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports -- benchmark code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm run bench [-- --quick] [-- --webhooks]`: our node against a raw signed undici client and against the
// do-it-yourself way, measured side by side in one run. Prints a table and writes
// bench/results/latest.json. --quick runs every scenario at a tenth of the size. --webhooks adds
// `npm run bench:webhooks` at 1,000 deliveries (100 with --quick), one n8n process on its defaults
// (a few minutes more; the full run is `npm run bench:webhooks`).
import './common';
import { spawnSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { computeWebhookSignature, readWebhook } from '../nodes/MarketplacePartnerTrigger/webhookSignature';
import { buildQueryString } from '../nodes/shared/transport/signing';
import { control, inTurns, loadHarness, median, pairedRatio, ratioText, signedHeaders, TABLE_HEAD, tableLine, type SandboxInfo, type TableRow } from './common';
import { runDiy } from './diy';
import { runRateLimitBench } from './rateLimit';
import { comparisons, runWebhooksBench } from './webhooks';
import { FLOOR_TYPE, floorNodeType, type FloorJob } from './floorNode';

const { startSandboxProcess } = require('../scripts/sandbox-process');

const quick = process.argv.includes('--quick');
const webhooks = process.argv.includes('--webhooks');
const FAULT_MIX = { rate429: 0.15, retryAfterSec: 1, rate5xx: 0.1, rateDrop: 0.05 };
const scale = quick ? 0.1 : 1;
const PULL_ORDERS = 10_000 * scale;
const SYNC_ROWS = 5_000 * scale;
const MEMORY_ORDERS = 100_000 * scale;
// Ratios are taken trial by trial (ours and the reference alternately), over REPS trials, each long
// enough (seconds) that the spread printed beside a ratio is small beside its 5 % target: a pull
// trial is PULL_ROUNDS pulls (one takes about 0.2 s).
const REPS = quick ? 3 : 7;
const PULL_ROUNDS = quick ? 2 : 10;
const SYNC_LATENCY_MS = 5;
const PAGE_SIZE = 100;
const CATCHUP_ORDERS = 10_000 * scale;

type App = SandboxInfo['apps'][number];

async function time<T>(fn: () => Promise<T>): Promise<{ seconds: number; result: T }> {
	const started = performance.now();
	const result = await fn();
	return { seconds: (performance.now() - started) / 1000, result };
}

/** The reference: a signed undici loop with keep-alive, the same page size, parsing every page. */
async function rawPull(sandbox: SandboxInfo, app: App, agent: Agent): Promise<number> {
	const orders: unknown[] = [];
	for (let offset = 0; ; offset += PAGE_SIZE) {
		const path = `/orders.php?${buildQueryString({ limit: PAGE_SIZE, offset })}`;
		const res = await request(`${sandbox.baseUrl}${path}`, {
			dispatcher: agent,
			headers: signedHeaders(app.clientId, app.clientSecret, 'GET', path),
		});
		const page = (await res.body.json()) as { data: { orders: unknown[]; pagination: { has_more: boolean } } };
		orders.push(...page.data.orders);
		if (!page.data.pagination.has_more) return orders.length;
	}
}

async function rawStockSync(sandbox: SandboxInfo, app: App, agent: Agent, rows: Array<{ product_id: number; stock: number }>, concurrency: number) {
	let next = 0;
	let ok = 0;
	const worker = async () => {
		while (next < rows.length) {
			const row = rows[next++];
			const body = JSON.stringify(row);
			const res = await request(`${sandbox.baseUrl}/stock_update.php`, {
				method: 'POST',
				dispatcher: agent,
				body,
				headers: signedHeaders(app.clientId, app.clientSecret, 'POST', '/stock_update.php', body),
			});
			await res.body.json();
			if (res.statusCode === 200) ok++;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	if (ok !== rows.length) throw new Error(`raw stock sync: ${ok} of ${rows.length} succeeded`);
}

function verifyBench(bytes: number, iterations: number) {
	const secret = 'whs_bench_secret_0123456789';
	const body = Buffer.alloc(bytes, 'a');
	const ts = String(Math.floor(Date.now() / 1000));
	const header = computeWebhookSignature(secret, ts, body).toString('hex');
	const ours = () =>
		readWebhook({ secrets: [secret], idHeader: 'whd_1', timestampHeader: ts, signatureHeader: header, rawBody: body, nowMs: Date.now(), toleranceSeconds: 300 }).rejection === undefined;
	// The bare reference still has to read the received header, as any verifier does.
	const bare = () => timingSafeEqual(createHmac('sha256', secret).update(`${ts}.`).update(body).digest(), Buffer.from(header, 'hex'));
	const measure = (fn: () => boolean) => {
		const started = process.hrtime.bigint();
		for (let i = 0; i < iterations; i++) if (!fn()) throw new Error('verification failed');
		return Number(process.hrtime.bigint() - started) / iterations;
	};
	const oursNs: number[] = [];
	const bareNs: number[] = [];
	for (let r = 0; r < 7; r++) {
		// Alternate the order so neither side always runs warm.
		if (r % 2) {
			bareNs.push(measure(bare));
			oursNs.push(measure(ours));
		} else {
			oursNs.push(measure(ours));
			bareNs.push(measure(bare));
		}
	}
	return { oursNs: median(oursNs), bareNs: median(bareNs), ratio: pairedRatio(oursNs, bareNs) };
}

function memoryChild(scenario: 'pull' | 'sync' | 'catchup', sandbox: SandboxInfo, count: number, products: number[] = []) {
	const result = spawnSync(
		process.execPath,
		['--expose-gc', '--import', 'tsx', path.join(__dirname, 'memory-child.ts'), scenario, JSON.stringify(sandbox), String(count), JSON.stringify(products)],
		{ encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
	);
	if (result.status !== 0) throw new Error(`memory child failed: ${result.stderr}`);
	return JSON.parse(result.stdout.trim().split('\n').pop()!) as { baselineRss: number; peakRss: number; liveHeap: number; outputBytes: number; stateBytes: number; seconds: number; count: number };
}

const fmt = (n: number, digits = 2) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The Concurrency default of Stock > Update, as the built node describes it to users. */
function defaultConcurrency(): number {
	const { MarketplacePartner } = require('../dist/nodes/MarketplacePartner/MarketplacePartner.node.js');
	const properties = new MarketplacePartner().description.properties as Array<{ name: string; displayOptions?: any; options?: any[] }>;
	const options = properties.find((p) => p.name === 'options' && p.displayOptions?.show?.operation?.includes('update'));
	return options!.options!.find((o: { name: string }) => o.name === 'concurrency').default;
}

async function main() {
	process.stderr.write('building the package…\n');
	const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: path.join(__dirname, '..'), stdio: ['ignore', 'ignore', 'inherit'] });
	if (build.status !== 0) throw new Error('npm run build failed');
	const { credentialsFor, runNode, registerNodeType } = await loadHarness();
	const DEFAULT_CONCURRENCY = defaultConcurrency();
	const products = Math.max(200, Math.ceil(SYNC_ROWS / 1.4));
	process.stderr.write(`starting the sandbox (${MEMORY_ORDERS} orders)…\n`);
	const sandbox = (await startSandboxProcess(['--port', '0', '--orders', String(MEMORY_ORDERS), '--products', String(products), '--quiet'])) as SandboxInfo & { stop(): Promise<void> };
	const app = sandbox.apps.find((a) => a.name === 'seller-a-full')!;
	const credentials = credentialsFor(sandbox.baseUrl, app);
	const agent = new Agent({ connections: 16, keepAliveTimeout: 30_000 });
	const results: Record<string, any> = { quick, machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version }, at: new Date().toISOString() };
	try {
		// 1. Pull: the sandbox holds MEMORY_ORDERS orders; the pull reads PULL_ORDERS of them through
		// a status-free limit walk, so both sides fetch exactly the same pages.
		process.stderr.write(`pull of ${PULL_ORDERS} orders, ${REPS} repetitions each…\n`);
		const nodePull: number[] = [];
		const rawPullTimes: number[] = [];
		const floorPull: number[] = [];
		const floor = async (job: Omit<FloorJob, 'baseUrl' | 'clientId' | 'clientSecret'>, expected: number) => {
			registerNodeType(FLOOR_TYPE, floorNodeType({ ...job, baseUrl: sandbox.baseUrl, clientId: app.clientId, clientSecret: app.clientSecret }));
			const run = await time(() => runNode({ type: FLOOR_TYPE, parameters: {}, credentials, items: [{}] }));
			if (run.result.items.length !== expected) throw new Error(`floor: ${run.result.error?.message ?? run.result.items.length}`);
			return run.seconds;
		};
		await control(sandbox, 'POST', '/reset', { orders: PULL_ORDERS, products });
		const pullSteps = (trial: { node: number; raw: number; floor: number }) => [
			async () => {
				const node = await time(() => runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true }, credentials }));
				if (node.result.items.length !== PULL_ORDERS) throw new Error(`node pulled ${node.result.items.length}`);
				trial.node += node.seconds;
			},
			async () => {
				const raw = await time(() => rawPull(sandbox, app, agent));
				if (raw.result !== PULL_ORDERS) throw new Error(`raw pulled ${raw.result}`);
				trial.raw += raw.seconds;
			},
			async () => (trial.floor += await floor({ mode: 'pull' }, PULL_ORDERS)),
		];
		// A round unmeasured first: the first runs of each side pay for compiling their code.
		await inTurns(0, pullSteps({ node: 0, raw: 0, floor: 0 }));
		for (let r = 0; r < REPS; r++) {
			const trial = { node: 0, raw: 0, floor: 0 };
			for (let round = 0; round < PULL_ROUNDS; round++) await inTurns(r + round, pullSteps(trial));
			// Seconds per pull, averaged over the trial's rounds.
			nodePull.push(trial.node / PULL_ROUNDS);
			rawPullTimes.push(trial.raw / PULL_ROUNDS);
			floorPull.push(trial.floor / PULL_ROUNDS);
		}
		results.pull = {
			orders: PULL_ORDERS,
			nodeSeconds: median(nodePull),
			undiciSeconds: median(rawPullTimes),
			n8nHelperFloorSeconds: median(floorPull),
			ratio: pairedRatio(nodePull, rawPullTimes),
			ratioToN8nFloor: pairedRatio(nodePull, floorPull),
		};

		// 2. Stock sync with 5 ms added latency per request.
		process.stderr.write(`stock sync of ${SYNC_ROWS} rows at ${SYNC_LATENCY_MS} ms latency…\n`);
		const productList: Array<{ product_id: number; variant_combination_ids: number[] }> = await control(sandbox, 'GET', '/products?sellerId=1001');
		const simple = productList.filter((p) => !p.variant_combination_ids.length).map((p) => p.product_id);
		const rows = Array.from({ length: SYNC_ROWS }, (_, i) => ({ product_id: simple[i % simple.length], stock: i % 500 }));
		await control(sandbox, 'POST', '/faults', { latencyMs: SYNC_LATENCY_MS });
		const nodeDefault: number[] = [];
		const nodeSequential: number[] = [];
		const rawSync: number[] = [];
		const floorSync: number[] = [];
		const nodeSync = (concurrency: number) =>
			time(async () => {
				// A new node's default: columns mapped automatically from each row, no expression per row.
				const run = await runNode({
					parameters: { resource: 'stock', operation: 'update', options: { concurrency } },
					items: rows,
					credentials,
					typeVersion: 2,
				});
				if (run.error || run.items.length !== rows.length) throw new Error(`node sync: ${run.error?.message ?? run.items.length}`);
			});
		// One unmeasured trial of each side at the default concurrency first (compiling their code).
		await nodeSync(DEFAULT_CONCURRENCY);
		await rawStockSync(sandbox, app, agent, rows, DEFAULT_CONCURRENCY);
		await floor({ mode: 'sync', rows, concurrency: DEFAULT_CONCURRENCY }, rows.length);
		for (let r = 0; r < REPS; r++) {
			await inTurns(r, [
				async () => nodeDefault.push((await nodeSync(DEFAULT_CONCURRENCY)).seconds),
				async () => rawSync.push((await time(() => rawStockSync(sandbox, app, agent, rows, DEFAULT_CONCURRENCY))).seconds),
				async () => floorSync.push(await floor({ mode: 'sync', rows, concurrency: DEFAULT_CONCURRENCY }, rows.length)),
			]);
			// Sequential takes some 40 s a trial, and its target (4x) is far from its measure: three trials.
			if (r < 3) nodeSequential.push((await nodeSync(1)).seconds);
		}
		await control(sandbox, 'POST', '/faults/reset');
		const rate = (seconds: number) => SYNC_ROWS / seconds;
		results.stockSync = {
			rows: SYNC_ROWS,
			latencyMs: SYNC_LATENCY_MS,
			concurrency: DEFAULT_CONCURRENCY,
			nodeDefaultRowsPerSecond: rate(median(nodeDefault)),
			nodeSequentialRowsPerSecond: rate(median(nodeSequential)),
			undiciRowsPerSecond: rate(median(rawSync)),
			n8nHelperFloorRowsPerSecond: rate(median(floorSync)),
			speedup: pairedRatio(nodeSequential, nodeDefault.slice(0, nodeSequential.length)),
			ratio: pairedRatio(nodeDefault, rawSync),
			ratioToN8nFloor: pairedRatio(nodeDefault, floorSync),
		};

		// 2b. The same sync under issue 14's fault mix: 15 % 429 (Retry-After 1 s), 10 % 503, 5 % dropped.
		process.stderr.write(`stock sync of ${SYNC_ROWS} rows under the fault mix…\n`);
		await control(sandbox, 'POST', '/faults', { latencyMs: SYNC_LATENCY_MS, ...FAULT_MIX });
		const faultMix: number[] = [];
		for (let r = 0; r < (quick ? 1 : 2); r++) faultMix.push((await nodeSync(DEFAULT_CONCURRENCY)).seconds);
		await control(sandbox, 'POST', '/faults/reset');
		results.stockSyncFaultMix = {
			rows: SYNC_ROWS,
			faults: FAULT_MIX,
			nodeRowsPerSecond: rate(median(faultMix)),
			cleanRowsPerSecond: rate(median(nodeDefault)),
			slowdown: median(faultMix) / median(nodeDefault),
		};

		// 3. Webhook verification.
		process.stderr.write('webhook verification…\n');
		const v1k = verifyBench(1024, quick ? 5_000 : 50_000);
		const v1m = verifyBench(1024 * 1024, quick ? 50 : 300);
		results.verify = { ratio1k: v1k.ratio, ratio1m: v1m.ratio, ns1k: { ours: v1k.oursNs, bare: v1k.bareNs }, ns1m: { ours: v1m.oursNs, bare: v1m.bareNs } };

		// 4. Memory, each in a fresh process: Return All at a tenth and at the full size (growth), and the sync.
		process.stderr.write(`memory: Return All of ${MEMORY_ORDERS / 10} and ${MEMORY_ORDERS} orders, stock sync of ${SYNC_ROWS} rows…\n`);
		await control(sandbox, 'POST', '/reset', { orders: MEMORY_ORDERS / 10, products });
		const tenth = memoryChild('pull', sandbox, MEMORY_ORDERS / 10);
		await control(sandbox, 'POST', '/reset', { orders: MEMORY_ORDERS, products });
		const big = memoryChild('pull', sandbox, MEMORY_ORDERS);
		const sync = memoryChild('sync', sandbox, SYNC_ROWS, simple);
		const perOrder = (m: typeof big) => (m.peakRss - m.baselineRss) / m.count;
		results.memory = {
			pullOrders: MEMORY_ORDERS,
			pullPeakBytesPerOrder: perOrder(big),
			pullPeakBytesPerOrderAtTenth: perOrder(tenth),
			pullLiveBytesPerOrder: big.liveHeap / big.count,
			pullLiveBytesPerOrderAtTenth: tenth.liveHeap / tenth.count,
			outputBytesPerOrder: big.outputBytes / big.count,
			pullPeakRssMiB: big.peakRss / 2 ** 20,
			pullBaselineRssMiB: big.baselineRss / 2 ** 20,
			syncRows: SYNC_ROWS,
			syncPeakRssMiB: sync.peakRss / 2 ** 20,
			syncPeakBytesPerRow: (sync.peakRss - sync.baselineRss) / SYNC_ROWS,
			syncLiveBytesPerRow: sync.liveHeap / SYNC_ROWS,
		};

		// 5. The Orders Trigger (polling): what a poll costs when nothing changed, in requests, and
		// the memory of catching up on many changed orders, at a tenth and at the full size.
		process.stderr.write(`orders trigger: quiet polls, catch-up of ${CATCHUP_ORDERS / 10} and ${CATCHUP_ORDERS} changed orders…\n`);
		await control(sandbox, 'POST', '/reset', { orders: PULL_ORDERS, products });
		const { PollHarness } = await import('../test/helpers/poll');
		const { MarketplacePartnerOrdersTrigger } = require('../dist/nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node.js');
		const poller = new PollHarness({ events: ['order.created', 'order.updated'] }, credentials, new MarketplacePartnerOrdersTrigger());
		await poller.activate();
		await control(sandbox, 'POST', '/changes', { changes: { newOrders: 20 } });
		if ((await poller.poll()).items?.length !== 20) throw new Error('orders trigger: the 20 changes did not come out');
		const quietPolls = 10;
		await control(sandbox, 'POST', '/stats/reset');
		for (let i = 0; i < quietPolls; i++) if ((await poller.poll()).items !== null) throw new Error('orders trigger: a quiet poll emitted');
		const listRequests = (await control(sandbox, 'GET', '/stats')).requests;
		const catchUp = async (count: number) => {
			await control(sandbox, 'POST', '/reset', { orders: 1000, products });
			await control(sandbox, 'POST', '/changes', { changes: { newOrders: Math.min(count, 1000) } });
			for (let made = 1000; made < count; made += 1000) await control(sandbox, 'POST', '/changes', { changes: { newOrders: Math.min(1000, count - made) } });
			await control(sandbox, 'POST', '/stats/reset');
			const measured = memoryChild('catchup', sandbox, count);
			return { ...measured, requests: (await control(sandbox, 'GET', '/stats')).requests };
		};
		const catchTenth = await catchUp(CATCHUP_ORDERS / 10);
		const catchFull = await catchUp(CATCHUP_ORDERS);
		results.ordersTrigger = {
			quietPolls,
			requestsPerQuietPoll: listRequests / quietPolls,
			catchUpOrders: CATCHUP_ORDERS,
			catchUpRequests: catchFull.requests,
			catchUpSeconds: catchFull.seconds,
			catchUpPeakBytesPerOrder: (catchFull.peakRss - catchFull.baselineRss) / CATCHUP_ORDERS,
			catchUpPeakBytesPerOrderAtTenth: (catchTenth.peakRss - catchTenth.baselineRss) / catchTenth.count,
			catchUpLiveBytesPerOrder: catchFull.liveHeap / CATCHUP_ORDERS,
			catchUpLiveBytesPerOrderAtTenth: catchTenth.liveHeap / catchTenth.count,
			stateBytesPerOrder: catchFull.stateBytes / CATCHUP_ORDERS,
		};

		// 6. The do-it-yourself way in the real n8n, where it is installed.
		process.stderr.write('do-it-yourself workflows in real n8n (where installed)…\n');
		await control(sandbox, 'POST', '/reset', { orders: PULL_ORDERS, products });
		const diy = await runDiy({ sandbox, app, rows, pullOrders: PULL_ORDERS, latencyMs: SYNC_LATENCY_MS, reps: quick ? 1 : 2 });
		if (diy) results.diy = diy;
	} finally {
		await agent.close();
		await sandbox.stop();
	}
	// 7. Against a rate limit, on a sandbox of its own (bench/rateLimit.ts).
	const rateLimit = await runRateLimitBench({ quick });
	results.rateLimit = rateLimit.results;
	// 8. The trigger inside the real n8n under a burst of deliveries (bench/webhooks.ts).
	const webhookRun = webhooks ? await runWebhooksBench({ n: quick ? 100 : 1000, modes: ['single'] }) : undefined;
	results.webhooks = webhookRun?.results;

	mkdirSync(path.join(__dirname, 'results'), { recursive: true });
	writeFileSync(path.join(__dirname, 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
	const p = results.pull;
	const s = results.stockSync;
	const m = results.memory;
	const t = results.ordersTrigger;
	const f = results.stockSyncFaultMix;
	const v = results.verify;
	const rows: TableRow[] = [
		{ scenario: `Pull ${p.orders} orders (Return All)`, ours: `${fmt(p.nodeSeconds)} s`, reference: `undici ${fmt(p.undiciSeconds)} s`, ratio: ratioText(p.ratio), target: '≤ 1.25x', met: p.ratio.ratio <= 1.25 },
		{ scenario: "Pull: n8n's own HTTP helper, same pages (the floor for any node)", ours: `${fmt(p.nodeSeconds)} s`, reference: `floor ${fmt(p.n8nHelperFloorSeconds)} s`, ratio: ratioText(p.ratioToN8nFloor), target: '≤ 1.05x', met: p.ratioToN8nFloor.ratio <= 1.05 },
		{ scenario: `Stock sync ${s.rows} rows (columns mapped automatically), ${s.latencyMs} ms latency, concurrency ${s.concurrency}`, ours: `${fmt(s.nodeDefaultRowsPerSecond, 0)} rows/s`, reference: `undici ${fmt(s.undiciRowsPerSecond, 0)} rows/s`, ratio: ratioText(s.ratio, 'x time'), target: '≤ 1.5x', met: s.ratio.ratio <= 1.5 },
		{ scenario: "Stock sync: n8n's own HTTP helper, same concurrency (the floor)", ours: `${fmt(s.nodeDefaultRowsPerSecond, 0)} rows/s`, reference: `floor ${fmt(s.n8nHelperFloorRowsPerSecond, 0)} rows/s`, ratio: ratioText(s.ratioToN8nFloor, 'x time'), target: '≤ 1.05x', met: s.ratioToN8nFloor.ratio <= 1.05 },
		{ scenario: 'Stock sync: default concurrency vs sequential', ours: `${fmt(s.nodeDefaultRowsPerSecond, 0)} rows/s`, reference: `sequential ${fmt(s.nodeSequentialRowsPerSecond, 0)} rows/s`, ratio: ratioText(s.speedup, 'x faster'), target: '≥ 4x', met: s.speedup.ratio >= 4 },
		{ scenario: 'Stock sync under the fault mix (15 % 429 with Retry-After 1 s, 10 % 503, 5 % dropped), all rows applied', ours: `${fmt(f.nodeRowsPerSecond, 0)} rows/s`, reference: `no faults ${fmt(f.cleanRowsPerSecond, 0)} rows/s`, ratio: `${fmt(f.slowdown)}x time`, target: '(report)' },
		{ scenario: 'Verify 1 KB webhook', ours: `${fmt(v.ns1k.ours / 1000)} µs`, reference: `bare HMAC ${fmt(v.ns1k.bare / 1000)} µs`, ratio: ratioText(v.ratio1k), target: '≤ 1.1x', met: v.ratio1k.ratio <= 1.1 },
		{ scenario: 'Verify 1 MB webhook', ours: `${fmt(v.ns1m.ours / 1000)} µs`, reference: `bare HMAC ${fmt(v.ns1m.bare / 1000)} µs`, ratio: ratioText(v.ratio1m), target: '≤ 1.1x', met: v.ratio1m.ratio <= 1.1 },
		{ scenario: `Memory: Return All ${m.pullOrders} orders`, ours: `${fmt(m.pullPeakBytesPerOrder, 0)} B/order peak (${fmt(m.pullPeakRssMiB, 0)} MiB)`, reference: `${fmt(m.pullPeakBytesPerOrderAtTenth, 0)} B/order at a tenth; output ${fmt(m.outputBytesPerOrder, 0)} B/order`, ratio: `growth ${fmt(m.pullPeakBytesPerOrder / m.pullPeakBytesPerOrderAtTenth)}x`, target: 'linear (the live heap decides)' },
		{ scenario: 'Memory: Return All, live heap after GC with the output held', ours: `${fmt(m.pullLiveBytesPerOrder, 0)} B/order`, reference: `${fmt(m.pullLiveBytesPerOrderAtTenth, 0)} B/order at a tenth`, ratio: `growth ${fmt(m.pullLiveBytesPerOrder / m.pullLiveBytesPerOrderAtTenth)}x`, target: 'linear (growth ≤ 1.25x)', met: m.pullLiveBytesPerOrder / m.pullLiveBytesPerOrderAtTenth <= 1.25 },
		{ scenario: 'Orders Trigger: a poll when nothing changed', ours: `${fmt(t.requestsPerQuietPoll)} requests`, reference: '1 request', ratio: `${fmt(t.requestsPerQuietPoll)}x`, target: '1 request', met: t.requestsPerQuietPoll <= 1 },
		{ scenario: `Orders Trigger: catch up ${t.catchUpOrders} changed orders, peak`, ours: `${fmt(t.catchUpPeakBytesPerOrder, 0)} B/order (${t.catchUpRequests} requests, ${fmt(t.catchUpSeconds)} s)`, reference: `${fmt(t.catchUpPeakBytesPerOrderAtTenth, 0)} B/order at a tenth`, ratio: `growth ${fmt(t.catchUpPeakBytesPerOrder / t.catchUpPeakBytesPerOrderAtTenth)}x`, target: 'linear (the live heap decides)' },
		{ scenario: 'Orders Trigger: catch-up, live heap after GC with the output held', ours: `${fmt(t.catchUpLiveBytesPerOrder, 0)} B/order (state ${fmt(t.stateBytesPerOrder, 0)} B/order)`, reference: `${fmt(t.catchUpLiveBytesPerOrderAtTenth, 0)} B/order at a tenth`, ratio: `growth ${fmt(t.catchUpLiveBytesPerOrder / t.catchUpLiveBytesPerOrderAtTenth)}x`, target: 'linear (growth ≤ 1.25x)', met: t.catchUpLiveBytesPerOrder / t.catchUpLiveBytesPerOrderAtTenth <= 1.25 },
		{ scenario: `Memory: stock sync ${m.syncRows} rows`, ours: `${fmt(m.syncPeakRssMiB, 0)} MiB peak, ${fmt(m.syncPeakBytesPerRow, 0)} B/row`, reference: `live ${fmt(m.syncLiveBytesPerRow, 0)} B/row after GC`, ratio: '' },
	];
	if (results.diy) {
		const d = results.diy;
		rows.push(
			{ scenario: `Real n8n: stock sync ${d.rows} rows, our node (Map Automatically, default Concurrency ${DEFAULT_CONCURRENCY}) vs HTTP Request + Code signing`, ours: `${fmt(d.nodeSyncSeconds)} s`, reference: `DIY ${fmt(d.diySyncSeconds)} s`, ratio: `${fmt(d.stockSyncSpeedup)}x faster`, target: '≥ 2x', met: d.stockSyncSpeedup >= 2 },
			{ scenario: `Real n8n: stock sync ${d.rows} rows, our node (Map Automatically) at Concurrency 8 vs HTTP Request + Code signing`, ours: `${fmt(d.nodeSync8Seconds)} s`, reference: `DIY ${fmt(d.diySyncSeconds)} s`, ratio: `${fmt(d.stockSyncSpeedup8)}x faster`, target: '(the former default)' },
			{ scenario: `Real n8n: stock sync ${d.rows} rows, our node v1 (an expression per field) vs HTTP Request + Code signing`, ours: `${fmt(d.nodeV1SyncSeconds)} s`, reference: `DIY ${fmt(d.diySyncSeconds)} s`, ratio: `${fmt(d.stockSyncSpeedupV1)}x faster`, target: '(before automatic mapping)' },
			{ scenario: `Real n8n: pull ${d.orders} orders, our node vs HTTP Request + Code signing`, ours: `${fmt(d.nodePullSeconds)} s`, reference: `DIY ${fmt(d.diyPullSeconds)} s`, ratio: `${fmt(d.pullSpeedup)}x faster`, target: '(report)' },
		);
	} else {
		rows.push({ scenario: 'Real n8n (do-it-yourself)', ours: 'not installed here: run `npm run provision` first', reference: '', ratio: '' });
	}
	rows.push(...rateLimit.rows);
	for (const c of webhookRun ? comparisons(webhookRun.results) : []) {
		for (const k of c.checks.filter((check) => check.name !== 'executions')) {
			rows.push({ scenario: `Real n8n, ${c.mode}: ${c.label}, ${c.ours.sent} deliveries at 20 concurrent: ${k.name}`, ours: k.text, reference: k.reference, ratio: '', target: k.target, met: k.met });
		}
	}
	const lines = [
		`Machine: ${results.machine.cpus} cores, ${results.machine.cpu}, ${results.machine.memoryGiB} GiB, Node ${results.machine.node}${quick ? ' (quick: a tenth of the size)' : ''}`,
		'',
		...TABLE_HEAD,
		...rows.map(tableLine),
	];
	process.stdout.write(`${lines.join('\n')}\n\nWritten to bench/results/latest.json\n`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
