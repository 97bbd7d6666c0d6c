/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The sandbox's per-client rate limit: the token bucket itself (exact, on a given clock), then over
// real HTTP (429, Retry-After or not, per client, before anything is changed), its settings by
// option, CLI flag and control API.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { PartnerClient } from '../helpers/partnerClient';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createRateLimiter } = require('../../sandbox/rateLimit');

describe('token bucket', () => {
	test('off by default: every request goes', () => {
		const limiter = createRateLimiter();
		expect(limiter.settings).toEqual({ rate: 0, burst: 10, retryAfter: true });
		for (let i = 0; i < 1000; i++) expect(limiter.take('a', 0)).toBeNull();
	});

	test('a full bucket lets `burst` requests through at once, then refuses until a token has refilled', () => {
		const limiter = createRateLimiter({ rate: 50, burst: 10 });
		for (let i = 0; i < 10; i++) expect(limiter.take('a', 1000)).toBeNull();
		expect(limiter.take('a', 1000)).toBe(1); // less than one token: wait (20 ms, said as 1 s)
		expect(limiter.take('a', 1019)).toBe(1); // 0.95 token
		expect(limiter.take('a', 1020)).toBeNull(); // exactly one token
		expect(limiter.take('a', 1020)).toBe(1);
	});

	test('refills at `rate` per second, never beyond `burst`', () => {
		const limiter = createRateLimiter({ rate: 50, burst: 10 });
		for (let i = 0; i < 10; i++) limiter.take('a', 0);
		// 100 ms refill 5 tokens: 5 go, the 6th waits.
		for (let i = 0; i < 5; i++) expect(limiter.take('a', 100)).toBeNull();
		expect(limiter.take('a', 100)).not.toBeNull();
		// A long idle time fills the bucket to 10, not to 500.
		for (let i = 0; i < 10; i++) expect(limiter.take('a', 10_100)).toBeNull();
		expect(limiter.take('a', 10_100)).not.toBeNull();
	});

	test('a refused request takes no token: refusals do not push the next success further out', () => {
		const limiter = createRateLimiter({ rate: 10, burst: 1 });
		expect(limiter.take('a', 0)).toBeNull();
		for (let t = 1; t < 100; t += 10) expect(limiter.take('a', t)).not.toBeNull();
		expect(limiter.take('a', 100)).toBeNull();
	});

	test('sustained, exactly `rate` per second pass after the burst', () => {
		const limiter = createRateLimiter({ rate: 50, burst: 10 });
		let passed = 0;
		// A client asking every millisecond for 10 s.
		for (let t = 0; t < 10_000; t++) if (limiter.take('a', t) === null) passed++;
		expect(passed).toBe(10 + 500 - 1); // the burst, plus 50/s for 10 s (the last token is due at t = 10,000)
	});

	test('Retry-After is the wait for one token in whole seconds, rounded up', () => {
		const limiter = createRateLimiter({ rate: 0.25, burst: 1 });
		expect(limiter.take('a', 0)).toBeNull();
		expect(limiter.take('a', 0)).toBe(4);
		expect(limiter.take('a', 1000)).toBe(3); // 0.25 token refilled: 3 s to go
		expect(limiter.take('a', 3001)).toBe(1); // 0.75025 token: under a second to go, said as 1
		expect(limiter.take('a', 4000)).toBeNull();
	});

	test('every client has its own bucket', () => {
		const limiter = createRateLimiter({ rate: 1, burst: 2 });
		expect([limiter.take('a', 0), limiter.take('a', 0), limiter.take('a', 0)]).toEqual([null, null, 1]);
		expect([limiter.take('b', 0), limiter.take('b', 0), limiter.take('b', 0)]).toEqual([null, null, 1]);
	});

	test('configure changes only what it names, and starts every bucket full again', () => {
		const limiter = createRateLimiter({ rate: 1, burst: 1 });
		limiter.take('a', 0);
		expect(limiter.take('a', 0)).toBe(1);
		expect(limiter.configure({ burst: 3 })).toEqual({ rate: 1, burst: 3, retryAfter: true });
		expect([limiter.take('a', 0), limiter.take('a', 0), limiter.take('a', 0), limiter.take('a', 0)]).toEqual([null, null, null, 1]);
		expect(limiter.configure({ rate: 0 }).rate).toBe(0);
		expect(limiter.take('a', 0)).toBeNull();
	});

	test.each([
		[{ rate: -1 }, 'rate must be 0 (off) or more requests per second.'],
		[{ rate: Infinity }, 'rate must be 0 (off) or more requests per second.'],
		[{ rate: '50' }, 'Rate limit setting "rate" must be a number.'],
		[{ burst: 0 }, 'burst must be a whole number of at least 1.'],
		[{ burst: 2.5 }, 'burst must be a whole number of at least 1.'],
		[{ retryAfter: 'no' }, 'Rate limit setting "retryAfter" must be a boolean.'],
		[{ perMinute: 5 }, 'Unknown rate limit setting "perMinute" (rate, burst, retryAfter).'],
	])('refuses %j', (settings, message) => {
		expect(() => createRateLimiter(settings)).toThrow(message);
		expect(() => createRateLimiter().configure(settings)).toThrow(message);
	});
});

