// Other Endpoint › Send Request: a call to an endpoint the node has no operation for, through the
// same transport as every operation (signed, retried, explained). Against the real sandbox for the
// signature and the effect, and a scripted API for answers the sandbox never gives.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { ok, startScriptedApi, type Answer, type ScriptedApi } from '../helpers/scriptedApi';

type Product = { product_id: number; stock: number | null; variant_combination_ids: number[] };

const other = (method: string, path: string, extra: IDataObject = {}): IDataObject => ({
	resource: 'otherEndpoint',
	operation: 'send',
	endpoint: 'other',
	method,
	path,
	...extra,
});
const refusal = (status: number, code: string): Answer => ({ status, body: { ok: false, error: { code, message: 'No.' } } });

describe('Other Endpoint › Send Request against the sandbox: signed as every operation is', () => {
	let sb: RunningSandbox;
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
	beforeAll(async () => {
		sb = await startSandbox();
	});
	afterAll(() => sb.close());

	test('GET /ping.php: the signature is accepted and the data is the item', async () => {
		const { items, error } = await runNode({ parameters: other('GET', '/ping.php'), credentials: credentials(), typeVersion: 3 });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual(expect.objectContaining({ seller_id: sb.apps['seller-a-full'].sellerId }));
	});

	test('GET /orders.php with Query Parameters: the query is signed and applied', async () => {
		const query = { parameter: [{ name: 'limit', value: '3' }, { name: 'status', value: 'shipped' }] };
		const { items, error } = await runNode({ parameters: other('GET', '/orders.php', { query }), credentials: credentials(), typeVersion: 3 });
		expect(error).toBeUndefined();
		const orders = items[0].json.orders as Array<{ status: string }>;
		expect(orders).toHaveLength(3);
		expect(new Set(orders.map((o) => o.status))).toEqual(new Set(['shipped']));
	});

	test('POST /stock_update.php with a Body: the signed body is applied, as the sandbox holds it after', async () => {
		const products: Product[] = await sb.control('GET', '/products?sellerId=1001');
		const product = products.find((p) => p.variant_combination_ids.length === 0)!;
		const stock = (product.stock ?? 0) + 7;
		const body = JSON.stringify({ product_id: product.product_id, stock });
		const { items, error } = await runNode({ parameters: other('POST', '/stock_update.php', { body }), credentials: credentials(), typeVersion: 3 });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual(expect.objectContaining({ product_id: product.product_id, new_stock: stock }));
		const after: Product[] = await sb.control('GET', '/products?sellerId=1001');
		expect(after.find((p) => p.product_id === product.product_id)?.stock).toBe(stock);
	});

	test('an announced endpoint the marketplace does not answer yet: its refusal, explained, sent once', async () => {
		await sb.control('POST', '/stats/reset');
		const { error } = await runNode({ parameters: { resource: 'otherEndpoint', operation: 'send', endpoint: 'GET /brands.php' }, credentials: credentials(), typeVersion: 3 });
		expect(error?.httpCode).toBe('404');
		expect(error?.description).toContain('API code: endpoint_not_found.');
		const stats = await sb.control('GET', '/stats');
		expect(JSON.stringify(stats)).toContain('brands.php');
	});
});

