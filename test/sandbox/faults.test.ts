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

	test('the control API refuses unknown faults and wrong types', async () => {
		await expect(sb.control('POST', '/faults', { nope: 1 })).rejects.toThrow(/Unknown fault/);
		await expect(sb.control('POST', '/faults', { rate429: 'high' })).rejects.toThrow(/must be a number/);
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
