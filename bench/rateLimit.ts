/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- benchmark code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm run bench:rate-limit [-- --quick]` (also part of `npm run bench`): a stock sync against the
// sandbox limited to R = 50 requests/s per client, bursts of 10. Our node (built package, n8n's
// engine in-process), with and without Retry-After: sustained rows/s as a ratio to R (target
// ≥ 0.9), rows lost or failed (target 0). The do-it-yourself workflow in the real n8n (where
// provisioned): HTTP Request with its defaults (its failed rows), and with Batching tuned by hand
// (its time). The sandbox's own count of applied updates is the witness, not the workflows' output.
import './common';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { control, loadHarness, TABLE_HEAD, tableLine, type SandboxInfo, type TableRow } from './common';
import { node, rowsCode, signCode, signedHeaders, start, workflow } from './diy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandboxProcess } = require('../scripts/sandbox-process');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isProvisioned, installPackageInto, n8nCommand, parseRawOutput } = require('../scripts/lib');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { importCredential } = require('../scripts/workspace');

export const RATE = 50;
export const BURST = 10;
const TARGET_RATIO = 0.9;
// Hand-tuned Batching: a burst's worth per batch, then as long as the bucket takes to refill it.
const DIY_BATCH = { batchSize: BURST, batchInterval: Math.ceil((BURST / RATE) * 1000) + 20 };

type Sandbox = SandboxInfo & { stop(): Promise<void> };
type Row = { product_id: number; stock: number };

const fmt = (n: number, digits = 2) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Rows over distinct simple products: each row's effect is visible in the sandbox's state on its own. */
async function sheet(sandbox: SandboxInfo, count: number, base: number): Promise<Row[]> {
	const products: Array<{ product_id: number; variant_combination_ids: number[] }> = await control(sandbox, 'GET', '/products?sellerId=1001');
	const simple = products.filter((p) => !p.variant_combination_ids.length).map((p) => p.product_id);
	if (simple.length < count) throw new Error(`only ${simple.length} simple products for ${count} rows`);
	return simple.slice(0, count).map((product_id, i) => ({ product_id, stock: base + i }));
}

/** Rows whose stock in the sandbox is not the row's value: lost or failed, whatever the output said. */
async function wrongRows(sandbox: SandboxInfo, rows: Row[]): Promise<number> {
	const products: Array<{ product_id: number; stock: number }> = await control(sandbox, 'GET', '/products?sellerId=1001');
	const stock = new Map(products.map((p) => [p.product_id, p.stock]));
	return rows.filter((r) => stock.get(r.product_id) !== r.stock).length;
}

async function ourNode(sandbox: Sandbox, rows: Row[], retryAfter: boolean) {
	const { credentialsFor, runNode } = await loadHarness();
	const app = sandbox.apps.find((a) => a.name === 'seller-a-full')!;
	await control(sandbox, 'POST', '/rate-limit', { rate: RATE, burst: BURST, retryAfter });
	await control(sandbox, 'POST', '/stats/reset');
	const started = performance.now();
	const run = await runNode({
		// A new node's default: columns mapped automatically. (Version 1 evaluates an expression per
		// field and row before it sends anything: that time is n8n's, not the rate limit's.)
		parameters: { resource: 'stock', operation: 'update', options: {} },
		typeVersion: 2,
		items: rows,
		credentials: credentialsFor(sandbox.baseUrl, app),
	});
	const seconds = (performance.now() - started) / 1000;
	const stats = await control(sandbox, 'GET', '/stats');
	await control(sandbox, 'POST', '/rate-limit', { rate: 0 });
	const wrong = await wrongRows(sandbox, rows);
	return {
		retryAfter,
		seconds,
		rowsPerSecond: (rows.length - wrong) / seconds,
		ratioToR: (rows.length - wrong) / seconds / RATE,
		lostOrFailed: wrong,
		error: run.error?.message ?? null,
		rateLimited: stats.byCode.rate_limited ?? 0,
	};
}

async function diy(sandbox: Sandbox, rows: Row[]) {
	if (!isProvisioned()) return null;
	const app = sandbox.apps.find((a) => a.name === 'seller-a-full')!;
	const userFolder = mkdtempSync(path.join(tmpdir(), 'n8n-partner-ratelimit-'));
	try {
		installPackageInto(userFolder);
		const importDir = await importCredential(userFolder, sandbox, app);
		const http = (options: object) =>
			node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, 600, {
				method: 'POST', url: `${sandbox.baseUrl}/stock_update.php`, ...signedHeaders(app),
				sendBody: true, contentType: 'raw', rawContentType: 'application/json', body: '={{ $json.body }}', options,
			});
		const sign = () => node('Sign', 'n8n-nodes-base.code', 2, 400, { jsCode: signCode(app, 'POST', "'/stock_update.php'", 'JSON.stringify({ product_id: item.json.product_id, stock: item.json.stock })') });
		const cases: Array<{ key: 'defaults' | 'batching'; wf: ReturnType<typeof workflow> }> = [
			{ key: 'defaults', wf: workflow('rateLimitDiyDefaults', [start(), rowsCode(rows), sign(), http({})]) },
			{ key: 'batching', wf: workflow('rateLimitDiyBatching', [start(), rowsCode(rows), sign(), http({ batching: { batch: DIY_BATCH } })]) },
		];
		const out = {} as Record<'defaults' | 'batching', { seconds: number; failedRows: number; error: string | null }>;
		for (const { key, wf } of cases) {
			const file = path.join(importDir, `${wf.id}.json`);
			writeFileSync(file, JSON.stringify(wf));
			await n8nCommand(userFolder, ['import:workflow', `--input=${file}`]);
			await control(sandbox, 'POST', '/reset', {});
			await control(sandbox, 'POST', '/rate-limit', { rate: RATE, burst: BURST, retryAfter: true });
			const started = performance.now();
			let seconds: number;
			let error: string | null = null;
			try {
				const result = parseRawOutput(await n8nCommand(userFolder, ['execute', `--id=${wf.id}`, '--rawOutput'], { NODE_FUNCTION_ALLOW_BUILTIN: 'crypto' }));
				error = result.data.resultData.error?.message ?? null;
				seconds = (Date.parse(result.stoppedAt) - Date.parse(result.startedAt)) / 1000;
			} catch (e) {
				// A failed execution makes `n8n execute` exit non-zero: its first line says why.
				error = String((e as Error).message).split('\n').find((l) => /429|too many|rate.limit/i.test(l))?.trim().slice(0, 160) ?? 'the execution failed';
				seconds = (performance.now() - started) / 1000;
			}
			await control(sandbox, 'POST', '/rate-limit', { rate: 0 });
			out[key] = { seconds, failedRows: await wrongRows(sandbox, rows), error };
		}
		return { batch: DIY_BATCH, ...out };
	} finally {
		rmSync(userFolder, { recursive: true, force: true });
	}
}

/** Runs the scenario on a sandbox of its own; returns its figures and the table rows it prints. */
export async function runRateLimitBench({ quick }: { quick: boolean }) {
	const rowsCount = quick ? 500 : 5000;
	const sandbox: Sandbox = await startSandboxProcess(['--port', '0', '--orders', '100', '--products', String(Math.ceil(rowsCount / 0.6)), '--quiet']);
	try {
		process.stderr.write(`rate limit ${RATE}/s, burst ${BURST}: our node on ${rowsCount} rows, with and without Retry-After…\n`);
		const withRetryAfter = await ourNode(sandbox, await sheet(sandbox, rowsCount, 1000), true);
		const withoutRetryAfter = await ourNode(sandbox, await sheet(sandbox, rowsCount, 20_000), false);
		process.stderr.write('rate limit: the do-it-yourself workflow in real n8n (where installed)…\n');
		const diyResult = await diy(sandbox, await sheet(sandbox, rowsCount, 40_000));
		const results = { rate: RATE, burst: BURST, rows: rowsCount, targetRatio: TARGET_RATIO, withRetryAfter, withoutRetryAfter, diy: diyResult };
		const ours = (r: typeof withRetryAfter): TableRow => ({
			scenario: `Rate limit ${RATE}/s burst ${BURST}, ${rowsCount} rows, ${r.retryAfter ? 'with' : 'without'} Retry-After: our node`,
			ours: `${fmt(r.rowsPerSecond, 1)} rows/s (${fmt(r.seconds, 1)} s, ${r.rateLimited} 429s)`,
			reference: `R = ${RATE}/s; ${r.lostOrFailed} rows lost or failed`,
			ratio: `${fmt(r.ratioToR)} R`,
			target: `≥ ${TARGET_RATIO} R, 0 lost`,
			met: r.ratioToR >= TARGET_RATIO && r.lostOrFailed === 0 && r.error === null,
		});
		const rows = [ours(withRetryAfter), ours(withoutRetryAfter)];
		if (diyResult) {
			const d = diyResult;
			rows.push(
				{ scenario: 'Rate limit: DIY HTTP Request, its defaults', ours: `${d.defaults.failedRows} of ${rowsCount} rows failed or not sent`, reference: d.defaults.error ?? 'no error', ratio: '', target: '(report)' },
				{
					scenario: `Rate limit: DIY HTTP Request, Batching ${d.batch.batchSize} per ${d.batch.batchInterval} ms by hand`,
					ours: `${fmt(d.batching.seconds, 1)} s, ${d.batching.failedRows} rows failed`,
					reference: `our node ${fmt(withRetryAfter.seconds, 1)} s`,
					ratio: `${fmt(rowsCount / d.batching.seconds / RATE)} R`,
					target: '(report)',
				},
			);
		} else rows.push({ scenario: 'Rate limit: DIY in real n8n', ours: 'not installed here: run `npm run provision` first', reference: '', ratio: '' });
		return { results, rows };
	} finally {
		await sandbox.stop();
	}
}

if (require.main === module) {
	runRateLimitBench({ quick: process.argv.includes('--quick') })
		.then(({ results, rows }) => {
			process.stdout.write(`${[...TABLE_HEAD, ...rows.map(tableLine)].join('\n')}\n\n${JSON.stringify(results)}\n`);
		})
		.catch((error) => {
			process.stderr.write(`${error.stack ?? error}\n`);
			process.exit(1);
		});
}
