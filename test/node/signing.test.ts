// The node's signing, checked against vectors computed by openssl (test/fixtures/make-vectors.sh).
import type { IHttpRequestOptions } from 'n8n-workflow';
import vectors from '../fixtures/signature-vectors.json';
import { signRequestOptions } from '../../nodes/shared/transport/requestSigner';
import {
	buildQueryString,
	buildSignedText,
	encodeRfc3986,
	pathRelativeToBase,
	signRequest,
} from '../../nodes/shared/transport/signing';

const byName = (name: string) => vectors.requests.find((v) => v.name === name)!;
const BASE = 'https://partner.example.com/api/partner/v1';
const creds = { baseUrl: BASE, clientId: 'cli_test', clientSecret: vectors.clientSecret, headerPrefix: 'X-SVC-' };

const headersOf = (signed: IHttpRequestOptions) => signed.headers as Record<string, string>;
/** The signature must be over exactly the method, path, timestamp and body that go out. */
const expectSignedAsSent = (signed: IHttpRequestOptions, path: string, body = '') => {
	const h = headersOf(signed);
	expect(h['X-SVC-SIGNATURE']).toBe(signRequest(vectors.clientSecret, signed.method!, path, h['X-SVC-TIMESTAMP'], body));
	expect(signed.body ?? '').toBe(body);
};

describe('pure signing functions', () => {
	test.each(vectors.requests)('$name', (v) => {
		expect(signRequest(vectors.clientSecret, v.method, v.path, vectors.timestamp, v.body)).toBe(v.signature);
	});

	test('the signed text is METHOD, PATH, TIMESTAMP and RAW_BODY joined by line feeds', () => {
		expect(buildSignedText('post', '/stock_update.php', 1, '{}')).toBe('POST\n/stock_update.php\n1\n{}');
		expect(buildSignedText('GET', '/ping.php', 1, '')).toBe('GET\n/ping.php\n1\n');
	});

	test('the query is built in the given order with RFC 3986 encoding', () => {
		const query = buildQueryString({
			limit: 100,
			offset: 0,
			status: 'on hold & paid+',
			updated_after: '2026-01-05 10:00:00',
			q: 'İstanbul Köln',
			skipped: undefined,
		});
		expect(`/orders.php?${query}`).toBe(byName('GET, query with space, plus, ampersand, colon and non-ASCII, percent-encoded').path);
		expect(encodeRfc3986("it's (a)*!")).toBe('it%27s%20%28a%29%2A%21');
	});

	test('a query or body is signed as written: never re-ordered or re-serialised', () => {
		// Each pair holds the same data in another order; a signer that sorted query parameters or
		// re-serialised the body would give both the same signature.
		for (const [original, reordered] of [
			['GET, query with space, plus, ampersand, colon and non-ASCII, percent-encoded', 'GET, same query in another order'],
			['POST, compact JSON', 'POST, same body with keys re-ordered'],
		].map(([a, b]) => [byName(a), byName(b)])) {
			const signedOriginal = signRequest(vectors.clientSecret, original.method, original.path, vectors.timestamp, original.body);
			const signedReordered = signRequest(vectors.clientSecret, reordered.method, reordered.path, vectors.timestamp, reordered.body);
			expect([signedOriginal, signedReordered]).toEqual([original.signature, reordered.signature]);
			expect(signedReordered).not.toBe(signedOriginal);
		}
	});

	test('PATH is relative to the base URL; other URLs are refused', () => {
		expect(pathRelativeToBase(`${BASE}/orders.php?limit=5`, `${BASE}/`)).toBe('/orders.php?limit=5');
		expect(() => pathRelativeToBase('https://partner.example.com/other/ping.php', BASE)).toThrow(/not under/);
	});
});