describe('Other Endpoint › Send Request: what is sent, and what is sent again', () => {
	let api: ScriptedApi | undefined;
	afterEach(async () => {
		await api?.close();
		api = undefined;
	});
	async function send(answers: Answer[], parameters: IDataObject, items?: IDataObject[], continueOnFail = false) {
		api = await startScriptedApi(answers);
		const run = await runNode({ parameters, credentials: credentialsFor(api.baseUrl, api.app), typeVersion: 3, items, continueOnFail });
		return { ...run, requests: api.requests };
	}

	test('an announced endpoint: its method and path, the body byte for byte, the query encoded', async () => {
		const parameters = {
			resource: 'otherEndpoint',
			operation: 'send',
			endpoint: 'POST /price_update.php',
			query: { parameter: [{ name: 'dry run', value: 'a&b=ü' }] },
			body: '{ "product_id": 70001, "price": "12.50" }',
		};
		const { items, error, requests } = await send([ok({ product_id: 70001, price: '12.50' })], parameters);
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ product_id: 70001, price: '12.50' });
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe('/api/partner/v1/price_update.php?dry%20run=a%26b%3D%C3%BC');
		expect(requests[0].rawBody).toBe('{"product_id":70001,"price":"12.50"}');
		expect(requests[0].headers['x-svc-signature']).toMatch(/^[0-9a-f]{64}$/);
	});

	test('query parameters named as object internals (__proto__, constructor) are sent like any other, signed', async () => {
		const parameter = [
			{ name: '__proto__', value: 'a' },
			{ name: 'constructor', value: 'b' },
			{ name: 'limit', value: '2' },
		];
		const { error, requests } = await send([ok({})], other('GET', '/orders.php', { query: { parameter } }));
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0].url).toBe('/api/partner/v1/orders.php?__proto__=a&constructor=b&limit=2');
	});

	test('a GET has no body, even with a Body left in the parameters', async () => {
		const { requests } = await send([ok({})], other('GET', '/categories.php', { body: '{"x":1}' }));
		expect(requests[0].method).toBe('GET');
		expect(requests[0].rawBody).toBe('');
	});

	test.each<[string, unknown, Record<string, unknown>]>([
		['a list', [{ id: 1 }, { id: 2 }], { data: [{ id: 1 }, { id: 2 }] }],
		['a number', 3, { data: 3 }],
		['no data at all', undefined, {}],
		['an object', { brands: [] }, { brands: [] }],
	])('a success whose data is %s is the item, as it came', async (_, data, json) => {
		const { items, error } = await send([{ status: 200, body: { ok: true, data } }], other('GET', '/brands.php'));
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([json]);
	});

	test.each([
		['POST', 502],
		['PATCH', 500],
	])('a %s answered %i is not sent again: the error says to check whether it was applied', async (method, status) => {
		const { error, requests } = await send([refusal(status, 'server_error'), ok({})], other(method, '/order_status_update.php', { body: '{}' }));
		expect(requests).toHaveLength(1);
		expect(error?.description).toMatch(new RegExp(`^Not sent again: a ${method} to an endpoint this node does not know may not be safe to apply twice; check in the marketplace whether it was applied\\. `));
	});

	test('a POST refused with a 4xx was not applied: its error does not ask to check whether it was', async () => {
		const { error, requests } = await send([refusal(400, 'bad_request'), ok({})], other('POST', '/order_status_update.php', { body: '{}' }));
		expect(requests).toHaveLength(1);
		expect(error?.description).toBeDefined();
		expect(error?.description).not.toMatch(/Not sent again/);
	});

	test.each(['GET', 'PUT', 'DELETE'])('a %s answered 502 is sent again, and the answer after it is the result', async (method) => {
		const { items, error, requests } = await send([refusal(502, 'bad_gateway'), ok({ done: true })], other(method, '/products.php', { body: '{}' }));
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(2);
		expect(items[0].json).toEqual({ done: true });
	});

	test.each([429, 503])('a POST answered %i (not taken) is sent again after the wait', async (status) => {
		const { items, error, requests } = await send([{ ...refusal(status, 'rate_limited'), headers: { 'retry-after': '1' } }, ok({ done: true })], other('POST', '/cancel_order.php', { body: '{"order_item_id": 500001}' }));
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(2);
		expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(900);
		expect(requests[1].rawBody).toBe(requests[0].rawBody);
		expect(items[0].json).toEqual({ done: true });
	});

	test('a POST whose connection drops after it was sent is not sent again, and says so; a GET is', async () => {
		const post = await send([{ status: 0, drop: true }, ok({})], other('POST', '/shipment_update.php', { body: '{}' }));
		expect(post.requests).toHaveLength(1);
		expect(post.error?.message).toMatch(/^No answer from the Partner API \(.+\), and the request was not sent again$/);
		expect(post.error?.description).toContain('Check in the marketplace whether it was applied before you run it again.');
		await api?.close();
		const get = await send([{ status: 0, drop: true }, ok({ ok: 1 })], other('GET', '/brands.php'));
		expect(get.error).toBeUndefined();
		expect(get.requests).toHaveLength(2);
	});

	test.each([
		// Empty from an expression (n8n refuses an empty required field before the run).
		['={{ "" }}', /^Path is empty/],
		['categories.php', /must start with \//],
		['/orders.php?limit=5', /holds a query: give its parameters under Query Parameters/],
		['/x#frag', /holds a query/],
		['//elsewhere.example/x', /is not a path under the Base URL/],
		['/../v2/orders.php', /is not a path under the Base URL/],
		['/a/./b', /is not a path under the Base URL/],
		['/a/..', /is not a path under the Base URL/],
		['/with space', /is not a path under the Base URL/],
		['/bad%zz', /is not a path under the Base URL/],
		['/bad%4g', /is not a path under the Base URL/],
		['/bad%4', /is not a path under the Base URL/],
		['/ü.php', /is not a path under the Base URL/],
		['/a\r\nX-Injected: 1', /is not a path under the Base URL/],
	])('Path %j is refused with what to change, and nothing is sent', async (path, message) => {
		const { error, requests } = await send([ok({})], other('GET', path));
		expect(error?.message).toMatch(message);
		expect(requests).toHaveLength(0);
	});

	test.each(['/v2/new_endpoint.php', '/a-b_c~d.php', '/x%2Fy;v=1:@!$&\'()*+,='])('Path %j is sent under the Base URL as written', async (path) => {
		const { error, requests } = await send([ok({})], other('GET', path));
		expect(error).toBeUndefined();
		expect(requests[0].url).toBe(`/api/partner/v1${path}`);
	});

	test('Path with spaces around it (pasted) is sent without them', async () => {
		const { error, requests } = await send([ok({})], other('GET', '  /v2/new_endpoint.php '));
		expect(error).toBeUndefined();
		expect(requests[0].url).toBe('/api/partner/v1/v2/new_endpoint.php');
	});

	test.each([
		['[1, 2]', /^Body must be a JSON object/],
		['"text"', /^Body must be a JSON object/],
		['{"a": ', /^Body is not valid JSON/],
		['null', /^Body must be a JSON object/],
	])('Body %j is refused before anything is sent', async (body, message) => {
		const { error, requests } = await send([ok({})], other('POST', '/x.php', { body }));
		expect(error?.message).toMatch(message);
		expect(requests).toHaveLength(0);
	});

	test('a Body from an expression (an object) is sent as JSON; an empty Body as {}', async () => {
		const { requests } = await send([ok({}), ok({})], other('POST', '/x.php', { body: '={{ { "product_id": $json.id } }}' }), [{ id: 70001 }]);
		expect(requests[0].rawBody).toBe('{"product_id":70001}');
		await api?.close();
		const empty = await send([ok({})], other('POST', '/x.php', { body: '' }));
		expect(empty.requests[0].rawBody).toBe('{}');
		await api?.close();
		const blank = await send([ok({})], other('POST', '/x.php', { body: ' \n ' }));
		expect(blank.requests[0].rawBody).toBe('{}');
	});

	test.each([
		[[{ name: '', value: 'x' }], 'A query parameter has no name: give it one, or remove it'],
		[[{ name: 'a', value: '1' }, { name: ' a ', value: '2' }], 'The query parameter "a" is given twice: keep one'],
	])('Query Parameters %j are refused', async (parameter, message) => {
		const { error, requests } = await send([ok({})], other('GET', '/x.php', { query: { parameter } }));
		expect(error?.message).toBe(message);
		expect(requests).toHaveLength(0);
	});

	test('with Continue On Fail, each item is a result or its error: a bad path does not hide the others', async () => {
		const parameters = other('GET', '={{ $json.path }}');
		const { items, requests } = await send([ok({ n: 1 }), ok({ n: 2 })], parameters, [{ path: '/a.php' }, { path: 'b.php' }, { path: '/c.php' }], true);
		expect(items.map((i) => i.json.n ?? i.json.error)).toEqual([1, expect.stringMatching(/^Path "b\.php" must start with \//), 2]);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(requests.map((r) => r.url)).toEqual(['/api/partner/v1/a.php', '/api/partner/v1/c.php']);
	});
});
