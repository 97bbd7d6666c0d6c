// The node's signing, checked against vectors computed by openssl (test/fixtures/make-vectors.sh).
import type { IHttpRequestOptions } from 'n8n-workflow';
import vectors from '../fixtures/signature-vectors.json';
import { signRequestOptions } from '../../nodes/MarketplacePartner/transport/requestSigner';
import {
	buildQueryString,
	buildSignedText,
	encodeRfc3986,
	pathRelativeToBase,
	signRequest,
} from '../../nodes/MarketplacePartner/transport/signing';

const byName = (name: string) => vectors.requests.find((v) => v.name === name)!;
const BASE = 'https://partner.example.com/api/partner/v1';
const creds = { baseUrl: BASE, clientId: 'cli_test', clientSecret: vectors.clientSecret, headerPrefix: 'X-SVC-' };

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