describe('sandbox rate limit over HTTP', () => {
	let sb: RunningSandbox;
	let a: PartnerClient;
	let b: PartnerClient;
	let productId: number;

	beforeAll(async () => {
		sb = await startSandbox();
		a = new PartnerClient(sb.baseUrl, sb.apps['seller-a-full'].clientId, sb.apps['seller-a-full'].clientSecret);
		b = new PartnerClient(sb.baseUrl, sb.apps['seller-b-full'].clientId, sb.apps['seller-b-full'].clientSecret);
		productId = (await sb.control('GET', '/products?sellerId=1001')).find((p: { variant_combination_ids: number[] }) => !p.variant_combination_ids.length).product_id;
	});
	afterEach(async () => {
		await sb.control('POST', '/rate-limit', { rate: 0, burst: 10, retryAfter: true });
		await sb.control('POST', '/stats/reset');
	});
	afterAll(async () => {
		await a.close();
		await b.close();
		await sb.close();
	});

	test('off unless set: the state says so and a quick run of requests all succeed', async () => {
		expect((await sb.control('GET', '/state')).rateLimit).toEqual({ rate: 0, burst: 10, retryAfter: true });
		const statuses = await Promise.all(Array.from({ length: 40 }, () => a.get('/ping.php')));
		expect(statuses.every((r) => r.status === 200)).toBe(true);
	});

	test('over the limit: 429 rate_limited in the error shape, with Retry-After; each client has its own bucket', async () => {
		expect(await sb.control('POST', '/rate-limit', { rate: 2, burst: 3 })).toEqual({ rate: 2, burst: 3, retryAfter: true });
		const first = [await a.get('/ping.php'), await a.get('/ping.php'), await a.get('/ping.php'), await a.get('/ping.php')];
		expect(first.map((r) => r.status)).toEqual([200, 200, 200, 429]);
		expect(first[3].headers['retry-after']).toBe('1');
		expect(first[3].json).toEqual({
			ok: false,
			error: { code: 'rate_limited', message: 'Too many requests: this client may send 2 per second (bursts of 3). Retry after the time in Retry-After.' },
		});
		expect((await b.get('/ping.php')).status).toBe(200);
		expect((await sb.control('GET', '/stats')).byCode.rate_limited).toBe(1);
		await new Promise((r) => setTimeout(r, 550)); // one token at 2/s
		expect((await a.get('/ping.php')).status).toBe(200);
		expect((await a.get('/ping.php')).status).toBe(429);
	});

	test('the mode without Retry-After answers 429 with no header and says nothing about it', async () => {
		await sb.control('POST', '/rate-limit', { rate: 1, burst: 1, retryAfter: false });
		expect((await a.get('/ping.php')).status).toBe(200);
		const limited = await a.get('/ping.php');
		expect(limited.status).toBe(429);
		expect(limited.headers).not.toHaveProperty('retry-after');
		expect(limited.json.error).toEqual({ code: 'rate_limited', message: 'Too many requests: this client may send 1 per second (bursts of 1).' });
	});

	test('a limited stock update changes nothing; the limit is checked before authentication', async () => {
		await sb.control('POST', '/rate-limit', { rate: 1, burst: 1 });
		expect((await a.get('/ping.php')).status).toBe(200);
		const before = (await sb.control('GET', `/products/${productId}`)).stock;
		const res = await a.post('/stock_update.php', { product_id: productId, stock: before + 7 });
		expect(res.json.error.code).toBe('rate_limited');
		expect((await sb.control('GET', `/products/${productId}`)).stock).toBe(before);
		// A wrong signature over the limit is refused for the limit, not for the signature.
		expect((await a.get('/ping.php', { secret: 'wrong' })).json.error.code).toBe('rate_limited');
	});

	test('the control API refuses bad settings and keeps the old ones', async () => {
		await sb.control('POST', '/rate-limit', { rate: 5 });
		await expect(sb.control('POST', '/rate-limit', { burst: 0 })).rejects.toThrow(/400 burst must be a whole number of at least 1/);
		await expect(sb.control('POST', '/rate-limit', { nope: 1 })).rejects.toThrow(/Unknown rate limit setting "nope"/);
		expect(await sb.control('GET', '/rate-limit')).toEqual({ rate: 5, burst: 10, retryAfter: true });
	});
});

describe('rate limit settings at start', () => {
	test('options set it; /reset goes back to them, not to off', async () => {
		const sb = await startSandbox({ rateLimit: 50, rateBurst: 5, rateLimitRetryAfter: false });
		try {
			expect((await sb.control('GET', '/state')).rateLimit).toEqual({ rate: 50, burst: 5, retryAfter: false });
			await sb.control('POST', '/rate-limit', { rate: 0 });
			await sb.control('POST', '/reset', {});
			expect(await sb.control('GET', '/rate-limit')).toEqual({ rate: 50, burst: 5, retryAfter: false });
		} finally {
			await sb.close();
		}
	});

	test('the CLI flags --rate-limit, --rate-burst and --no-retry-after', async () => {
		const child = spawn(process.execPath, [path.join(__dirname, '../../sandbox/cli.js'), '--port', '0', '--orders', '10', '--quiet', '--rate-limit', '3', '--rate-burst', '2', '--no-retry-after'], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		try {
			const info = JSON.parse(await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve)));
			const state = (await (await fetch(`${info.controlUrl}/state`, { headers: { authorization: `Bearer ${info.controlToken}` } })).json()) as { data: { rateLimit: unknown } };
			expect(state.data.rateLimit).toEqual({ rate: 3, burst: 2, retryAfter: false });
		} finally {
			child.kill('SIGTERM');
		}
	});
});
