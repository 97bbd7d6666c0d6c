// The sandbox's authentication, over real HTTP, against the rules of the spec.
import vectors from '../fixtures/signature-vectors.json';
import { PartnerClient } from '../helpers/partnerClient';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sandboxAuth = require('../../sandbox/auth');

describe('sandbox verifier, against openssl vectors', () => {
	test.each(vectors.requests)('request: $name', (v) => {
		const sig = sandboxAuth.expectedRequestSignature(
			vectors.clientSecret,
			v.method,
			v.path,
			String(vectors.timestamp),
			Buffer.from(v.body, 'utf8'),
		);
		expect(sig).toBe(v.signature);
	});

	test.each(vectors.webhooks)('webhook: $name', (v) => {
		const body = Buffer.from(v.body, 'utf8');
		expect(sandboxAuth.webhookSignature(vectors.webhookSecret, String(vectors.timestamp), body)).toBe(v.hex);
		expect(sandboxAuth.webhookSignature(vectors.webhookSecret, String(vectors.timestamp), body, 'base64')).toBe(v.base64);
	});

	test('constant-time comparison says no to unequal lengths without throwing', () => {
		expect(sandboxAuth.safeEqual('abc', 'abcd')).toBe(false);
		expect(sandboxAuth.safeEqual('abcd', 'abcd')).toBe(true);
	});
});

