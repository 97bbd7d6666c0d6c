import type { INode } from 'n8n-workflow';
import {
	apiErrorFromResponse,
	API_ERRORS,
	cutAtDeadline,
	describeNetworkError,
	explainBySku,
	explainOrderDetail,
	networkCode,
	notHttpError,
	ssrfBlockedError,
	readErrorBody,
} from '../../nodes/shared/transport/errors';

const node = { id: '1', name: 'Marketplace Partner', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

describe('reading error bodies of any shape', () => {
	test.each([
		[{ ok: false, error: { code: 'forbidden_product', message: 'no', field: 'product_id' } }, { code: 'forbidden_product', message: 'no', field: 'product_id' }],
		[{ error: 'invalid_signature', message: 'bad' }, { code: 'invalid_signature', message: 'bad', field: undefined }],
		[{ error: 'invalid_field', message: 'bad', field: 'stock' }, { code: 'invalid_field', message: 'bad', field: 'stock' }],
		[{ code: 'order_not_found', message: 'gone' }, { code: 'order_not_found', message: 'gone', field: undefined }],
		['{"error":{"code":"expired_timestamp"}}', { code: 'expired_timestamp', message: undefined, field: undefined }],
		['<html>Bad gateway</html>', {}],
		[null, {}],
		[[1, 2], { code: undefined, message: undefined, field: undefined }],
		[{ errors: [{ code: 'order_not_found', message: 'gone', field: 'order_item_id' }, { code: 'other' }] }, { code: 'order_not_found', message: 'gone', field: 'order_item_id' }],
		[{ status: 'error', code: 'invalid_signature', message: 'bad' }, { code: 'invalid_signature', message: 'bad', field: undefined }],
		[{ ok: 0, error: 'client_inactive' }, { code: 'client_inactive', message: undefined, field: undefined }],
		[{ errors: [] }, { code: undefined, message: undefined, field: undefined }],
	])('%j', (body, expected) => {
		expect(readErrorBody(body)).toEqual(expected);
	});
});

describe('an answer that is not an API error: the start of its body, on one line', () => {
	const shown = (body: unknown) => (apiErrorFromResponse(node, 502, body).description ?? '').replace("Check the credential's Base URL. Response started with: ", '');

	test.each([
		['  <html>\n  Bad   gateway\n</html>\n', '<html> Bad gateway </html>'],
		[{ status: 'down' }, '{"status":"down"}'],
		['', '(empty)'],
		['x'.repeat(300), 'x'.repeat(300)],
		['x'.repeat(301), `${'x'.repeat(300)}…`],
		// A word that fills the 300 characters exactly, then more: cut, with the mark.
		[`${'x'.repeat(300)} y`, `${'x'.repeat(300)}…`],
	])('%j is shown as %j', (body, expected) => {
		expect(shown(body)).toBe(expected);
	});
});

describe('error messages', () => {
	test.each([
		// The API's own full stops and trailing space are dropped, one full stop is ours.
		[403, { error: { code: 'forbidden_product', message: 'Product 7 is not yours. . ' } }, `API code: forbidden_product. The API said: Product 7 is not yours. ${API_ERRORS.forbidden_product.description}`],
		[403, { error: { code: 'forbidden_product' } }, `API code: forbidden_product. ${API_ERRORS.forbidden_product.description}`],
		[422, { error: { code: 'stock_too_high', message: 'Too high', field: 'stock' } }, 'API code: stock_too_high. The API said: Too high (field: stock).'],
		// Only full stops and spaces: nothing of the API's words is left to quote.
		[422, { error: { code: 'stock_locked', message: ' . . ' } }, 'API code: stock_locked.'],
	])('HTTP %i %j: the description reads %j', (status, body, description) => {
		expect(apiErrorFromResponse(node, status, body).description).toBe(description);
	});

	test('every code of the spec gets its own message and what-to-do, not the fallback', () => {
		const specCodes = ['missing_auth_headers', 'invalid_signature', 'expired_timestamp', 'order_not_found', 'product_not_found', 'forbidden_product'];
		const messages = specCodes.map((code) => {
			const error = apiErrorFromResponse(node, 400, { ok: false, error: { code, message: 'as the API said it' } });
			expect(error.message).toBe(API_ERRORS[code].message);
			expect(error.message).not.toMatch(/refused the request \(HTTP/);
			expect(API_ERRORS[code].description.length).toBeGreaterThan(20);
			expect(error.description).toContain(API_ERRORS[code].description);
			expect(error.description).toContain('The API said: as the API said it');
			return error.message;
		});
		expect(new Set(messages).size).toBe(specCodes.length);
	});

	test('a known code gives its explanation, the API message and the HTTP status', () => {
		const error = apiErrorFromResponse(node, 403, { ok: false, error: { code: 'forbidden_product', message: 'Product 7 is not yours.' } }, 3);
		expect(error.message).toBe('The product belongs to another seller');
		expect(error.description).toMatch(/^API code: forbidden_product\. The API said: Product 7 is not yours\. This app/);
		expect(error.description).toContain("only its own seller's products");
		expect(error.httpCode).toBe('403');
		expect(error.context.itemIndex).toBe(3);
	});

	test('an unknown code still says what the API said', () => {
		const error = apiErrorFromResponse(node, 409, { error: { code: 'stock_locked', message: 'Try later' } });
		expect(error.message).toBe('The Partner API refused the request (HTTP 409, stock_locked)');
		expect(error.description).toBe('API code: stock_locked. The API said: Try later.');
	});

	test('a body of no known shape gives the status and the start of the body', () => {
		const error = apiErrorFromResponse(node, 502, '<html><body>Bad Gateway from the proxy</body></html>');
		expect(error.message).toBe('The Partner API answered HTTP 502 with a body it does not normally send');
		expect(error.description).toContain('Bad Gateway from the proxy');
	});
});

describe('a 500 with a body of no known shape: a server error, quoted', () => {
	test.each([
		['<br />\n<b>Fatal error</b>:  Uncaught Error', '<br /> <b>Fatal error</b>: Uncaught Error'],
		['', '(empty)'],
	])('%j', (body, shown) => {
		const error = apiErrorFromResponse(node, 500, body);
		expect(error.message).toBe('The Partner API failed with a server error (HTTP 500)');
		expect(error.description).toBe(`The error is on the marketplace's side: if it persists, tell its operator what the answer started with: ${shown}`);
		expect(error.httpCode).toBe('500');
	});
});

describe('answers to a request by SKU', () => {
	const bySku = (status: number, body: unknown) => explainBySku(apiErrorFromResponse(node, status, body));

	test.each([
		[400, { error: { code: 'missing_field', message: 'product_id is required', field: 'product_id' } }],
		[422, { error: { code: 'invalid_field', message: 'must be an integer', field: 'product_id' } }],
		[400, { code: 'bad_request', message: 'Missing product_id' }],
		[400, { error: 'validation_error', message: 'The product_id field is required' }],
	])('HTTP %i %j: the marketplace does not take sku', (status, body) => {
		expect(bySku(status, body).message).toBe('This marketplace does not accept updates by SKU');
	});

	test("an answer of another shape keeps the API's code and words beside what to do", () => {
		const error = bySku(400, { error: 'validation_error', message: 'The product_id field is required' });
		expect(error.description).toMatch(/^API code: validation_error\. The API said: The product_id field is required\. .*Set Identify Product By to Product ID/);
	});

	test.each([
		[503, { error: { code: 'service_unavailable', message: 'product_id lookups are down' } }, 'The Partner API is temporarily unavailable'],
		[400, { error: { code: 'invalid_field', message: 'product_id must not be sent with sku', field: 'sku' } }, 'The Partner API refused a field of the request'],
		[400, { error: { code: 'negative_stock', message: 'stock below 0' } }, 'The stock must not be negative'],
		[409, { error: { code: 'stock_locked' } }, 'The Partner API refused the request (HTTP 409, stock_locked)'],
	])('HTTP %i %j keeps its own message', (status, body, message) => {
		expect(bySku(status, body).message).toBe(message);
	});

	test('not found and another seller speak of the SKU, with the API\'s words', () => {
		const missing = bySku(404, { error: { code: 'product_not_found', message: 'Product with SKU "X" was not found.' } });
		expect(missing.message).toBe('No product has this SKU');
		expect(missing.description).toMatch(/^API code: product_not_found\. The API said: Product with SKU "X" was not found\. Check the SKU/);
		expect(missing.description).not.toMatch(/Product ID/);
		expect(bySku(403, { error: { code: 'forbidden_product' } }).message).toBe('The SKU belongs to another seller');
	});

	// A server failing is not the API asking for product_id, whatever its message mentions.
	test('an HTTP 500 that mentions product_id keeps its own message', () => {
		const error = bySku(500, { error: { code: 'internal_error', message: 'product_id index is rebuilding' } });
		expect(error.message).toBe('The Partner API refused the request (HTTP 500, internal_error)');
	});

	test('without an API code, the description starts with what the API said', () => {
		const error = bySku(400, { error: { message: 'product_id is required.', field: 'product_id' } });
		expect(error.message).toBe('This marketplace does not accept updates by SKU');
		expect(error.description).toMatch(/^The API said: product_id is required \(field: product_id\)\. The node sent the product as sku/);
	});
});

describe('network errors in words', () => {
	test.each([
		['ECONNREFUSED', 'the connection was refused'],
		['ETIMEDOUT', 'the request timed out'],
		['ECONNABORTED', 'the request timed out'],
		['timeout of 1000ms exceeded', 'the request timed out'],
		['ENOTFOUND', 'the host name could not be resolved'],
		['EAI_AGAIN', 'the host name could not be resolved'],
		['CERT_HAS_EXPIRED', 'the TLS certificate was not accepted'],
		['DEPTH_ZERO_SELF_SIGNED_CERT', 'the TLS certificate was not accepted'],
		['ERR_SSL_WRONG_VERSION_NUMBER', 'the TLS certificate was not accepted'],
		['ECONNRESET', 'the connection was closed before an answer came'],
		['EPIPE', 'the connection was closed before an answer came'],
	])('%s: %s', (code, words) => {
		expect(describeNetworkError(code)).toBe(words);
	});
});

describe('a failed request that got no answer: retried when the network says so', () => {
	const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
	test.each<[string, unknown, string | undefined]>([
		['its code', reset, 'ECONNRESET'],
		['the code of its cause', { message: 'request failed', cause: { code: 'ECONNREFUSED' } }, 'ECONNREFUSED'],
		['its message', new Error('socket hang up'), 'socket hang up'],
		// n8n 1.x wraps it in an error of its own words, without cause or code; the network's are in `messages`.
		['the words n8n 1.x keeps', { message: 'The connection to the server was closed unexpectedly', messages: [42, 'socket hang up'] }, 'socket hang up'],
		['the code before the message', { code: 'EPIPE', message: 'socket hang up' }, 'EPIPE'],
		['a later part when the first says nothing', { code: 'ERR_BAD_RESPONSE', message: 'timeout of 1000ms exceeded' }, 'timeout'],
		['an answer that is not HTTP', { code: 'HPE_INVALID_CONSTANT', message: 'Parse Error' }, undefined],
		['an error of ours', new Error('Stock must be 0 or more'), undefined],
		['nothing thrown', undefined, undefined],
		['null thrown', null, undefined],
	])('%s', (_, failure, code) => {
		expect(networkCode(failure)).toBe(code);
	});

	// axios says "canceled" both when the signer's deadline cut the answer and when the user stopped the run.
	test.each<[string, unknown, number, boolean]>([
		['cancelled at the deadline', { code: 'ERR_CANCELED', message: 'canceled' }, 1000, true],
		['cancelled after it', { message: 'canceled' }, 1500, true],
		['its cause cancelled', { message: 'request failed', cause: { code: 'ERR_CANCELED' } }, 1000, true],
		['cancelled before it: the user', { code: 'ERR_CANCELED', message: 'canceled' }, 999, false],
		['another failure at the deadline', { code: 'ERR_BAD_RESPONSE', message: 'cancelled by the proxy' }, 1000, false],
		['nothing thrown', undefined, 1000, false],
	])('%s', (_, failure, elapsedMs, cut) => {
		expect(cutAtDeadline(failure, elapsedMs, 1000)).toBe(cut);
	});
});

describe("another seller's order item refused with 403", () => {
	const detail = (status: number, body: unknown) => explainOrderDetail(apiErrorFromResponse(node, status, body));

	test.each([
		[{ ok: false, error: { code: 'forbidden_order', message: 'Not your order.' } }, 'API code: forbidden_order. The API said: Not your order. '],
		[{ error: 'forbidden', message: 'Forbidden' }, 'API code: forbidden. The API said: Forbidden. '],
		[{ ok: false, error: { code: 'order_not_found' } }, 'API code: order_not_found. '],
		['', ''],
	])('%j says whose it is and what to check', (body, start) => {
		const error = detail(403, body);
		expect(error.message).toBe("The order item is not this seller's");
		expect(error.description).toBe(
			`${start}The API refused it (HTTP 403): a marketplace may answer another seller's order item as refused or as not found. Check the Order Item ID: take it from Order › Get Many (field order_item_id) of this credential.`,
		);
	});

	test.each([
		[403, { error: { code: 'insufficient_permission' } }, 'This partner application lacks the permission for this operation'],
		[403, { error: { code: 'client_inactive' } }, 'This partner application is deactivated'],
		[404, { error: { code: 'order_not_found' } }, 'The order item was not found'],
		[401, { error: { code: 'forbidden_order' } }, 'The Partner API refused the request (HTTP 401, forbidden_order)'],
	])('HTTP %i %j keeps its own message', (status, body, message) => {
		expect(detail(status, body).message).toBe(message);
	});
});

describe('an answer that is not HTTP', () => {
	const parseError = Object.assign(new Error('Parse Error: Expected HTTP/'), { code: 'HPE_INVALID_CONSTANT' });

	test('names the Base URL\'s origin and what to check', () => {
		const error = notHttpError(node, parseError, 'http://127.0.0.1:22/api/partner/v1', 2);
		expect(error?.message).toBe('The Base URL does not answer in HTTP');
		expect(error?.description).toBe(
			"The server at http://127.0.0.1:22 answered something that is not HTTP (HPE_INVALID_CONSTANT Parse Error: Expected HTTP/). Check the credential's Base URL: scheme (https or http), host and port must be the Partner API's, ending in /v1.",
		);
		expect(error?.context.itemIndex).toBe(2);
	});

	test('the same failure as the cause of another error', () => {
		expect(notHttpError(node, { message: 'request failed', cause: parseError }, 'http://127.0.0.1:22/v1')?.message).toBe('The Base URL does not answer in HTTP');
	});

	test('what the failure said, once each, without parts that are not text or are empty', () => {
		const failure = { code: 7, message: 'Parse Error: Expected HTTP/', cause: { code: '', message: 'Parse Error: Expected HTTP/' } };
		expect(notHttpError(node, failure, 'http://127.0.0.1:22/v1')?.description).toMatch(/^The server at http:\/\/127\.0\.0\.1:22 answered something that is not HTTP \(Parse Error: Expected HTTP\/\)\. /);
	});

	test('https to a port that speaks plain HTTP: the Base URL does not speak https', () => {
		const tls = Object.assign(new Error('write EPROTO 40E7:error:0A00010B:SSL routines:ssl3_get_record:wrong version number'), { code: 'EPROTO' });
		const error = notHttpError(node, tls, 'https://partner.example.com:8080/api/partner/v1');
		expect(error?.message).toBe('The Base URL does not speak https');
		expect(error?.description).toMatch(/^The server at https:\/\/partner\.example\.com:8080 answered something that is not TLS \(EPROTO write EPROTO/);
	});

	test.each([
		['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
		['an error of ours', new Error('Stock must be 0 or more')],
		['nothing', undefined],
	])('%s is not', (_, failure) => {
		expect(notHttpError(node, failure, 'http://127.0.0.1:22/v1')).toBeUndefined();
	});

	test('a long message is cut at 120 characters', () => {
		const error = notHttpError(node, new Error(`Parse Error: ${'x'.repeat(300)}`), 'http://127.0.0.1:22/v1');
		expect(error?.description).toContain(`(Parse Error: ${'x'.repeat(107)}).`);
	});
});

describe("a request n8n's SSRF protection refused: the administrator's setting that allows exactly the Base URL's host", () => {
	// As n8n 2.41's @n8n/backend-network throws them (a UserError subclass), alone or as a cause.
	const blockedIp = Object.assign(new Error('The request was blocked because it resolves to a restricted IP address'), { name: 'SsrfBlockedIpError' });
	const blockedName = Object.assign(new Error('The request was blocked because the destination hostname is restricted'), { name: 'SsrfBlockedHostnameError' });

	test.each([
		['https://10.1.2.3/api/partner/v1', blockedIp, 'N8N_SSRF_ALLOWED_IP_RANGES=10.1.2.3/32'],
		['https://10.20.30.40/api/partner/v1', blockedIp, 'N8N_SSRF_ALLOWED_IP_RANGES=10.20.30.40/32'],
		// A host name that starts like an address is still a name.
		['https://10.1.2.3.sslip.io/api/partner/v1', blockedIp, 'N8N_SSRF_ALLOWED_HOSTNAMES=10.1.2.3.sslip.io'],
		['https://[fd00::1]:8443/api/partner/v1', blockedIp, 'N8N_SSRF_ALLOWED_IP_RANGES=fd00::1/128'],
		['https://partner.internal.example/api/partner/v1', blockedIp, 'N8N_SSRF_ALLOWED_HOSTNAMES=partner.internal.example'],
		['https://partner.internal.example/api/partner/v1', blockedName, 'N8N_SSRF_ALLOWED_HOSTNAMES=partner.internal.example'],
		['https://partner.internal.example/api/partner/v1', { message: 'request failed', cause: blockedIp }, 'N8N_SSRF_ALLOWED_HOSTNAMES=partner.internal.example'],
		['https://partner.internal.example/api/partner/v1', { name: 'SsrfBlockedIpError' }, 'N8N_SSRF_ALLOWED_HOSTNAMES=partner.internal.example'],
	])('%s, %j', (baseUrl, failure, allow) => {
		const error = ssrfBlockedError(node, failure, baseUrl, 1);
		expect(error?.message).toBe("n8n's SSRF protection blocked the request to the Base URL");
		const host = new URL(baseUrl).hostname;
		expect(error?.description).toBe(
			`This n8n refuses requests to ${host} (N8N_SSRF_PROTECTION_ENABLED: it blocks private, loopback and other internal addresses, and host names its administrator lists). Nothing was sent. If ${host} is your marketplace's Partner API, the n8n administrator allows exactly it with ${allow}; otherwise correct the credential's Base URL.`,
		);
		expect(error?.context.itemIndex).toBe(1);
	});

	test.each([[new Error('connect ECONNREFUSED 127.0.0.1:1')], [{ message: 'Parse Error: Expected HTTP/' }], [null], ['SsrfBlockedIpError is not a thrown object'], [{ name: 'TypeError', message: 'blocked' }], [{ name: ['SsrfBlockedIpError'] }]])(
		'not an SSRF refusal: %j',
		(failure) => {
			expect(ssrfBlockedError(node, failure, 'https://10.1.2.3/v1')).toBeUndefined();
		},
	);
});
