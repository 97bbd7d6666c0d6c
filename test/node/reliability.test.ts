/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Retries and clock correction under the sandbox's injected faults (a PHP fatal-error page among
// them), in the n8n engine.
import type { INodeExecutionData } from 'n8n-workflow';
import net from 'node:net';
import { credentialsFor, hintsOf, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { ok, startScriptedApi } from '../helpers/scriptedApi';

/** The error items of rows the API was asked for (failing with `message`), and of rows never sent. */
function triedAndNotSent(items: INodeExecutionData[], message: string) {
	return {
		tried: items.filter((i) => i.json.error === message),
		notSent: items.filter((i) => (i.json.details as { notSent?: boolean }).notSent === true),
	};
}

/** A Base URL whose port speaks another protocol than HTTP (an SSH server); `connections()` counts who came. */
async function notHttpBaseUrl(): Promise<{ baseUrl: string; connections: () => number; close: () => void }> {
	let connections = 0;
	const server = net.createServer((socket) => {
		connections++;
		socket.on('error', () => undefined);
		socket.end('SSH-2.0-OpenSSH_9.2\r\n');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/api/partner/v1`, connections: () => connections, close: () => server.close() };
}

describe('retries and clock correction', () => {
	let sb: RunningSandbox;
	let productIds: number[];
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
	const ping = { resource: 'connection', operation: 'ping' };
	const sheet = { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}' };
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

	test('retries follow progress, not a count: six dropped connections in a row, then it works', async () => {
		await sb.control('POST', '/faults', { nextDrop: 6 });
		const { items, error } = await runNode({ parameters: ping, credentials: credentials() });
		expect(error).toBeUndefined();
		expect(items[0].json.pong).toBe(true);
		expect(await codes()).toEqual([...Array(6).fill('dropped'), 200]);
	});

	test('an API answering only 503 stops the run after Give Up After, with a clear error', async () => {
		await sb.control('POST', '/faults', { rate5xx: 1 });
		const started = Date.now();
		const { error } = await runNode({ parameters: { ...ping, options: { giveUpAfter: 2 } }, credentials: credentials() });
		expect(error?.message).toBe('The Partner API is temporarily unavailable');
		expect(error?.description).toMatch(/Nothing in this run succeeded for 2 s \(option Give Up After\), so the node gave up; the last attempt got HTTP 503 \(service_unavailable\)\./);
		expect(Date.now() - started).toBeGreaterThanOrEqual(2000); // kept trying for the whole bound
		expect((await codes()).every((c: unknown) => c === 'service_unavailable')).toBe(true);
	});

	test('a refused connection stops the run after Give Up After and says so', async () => {
		const gone = await startSandbox();
		const baseUrl = gone.baseUrl;
		await gone.close();
		const { error } = await runNode({
			parameters: { ...ping, options: { giveUpAfter: 1 } },
			credentials: credentialsFor(baseUrl, sb.apps['seller-a-full']),
		});
		expect(error?.message).toBe('Could not reach the Partner API: the connection was refused');
		expect(error?.description).toMatch(/last error: ECONNREFUSED.*Nothing in this run succeeded for 1 s .*no answer \(ECONNREFUSED\)/);
	});

	test('dropped connections hold back rows not yet sent: only the rows in flight are tried, the rest are "not sent"', async () => {
		await sb.control('POST', '/faults', { rateDrop: 1 }); // dropped before they are read: nothing is applied
		const rows = productIds.slice(0, 20).map((product_id) => ({ product_id, stock: 4 }));
		const { items, error } = await runNode({
			parameters: { ...sheet, options: { concurrency: 4, giveUpAfter: 1 } },
			items: rows,
			credentials: credentials(),
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		const { tried, notSent } = triedAndNotSent(items, 'Could not reach the Partner API: the connection was closed before an answer came');
		// Concurrency's (4) failures in a row hold new rows back: the 4 in flight, and at most the 3
		// that started while the first failures came in.
		expect(tried.length).toBeGreaterThanOrEqual(4);
		expect(tried.length).toBeLessThanOrEqual(7);
		expect(tried.length + notSent.length).toBe(rows.length);
	});

	// A Base URL pointing at a service that does not speak HTTP (a wrong port): no retry can help.
	test('an answer that is not HTTP fails at once, without a retry, and the rows after it are not sent', async () => {
		const { baseUrl, connections, close } = await notHttpBaseUrl();
		try {
			const rows = productIds.slice(0, 3).map((product_id) => ({ product_id, stock: 4 }));
			const started = Date.now();
			const { error } = await runNode({
				parameters: { ...sheet, options: { concurrency: 1, giveUpAfter: 5 } },
				items: rows,
				credentials: credentialsFor(baseUrl, sb.apps['seller-a-full']),
			});
			expect(error?.message).toBe('The Base URL does not answer in HTTP');
			expect(error?.description).toContain(
				`The server at ${new URL(baseUrl).origin} answered something that is not HTTP (HPE_INVALID_CONSTANT Parse Error: Expected HTTP/, RTSP/ or ICE/). Check the credential's Base URL: scheme (https or http), host and port must be the Partner API's, ending in /v1.`,
			);
			expect(error?.context?.itemIndex).toBe(0);
			expect(connections()).toBe(1);
			expect(Date.now() - started).toBeLessThan(5000);
		} finally {
			close();
		}
	});

	test('a Retry-After longer than Give Up After is not waited for: the error says so at once', async () => {
		await sb.control('POST', '/faults', { next429: 1, retryAfterSec: 3600 });
		const { error } = await runNode({ parameters: ping, credentials: credentials() });
		expect(error?.message).toBe('The Partner API is rate limiting this app');
		expect(error?.description).toMatch(/asked to wait 3600 s \(Retry-After\), longer than .*Give Up After: 300 s/);
		expect(await codes()).toEqual(['rate_limited']);
	});

	test('a stock sheet against a dead API: no row applied, the error counts the rows and says re-running is safe', async () => {
		await sb.control('POST', '/faults', { rate5xx: 1 });
		const rows = productIds.slice(30, 50).map((product_id) => ({ product_id, stock: 77 }));
		const before = await Promise.all(rows.map(async (r) => (await sb.control('GET', `/products/${r.product_id}`)).stock));
		const { error } = await runNode({ parameters: { ...sheet, options: { concurrency: 4, giveUpAfter: 2 } }, items: rows, credentials: credentials() });
		expect(error?.message).toBe('The Partner API is temporarily unavailable');
		expect(error?.description).toMatch(/Row \d+ \(item \d+\) failed, of 20 rows; 0 rows were applied, the other 20 not\. .*running the whole sheet again is safe/);
		await sb.control('POST', '/faults/reset');
		for (const [i, row] of rows.entries()) expect((await sb.control('GET', `/products/${row.product_id}`)).stock).toBe(before[i]);
	});

	test('with Continue On Fail, rows a non-HTTP answer failed are errors, none of them counted as retried', async () => {
		const { baseUrl, close } = await notHttpBaseUrl();
		try {
			const rows = productIds.slice(0, 3).map((product_id) => ({ product_id, stock: 4 }));
			const { items, run } = await runNode({ parameters: { ...sheet, options: { concurrency: 1 } }, items: rows, credentials: credentialsFor(baseUrl, sb.apps['seller-a-full']), continueOnFail: true });
			expect(items.map((item) => item.json.error)).toEqual(rows.map(() => 'The Base URL does not answer in HTTP'));
			expect(hintsOf({ run }).map((hint) => hint.message)).toEqual([expect.stringMatching(/^3 of 3 rows failed and changed no stock/)]);
		} finally {
			close();
		}
	});

	test('a row the API refuses stops the sheet: the error names the row and how many were applied before it', async () => {
		const foreign = (await sb.control('GET', '/products?sellerId=1002'))[0].product_id;
		const rows = [...productIds.slice(50, 55), foreign, ...productIds.slice(55, 59)].map((product_id, i) => ({ product_id, stock: 60 + i }));
		const { error } = await runNode({ parameters: { ...sheet, options: { concurrency: 1 } }, items: rows, credentials: credentials() });
		expect(error?.message).toBe('The product belongs to another seller');
		expect(error?.context?.itemIndex).toBe(5);
		expect(error?.description).toMatch(/Row 7 \(item 5\) failed, of 10 rows; 5 rows were applied, the other 5 not\./);
		expect((await sb.control('GET', '/stats')).byEndpoint['POST /stock_update.php 200']).toBe(5);
	});

	test('with Continue On Fail, rows never sent after the run gave up are "not sent", apart from rows the API refused', async () => {
		const foreign = (await sb.control('GET', '/products?sellerId=1002'))[0].product_id;
		const rows = [foreign, ...productIds.slice(60, 66)].map((product_id) => ({ product_id, stock: 5 }));
		await sb.control('POST', '/faults', { latencyMs: 300 });
		const running = runNode({ parameters: { ...sheet, options: { concurrency: 1, giveUpAfter: 1 } }, items: rows, credentials: credentials(), continueOnFail: true });
		// The API goes down once the first row has been answered (the second is then on its way).
		while ((await sb.control('GET', '/stats')).requests < 1) await new Promise((r) => setTimeout(r, 20));
		await sb.control('POST', '/faults', { rate5xx: 1, latencyMs: 0 });
		const { items, error } = await running;
		expect(error).toBeUndefined();
		expect(items).toHaveLength(rows.length);
		expect(items[0].json).toMatchObject({ error: 'The product belongs to another seller', details: { code: 'forbidden_product', httpCode: '403' } });
		expect(items[0].json.details).not.toHaveProperty('notSent');
		expect(items[1].json).toMatchObject({ error: 'The Partner API is temporarily unavailable', details: { httpCode: '503' } });
		for (const item of items.slice(2)) {
			expect(item.json).toMatchObject({ error: 'Not sent: the node stopped before sending this request', details: { notSent: true } });
			expect((item.json.details as { description: string }).description).toMatch(/Nothing in this run succeeded for 1 s/);
		}
		expect(items.map((i) => i.pairedItem)).toEqual(rows.map((_, i) => ({ item: i })));
	});

	test('429s in a row pause the whole run and halve what is in flight; it ends with every row applied', async () => {
		await sb.control('POST', '/faults', { next429: 6, retryAfterSec: 1 });
		const rows = productIds.slice(70, 94).map((product_id, i) => ({ product_id, stock: 300 + i }));
		const started = Date.now();
		const { items, error } = await runNode({ parameters: { ...sheet, options: { concurrency: 8 } }, items: rows, credentials: credentials() });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.new_stock)).toEqual(rows.map((r) => r.stock));
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // the pause honoured Retry-After
		const stats = await sb.control('GET', '/stats');
		expect(stats.byCode.rate_limited).toBe(6);
		expect(stats.byEndpoint['POST /stock_update.php 200']).toBe(24);
	});

	test('an API that stays at 429 longer than the run may wait: a clear error per row, rows never sent marked so, no hammering', async () => {
		await sb.control('POST', '/faults', { rate429: 1, retryAfterSec: 1 });
		const rows = productIds.slice(110, 130).map((product_id) => ({ product_id, stock: 9 }));
		const { items, error } = await runNode({
			parameters: { ...sheet, options: { concurrency: 4, giveUpAfter: 2 } },
			items: rows,
			credentials: credentials(),
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		const { tried, notSent } = triedAndNotSent(items, 'The Partner API is rate limiting this app');
		expect(tried.length).toBeGreaterThan(0);
		expect(tried.length + notSent.length).toBe(rows.length);
		expect((tried[0].json.details as { description: string }).description).toMatch(/Nothing in this run succeeded for 2 s .*HTTP 429 \(rate_limited\)/);
		// The run slowed down and paused together: far fewer requests than rows times attempts.
		expect((await sb.control('GET', '/stats')).byCode.rate_limited).toBeLessThan(rows.length);
	});

	test('rows of the same product are applied in sheet order even when the first one is retried', async () => {
		await sb.control('POST', '/faults', { next429: 1, retryAfterSec: 1 });
		const id = productIds[100];
		const rows = [{ product_id: id, stock: 1 }, { product_id: productIds[101], stock: 2 }, { product_id: id, stock: 3 }];
		const { error } = await runNode({ parameters: { ...sheet, options: { concurrency: 8 } }, items: rows, credentials: credentials() });
		expect(error).toBeUndefined();
		expect((await sb.control('GET', `/products/${id}`)).stock).toBe(3);
	});

	// Before the clock tests: the offset they teach the node for this sandbox would add an
	// expired_timestamp to the requests counted here.
	describe('a request answered 500 (a PHP fatal error): retried a few times', () => {
		const FAILED = 'The Partner API failed with a server error (HTTP 500)';
		/** The start of the sandbox's PHP page, as the error quotes it (whitespace flattened). */
		const PAGE_START = '<br /> <b>Fatal error</b>: Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused in /var/www/html/api/partner/v1/';
		const stats = () => sb.control('GET', '/stats');
		const stockOf = async (productId: number) => (await sb.control('GET', `/products/${productId}`)).stock;

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
			expect(error?.description).toMatch(/Row 2 \(item 0\) failed, of 4 rows; 0 rows were applied, the other 4 not\./);
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

	test('a clock 10 minutes off is corrected from the Date header, once, then kept for the rest of the run', async () => {
		await sb.control('POST', '/faults', { clockSkewSec: 600 });
		const first = await runNode({ parameters: ping, credentials: credentials() });
		expect(first.error).toBeUndefined();
		expect(await codes()).toEqual(['expired_timestamp', 200]);
		await sb.control('POST', '/stats/reset');
		const rows = productIds.slice(20, 25).map((product_id) => ({ product_id, stock: 1 }));
		const sync = await runNode({ parameters: { ...sheet, options: { concurrency: 1 } }, items: rows, credentials: credentials() });
		expect(sync.error).toBeUndefined();
		expect(await codes()).toEqual(['expired_timestamp', 200, 200, 200, 200, 200]);
	});

	test('the correction does not outlive its run: once the clocks agree again, the next run signs with this machine\'s time', async () => {
		await sb.control('POST', '/faults', { clockSkewSec: 600 });
		expect((await runNode({ parameters: ping, credentials: credentials() })).error).toBeUndefined();
		await sb.control('POST', '/faults/reset');
		await sb.control('POST', '/stats/reset');
		expect((await runNode({ parameters: ping, credentials: credentials() })).error).toBeUndefined();
		expect(await codes()).toEqual([200]);
	});

	test('an expired_timestamp whose Date header says 2099: a clear error naming both clocks, nothing signed for 2099, and the next run is not either', async () => {
		const api = await startScriptedApi([
			{ status: 401, headers: { date: 'Thu, 31 Dec 2099 23:59:59 GMT' }, body: { ok: false, error: { code: 'expired_timestamp', message: 'Timestamp expired.' } } },
			ok({ pong: true }),
		]);
		try {
			const first = await runNode({ parameters: ping, credentials: credentialsFor(api.baseUrl, api.app) });
			expect(first.error?.message).toMatch(/^The API refused the request's timestamp, and its clock is \d+ minutes ahead of this machine's$/);
			expect(first.error?.description).toMatch(/^The API's clock \(its Date header\) says 2099-12-31T23:59:59\.000Z, this machine's clock 20\d\d-.*up to 15 minutes .*set it right \(NTP\).*report it to the marketplace operator\.$/);
			expect(first.error?.httpCode).toBe('401');
			expect(api.requests).toHaveLength(1);
			const second = await runNode({ parameters: ping, credentials: credentialsFor(api.baseUrl, api.app) });
			expect(second.error).toBeUndefined();
			const signedFor = api.requests.map((r) => Number(r.headers['x-svc-timestamp']));
			expect(signedFor.every((timestamp) => Math.abs(timestamp - Date.now() / 1000) < 60)).toBe(true);
		} finally {
			await api.close();
		}
	});

	test('a clock 20 minutes off is not corrected: the error says which clocks differ, and Check Setup reports it as an error', async () => {
		await sb.control('POST', '/faults', { clockSkewSec: -1200 });
		const { error } = await runNode({ parameters: ping, credentials: credentials() });
		expect(error?.message).toMatch(/^The API refused the request's timestamp, and its clock is 20 minutes behind this machine's$/);
		expect(await codes()).toEqual(['expired_timestamp']);
		const { items } = await runNode({ parameters: { resource: 'connection', operation: 'checkSetup' }, credentials: credentials() });
		expect(items.find((i) => i.json.check === 'Clock')?.json).toMatchObject({ result: 'error', finding: expect.stringMatching(/^The API's clock is 1(199|200|201) s behind this machine's \(Date header\)\. The node corrects at most 15 minutes/) });
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
