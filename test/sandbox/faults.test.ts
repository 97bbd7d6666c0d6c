// Fault injection: what reliability tests of clients rely on.
import { errors } from 'undici';
import { PartnerClient } from '../helpers/partnerClient';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

describe('sandbox fault injection', () => {
	let sb: RunningSandbox;
	let a: PartnerClient;

	beforeAll(async () => {
		sb = await startSandbox();
		const app = sb.apps['seller-a-full'];
		a = new PartnerClient(sb.baseUrl, app.clientId, app.clientSecret);
	});
	afterEach(() => sb.control('POST', '/faults/reset'));
	afterAll(async () => {
		await a.close();
		await sb.close();
	});

	test('next429 answers that many requests 429 with Retry-After, then serves again', async () => {
		await sb.control('POST', '/faults', { next429: 2, retryAfterSec: 3 });
		const r1 = await a.get('/ping.php');
		const r2 = await a.get('/ping.php');
		const r3 = await a.get('/ping.php');
		expect([r1.status, r2.status, r3.status]).toEqual([429, 429, 200]);
		expect(r1.headers['retry-after']).toBe('3');
		expect(r1.json.error.code).toBe('rate_limited');
	});

	test('GET /_sandbox/stats counts requests by endpoint and status, newest in recent; POST /stats/reset clears them', async () => {
		await sb.control('POST', '/stats/reset');
		await a.get('/ping.php');
		await sb.control('POST', '/faults', { next429: 1, retryAfterSec: 1 });
		await a.get('/ping.php');
		await a.get('/orders.php?limit=1');
		const stats = await sb.control('GET', '/stats');
		expect(stats.byEndpoint).toEqual({ 'GET /ping.php 200': 1, 'GET /ping.php 429': 1, 'GET /orders.php 200': 1 });
		expect(stats.recent).toHaveLength(3);
		expect((await sb.control('POST', '/stats/reset')).byEndpoint).toEqual({});
		expect((await sb.control('GET', '/stats')).recent).toEqual([]);
	});

	test('next5xx answers with the configured server error status', async () => {
		await sb.control('POST', '/faults', { next5xx: 1, status5xx: 502 });
		const res = await a.get('/ping.php');
		expect(res.status).toBe(502);
		expect(res.json.error.code).toBe('service_unavailable');
		expect((await a.get('/ping.php')).status).toBe(200);
	});

	test('nextPhpFatal answers that many requests 500 with a PHP fatal-error page, changing nothing, then serves again', async () => {
		const product = (await sb.control('GET', '/products?sellerId=1001')).find((p: { variant_combination_ids: number[] }) => !p.variant_combination_ids.length);
		await sb.control('POST', '/stats/reset');
		await sb.control('POST', '/faults', { nextPhpFatal: 2 });
		// Before authentication: even an unsigned request gets the page.
		const page = await fetch(`${sb.baseUrl}/orders.php`);
		expect(page.status).toBe(500);
		expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
		expect(await page.text()).toMatch(
			/^<br \/>\n<b>Fatal error<\/b>: {2}Uncaught PDOException: .* in \/var\/www\/html\/api\/partner\/v1\/orders\.php:14\nStack trace:\n[^]* on line <b>14<\/b><br \/>\n$/,
		);
		const update = await a.post('/stock_update.php', { product_id: product.product_id, stock: product.stock + 5 }).catch((error: Error) => error);
		expect(update).toBeInstanceOf(SyntaxError); // HTML, not JSON
		expect((await sb.control('GET', `/products/${product.product_id}`)).stock).toBe(product.stock);
		expect((await a.get('/ping.php')).status).toBe(200);
		const stats = await sb.control('GET', '/stats');
		expect(stats.byCode).toEqual({ php_fatal: 2 });
		expect(stats.byEndpoint).toMatchObject({ 'GET /orders.php 500': 1, 'POST /stock_update.php 500': 1, 'GET /ping.php 200': 1 });
	});

	test('a PHP fatal error on an unknown path names no path of the request', async () => {
		await sb.control('POST', '/faults', { nextPhpFatal: 1 });
		const page = await fetch(`${sb.baseUrl}/<script>.php`);
		expect(page.status).toBe(500);
		const text = await page.text();
		expect(text).toContain('/var/www/html/api/partner/v1/index.php:14');
		expect(text).not.toContain('script');
	});

	test('nextDrop closes the connection without an answer', async () => {
		await sb.control('POST', '/faults', { nextDrop: 1 });
		await expect(a.get('/ping.php')).rejects.toBeInstanceOf(errors.SocketError);
		expect((await a.get('/ping.php')).status).toBe(200);
	});

	test('added latency delays every API answer', async () => {
		await sb.control('POST', '/faults', { latencyMs: 120 });
		const started = performance.now();
		await a.get('/ping.php');
		expect(performance.now() - started).toBeGreaterThanOrEqual(110);
	});

	test('rates are applied to about that share of requests', async () => {
		await sb.control('POST', '/faults', { rate5xx: 0.5 });
		const statuses = [];
		for (let i = 0; i < 200; i++) statuses.push((await a.get('/ping.php')).status);
		const failed = statuses.filter((s) => s === 503).length;
		expect(failed).toBeGreaterThan(60);
		expect(failed).toBeLessThan(140);
	});

	test('ratePhpFatal answers about that share with the PHP page, the others as usual', async () => {
		await sb.control('POST', '/faults', { ratePhpFatal: 0.5 });
		const statuses = [];
		for (let i = 0; i < 200; i++) {
			const res = await fetch(`${sb.baseUrl}/ping.php`);
			statuses.push(`${res.status} ${res.headers.get('content-type')}`);
			await res.arrayBuffer();
		}
		const fatal = statuses.filter((s) => s === '500 text/html; charset=UTF-8').length;
		expect(fatal).toBeGreaterThan(60);
		expect(fatal).toBeLessThan(140);
		// The rest reach authentication, which refuses the unsigned request.
		expect(statuses.filter((s) => s === '401 application/json; charset=utf-8')).toHaveLength(200 - fatal);
	});

	test('the control API refuses unknown faults and wrong types', async () => {
		await expect(sb.control('POST', '/faults', { nope: 1 })).rejects.toThrow(/Unknown fault/);
		await expect(sb.control('POST', '/faults', { rate429: 'high' })).rejects.toThrow(/must be a number/);
		await expect(sb.control('POST', '/faults', { nextPhpFatal: '1' })).rejects.toThrow(/Fault "nextPhpFatal" must be a number/);
	});
});

describe('sandbox clock skew', () => {
	test('a skewed sandbox refuses a correct local timestamp and says its own time in Date', async () => {
		const sb = await startSandbox();
		const app = sb.apps['seller-a-full'];
		const c = new PartnerClient(sb.baseUrl, app.clientId, app.clientSecret);
		try {
			await sb.control('POST', '/faults', { clockSkewSec: 600 });
			const res = await c.get('/ping.php');
			expect(res.json.error.code).toBe('expired_timestamp');
			const serverMs = Date.parse(String(res.headers.date));
			expect(Math.abs(serverMs - (Date.now() + 600_000))).toBeLessThan(5000);
			const corrected = await c.get('/ping.php', { timestamp: Math.floor(Date.now() / 1000) + 600 });
			expect(corrected.status).toBe(200);
		} finally {
			await c.close();
			await sb.close();
		}
	});
});
