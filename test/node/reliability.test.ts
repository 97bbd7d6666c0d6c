/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Retries and clock correction under the sandbox's injected faults, in the n8n engine.
import type { INodeExecutionData } from 'n8n-workflow';
import net from 'node:net';
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

/** The error items of rows the API was asked for (failing with `message`), and of rows never sent. */
function triedAndNotSent(items: INodeExecutionData[], message: string) {
	return {
		tried: items.filter((i) => i.json.error === message),
		notSent: items.filter((i) => (i.json.details as { notSent?: boolean }).notSent === true),
	};
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
		let connections = 0;
		const server = net.createServer((socket) => {
			connections++;
			socket.on('error', () => undefined);
			socket.end('SSH-2.0-OpenSSH_9.2\r\n');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const baseUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/api/partner/v1`;
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
			expect(connections).toBe(1);
			expect(Date.now() - started).toBeLessThan(5000);
		} finally {
			server.close();
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
		expect(error?.description).toMatch(/Row \d+ of 20 failed; 0 rows were applied, the other 20 not\. .*running the whole sheet again is safe/);
		await sb.control('POST', '/faults/reset');
		for (const [i, row] of rows.entries()) expect((await sb.control('GET', `/products/${row.product_id}`)).stock).toBe(before[i]);
	});

	test('a row the API refuses stops the sheet: the error names the row and how many were applied before it', async () => {
		const foreign = (await sb.control('GET', '/products?sellerId=1002'))[0].product_id;
		const rows = [...productIds.slice(50, 55), foreign, ...productIds.slice(55, 59)].map((product_id, i) => ({ product_id, stock: 60 + i }));
		const { error } = await runNode({ parameters: { ...sheet, options: { concurrency: 1 } }, items: rows, credentials: credentials() });
		expect(error?.message).toBe('The product belongs to another seller');
		expect(error?.context?.itemIndex).toBe(5);
		expect(error?.description).toMatch(/Row 6 of 10 failed; 5 rows were applied, the other 5 not\./);
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
