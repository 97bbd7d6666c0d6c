// Retries and clock correction under the sandbox's injected faults, in the n8n engine.
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

describe('retries and clock correction', () => {
	let sb: RunningSandbox;
	let productIds: number[];
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
	const ping = { resource: 'connection', operation: 'ping' };
	const codes = async () => (await sb.control('GET', '/stats')).recent.map((r: { status: number; code: string | null }) => r.code ?? r.status);

	beforeAll(async () => {
		sb = await startSandbox();
		productIds = (await sb.control('GET', '/products?sellerId=1001'))
			.filter((p: { variant_combination_ids: number[] }) => !p.variant_combination_ids.length)
			.map((p: { product_id: number }) => p.product_id);
	});
	beforeEach(async () => {
		await sb.control('POST', '/faults/reset');
		await sb.control('POST', '/stats/reset');
	});
	afterAll(() => sb.close());

	test('429 (honouring Retry-After), 503 and dropped connections are retried until it works', async () => {
		await sb.control('POST', '/faults', { nextDrop: 1, next429: 1, retryAfterSec: 1, next5xx: 1 });
		const started = Date.now();
		const { items, error } = await runNode({ parameters: ping, credentials: credentials() });
		expect(error).toBeUndefined();
		expect(items[0].json.pong).toBe(true);
		expect(await codes()).toEqual(['dropped', 'rate_limited', 'service_unavailable', 200]);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // waited as Retry-After said
	});

	test('a stock sheet under 429s, 5xx and drops: every row applied once, none lost', async () => {
		await sb.control('POST', '/faults', { nextDrop: 3, next429: 3, retryAfterSec: 0, next5xx: 3, status5xx: 502 });
		const rows = productIds.slice(0, 12).map((product_id, i) => ({ product_id, stock: 40 + i }));
		const { items, error } = await runNode({
			parameters: { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}', options: { concurrency: 4 } },
			items: rows,
			credentials: credentials(),
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.new_stock)).toEqual(rows.map((r) => r.stock));
		for (const row of rows) expect((await sb.control('GET', `/products/${row.product_id}`)).stock).toBe(row.stock);
		const stats = await sb.control('GET', '/stats');
		expect(stats.byEndpoint['POST /stock_update.php 200']).toBe(12);
		expect(stats.byCode).toMatchObject({ dropped: 3, rate_limited: 3, service_unavailable: 3 });
	});

	test('retries are bounded: after 5 attempts the error says the API is unavailable', async () => {
		await sb.control('POST', '/faults', { next5xx: 10 });
		const { error } = await runNode({ parameters: ping, credentials: credentials() });
		expect(error?.message).toBe('The Partner API is temporarily unavailable');
		expect(await codes()).toEqual(Array(5).fill('service_unavailable'));
	});

	test('a Retry-After beyond a minute is not waited for: the error says so at once', async () => {
		await sb.control('POST', '/faults', { next429: 1, retryAfterSec: 3600 });
		const started = Date.now();
		const { error } = await runNode({ parameters: ping, credentials: credentials() });
		expect(error?.message).toBe('The Partner API is rate limiting this app');
		expect(Date.now() - started).toBeLessThan(5000);
	});

	test('dropped connections until the retries run out give an error that names the cause', async () => {
		await sb.control('POST', '/faults', { nextDrop: 10 });
		const { error, items } = await runNode({ parameters: ping, credentials: credentials(), continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items[0].json.error).toBe('Could not reach the Partner API: the connection was closed before an answer came');
		expect((items[0].json.details as { description: string }).description).toMatch(/Tried 5 times/);
	});

	test('a clock 10 minutes off is corrected from the Date header, once, then remembered', async () => {
		await sb.control('POST', '/faults', { clockSkewSec: 600 });
		const first = await runNode({ parameters: ping, credentials: credentials() });
		expect(first.error).toBeUndefined();
		expect(await codes()).toEqual(['expired_timestamp', 200]);
		const rows = productIds.slice(20, 25).map((product_id) => ({ product_id, stock: 1 }));
		const sync = await runNode({
			parameters: { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}' },
			items: rows,
			credentials: credentials(),
		});
		expect(sync.error).toBeUndefined();
		expect((await codes()).filter((c: unknown) => c === 'expired_timestamp')).toHaveLength(1);
	});

	test('a clock 10 minutes behind is corrected too', async () => {
		// A fresh sandbox, so the offset learnt above does not apply.
		const other = await startSandbox();
		try {
			await other.control('POST', '/faults', { clockSkewSec: -600 });
			const { items, error } = await runNode({ parameters: ping, credentials: credentialsFor(other.baseUrl, other.apps['seller-a-full']) });
			expect(error).toBeUndefined();
			expect(items[0].json.pong).toBe(true);
		} finally {
			await other.close();
		}
	});
});