describe('sandbox authentication over HTTP', () => {
	let sb: RunningSandbox;
	let full: PartnerClient;
	const now = () => Math.floor(Date.now() / 1000);

	beforeAll(async () => {
		sb = await startSandbox();
		const a = sb.apps['seller-a-full'];
		full = new PartnerClient(sb.baseUrl, a.clientId, a.clientSecret);
	});
	afterAll(async () => {
		await full.close();
		await sb.close();
	});

	test('a correctly signed request is answered in the envelope', async () => {
		const res = await full.get('/ping.php');
		expect(res.status).toBe(200);
		expect(res.json).toMatchObject({ ok: true, data: { pong: true, seller_id: 1001 } });
		expect(res.headers['content-type']).toMatch(/^application\/json/);
	});

	test.each(['X-SVC-CLIENT-ID', 'X-SVC-TIMESTAMP', 'X-SVC-SIGNATURE'])('without %s: missing_auth_headers', async (h) => {
		const res = await full.get('/ping.php', { omitHeaders: [h] });
		expect(res.status).toBe(401);
		expect(res.json).toEqual({ ok: false, error: { code: 'missing_auth_headers', message: expect.stringContaining(h) } });
	});

	// An empty value is no value: it must not fall through to invalid_timestamp or invalid_signature.
	test.each(['X-SVC-CLIENT-ID', 'X-SVC-TIMESTAMP', 'X-SVC-SIGNATURE'])('with %s sent empty: missing_auth_headers', async (h) => {
		const res = await full.get('/ping.php', { headers: { [h]: '' } });
		expect(res.status).toBe(401);
		expect(res.json.error).toEqual({ code: 'missing_auth_headers', message: `Missing authentication headers: ${h}.` });
	});

	test('an unknown client is answered like a bad signature', async () => {
		const stranger = new PartnerClient(sb.baseUrl, 'cli_nobody', 'whatever');
		const res = await stranger.get('/ping.php');
		await stranger.close();
		expect(res.status).toBe(401);
		expect(res.json.error.code).toBe('invalid_signature');
	});

	test('a wrong secret is invalid_signature', async () => {
		const res = await full.get('/ping.php', { secret: 'not-the-secret' });
		expect(res.status).toBe(401);
		expect(res.json.error.code).toBe('invalid_signature');
	});

	test('upper-case hex is refused: the spec says lower-case', async () => {
		const ok = await full.get('/ping.php');
		const ts = now();
		const good = (await full.get('/ping.php', { timestamp: ts })).signature;
		const res = await full.get('/ping.php', {
			timestamp: ts,
			headers: { 'X-SVC-SIGNATURE': good.toUpperCase() },
		});
		expect(ok.status).toBe(200);
		expect(res.status).toBe(401);
		expect(res.json.error.code).toBe('invalid_signature');
	});

	test('a body whose keys were re-ordered after signing is refused', async () => {
		const signed = '{"product_id":70001,"stock":3}';
		const sent = '{"stock":3,"product_id":70001}';
		const res = await full.post('/stock_update.php', sent, { signedBody: signed });
		expect(res.status).toBe(401);
		expect(res.json.error.code).toBe('invalid_signature');
		const good = await full.post('/stock_update.php', sent);
		expect(good.status).toBe(200);
	});

	test('a body with whitespace added after signing is refused', async () => {
		const res = await full.post('/stock_update.php', '{"product_id": 70001, "stock": 3}', {
			signedBody: '{"product_id":70001,"stock":3}',
		});
		expect(res.json.error.code).toBe('invalid_signature');
	});

	test('a query signed in a different order than sent is refused', async () => {
		const res = await full.get('/orders.php?limit=5&offset=10', { signedPath: '/orders.php?offset=10&limit=5' });
		expect(res.status).toBe(401);
		expect(res.json.error.code).toBe('invalid_signature');
		expect((await full.get('/orders.php?offset=10&limit=5')).status).toBe(200);
	});

	test('the query is verified exactly as sent: a decoded form of it is not the same text', async () => {
		const sent = '/orders.php?status=on%20hold&updated_after=2026-01-01%2000%3A00%3A00';
		const res = await full.get(sent, { signedPath: '/orders.php?status=on hold&updated_after=2026-01-01 00:00:00' });
		expect(res.json.error.code).toBe('invalid_signature');
		const good = await full.get(sent);
		expect(good.status).toBe(200);
	});

	test('the base path is not part of the signed PATH', async () => {
		const res = await full.get('/ping.php', { signedPath: '/api/partner/v1/ping.php' });
		expect(res.json.error.code).toBe('invalid_signature');
	});

	test.each([
		['past', -301],
		['future', 301],
	])('a timestamp 301 s in the %s is expired_timestamp, with the server clock in Date', async (_, delta) => {
		const res = await full.get('/ping.php', { timestamp: now() + delta });
		expect(res.status).toBe(401);
		expect(res.json.error.code).toBe('expired_timestamp');
		const serverMs = Date.parse(String(res.headers.date));
		expect(Math.abs(serverMs - Date.now())).toBeLessThan(5000);
	});

	// Exactly 300 s ahead is still inside ("more than 300 seconds" is refused); the server's clock can
	// only have moved on since the client read it, which brings it closer, never past.
	test.each([-290, 290, 300])('a timestamp %i s away is inside the tolerance', async (delta) => {
		expect((await full.get('/ping.php', { timestamp: now() + delta })).status).toBe(200);
	});

	test('a timestamp that is not Unix seconds is refused as invalid_timestamp', async () => {
		const res = await full.get('/ping.php', { headers: { 'X-SVC-TIMESTAMP': '2026-01-01T00:00:00Z' } });
		expect(res.status).toBe(401);
		expect(res.json.error.code).toBe('invalid_timestamp');
	});

	test('the invalid_timestamp message names the header and the form it wants', async () => {
		const res = await full.get('/ping.php', { headers: { 'X-SVC-TIMESTAMP': '1767225600000000' } });
		expect(res.json.error).toEqual({ code: 'invalid_timestamp', message: 'X-SVC-TIMESTAMP must be Unix time in whole seconds.' });
	});

	test('an inactive client is refused with client_inactive', async () => {
		const a = sb.apps['seller-a-inactive'];
		const c = new PartnerClient(sb.baseUrl, a.clientId, a.clientSecret);
		const res = await c.get('/ping.php');
		await c.close();
		expect(res.status).toBe(403);
		expect(res.json.error.code).toBe('client_inactive');
	});

	test('each refusal in full: code, message, and the server time with expired_timestamp', async () => {
		const body = async (res: Promise<{ json: { error: unknown } }>) => (await res).json.error;
		expect(await body(full.get('/ping.php', { secret: 'cs_wrong' }))).toEqual({ code: 'invalid_signature', message: 'The signature could not be verified.' });
		const before = now();
		const expired = (await body(full.get('/ping.php', { timestamp: before - 301 }))) as { server_time: number };
		expect(expired).toEqual({
			code: 'expired_timestamp',
			message: 'The timestamp is more than 300 seconds away from the server time.',
			server_time: expect.any(Number),
		});
		expect(Math.abs(expired.server_time - before)).toBeLessThanOrEqual(1);
		const a = sb.apps['seller-a-inactive'];
		const inactive = new PartnerClient(sb.baseUrl, a.clientId, a.clientSecret);
		expect(await body(inactive.get('/ping.php'))).toEqual({ code: 'client_inactive', message: 'This partner application is deactivated.' });
		await inactive.close();
		await sb.control('POST', '/faults', { replay: true });
		const ts = now();
		await full.get('/ping.php?replay=1', { timestamp: ts });
		const replayed = await body(full.get('/ping.php?replay=1', { timestamp: ts }));
		await sb.control('POST', '/faults/reset');
		expect(replayed).toEqual({ code: 'replayed_signature', message: 'This signature has already been used.' });
	});

	test('the read-only app reads orders but is refused detail and stock with insufficient_permission', async () => {
		const a = sb.apps['seller-a-readonly'];
		const c = new PartnerClient(sb.baseUrl, a.clientId, a.clientSecret);
		expect((await c.get('/orders.php?limit=1')).status).toBe(200);
		const detail = await c.get('/order_detail.php?order_item_id=500001');
		const stock = await c.post('/stock_update.php', { product_id: 70001, stock: 1 });
		await c.close();
		expect(detail.status).toBe(403);
		expect(detail.json.error).toMatchObject({ code: 'insufficient_permission', permission: 'orders:detail' });
		expect(stock.status).toBe(403);
		expect(stock.json.error).toMatchObject({ code: 'insufficient_permission', permission: 'stock:write' });
	});

	test('insufficient_permission names the permission in its message', async () => {
		const a = sb.apps['seller-a-readonly'];
		const c = new PartnerClient(sb.baseUrl, a.clientId, a.clientSecret);
		const stock = await c.post('/stock_update.php', { product_id: 70001, stock: 1 });
		await c.close();
		expect(stock.json.error).toEqual({ code: 'insufficient_permission', message: 'This partner application lacks the permission "stock:write".', permission: 'stock:write' });
	});

	test('replay mode refuses a signature already seen; without it, duplicates are only counted', async () => {
		const ts = now();
		const first = await full.get('/orders.php?limit=1', { timestamp: ts });
		const again = await full.get('/orders.php?limit=1', { timestamp: ts });
		expect([first.status, again.status]).toEqual([200, 200]);
		expect(sb.raw.stats.duplicateSignatures).toBeGreaterThanOrEqual(1);

		await sb.control('POST', '/faults', { replay: true });
		const ts2 = now() - 1;
		const one = await full.get('/orders.php?limit=2', { timestamp: ts2 });
		const two = await full.get('/orders.php?limit=2', { timestamp: ts2 });
		await sb.control('POST', '/faults/reset');
		expect(one.status).toBe(200);
		expect(two.status).toBe(401);
		expect(two.json.error.code).toBe('replayed_signature');
	});

	test('two headers missing are both named, in the order of the spec', async () => {
		const res = await full.get('/ping.php', { omitHeaders: ['X-SVC-SIGNATURE', 'X-SVC-CLIENT-ID'] });
		expect(res.json.error).toEqual({ code: 'missing_auth_headers', message: 'Missing authentication headers: X-SVC-CLIENT-ID, X-SVC-SIGNATURE.' });
	});

	test('an unknown endpoint and a wrong method are answered with documented codes', async () => {
		const unknown = await full.get('/categories.php');
		expect(unknown.status).toBe(404);
		expect(unknown.json.error.code).toBe('endpoint_not_found');
		const wrong = await full.post('/orders.php', {});
		expect(wrong.status).toBe(405);
		expect(wrong.json.error.code).toBe('method_not_allowed');
	});
});

