/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-require-imports -- benchmark code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Runs one scenario of the node in a fresh process and reports its memory: resident set size
// after start-up, the peak during the run, and the size of the output it returned.
import './common';
import { loadHarness, type SandboxInfo } from './common';

async function main() {
	const [scenario, sandboxJson, countText] = process.argv.slice(2);
	const sandbox = JSON.parse(sandboxJson) as SandboxInfo;
	const count = Number(countText);
	const { credentialsFor, runNode } = await loadHarness();
	const app = sandbox.apps.find((a) => a.name === 'seller-a-full')!;
	const credentials = credentialsFor(sandbox.baseUrl, app);
	// Warm up: load and run the engine once, so the baseline holds the code, not the data.
	await runNode({ parameters: { resource: 'connection', operation: 'ping' }, credentials });
	global.gc?.();
	const baselineRss = process.memoryUsage().rss;
	const baselineHeap = process.memoryUsage().heapUsed;
	const peakBefore = process.resourceUsage().maxRSS * 1024;
	const started = performance.now();
	let result;
	let stateBytes = 0;
	if (scenario === 'pull') {
		result = await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true }, credentials });
	} else if (scenario === 'catchup') {
		// The Orders Trigger's first activation with Start From before every change: one poll emits them all.
		const { PollHarness } = await import('../test/helpers/poll');
		const { MarketplacePartnerOrdersTrigger } = require('../dist/nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node.js');
		const poller = new PollHarness({ events: ['order.created', 'order.updated'], options: { startFrom: '2026-07-01T00:00:00Z' } }, credentials, new MarketplacePartnerOrdersTrigger());
		const outcome = await poller.activate();
		result = { error: outcome.error, items: (outcome.items ?? []).map((json) => ({ json })) };
		stateBytes = Buffer.byteLength(JSON.stringify(poller.saved));
	} else {
		const products = JSON.parse(process.argv[5]) as number[];
		const items = Array.from({ length: count }, (_, i) => ({ product_id: products[i % products.length], stock: i % 500 }));
		result = await runNode({
			// A new node's default: columns mapped automatically from each row.
			parameters: { resource: 'stock', operation: 'update' },
			items,
			credentials,
			typeVersion: 2,
		});
	}
	const seconds = (performance.now() - started) / 1000;
	// The peak is read before anything else is allocated here (the output's size below needs a copy).
	const peakRss = Math.max(process.resourceUsage().maxRSS * 1024, peakBefore);
	if (result.error || result.items.length !== count) throw new Error(`unexpected result: ${result.error?.message ?? result.items.length}`);
	// What stays alive while the output is held, once garbage is collected.
	global.gc?.();
	const liveHeap = process.memoryUsage().heapUsed - baselineHeap;
	let outputBytes = 0;
	for (const item of result.items) outputBytes += Buffer.byteLength(JSON.stringify(item.json));
	process.stdout.write(`${JSON.stringify({ scenario, count, baselineRss, peakRss, liveHeap, outputBytes, stateBytes, seconds })}\n`);
}

main().then(
	() => process.exit(0),
	(error) => {
		process.stderr.write(`${error.stack}\n`);
		process.exit(1);
	},
);
