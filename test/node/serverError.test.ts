/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// A server that fails once: a PHP backend's fatal-error page (500) is retried a few times, in the
// n8n engine against the sandbox's PHP fatal-error fault.
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

const FAILED = 'The Partner API failed with a server error (HTTP 500)';
/** The start of the sandbox's PHP page, as the error quotes it (whitespace flattened). */
const PAGE_START = '<br /> <b>Fatal error</b>: Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused in /var/www/html/api/partner/v1/';

describe('a request answered 500 (a PHP fatal error)', () => {
	let sb: RunningSandbox;
	let productIds: number[];
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
	const ping = { resource: 'connection', operation: 'ping' };
	const sheet = { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}' };
	const stats = () => sb.control('GET', '/stats');
	const stockOf = async (productId: number) => (await sb.control('GET', `/products/${productId}`)).stock;

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

	test('a stock sheet with some 500s: every row applied, none lost, each once', async () => {
		// The first four requests (one per row in flight) and two of their retries fail.
		await sb.control('POST', '/faults', { nextPhpFatal: 6 });
		const rows = productIds.slice(0, 12).map((product_id, i) => ({ product_id, stock: 200 + i }));
		const { items, error } = await runNode({ parameters: { ...sheet, options: { concurrency: 4 } }, items: rows, credentials: credentials() });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.new_stock)).toEqual(rows.map((r) => r.stock));
		for (const row of rows) expect(await stockOf(row.product_id)).toBe(row.stock);
		const { byEndpoint, byCode } = await stats();
		expect(byCode).toEqual({ php_fatal: 6 });
		expect(byEndpoint).toEqual({ 'POST /stock_update.php 500': 6, 'POST /stock_update.php 200': 12 });
	});

	test('a Return All with a 500 in the middle is complete', async () => {
		const expected = (await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true }, credentials: credentials() })).items.map(
			(i) => i.json.order_item_id,
		);
		expect(expected.length).toBeGreaterThan(200); // at least three pages of 100
		await sb.control('POST', '/stats/reset');
		await sb.control('POST', '/faults', { latencyMs: 200 });
		const running = runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true }, credentials: credentials() });
		// The second page is on its way once the first is answered: it gets the PHP page.
		while ((await stats()).requests < 1) await new Promise((r) => setTimeout(r, 20));
		await sb.control('POST', '/faults', { nextPhpFatal: 1, latencyMs: 0 });
		const { items, error } = await running;
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.order_item_id)).toEqual(expected);
		const recent = (await stats()).recent.map((r: { query: { offset?: string }; status: number }) => `${r.query.offset ?? 0} ${r.status}`);
		expect(recent.slice(0, 3)).toEqual(['0 200', '100 500', '100 200']);
	});

	test('a 500 that persists: a clear error quoting the page, after 4 attempts, long before Give Up After', async () => {
		await sb.control('POST', '/faults', { ratePhpFatal: 1 });
		const started = Date.now();
		const { error } = await runNode({ parameters: ping, credentials: credentials() });
		expect(error?.message).toBe(FAILED);
		expect(error?.httpCode).toBe('500');
		expect(error?.description).toMatch(
			/^Tried 4 times, answered HTTP 500 4 times \(a 500 is retried at most 3 times\)\. The error is on the marketplace's side: if it persists, tell its operator what the answer started with: /,
		);
		expect(error?.description).toContain(`${PAGE_START}ping.php:14 Stack trace:`);
		// At most 300 characters of the page.
		expect(error?.description).toMatch(/started with: .{300}…$/);
		const { byEndpoint } = await stats();
		expect(byEndpoint).toEqual({ 'GET /ping.php 500': 4 });
		// Backoff between attempts (at least 0.125 + 0.25 + 0.5 s), not the 300 s of Give Up After.
		expect(Date.now() - started).toBeGreaterThanOrEqual(875);
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	test('the retries of a 500 stay within Give Up After', async () => {
		await sb.control('POST', '/faults', { ratePhpFatal: 1, latencyMs: 600 });
		const { error } = await runNode({ parameters: { ...ping, options: { giveUpAfter: 1 } }, credentials: credentials() });
		expect(error?.message).toBe(FAILED);
		expect(error?.description).toMatch(/Nothing in this run succeeded for 1 s \(option Give Up After\), so the node gave up; the last attempt got HTTP 500\.$/);
		expect((await stats()).byEndpoint['GET /ping.php 500']).toBeLessThan(4);
	});

	test('a sheet whose first row keeps failing: without Continue On Fail the error names the row and quotes the page', async () => {
		await sb.control('POST', '/faults', { nextPhpFatal: 4 });
		const rows = productIds.slice(20, 24).map((product_id) => ({ product_id, stock: 8 }));
		const before = await Promise.all(rows.map((r) => stockOf(r.product_id)));
		const { error } = await runNode({ parameters: { ...sheet, options: { concurrency: 1 } }, items: rows, credentials: credentials() });
		expect(error?.message).toBe(FAILED);
		expect(error?.context?.itemIndex).toBe(0);
		expect(error?.description).toContain(`${PAGE_START}stock_update.php:14`);
		expect(error?.description).toMatch(/Row 1 of 4 failed; 0 rows were applied, the other 4 not\./);
		expect(await Promise.all(rows.map((r) => stockOf(r.product_id)))).toEqual(before);
	});

	test('with Continue On Fail every row comes out: the one that kept failing as its error, the others applied', async () => {
		await sb.control('POST', '/faults', { nextPhpFatal: 4 });
		const rows = productIds.slice(30, 36).map((product_id, i) => ({ product_id, stock: 50 + i }));
		const { items, error } = await runNode({
			parameters: { ...sheet, options: { concurrency: 1 } },
			items: rows,
			credentials: credentials(),
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(rows.length);
		expect(items[0].json).toMatchObject({ error: FAILED, details: { httpCode: '500' } });
		expect((items[0].json.details as { description: string }).description).toContain(PAGE_START);
		expect(items.slice(1).map((i) => i.json.new_stock)).toEqual(rows.slice(1).map((r) => r.stock));
		expect(items.map((i) => i.pairedItem)).toEqual(rows.map((_, i) => ({ item: i })));
		expect((await stats()).byEndpoint).toEqual({ 'POST /stock_update.php 500': 4, 'POST /stock_update.php 200': 5 });
	});

	test('with Continue On Fail and a server that always fails: every row comes out as its error, each tried 4 times', async () => {
		await sb.control('POST', '/faults', { ratePhpFatal: 1 });
		const rows = productIds.slice(40, 50).map((product_id) => ({ product_id, stock: 3 }));
		const { items, error } = await runNode({
			parameters: { ...sheet, options: { concurrency: 4 } },
			items: rows,
			credentials: credentials(),
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.error)).toEqual(rows.map(() => FAILED));
		expect((await stats()).byEndpoint).toEqual({ 'POST /stock_update.php 500': 4 * rows.length });
	});
});