describe('sandbox options: header prefix and clock tolerance', () => {
	test('--header-prefix changes every header name; the default ones are then missing', async () => {
		const sb = await startSandbox({ headerPrefix: 'X-ACME-', clockToleranceSec: 60 });
		const a = sb.apps['seller-a-full'];
		const custom = new PartnerClient(sb.baseUrl, a.clientId, a.clientSecret, 'X-ACME-');
		const standard = new PartnerClient(sb.baseUrl, a.clientId, a.clientSecret);
		try {
			expect((await custom.get('/ping.php')).status).toBe(200);
			expect((await standard.get('/ping.php')).json.error.code).toBe('missing_auth_headers');
			const late = await custom.get('/ping.php', { timestamp: Math.floor(Date.now() / 1000) - 90 });
			expect(late.json.error.code).toBe('expired_timestamp');
		} finally {
			await custom.close();
			await standard.close();
			await sb.close();
		}
	});

	test('past its limit, the replay memory forgets signatures older than the tolerance and keeps the rest', async () => {
		const sb = await startSandbox({ seenSignatureLimit: 2 });
		const a = sb.apps['seller-a-full'];
		const client = new PartnerClient(sb.baseUrl, a.clientId, a.clientSecret);
		const t0 = Math.floor(Date.now() / 1000);
		const at = async (skewSec: number, path: string) => {
			await sb.control('POST', '/faults', { clockSkewSec: skewSec, replay: true });
			return (await client.get(path, { timestamp: t0 + skewSec })).json.error?.code ?? 'ok';
		};
		try {
			expect(await at(0, '/ping.php?n=1')).toBe('ok');
			expect(await at(250, '/ping.php?n=2')).toBe('ok');
			expect(await at(500, '/ping.php?n=3')).toBe('ok'); // three: the memory is pruned
			// n=1 (t0) is older than 500 - 300 s: forgotten, so it is not a replay once the clock is back.
			expect(await at(0, '/ping.php?n=1')).toBe('ok');
			// n=2 (t0 + 250) was within the tolerance: still known.
			expect(await at(250, '/ping.php?n=2')).toBe('replayed_signature');
			// Sent again within the tolerance, it is remembered again.
			expect(await at(0, '/ping.php?n=1')).toBe('replayed_signature');
		} finally {
			await client.close();
			await sb.close();
		}
	});
});
