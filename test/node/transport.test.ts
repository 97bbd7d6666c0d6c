// Which answers the node retries, how long it waits, and what counts as a success: answers the
// sandbox never gives, played back by a scripted API over loopback, through n8n's engine.
import { createHmac } from 'node:crypto';
import { credentialsFor, runNode } from '../helpers/n8n';
import { ok, startScriptedApi, type Answer, type ScriptedApi } from '../helpers/scriptedApi';

// For a credential refused before anything is sent (tests against a scripted API use its own app).
const app = { clientId: 'cli_scripted', clientSecret: 'cs_scripted_secret', webhookSecret: '' };
const ping = { resource: 'connection', operation: 'ping' };
const refusal = (status: number, code: string, message = 'No.'): Answer => ({ status, body: { ok: false, error: { code, message } } });

// A few tests here bound how long retries wait, by the wall clock: on a machine starved of CPU (a
// mutation run's parallel test runners) a correct run can overshoot. Such a test is tried again; a
// wrong wait fails every try.
jest.retryTimes(2, { logErrorsBeforeRetry: true });

describe('the transport against answers the sandbox never gives', () => {
	let api: ScriptedApi | undefined;
	afterEach(async () => {
		await api?.close();
		api = undefined;
	});

	async function pingWith(answers: Answer[], options: Record<string, unknown> = {}) {
		api = await startScriptedApi(answers);
		const started = Date.now();
		const run = await runNode({ parameters: { ...ping, options }, credentials: credentialsFor(api.baseUrl, api.app) });
		return { ...run, requests: api.requests, elapsed: Date.now() - started };
	}

	test.each([
		[501, 'not_implemented'],
		[400, 'invalid_parameter'],
		[404, 'endpoint_not_found'],
	])('HTTP %i fails at once: one request, the error carries the status', async (status, code) => {
		const { error, requests } = await pingWith([refusal(status, code), ok({ pong: true })]);
		expect(requests).toHaveLength(1);
		expect(error?.httpCode).toBe(String(status));
		expect(error?.description).toContain(`API code: ${code}.`);
	});

	test.each([500, 502, 503, 504])('HTTP %i is retried, and the answer after it is the result', async (status) => {
		const { items, error, requests } = await pingWith([refusal(status, 'service_unavailable'), ok({ pong: true })]);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([{ pong: true }]);
		expect(requests).toHaveLength(2);
		// Each attempt is signed afresh: a retry never re-sends a signature.
		expect(requests[1].headers['x-svc-signature']).not.toBe(requests[0].headers['x-svc-signature']);
	});

	test('a 500 is retried three times: the fourth is the error, with the API code and how often it was tried', async () => {
		const { error, requests } = await pingWith([...Array(4).fill(refusal(500, 'internal_error')), ok({ pong: true })]);
		expect(requests).toHaveLength(4);
		expect(error?.httpCode).toBe('500');
		expect(error?.message).toBe('The Partner API refused the request (HTTP 500, internal_error)');
		expect(error?.description).toMatch(/^Tried 4 times, answered HTTP 500 4 times \(a 500 is retried at most 3 times\)\. API code: internal_error\./);
	});

	test('the 500s of a request are counted apart from its other retries: 500, 503, 500, 500, then the result', async () => {
		const [unavailable, failed] = [refusal(503, 'service_unavailable'), refusal(500, 'internal_error')];
		const { items, error, requests } = await pingWith([failed, unavailable, failed, failed, ok({ pong: true })]);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([{ pong: true }]);
		expect(requests).toHaveLength(5);
	});

	test('a 500 then a refusal: the refusal is the error, without a count of 500s', async () => {
		const { error, requests } = await pingWith([refusal(500, 'internal_error'), refusal(404, 'endpoint_not_found')]);
		expect(requests).toHaveLength(2);
		expect(error?.description).toMatch(/^API code: endpoint_not_found\./);
	});

	test('a 429 waits exactly as long as its Retry-After says, not the backoff', async () => {
		const { error, requests } = await pingWith([{ ...refusal(429, 'rate_limited'), headers: { 'retry-after': '2' } }, ok({ pong: true })]);
		expect(error).toBeUndefined();
		const waited = requests[1].at - requests[0].at;
		// The first backoff is at most 0.25 s: only Retry-After explains 2 s.
		expect(waited).toBeGreaterThanOrEqual(1950);
		expect(waited).toBeLessThan(3000);
	});

	test('a 503 with Retry-After as an HTTP date waits until that moment', async () => {
		const until = new Date(Date.now() + 3000);
		const { error, requests } = await pingWith([
			{ ...refusal(503, 'service_unavailable'), headers: { 'retry-after': until.toUTCString() } },
			ok({ pong: true }),
		]);
		expect(error).toBeUndefined();
		// HTTP dates have whole seconds: the moment is 2 to 3 s after the first request.
		expect(requests[1].at).toBeGreaterThanOrEqual(Math.floor(until.getTime() / 1000) * 1000 - 50);
		expect(requests[1].at - requests[0].at).toBeLessThan(3500);
	});

	test('a Retry-After on a 502 is not the API asking for a pause: the backoff applies', async () => {
		const { error, requests } = await pingWith([{ ...refusal(502, 'bad_gateway'), headers: { 'retry-after': '5' } }, ok({ pong: true })]);
		expect(error).toBeUndefined();
		expect(requests[1].at - requests[0].at).toBeLessThan(1500);
	});

	test.each([
		['an unreadable Retry-After', 'soon'],
		['an empty Retry-After', ''],
	])('a 429 with %s falls back to the backoff', async (_, value) => {
		const { error, requests } = await pingWith([{ ...refusal(429, 'rate_limited'), headers: { 'retry-after': value } }, ok({ pong: true })]);
		expect(error).toBeUndefined();
		expect(requests[1].at - requests[0].at).toBeLessThan(1500);
	});

	test.each([
		['no envelope', { pong: true }],
		['ok false without an error', { ok: false }],
		['ok as a word no backend writes for true', { ok: 'yes', data: { pong: true } }],
		['no data', { ok: true }],
		['data that is not an object', { ok: true, data: 'pong' }],
		['a body that is not JSON', '<html>maintenance</html>'],
	])('a 200 with %s is an error, not a result, and is not retried', async (_, body) => {
		const { items, error, requests } = await pingWith([{ status: 200, body }, ok({ pong: true })]);
		expect(items).toEqual([]);
		expect(error?.message).toBe('The Partner API answered HTTP 200 with a body it does not normally send');
		expect(error?.httpCode).toBe('200');
		expect(requests).toHaveLength(1);
	});

	test.each([400, 404, 500])('an HTTP %i whose body says ok with data is an error all the same: the status decides', async (status) => {
		const { items, error } = await pingWith([{ status, body: { ok: true, data: { pong: true } } }]);
		expect(items).toEqual([]);
		expect(error?.httpCode).toBe(String(status));
	});

	test.each([
		['true', true],
		['1', 1],
		['"1"', '1'],
		['"true"', 'true'],
		['" TRUE "', ' TRUE '],
	])('a 200 envelope with ok as %s is a success (PHP backends write flags as numbers or text)', async (_, flag) => {
		const { items, error, requests } = await pingWith([{ status: 200, body: { ok: flag, data: { pong: true } } }]);
		expect(error).toBeUndefined();
		expect(items).toEqual([{ json: { pong: true }, pairedItem: { item: 0 } }]);
		expect(requests).toHaveLength(1);
	});

	test.each([
		['a nested error', { ok: false, error: { code: 'client_inactive', message: 'Off.' } }],
		['a flat error code', { ok: 0, error: 'client_inactive', message: 'Off.' }],
		['an errors list', { errors: [{ code: 'client_inactive', message: 'Off.' }] }],
		['a status field', { status: 'error', code: 'client_inactive', message: 'Off.' }],
	])('an error answered with HTTP 200 and %s is that error, with the API code and message', async (_, body) => {
		const { items, error, requests } = await pingWith([{ status: 200, body }, ok({ pong: true })]);
		expect(items).toEqual([]);
		expect(error?.message).toBe('This partner application is deactivated');
		expect(error?.description).toMatch(/^API code: client_inactive\. The API said: Off\. /);
		expect(error?.httpCode).toBe('200');
		expect(requests).toHaveLength(1);
	});

	test('a rate limit answered with HTTP 200 is waited out and retried like a 429', async () => {
		const { items, error, requests } = await pingWith([
			{ status: 200, headers: { 'retry-after': '1' }, body: { ok: false, error: { code: 'rate_limited', message: 'Slow down.' } } },
			ok({ pong: true }),
		]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(950);
	});

	test('an expired timestamp answered with HTTP 200 is corrected from the Date header like a 401', async () => {
		const date = new Date(Date.now() + 600_000).toUTCString();
		const { items, error, requests } = await pingWith([
			{ status: 200, headers: { date }, body: { ok: false, error: 'expired_timestamp' } },
			ok({ pong: true }),
		]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(Number(requests[1].headers['x-svc-timestamp'])).toBeGreaterThan(Date.now() / 1000 + 500);
	});

	test('a 200 envelope with ok false and an error code is that error', async () => {
		const { error, requests } = await pingWith([{ status: 200, body: { ok: false, error: { code: 'client_inactive', message: 'Off.' } } }]);
		expect(error?.message).toBe('This partner application is deactivated');
		expect(requests).toHaveLength(1);
	});

	test('expired_timestamp with the server time in Date: retried once, signed for the server clock', async () => {
		// Within the 15 minutes the node corrects (reliability.test.ts: beyond them).
		const serverNow = Date.now() + 600_000;
		const date = new Date(serverNow).toUTCString();
		const { items, error, requests } = await pingWith([
			{ ...refusal(401, 'expired_timestamp'), headers: { date } },
			{ ...refusal(401, 'expired_timestamp'), headers: { date } },
			ok({ pong: true }),
		]);
		// One correction only: a second expired_timestamp is the answer.
		expect(items).toEqual([]);
		expect(error?.message).toBe("The Partner API refused the request's timestamp as too old or too far ahead");
		expect(requests).toHaveLength(2);
		const [first, second] = requests.map((r) => Number(r.headers['x-svc-timestamp']));
		// Within the minute a repeated request may be backdated by (requestSigner.ts).
		expect(Math.abs(first - Date.now() / 1000)).toBeLessThan(70);
		expect(Math.abs(second - serverNow / 1000)).toBeLessThan(70);
		// The corrected timestamp is the one signed.
		const expected = createHmac('sha256', api!.app.clientSecret).update(`GET\n/ping.php\n${second}\n`).digest('hex');
		expect(requests[1].headers['x-svc-signature']).toBe(expected);
	});

	test('expired_timestamp without a Date header fails at once: there is no clock to correct to', async () => {
		const { error, requests } = await pingWith([refusal(401, 'expired_timestamp'), ok({ pong: true })]);
		expect(error?.message).toBe("The Partner API refused the request's timestamp as too old or too far ahead");
		expect(requests).toHaveLength(1);
	});

	test('another 401 is not a clock problem: no retry, even with a Date header', async () => {
		const { error, requests } = await pingWith([{ ...refusal(401, 'invalid_signature'), headers: { date: new Date(Date.now() + 3_600_000).toUTCString() } }, ok({ pong: true })]);
		expect(error?.message).toBe('The Partner API could not verify the request signature');
		expect(requests).toHaveLength(1);
	});

	test('an API that accepts the request and never answers: the run times out within Give Up After and says so', async () => {
		const { error, requests, elapsed } = await pingWith([{ status: 200, hang: true }], { giveUpAfter: 1 });
		expect(error?.message).toBe('Could not reach the Partner API: the request timed out');
		expect(error?.description).toMatch(/^Tried 1 time \(last error: [^)]+\)\. Check the credential's Base URL \(http:\/\/127\.0\.0\.1:\d+\/api\/partner\/v1\)/);
		expect(error?.description).toMatch(/Nothing in this run succeeded for 1 s/);
		expect(requests).toHaveLength(1);
		expect(elapsed).toBeLessThan(5000);
	});

	test('an answer that trickles in a byte at a time is cut at the request time-out, not read for as long as it lasts', async () => {
		const body = JSON.stringify({ ok: true, data: { pong: true, padding: 'x'.repeat(40) } });
		const { error, requests, elapsed } = await pingWith([{ status: 200, body, trickleMs: 250 }], { giveUpAfter: 1 });
		expect(error?.message).toBe('Could not reach the Partner API: the request timed out');
		expect(requests).toHaveLength(1);
		expect(elapsed).toBeLessThan(body.length * 250 * 0.5);
	});

	test('a refusal with a message but no code names the HTTP status and quotes the message', async () => {
		const { error } = await pingWith([{ status: 409, body: { ok: false, error: { message: 'Try later.' } } }]);
		expect(error?.message).toBe('The Partner API refused the request (HTTP 409)');
		expect(error?.description).toBe('The API said: Try later.');
	});

	test('an empty answer says so; a long page is quoted up to 300 characters, flattened', async () => {
		const empty = await pingWith([{ status: 418, body: '' }]);
		expect(empty.error?.message).toBe('The Partner API answered HTTP 418 with a body it does not normally send');
		expect(empty.error?.description).toBe("Check the credential's Base URL. Response started with: (empty)");
		await api?.close();
		const page = `<html>\n  <body>${'x'.repeat(400)}</body>\n</html>`;
		const long = await pingWith([{ status: 418, body: page }]);
		const flat = page.replace(/\s+/g, ' ');
		expect(long.error?.description).toBe(`Check the credential's Base URL. Response started with: ${flat.slice(0, 300)}…`);
		await api?.close();
		const short = await pingWith([{ status: 418, body: '<p>\n short </p>' }]);
		expect(short.error?.description).toBe("Check the credential's Base URL. Response started with: <p> short </p>");
	});

	test('a 503 without an API code, until Give Up After: the error names the status alone', async () => {
		const { error } = await pingWith([{ status: 503, body: '' }], { giveUpAfter: 1 });
		expect(error?.message).toBe('The Partner API answered HTTP 503 with a body it does not normally send');
		expect(error?.description).toMatch(/the last attempt got HTTP 503\.$/);
	});

	test('a credential without a Client ID fails the item with what to fill, and nothing is sent', async () => {
		api = await startScriptedApi([ok({ pong: true })]);
		const { clientId, ...credentials } = credentialsFor(api.baseUrl, api.app);
		expect(clientId).toBe(api.app.clientId);
		const { error } = await runNode({ parameters: ping, credentials });
		expect(error?.message).toBe('The credential has no Client ID. Paste the Client ID the operator issued.');
		expect(api.requests).toHaveLength(0);
	});

	// Backoff without Retry-After: 125–250 ms, then 250–500 ms, then 500–1000 ms (jittered, doubling).
	test.each([
		['a dropped connection', { status: 0, drop: true }],
		['a 503 without Retry-After', refusal(503, 'service_unavailable')],
	])('%s is retried after a backoff that starts at a quarter second and doubles', async (_, failure) => {
		const { error, requests } = await pingWith([failure, failure, failure, ok({ pong: true })]);
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(4);
		const waited = requests[3].at - requests[0].at;
		expect(waited).toBeGreaterThanOrEqual(875);
		// Two steps further along the curve would be 3.5 s at least (this one waits 1.75 s at most, plus
		// the four requests: room for a machine under load).
		expect(waited).toBeLessThan(3500);
	});

	test('dropped connections until Give Up After: the error counts the attempts and says why the node stopped', async () => {
		const { error, requests } = await pingWith([{ status: 0, drop: true }], { giveUpAfter: 3 });
		expect(error?.message).toBe('Could not reach the Partner API: the connection was closed before an answer came');
		expect(error?.description).toMatch(
			new RegExp(`^Tried ${requests.length} times \\(last error: [^)]+\\)\\. Check the credential's Base URL \\(http://127\\.0\\.0\\.1:\\d+/api/partner/v1\\) and that the API is reachable from this n8n\\. Nothing in this run succeeded for 3 s `),
		);
		expect(requests.length).toBeGreaterThanOrEqual(2);
	});

	// Each failure that ends a request frees its slot a timer turn late, so that the run sees it first.
	test.each([
		['a 200 that is not the envelope', { status: 200, body: '<html>maintenance</html>' }, /^The Partner API answered HTTP 200 with a body it does not normally send$/],
		['an answer over 4 MB', { status: 200, body: { ok: true, data: { product_id: 1, new_stock: 1, pad: 'x'.repeat(5 * 1024 * 1024) } } }, /^The API's answer was larger than 4 MB/],
		[
			'a timestamp refusal from a clock 75 years ahead',
			{ status: 401, headers: { date: 'Thu, 31 Dec 2099 23:59:59 GMT' }, body: { ok: false, error: { code: 'expired_timestamp', message: 'Timestamp expired.' } } },
			/^The API refused the request's timestamp, and its clock is \d+ minutes ahead/,
		],
	])('%s stops a sheet at Concurrency 1 before its next row is sent', async (_, answer, message) => {
		api = await startScriptedApi([answer, ok({ product_id: 2, new_stock: 1 })]);
		const rows = [1, 2, 3].map((product_id) => ({ product_id, stock: 1 }));
		const stock = { resource: 'stock', operation: 'update', productId: '={{ $json.product_id }}', stock: '={{ $json.stock }}', options: { concurrency: 1 } };
		const { error } = await runNode({ parameters: stock, items: rows, credentials: credentialsFor(api.baseUrl, api.app) });
		expect(error?.message).toMatch(message);
		expect(error?.context?.itemIndex).toBe(0);
		expect(api.requests).toHaveLength(1);
	});

	test('requests ask for JSON as the spec says; only a request with a body declares one', async () => {
		api = await startScriptedApi([ok({ pong: true }), ok({ product_id: 7, new_stock: 3 })]);
		const credentials = credentialsFor(api.baseUrl, api.app);
		expect((await runNode({ parameters: ping, credentials })).error).toBeUndefined();
		const stock = { resource: 'stock', operation: 'update', productId: 7, stock: 3 };
		expect((await runNode({ parameters: stock, credentials })).error).toBeUndefined();
		const [get, post] = api.requests;
		expect([get.method, post.method]).toEqual(['GET', 'POST']);
		expect(get.headers.accept).toBe('application/json');
		expect(get.headers).not.toHaveProperty('content-type');
		expect(post.headers.accept).toBe('application/json');
		expect(post.headers['content-type']).toBe('application/json');
	});

	// In n8n each read is a database query and a decryption: a sheet must not pay for one per row.
	test('a run reads its credential once, however many items it sends', async () => {
		api = await startScriptedApi([ok({ pong: true })]);
		const { error, credentialReads, items } = await runNode({ parameters: ping, items: Array.from({ length: 25 }, (_, row) => ({ row })), credentials: credentialsFor(api.baseUrl, api.app) });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(25);
		expect(api.requests).toHaveLength(25);
		expect(credentialReads).toBe(1);
	});

	test('a credential read that failed is read again by the items after it, not given to all of them', async () => {
		api = await startScriptedApi([ok({ pong: true })]);
		let reads = 0;
		const credentials = credentialsFor(api.baseUrl, api.app);
		const baseUrl = credentials.baseUrl;
		// n8n's first read fails (a database that blinked); every later read succeeds.
		Object.defineProperty(credentials, 'baseUrl', {
			enumerable: true,
			get: () => {
				reads++;
				if (reads === 1) throw new Error('the credentials table is locked');
				return baseUrl;
			},
		});
		const { error, items, credentialReads } = await runNode({ parameters: ping, items: Array.from({ length: 25 }, (_, row) => ({ row })), credentials, continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(25);
		const failed = items.filter((item) => item.json.error !== undefined);
		expect(failed.length).toBeGreaterThan(0);
		expect(failed.every((item) => item.json.error === 'the credentials table is locked')).toBe(true);
		expect(items.filter((item) => item.json.pong === true).length).toBe(25 - failed.length);
		expect(items.at(-1)?.json.pong).toBe(true);
		expect(credentialReads).toBe(2);
	});

	test('a credential that cannot be used names the item that read it', async () => {
		const { error } = await runNode({ parameters: ping, credentials: credentialsFor('https://partner.example.com/api/partner', app) });
		expect(error?.message).toMatch(/end in the version segment/);
		expect(error?.context?.itemIndex).toBe(0);
	});

	test('a refusal of the second of two pings names item 1', async () => {
		api = await startScriptedApi([ok({ pong: true }), refusal(403, 'client_inactive')]);
		const { error } = await runNode({ parameters: ping, items: [{ row: 1 }, { row: 2 }], credentials: credentialsFor(api.baseUrl, api.app) });
		expect(error?.message).toBe('This partner application is deactivated');
		expect(error?.context?.itemIndex).toBe(1);
	});
});