describe('the credential signer, as n8n calls it', () => {
	const at = (extra: Partial<IHttpRequestOptions>): IHttpRequestOptions => ({
		url: '',
		headers: { 'X-SVC-TIMESTAMP': String(vectors.timestamp) },
		...extra,
	});

	test('a POST body object is serialised once and signed as sent (non-ASCII included)', async () => {
		const v = byName('POST, non-ASCII external_ref');
		const signed = await signRequestOptions(
			creds,
			at({ method: 'POST', url: `${BASE}/stock_update.php`, body: JSON.parse(v.body) }),
		);
		expect(signed.body).toBe(v.body);
		expect(signed.headers).toMatchObject({
			'X-SVC-CLIENT-ID': 'cli_test',
			'X-SVC-TIMESTAMP': String(vectors.timestamp),
			'X-SVC-SIGNATURE': v.signature,
			'Content-Type': 'application/json',
			Accept: 'application/json',
		});
	});

	test('qs is folded into the URL, in order, and signed with it', async () => {
		const v = byName('GET, query with space, plus, ampersand, colon and non-ASCII, percent-encoded');
		const signed = await signRequestOptions(
			creds,
			at({
				method: 'GET',
				url: `${BASE}/orders.php`,
				qs: { limit: 100, offset: 0, status: 'on hold & paid+', updated_after: '2026-01-05 10:00:00', q: 'İstanbul Köln' },
			}),
		);
		expect(signed.url).toBe(`${BASE}${v.path}`);
		expect(signed.qs).toBeUndefined();
		expect((signed.headers as Record<string, string>)['X-SVC-SIGNATURE']).toBe(v.signature);
	});

	test('baseURL + url (the credential test and the HTTP Request node) are joined like axios joins them', async () => {
		const v = byName('GET, no query');
		const signed = await signRequestOptions(creds, at({ method: 'GET', baseURL: `${BASE}/`, url: '/ping.php' }));
		expect(signed.url).toBe(`${BASE}/ping.php`);
		expect(signed.baseURL).toBeUndefined();
		expect((signed.headers as Record<string, string>)['X-SVC-SIGNATURE']).toBe(v.signature);
	});

	test("n8n's legacy request shape (the HTTP Request node): uri, qs and a JSON body", async () => {
		const v = byName('POST, compact JSON');
		const legacy = { method: 'POST', uri: `${BASE}/stock_update.php`, body: { product_id: 70001, stock: 12 }, json: true, headers: { 'X-SVC-TIMESTAMP': String(vectors.timestamp) } };
		const signed = (await signRequestOptions(creds, legacy as unknown as IHttpRequestOptions)) as IHttpRequestOptions & { uri?: string };
		expect(signed.url).toBe(`${BASE}/stock_update.php`);
		expect(signed.uri).toBeUndefined();
		expect(signed.body).toBe(v.body);
		expect((signed.headers as Record<string, string>)['X-SVC-SIGNATURE']).toBe(v.signature);
	});

	test('a legacy form body is signed as the urlencoded text sent; multipart is refused', async () => {
		const signed = await signRequestOptions(creds, { method: 'POST', uri: `${BASE}/x.php`, form: { a: 'b c' } } as unknown as IHttpRequestOptions);
		expect(signed.body).toBe('a=b+c');
		expect((signed.headers as Record<string, string>)['Content-Type']).toBe('application/x-www-form-urlencoded');
		await expect(signRequestOptions(creds, { method: 'POST', uri: `${BASE}/x.php`, formData: {} } as unknown as IHttpRequestOptions)).rejects.toThrow(/Multipart/);
		// A Content-Type the user set (any case) is kept, not replaced.
		const typed = await signRequestOptions(creds, {
			method: 'POST',
			uri: `${BASE}/x.php`,
			form: 'a=1',
			headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
		} as unknown as IHttpRequestOptions);
		expect(typed.body).toBe('a=1');
		expect(Object.entries(typed.headers as Record<string, string>).filter(([name]) => name.toLowerCase() === 'content-type')).toEqual([
			['content-type', 'application/x-www-form-urlencoded; charset=utf-8'],
		]);
	});

	test('a URL typed with spaces is signed in the percent-encoded form the client sends', async () => {
		const signed = await signRequestOptions(creds, { method: 'GET', url: `${BASE}/orders.php?status=on hold` });
		expect(signed.url).toBe(`${BASE}/orders.php?status=on%20hold`);
		const h = signed.headers as Record<string, string>;
		expect(h['X-SVC-SIGNATURE']).toBe(signRequest(vectors.clientSecret, 'GET', '/orders.php?status=on%20hold', h['X-SVC-TIMESTAMP'], ''));
	});

	test('the same request twice never carries the same signature', async () => {
		const request = () => signRequestOptions(creds, { method: 'POST', url: `${BASE}/stock_update.php`, body: { product_id: 1, stock: 2 } });
		const signed = await Promise.all(Array.from({ length: 5 }, request));
		const sigs = signed.map((s) => (s.headers as Record<string, string>)['X-SVC-SIGNATURE']);
		const stamps = signed.map((s) => Number((s.headers as Record<string, string>)['X-SVC-TIMESTAMP']));
		expect(new Set(sigs).size).toBe(5);
		expect(Math.max(...stamps) - Math.min(...stamps)).toBeLessThan(60);
		for (const s of signed) expect(JSON.stringify(s)).not.toContain(vectors.clientSecret);
	});

	test.each([
		['another host', `https://evil.example.com/api/partner/v1/ping.php`, /not under the credential's Base URL/],
		['a path outside the base', `https://partner.example.com/api/partner/v2/ping.php`, /not under/],
	])('a request to %s is refused, not signed', async (_, url, message) => {
		await expect(signRequestOptions(creds, { method: 'GET', url })).rejects.toThrow(message);
	});

	test.each([
		['plain http to a public host', { baseUrl: 'http://partner.example.com/api/partner/v1' }, /https/],
		['no version segment', { baseUrl: 'https://partner.example.com/api/partner' }, /end in the version segment/],
		['a path past the version segment', { baseUrl: 'https://partner.example.com/api/partner/v1/orders.php' }, /end in the version segment/],
		['another protocol, even to a loopback host', { baseUrl: 'ftp://127.0.0.1/api/partner/v1' }, /must use https/],
		['not a URL', { baseUrl: 'partner.example.com' }, /not a URL/],
		['no secret', { clientSecret: '' }, /no Client Secret/],
		['a bad header prefix', { headerPrefix: 'X SVC' }, /Header Prefix/],
	])('a credential with %s gets an error that says what to fix', async (_, change, message) => {
		await expect(signRequestOptions({ ...creds, ...change }, { method: 'GET', url: `${BASE}/ping.php` })).rejects.toThrow(message);
	});

	test('http:// is allowed for a loopback sandbox', async () => {
		const signed = await signRequestOptions(
			{ ...creds, baseUrl: 'http://127.0.0.1:8787/api/partner/v1' },
			{ method: 'GET', url: 'http://127.0.0.1:8787/api/partner/v1/ping.php' },
		);
		expect(signed.url).toBe('http://127.0.0.1:8787/api/partner/v1/ping.php');
	});
});

describe('the credential signer with every body and header shape n8n may hand it', () => {
	type Signed = IHttpRequestOptions & { uri?: string; form?: unknown };

	test('a Buffer body is sent and signed as its text', async () => {
		const signed = await signRequestOptions(creds, { method: 'POST', url: `${BASE}/stock_update.php`, body: Buffer.from('{"product_id":70001,"stock":"İ"}') });
		expectSignedAsSent(signed, '/stock_update.php', '{"product_id":70001,"stock":"İ"}');
		expect(headersOf(signed)['Content-Type']).toBe('application/json');
	});

	test('a URLSearchParams body is sent and signed as its urlencoded text', async () => {
		const signed = await signRequestOptions(creds, { method: 'PUT', url: `${BASE}/x.php`, body: new URLSearchParams({ a: 'b c', d: 'é' }) });
		expectSignedAsSent(signed, '/x.php', 'a=b+c&d=%C3%A9');
	});

	test('a string body is sent as given, never re-serialised', async () => {
		const signed = await signRequestOptions(creds, { method: 'POST', url: `${BASE}/x.php`, body: '{ "b": 1,  "a": 2 }' });
		expectSignedAsSent(signed, '/x.php', '{ "b": 1,  "a": 2 }');
	});

	test('a form-data body (multipart) is refused with a clear error, not signed', async () => {
		const multipart = { getHeaders: () => ({ 'content-type': 'multipart/form-data; boundary=x' }) };
		await expect(
			signRequestOptions(creds, { method: 'POST', url: `${BASE}/x.php`, body: multipart as unknown as IHttpRequestOptions['body'] }),
		).rejects.toThrow('Multipart (form-data) bodies cannot be signed for the Partner API; send JSON.');
	});

	test('GET and HEAD carry no body: one given is dropped and the empty body signed', async () => {
		for (const method of ['GET', 'HEAD'] as const) {
			const signed = await signRequestOptions(creds, { method, url: `${BASE}/orders.php?limit=${method.length}`, body: { a: 1 } });
			expect(signed.body).toBeUndefined();
			expectSignedAsSent(signed, `/orders.php?limit=${method.length}`);
			expect(headersOf(signed)['Content-Type']).toBeUndefined();
		}
	});

	test('an empty POST body is sent as none, without a Content-Type', async () => {
		const signed = await signRequestOptions(creds, { method: 'POST', url: `${BASE}/empty.php`, body: '' });
		expect(signed.body).toBeUndefined();
		expectSignedAsSent(signed, '/empty.php');
		expect(headersOf(signed)['Content-Type']).toBeUndefined();
		expect(headersOf(signed).Accept).toBe('application/json');
	});

	test('a lower-case method is sent and signed upper-case; no method is GET', async () => {
		const post = await signRequestOptions(creds, { method: 'post' as IHttpRequestOptions['method'], url: `${BASE}/lower.php`, body: { a: 1 } });
		expect(post.method).toBe('POST');
		expectSignedAsSent(post, '/lower.php', '{"a":1}');
		const none = await signRequestOptions(creds, { url: `${BASE}/none.php` });
		expect(none.method).toBe('GET');
		expectSignedAsSent(none, '/none.php');
	});

	test('headers given in any case are kept once, not doubled or overridden', async () => {
		const signed = await signRequestOptions(creds, {
			method: 'POST',
			url: `${BASE}/headers.php`,
			body: 'a=1',
			headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain', 'x-svc-signature': 'stale', 'x-svc-client-id': 'someone-else' },
		});
		const h = headersOf(signed);
		expect(Object.keys(h).map((k) => k.toLowerCase()).sort()).toEqual(['accept', 'content-type', 'x-svc-client-id', 'x-svc-signature', 'x-svc-timestamp']);
		expect(h['content-type']).toBe('application/x-www-form-urlencoded');
		expect(h.accept).toBe('text/plain');
		expect(h['X-SVC-CLIENT-ID']).toBe('cli_test');
		expectSignedAsSent(signed, '/headers.php', 'a=1');
	});

	test("a timestamp header from the caller (the server's clock) is the clock signed with, in any case", async () => {
		const serverClock = Math.floor(Date.now() / 1000) + 3600;
		const signed = await signRequestOptions(creds, { method: 'GET', url: `${BASE}/clock.php`, headers: { 'x-svc-timestamp': String(serverClock) } });
		const h = headersOf(signed);
		expect(Object.keys(h).filter((k) => k.toLowerCase() === 'x-svc-timestamp')).toEqual(['X-SVC-TIMESTAMP']);
		expect(Number(h['X-SVC-TIMESTAMP'])).toBe(serverClock);
		expectSignedAsSent(signed, '/clock.php');
	});

	test("a timestamp header that is not Unix seconds is ignored: this machine's clock is used", async () => {
		const signed = await signRequestOptions(creds, { method: 'GET', url: `${BASE}/clock2.php`, headers: { 'X-SVC-TIMESTAMP': '2026-01-01T00:00:00Z' } });
		expect(Math.abs(Number(headersOf(signed)['X-SVC-TIMESTAMP']) - Date.now() / 1000)).toBeLessThan(2);
		expectSignedAsSent(signed, '/clock2.php');
	});

	test('the Header Prefix of the credential names every header', async () => {
		const signed = await signRequestOptions({ ...creds, headerPrefix: 'X-Shop-' }, { method: 'GET', url: `${BASE}/prefix.php` });
		const h = headersOf(signed);
		expect(Object.keys(h).sort()).toEqual(['Accept', 'X-Shop-CLIENT-ID', 'X-Shop-SIGNATURE', 'X-Shop-TIMESTAMP']);
		expect(h['X-Shop-SIGNATURE']).toBe(signRequest(vectors.clientSecret, 'GET', '/prefix.php', h['X-Shop-TIMESTAMP'], ''));
	});

	test.each([
		['a base URL with a trailing slash and a url with leading slashes', { baseURL: `${BASE}/`, url: '//join.php' }, `${BASE}/join.php`],
		['a base URL without a slash and a url without one', { baseURL: BASE, url: 'join.php' }, `${BASE}/join.php`],
		['an absolute url, which the base URL does not prefix', { baseURL: 'https://other.example.com/v1', url: `${BASE}/join.php` }, `${BASE}/join.php`],
		['an absolute url in upper case', { baseURL: 'https://other.example.com/v1', url: `HTTPS://partner.example.com/api/partner/v1/join.php` }, `${BASE}/join.php`],
	])('URL joining: %s', async (_, parts, sent) => {
		const signed = await signRequestOptions(creds, { method: 'GET', ...parts });
		expect(signed.url).toBe(sent);
		expect(signed.baseURL).toBeUndefined();
		expectSignedAsSent(signed, '/join.php');
	});

	test('qs: list values repeat the key, objects are sent as JSON, empty values are left out, and a URL with a query gets &', async () => {
		const signed = (await signRequestOptions(creds, {
			method: 'GET',
			url: `${BASE}/orders.php?a=1`,
			qs: { status: ['accepted', 'paid'], filter: { x: 1 }, skipped: null, limit: 5 },
		})) as Signed;
		const path = '/orders.php?a=1&filter=%7B%22x%22%3A1%7D&limit=5&status=accepted&status=paid';
		expect(signed.url).toBe(`${BASE}${path}`);
		expect(signed.qs).toBeUndefined();
		expectSignedAsSent(signed, path);
	});

	test('an empty qs leaves the URL as it is', async () => {
		for (const qs of [{}, { gone: undefined }]) {
			const signed = await signRequestOptions(creds, { method: 'GET', url: `${BASE}/plain.php`, qs });
			expect(signed.url).toBe(`${BASE}/plain.php`);
			expectSignedAsSent(signed, '/plain.php');
			const withQuery = await signRequestOptions(creds, { method: 'GET', url: `${BASE}/plain.php?a=1`, qs });
			expect(withQuery.url).toBe(`${BASE}/plain.php?a=1`);
			expectSignedAsSent(withQuery, '/plain.php?a=1');
		}
	});

	test("a legacy form given as text is signed as that text; a JSON body wins over a form", async () => {
		const text = (await signRequestOptions(creds, { method: 'POST', uri: `${BASE}/f.php`, form: 'a=1&b=2' } as unknown as IHttpRequestOptions)) as Signed;
		expectSignedAsSent(text, '/f.php', 'a=1&b=2');
		expect(text.form).toBeUndefined();
		const both = (await signRequestOptions(creds, { method: 'POST', uri: `${BASE}/f.php`, form: { a: 1 }, body: { b: 2 } } as unknown as IHttpRequestOptions)) as Signed;
		expectSignedAsSent(both, '/f.php', '{"b":2}');
		expect(headersOf(both)['Content-Type']).toBe('application/json');
	});

	test('a request to the right host outside the Base URL path, or on another port, is refused', async () => {
		await expect(signRequestOptions(creds, { method: 'GET', url: 'https://partner.example.com/api/partner/v1x/ping.php' })).rejects.toThrow(/not under/);
		await expect(signRequestOptions(creds, { method: 'GET', url: 'https://partner.example.com:8443/api/partner/v1/ping.php' })).rejects.toThrow(
			"The URL https://partner.example.com:8443/api/partner/v1/ping.php is not under the credential's Base URL https://partner.example.com/api/partner/v1.",
		);
	});
});

describe('the credential signer: shapes at the edges', () => {

	test.each([
		['a base URL with two trailing slashes and a url with a path', { baseURL: `${BASE}//`, url: 'sub/join.php' }, '/sub/join.php'],
		['a relative url whose query holds an address', { baseURL: BASE, url: 'join.php?next=https://x.example' }, '/join.php?next=https://x.example'],
	])('URL joining: %s', async (_, parts, path) => {
		const signed = await signRequestOptions(creds, { method: 'GET', ...parts });
		expect(signed.url).toBe(`${BASE}${path}`);
		expectSignedAsSent(signed, path);
	});

	test('an absolute http:// url (a loopback sandbox) is not prefixed by a base URL', async () => {
		const loopback = { ...creds, baseUrl: 'http://127.0.0.1:8787/api/partner/v1' };
		const signed = await signRequestOptions(loopback, { method: 'GET', baseURL: 'https://other.example.com/v1', url: 'http://127.0.0.1:8787/api/partner/v1/join.php' });
		expect(signed.url).toBe('http://127.0.0.1:8787/api/partner/v1/join.php');
		expectSignedAsSent(signed, '/join.php');
	});

	test.each([
		['null', null],
		['not given', undefined],
		['empty text', ''],
	])('a POST whose body is %s is sent without a body, signed with the empty body', async (_, body) => {
		const signed = await signRequestOptions(creds, { method: 'POST', url: `${BASE}/null.php`, body: body as IHttpRequestOptions['body'] });
		expect(signed).not.toHaveProperty('body');
		expect(Object.keys(headersOf(signed)).map((k) => k.toLowerCase())).not.toContain('content-type');
		expectSignedAsSent(signed, '/null.php');
	});

	test('a legacy form given as text is sent byte for byte, never decoded and encoded again', async () => {
		const signed = await signRequestOptions(creds, { method: 'POST', uri: `${BASE}/f.php`, form: 'note=a%20b&x=%2B' } as unknown as IHttpRequestOptions);
		expectSignedAsSent(signed, '/f.php', 'note=a%20b&x=%2B');
	});

	test('qs holding only lists gives a query without an empty first part', async () => {
		const signed = await signRequestOptions(creds, { method: 'GET', url: `${BASE}/lists.php`, qs: { status: ['accepted', 'paid'] } });
		expect(signed.url).toBe(`${BASE}/lists.php?status=accepted&status=paid`);
	});

	test('a timestamp header that only ends in digits is not Unix seconds: ignored', async () => {
		const signed = await signRequestOptions(creds, { method: 'GET', url: `${BASE}/clock3.php`, headers: { 'X-SVC-TIMESTAMP': 'at 1767225600' } });
		expect(Math.abs(Number(headersOf(signed)['X-SVC-TIMESTAMP']) - Date.now() / 1000)).toBeLessThan(2);
	});

	// A repeat is backdated within the last minute, never signed for a second still to come.
	test('the same request many times in a row: timestamps go back at most 59 s, never ahead of the clock', async () => {
		const stamps: number[] = [];
		for (let i = 0; i < 61; i++) {
			const signed = await signRequestOptions(creds, { method: 'GET', url: `${BASE}/repeat.php` });
			const stamp = Number(headersOf(signed)['X-SVC-TIMESTAMP']);
			expect(stamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
			stamps.push(stamp);
		}
		expect(new Set(stamps).size).toBe(61);
		expect(Math.min(...stamps)).toBeGreaterThanOrEqual(stamps[0] - 59);
	});
});
