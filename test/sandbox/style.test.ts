// Answer styles of the sandbox (sandbox/style.js), over real HTTP: each switch plays one plausible
// answer of a real marketplace where the spec says "not shown", and the defaults answer as before.
import { request } from 'undici';
import { PartnerClient } from '../helpers/partnerClient';
import { startReceiver } from '../helpers/receiver';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../../sandbox/server');

const DEFAULT_STYLE = {
	timeZone: 'UTC',
	answerStyle: 'json',
	hasMoreStyle: 'boolean',
	pageCap: 0,
	errorStyle: 'default',
	foreignOrderStatus: 404,
};

// Seed 1, 300 orders of seller A (test/helpers/sandbox.ts): the first item of seller A, created at
// 2026-03-03 00:00:00 UTC (winter in New York), and one created at 2026-05-10 04:21:51 UTC (summer).
const FIRST_UTC =
	'{"order_item_id":500001,"order_no":"ORD-A-0000001","status":"accepted","payment_status":"paid","currency":"EUR",' +
	'"unit_price":313.55,"quantity":4,"created_at":"2026-03-03 00:00:00","updated_at":"2026-03-03 00:24:03",' +
	'"product":{"product_id":70085,"title":"Classic Mug 70085","sku":"SKU-A-70085"},"customer":{"city":"Ankara","district":"Çankaya"}}';
const FIRST_PHP =
	'{"order_item_id":"500001","order_no":"ORD-A-0000001","status":"accepted","payment_status":"paid","currency":"EUR",' +
	'"unit_price":"313.55","quantity":"4","created_at":"2026-03-03 00:00:00","updated_at":"2026-03-03 00:24:03",' +
	'"product":{"product_id":"70085","title":"Classic Mug 70085","sku":"SKU-A-70085"},"customer":{"city":"Ankara","district":"Çankaya"}}';
const SELLER_B_ITEM = 500018;

/** A moment in a zone as an independent implementation (sv-SE writes YYYY-MM-DD HH:MM:SS) says it. */
const inZone = (ms: number, timeZone: string) => new Date(ms).toLocaleString('sv-SE', { timeZone });
/** Every second from `from` to `to` written in the zone: what a datetime written between them may say. */
function secondsBetween(from: number, to: number, timeZone: string) {
	const out: string[] = [];
	for (let s = Math.floor(from / 1000); s <= Math.floor(to / 1000); s++) out.push(inZone(s * 1000, timeZone));
	return out;
}
const text = (json: unknown) => JSON.stringify(json);

describe('sandbox answer styles', () => {
	let sb: RunningSandbox;
	let a: PartnerClient;
	let b: PartnerClient;
	const style = (body: Record<string, unknown>) => sb.control('POST', '/style', body);

	beforeAll(async () => {
		sb = await startSandbox();
		a = new PartnerClient(sb.baseUrl, sb.apps['seller-a-full'].clientId, sb.apps['seller-a-full'].clientSecret);
		b = new PartnerClient(sb.baseUrl, sb.apps['seller-b-full'].clientId, sb.apps['seller-b-full'].clientSecret);
	});
	afterEach(async () => {
		await sb.control('POST', '/style/reset');
		await sb.control('POST', '/faults/reset');
		await sb.control('POST', '/list-order', { order: 'order_item_id' });
	});
	afterAll(async () => {
		await a.close();
		await b.close();
		await sb.close();
	});

	describe('defaults', () => {
		test('GET /style and /state show the default style', async () => {
			expect(await sb.control('GET', '/style')).toEqual(DEFAULT_STYLE);
			expect((await sb.control('GET', '/state')).style).toEqual(DEFAULT_STYLE);
			expect(sb.raw.style).toEqual(DEFAULT_STYLE);
		});

		test('orders.php answers as before: UTC, JSON numbers, has_more true/false, limit honoured', async () => {
			const res = await a.get('/orders.php?limit=1');
			expect(res.status).toBe(200);
			expect(text(res.json)).toBe(`{"ok":true,"data":{"orders":[${FIRST_UTC}],"pagination":{"limit":1,"offset":0,"returned":1,"has_more":true}}}`);
			const last = await a.get('/orders.php?limit=100&offset=200');
			expect(last.json.data.pagination).toEqual({ limit: 100, offset: 200, returned: 100, has_more: false });
		});

		test('errors answer 4xx with {ok:false,error:{code,message}}; another seller\'s order is 404', async () => {
			const res = await a.get(`/order_detail.php?order_item_id=${SELLER_B_ITEM}`);
			expect(res.status).toBe(404);
			expect(text(res.json)).toBe(`{"ok":false,"error":{"code":"order_not_found","message":"Order item ${SELLER_B_ITEM} was not found."}}`);
		});
	});

	describe('timeZone', () => {
		test.each([
			['America/New_York', '2026-03-02 19:00:00', '2026-03-02 19:24:03', '2026-05-10 00:21:51', '2026-05-10 00:56:09'],
			['Asia/Tokyo', '2026-03-03 09:00:00', '2026-03-03 09:24:03', '2026-05-10 13:21:51', '2026-05-10 13:56:09'],
			['Europe/Moscow', '2026-03-03 03:00:00', '2026-03-03 03:24:03', '2026-05-10 07:21:51', '2026-05-10 07:56:09'],
			['UTC', '2026-03-03 00:00:00', '2026-03-03 00:24:03', '2026-05-10 04:21:51', '2026-05-10 04:56:09'],
		])('%s: the list and the detail write local time (winter and summer)', async (timeZone, created1, updated1, created2, updated2) => {
			expect(await style({ timeZone })).toMatchObject({ timeZone });
			const [first] = (await a.get('/orders.php?limit=1')).json.data.orders;
			expect([first.order_item_id, first.created_at, first.updated_at]).toEqual([500001, created1, updated1]);
			const [summer] = (await a.get('/orders.php?limit=1&offset=232')).json.data.orders;
			expect([summer.order_item_id, summer.created_at, summer.updated_at]).toEqual([500251, created2, updated2]);
			const detail = (await a.get('/order_detail.php?order_item_id=500251')).json.data.order;
			expect([detail.created_at, detail.updated_at]).toEqual([created2, updated2]);
			expect(detail.order_item_id).toBe(500251);
		});

		test('a zone name is stored canonical', async () => {
			expect(await style({ timeZone: 'utc' })).toMatchObject({ timeZone: 'UTC' });
		});

		test('updated_after is read in the zone; an ISO offset is honoured', async () => {
			const count = async (after: string) => (await a.get(`/orders.php?limit=100&updated_after=${encodeURIComponent(after)}`)).json.data.pagination.returned;
			// 500251 was updated at 2026-05-10 04:56:09 UTC: 71 items of seller A were updated after it.
			expect(await count('2026-05-10 04:56:09')).toBe(71);
			expect(await count('2026-05-10 00:56:09')).toBe(73); // four hours earlier, read as UTC
			await style({ timeZone: 'America/New_York' });
			expect(await count('2026-05-10 00:56:09')).toBe(71); // 00:56:09 EDT is 04:56:09 UTC
			expect(await count('2026-05-10T00:56:09')).toBe(71);
			expect(await count('2026-05-10T04:56:09Z')).toBe(71);
			expect(await count('2026-05-10T08:56:09+04:00')).toBe(71);
			expect(await count('2026-05-10 00:56:08')).toBe(72); // one second earlier takes 500251 in
			const ids = async (after: string) =>
				(await a.get(`/orders.php?limit=100&updated_after=${encodeURIComponent(after)}`)).json.data.orders.map((o: { order_item_id: number }) => o.order_item_id);
			expect(await ids('2026-05-10 00:56:08')).toContain(500251);
			expect(await ids('2026-05-10 00:56:09')).not.toContain(500251); // strictly after
		});

		test('a malformed updated_after names the zone it is read in', async () => {
			expect((await a.get('/orders.php?updated_after=soon')).json.error.message).toBe('updated_after must be "YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601.');
			await style({ timeZone: 'Asia/Tokyo' });
			const res = await a.get('/orders.php?updated_after=soon');
			expect(res.status).toBe(400);
			expect(res.json.error).toEqual({
				code: 'invalid_parameter',
				message: 'updated_after must be "YYYY-MM-DD HH:MM:SS" (Asia/Tokyo) or ISO 8601.',
				field: 'updated_after',
			});
		});

		test('stock updates and ping write now in the zone; the Date header stays GMT', async () => {
			await style({ timeZone: 'America/New_York' });
			const before = Date.now();
			const stock = await a.post('/stock_update.php', { product_id: 70001, stock: 3 });
			const ping = await a.get('/ping.php');
			const after = Date.now();
			const window = secondsBetween(before, after, 'America/New_York');
			expect(window).toContain(stock.json.data.updated_at);
			expect(window).toContain(ping.json.data.server_time);
			expect(secondsBetween(before, after, 'UTC')).not.toContain(stock.json.data.updated_at);
			expect(String(ping.headers.date)).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
			expect(Math.abs(Date.parse(String(ping.headers.date)) - after)).toBeLessThan(5000);
		});
	});

	describe('answerStyle php', () => {
		test('ids, quantities and prices are strings, money with two decimals; ok and has_more are 1', async () => {
			await style({ answerStyle: 'php' });
			const res = await a.get('/orders.php?limit=1');
			expect(text(res.json)).toBe(`{"ok":1,"data":{"orders":[${FIRST_PHP}],"pagination":{"limit":"1","offset":"0","returned":"1","has_more":1}}}`);
			const prices = (await a.get('/orders.php?limit=45')).json.data.orders.map((o: { order_item_id: string; unit_price: string }) => [o.order_item_id, o.unit_price]);
			expect(prices[3]).toEqual(['500004', '379.10']);
			expect(prices[44]).toEqual(['500048', '80.00']);
			expect((await a.get('/orders.php?limit=100&offset=200')).json.data.pagination).toEqual({ limit: '100', offset: '200', returned: '100', has_more: 0 });
		});

		test('the detail, in a zone too', async () => {
			await style({ answerStyle: 'php', timeZone: 'America/New_York' });
			const res = await a.get('/order_detail.php?order_item_id=500001');
			expect(text(res.json)).toBe(
				'{"ok":1,"data":{"order":{"order_item_id":"500001","order_no":"ORD-A-0000001","status":"accepted","payment_status":"paid",' +
					'"currency":"EUR","quantity":"4","unit_price":"313.55","created_at":"2026-03-02 19:00:00","updated_at":"2026-03-02 19:24:03"},' +
					'"product":{"product_id":"70085","title":"Classic Mug 70085","sku":"SKU-A-70085","barcode":"8172610080931",' +
					'"variant_combination_id":"900071","variant_summary":"Size: M, Colour: Olive"},' +
					'"customer":{"full_name":"Jürgen Dupont","city":"Ankara","district":"Çankaya","address":"Hauptstraße 221, Çankaya, Ankara"},' +
					'"shipment":{"carrier_code":"swift_cargo","shipment_ref":"SHP-91250EF3","tracking_number":null,"status":"label_ready"}}}',
			);
		});

		test('stock update answers: stock values and ids as strings, updated 1, nulls stay null', async () => {
			await a.post('/stock_update.php', { product_id: 70001, stock: 7 });
			await style({ answerStyle: 'php' });
			const res = await a.post('/stock_update.php', { product_id: 70001, stock: 5 });
			const { updated_at, ...rest } = res.json.data;
			expect(res.json.ok).toBe(1);
			expect(rest).toEqual({ product_id: '70001', variant_combination_id: null, old_stock: '7', new_stock: '5', updated: 1, external_ref: null });
			expect(updated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
			const variant = await a.post('/stock_update.php', { product_id: 70003, variant_combination_id: 900003, stock: 2, external_ref: 'r1' });
			expect(variant.json.data).toMatchObject({ product_id: '70003', variant_combination_id: '900003', new_stock: '2', external_ref: 'r1' });
		});

		test('ping: pong 1, seller_id and timestamp strings', async () => {
			await style({ answerStyle: 'php' });
			const { json } = await a.get('/ping.php');
			expect(json.ok).toBe(1);
			expect(json.data).toMatchObject({ pong: 1, seller_id: '1001', client_id: sb.apps['seller-a-full'].clientId });
			expect(json.data.permissions).toEqual(['orders:read', 'orders:detail', 'stock:write', 'webhooks']);
			expect(json.data.timestamp).toMatch(/^\d{10}$/);
		});

		test('errors: ok 0, numbers as strings', async () => {
			await style({ answerStyle: 'php' });
			const res = await a.get('/ping.php', { timestamp: Math.floor(Date.now() / 1000) - 3600 });
			expect(res.status).toBe(401);
			expect(res.json.ok).toBe(0);
			expect(res.json.error).toMatchObject({ code: 'expired_timestamp', server_time: expect.stringMatching(/^\d{10}$/) });
		});
	});

	describe('hasMoreStyle', () => {
		test.each([
			['boolean', 'json', true, false],
			['boolean', 'php', 1, 0],
			['number', 'json', 1, 0],
			['number', 'php', 1, 0],
			['string', 'json', 'true', 'false'],
			['string', 'php', 'true', 'false'],
		])('%s in %s: more %p, last page %p', async (hasMoreStyle, answerStyle, more, last) => {
			await style({ hasMoreStyle, answerStyle });
			expect((await a.get('/orders.php?limit=100')).json.data.pagination.has_more).toStrictEqual(more);
			expect((await a.get('/orders.php?limit=100&offset=200')).json.data.pagination.has_more).toStrictEqual(last);
		});

		test('absent: no has_more field at all', async () => {
			await style({ hasMoreStyle: 'absent' });
			expect(text((await a.get('/orders.php?limit=100')).json.data.pagination)).toBe('{"limit":100,"offset":0,"returned":100}');
			expect(text((await a.get('/orders.php?limit=100&offset=200')).json.data.pagination)).toBe('{"limit":100,"offset":200,"returned":100}');
			await style({ answerStyle: 'php' });
			expect(text((await a.get('/orders.php?limit=5')).json.data.pagination)).toBe('{"limit":"5","offset":"0","returned":"5"}');
		});

		test('listHasMoreAlways still says more in the style', async () => {
			await style({ hasMoreStyle: 'string' });
			await sb.control('POST', '/faults', { listHasMoreAlways: true });
			expect((await a.get('/orders.php?limit=100&offset=300')).json.data.pagination).toEqual({ limit: 100, offset: 300, returned: 0, has_more: 'true' });
		});
	});

	describe('pageCap', () => {
		test('pages hold at most the cap while has_more says more exist; paging by offset reads every item once', async () => {
			await style({ pageCap: 30 });
			const ids: number[] = [];
			const pages: unknown[] = [];
			for (let offset = 0; ; ) {
				const { pagination, orders } = (await a.get(`/orders.php?limit=100&offset=${offset}`)).json.data;
				pages.push(pagination);
				ids.push(...orders.map((o: { order_item_id: number }) => o.order_item_id));
				offset += pagination.returned;
				if (!pagination.has_more) break;
			}
			expect(pages).toHaveLength(10);
			expect(pages[0]).toEqual({ limit: 100, offset: 0, returned: 30, has_more: true });
			expect(pages[9]).toEqual({ limit: 100, offset: 270, returned: 30, has_more: false });
			expect(ids).toHaveLength(300);
			expect(new Set(ids).size).toBe(300);
			expect(ids).toEqual([...ids].sort((x, y) => x - y));
		});

		test('a limit under the cap is honoured; 0 is no cap; the cap also holds a server that ignores limit', async () => {
			await style({ pageCap: 30 });
			expect((await a.get('/orders.php?limit=10')).json.data.pagination).toEqual({ limit: 10, offset: 0, returned: 10, has_more: true });
			expect((await a.get('/orders.php?limit=30')).json.data.pagination.returned).toBe(30);
			expect((await a.get('/orders.php?limit=31')).json.data.pagination.returned).toBe(30);
			expect((await a.get('/orders.php')).json.data.pagination).toEqual({ limit: 50, offset: 0, returned: 30, has_more: true });
			await sb.control('POST', '/faults', { listIgnoresLimit: true });
			expect((await a.get('/orders.php?limit=5')).json.data.pagination).toEqual({ limit: 100, offset: 0, returned: 30, has_more: true });
			await style({ pageCap: 0 });
			expect((await a.get('/orders.php?limit=5')).json.data.pagination.returned).toBe(100);
			await sb.control('POST', '/faults/reset');
			expect((await a.get('/orders.php?limit=100')).json.data.pagination.returned).toBe(100);
		});

		test('listIgnoresStatus and listIgnoresUpdatedAfter: the whole list whatever the filter asks, a malformed updated_after too; each fault drops its own filter only', async () => {
			const returned = async (query: string) => (await a.get(`/orders.php?limit=100&${query}`)).json.data.pagination.returned;
			const late = 'updated_after=2026-05-10%2004:56:09';
			expect([await returned('status=shipped'), await returned(late)]).toEqual([expect.any(Number), 71]);
			const shipped = await returned('status=shipped');
			expect(shipped).toBeLessThan(100);
			await sb.control('POST', '/faults', { listIgnoresStatus: true });
			expect([await returned('status=shipped'), await returned(late)]).toEqual([100, 71]);
			await sb.control('POST', '/faults', { listIgnoresStatus: false, listIgnoresUpdatedAfter: true });
			expect([await returned('status=shipped'), await returned(late), await returned('updated_after=soon')]).toEqual([shipped, 100, 100]);
		});

		test('a cap of 1 serves one item per page; the page before the end still says more', async () => {
			await style({ pageCap: 1 });
			expect((await a.get('/orders.php?limit=100&offset=298')).json.data.pagination).toEqual({ limit: 100, offset: 298, returned: 1, has_more: true });
			expect((await a.get('/orders.php?limit=100&offset=299')).json.data.pagination).toEqual({ limit: 100, offset: 299, returned: 1, has_more: false });
		});
	});

	describe('errorStyle', () => {
		const notFound = 'Order item 999999 was not found.';
		const badLimit = { code: 'invalid_parameter', message: 'limit must be a whole number from 1 to 100.', field: 'limit' };
		test.each([
			['default', 404, { ok: false, error: { code: 'order_not_found', message: notFound } }, 400, { ok: false, error: badLimit }],
			['http200', 200, { ok: false, error: { code: 'order_not_found', message: notFound } }, 200, { ok: false, error: badLimit }],
			['flat', 404, { ok: false, error: 'order_not_found', message: notFound }, 400, { ok: false, error: 'invalid_parameter', message: badLimit.message, field: 'limit' }],
			['jsend', 404, { status: 'error', code: 'order_not_found', message: notFound }, 400, { status: 'error', ...badLimit }],
			['errors', 404, { errors: [{ code: 'order_not_found', message: notFound }] }, 400, { errors: [badLimit] }],
		])('%s', async (errorStyle, status, body, inputStatus, inputBody) => {
			await style({ errorStyle });
			const res = await a.get('/order_detail.php?order_item_id=999999');
			expect(res.status).toBe(status);
			expect(text(res.json)).toBe(text(body));
			const input = await a.get('/orders.php?limit=0');
			expect(input.status).toBe(inputStatus);
			expect(text(input.json)).toBe(text(inputBody));
		});

		test.each([
			['default', 401, '{"ok":false,"error":{"code":"invalid_signature","message":"The signature could not be verified."}}'],
			['http200', 200, '{"ok":false,"error":{"code":"invalid_signature","message":"The signature could not be verified."}}'],
			['flat', 401, '{"ok":false,"error":"invalid_signature","message":"The signature could not be verified."}'],
			['jsend', 401, '{"status":"error","code":"invalid_signature","message":"The signature could not be verified."}'],
			['errors', 401, '{"errors":[{"code":"invalid_signature","message":"The signature could not be verified."}]}'],
		])('%s: authentication errors too', async (errorStyle, status, body) => {
			await style({ errorStyle });
			const res = await a.get('/ping.php', { secret: 'not-the-secret' });
			expect(res.status).toBe(status);
			expect(text(res.json)).toBe(body);
		});

		test('http200 keeps the status of a 429 (with Retry-After) and of a 5xx: they stand for what is in front of the application', async () => {
			await style({ errorStyle: 'http200' });
			await sb.control('POST', '/faults', { next429: 1, retryAfterSec: 2, next5xx: 1, status5xx: 500 });
			const limited = await a.get('/ping.php');
			expect(limited.status).toBe(429);
			expect(limited.headers['retry-after']).toBe('2');
			expect(limited.json.error.code).toBe('rate_limited');
			const failed = await a.get('/ping.php');
			expect(failed.status).toBe(500);
			expect(failed.json.error.code).toBe('service_unavailable');
			const permission = new PartnerClient(sb.baseUrl, sb.apps['seller-a-readonly'].clientId, sb.apps['seller-a-readonly'].clientSecret);
			const forbidden = await permission.get('/order_detail.php?order_item_id=500001');
			await permission.close();
			expect(forbidden.status).toBe(200);
			expect(forbidden.json.error).toMatchObject({ code: 'insufficient_permission', permission: 'orders:detail' });
			const wrongMethod = await a.post('/ping.php', {});
			expect(wrongMethod.status).toBe(200);
			expect(wrongMethod.headers.allow).toBe('GET');
		});

		test('the styles shape answers outside the API path too, and errors in the php answer style', async () => {
			await style({ errorStyle: 'jsend' });
			const res = await request(`${sb.origin}/elsewhere`);
			expect(res.statusCode).toBe(404);
			expect(await res.body.text()).toBe('{"status":"error","code":"endpoint_not_found","message":"The API lives under /api/partner/v1/."}');
			await style({ errorStyle: 'flat', answerStyle: 'php' });
			const old = await a.get('/ping.php', { timestamp: Math.floor(Date.now() / 1000) - 3600 });
			expect(old.json).toMatchObject({ ok: 0, error: 'expired_timestamp', server_time: expect.stringMatching(/^\d{10}$/) });
		});
	});

	describe('foreignOrderStatus', () => {
		test('403: another seller\'s order item is forbidden_order; a missing one stays order_not_found 404', async () => {
			expect(await style({ foreignOrderStatus: 403 })).toMatchObject({ foreignOrderStatus: 403 });
			const foreign = await a.get(`/order_detail.php?order_item_id=${SELLER_B_ITEM}`);
			expect(foreign.status).toBe(403);
			expect(text(foreign.json)).toBe(`{"ok":false,"error":{"code":"forbidden_order","message":"Order item ${SELLER_B_ITEM} does not belong to this seller."}}`);
			const missing = await a.get('/order_detail.php?order_item_id=999999');
			expect(missing.status).toBe(404);
			expect(missing.json.error.code).toBe('order_not_found');
			// The owner still reads it.
			expect((await b.get(`/order_detail.php?order_item_id=${SELLER_B_ITEM}`)).json.data.order.order_item_id).toBe(SELLER_B_ITEM);
			await style({ foreignOrderStatus: 404 });
			expect((await a.get(`/order_detail.php?order_item_id=${SELLER_B_ITEM}`)).status).toBe(404);
		});

		test('with another error style', async () => {
			await style({ foreignOrderStatus: 403, errorStyle: 'errors' });
			const res = await a.get(`/order_detail.php?order_item_id=${SELLER_B_ITEM}`);
			expect(res.status).toBe(403);
			expect(res.json).toEqual({ errors: [{ code: 'forbidden_order', message: `Order item ${SELLER_B_ITEM} does not belong to this seller.` }] });
		});
	});

	describe('the switches combine', () => {
		test('updated_at descending, capped pages, PHP strings in Tokyo time, has_more as strings, from a local updated_after', async () => {
			await sb.control('POST', '/list-order', { order: 'updated_at_desc' });
			await style({ timeZone: 'Asia/Tokyo', answerStyle: 'php', pageCap: 7, hasMoreStyle: 'string' });
			// 13:56:09 in Tokyo is 04:56:09 UTC: the 71 items updated after 500251.
			const after = encodeURIComponent('2026-05-10 13:56:09');
			const items: { order_item_id: string; updated_at: string; quantity: string }[] = [];
			const flags: string[] = [];
			for (let offset = 0; ; ) {
				const { json } = await a.get(`/orders.php?limit=50&offset=${offset}&updated_after=${after}`);
				expect(json.ok).toBe(1);
				items.push(...json.data.orders);
				flags.push(json.data.pagination.has_more);
				offset += Number(json.data.pagination.returned);
				if (json.data.pagination.has_more !== 'true') break;
			}
			expect(items).toHaveLength(71);
			expect(flags).toEqual([...Array(10).fill('true'), 'false']);
			expect(new Set(items.map((o) => o.order_item_id)).size).toBe(71);
			for (const o of items) {
				expect(o.order_item_id).toMatch(/^\d+$/);
				expect(o.quantity).toMatch(/^\d+$/);
				expect(o.updated_at > '2026-05-10 13:56:09').toBe(true);
			}
			const times = items.map((o) => o.updated_at);
			expect(times).toEqual([...times].sort().reverse());
			expect(times[0]).toBe('2026-06-01 09:00:00'); // the newest: 2026-06-01 00:00:00 UTC
		});

		test('authentication is checked before styles: a signed request verifies, a bad one is refused in the style', async () => {
			await style({ timeZone: 'Asia/Tokyo', answerStyle: 'php', pageCap: 3, hasMoreStyle: 'absent', errorStyle: 'errors', foreignOrderStatus: 403 });
			const ok = await a.get(`/orders.php?limit=10&updated_after=${encodeURIComponent('2026-05-10 13:56:09')}`);
			expect(ok.status).toBe(200);
			expect(ok.json.data.pagination).toEqual({ limit: '10', offset: '0', returned: '3' });
			const tampered = await a.get('/orders.php?limit=10', { signedPath: '/orders.php?limit=11' });
			expect(tampered.status).toBe(401);
			expect(tampered.json).toEqual({ errors: [{ code: 'invalid_signature', message: 'The signature could not be verified.' }] });
			const missing = await a.get('/ping.php', { omitHeaders: ['X-SVC-SIGNATURE'] });
			expect(missing.json).toEqual({ errors: [{ code: 'missing_auth_headers', message: 'Missing authentication headers: X-SVC-SIGNATURE.' }] });
			const inactive = new PartnerClient(sb.baseUrl, sb.apps['seller-a-inactive'].clientId, sb.apps['seller-a-inactive'].clientSecret);
			const refused = await inactive.get('/ping.php');
			await inactive.close();
			expect(refused.status).toBe(403);
			expect(refused.json.errors[0].code).toBe('client_inactive');
		});
	});

	describe('the control API', () => {
		test('POST /style sets the switches it names and answers the whole style; GET shows it', async () => {
			expect(await style({ pageCap: 50 })).toEqual({ ...DEFAULT_STYLE, pageCap: 50 });
			expect(await style({ errorStyle: 'flat', hasMoreStyle: 'number' })).toEqual({ ...DEFAULT_STYLE, pageCap: 50, errorStyle: 'flat', hasMoreStyle: 'number' });
			expect(await sb.control('GET', '/style')).toEqual({ ...DEFAULT_STYLE, pageCap: 50, errorStyle: 'flat', hasMoreStyle: 'number' });
			expect((await sb.control('GET', '/state')).style).toEqual({ ...DEFAULT_STYLE, pageCap: 50, errorStyle: 'flat', hasMoreStyle: 'number' });
			expect(await sb.control('POST', '/style/reset')).toEqual(DEFAULT_STYLE);
			expect(await sb.control('GET', '/style')).toEqual(DEFAULT_STYLE);
		});

		test.each([
			[{ nope: 1 }, 'Unknown style switch "nope"; use timeZone, answerStyle, hasMoreStyle, pageCap, errorStyle, foreignOrderStatus.'],
			[{ timeZone: 5 }, 'Style switch "timeZone" must be a string.'],
			[{ timeZone: 'Mars/Olympus_Mons' }, 'Style switch "timeZone" must be an IANA time zone such as America/New_York; "Mars/Olympus_Mons" is not one.'],
			[{ timeZone: '' }, 'Style switch "timeZone" must be an IANA time zone such as America/New_York; "" is not one.'],
			[{ answerStyle: 'xml' }, 'Style switch "answerStyle" must be one of json, php.'],
			[{ answerStyle: true }, 'Style switch "answerStyle" must be a string.'],
			[{ hasMoreStyle: 'maybe' }, 'Style switch "hasMoreStyle" must be one of boolean, number, string, absent.'],
			[{ pageCap: '30' }, 'Style switch "pageCap" must be a number.'],
			[{ pageCap: -1 }, 'Style switch "pageCap" must be a whole number from 0 (no cap) to 1000.'],
			[{ pageCap: 2.5 }, 'Style switch "pageCap" must be a whole number from 0 (no cap) to 1000.'],
			[{ pageCap: 1001 }, 'Style switch "pageCap" must be a whole number from 0 (no cap) to 1000.'],
			[{ errorStyle: 'html' }, 'Style switch "errorStyle" must be one of default, http200, flat, jsend, errors.'],
			[{ foreignOrderStatus: 410 }, 'Style switch "foreignOrderStatus" must be one of 404, 403.'],
			[{ foreignOrderStatus: '403' }, 'Style switch "foreignOrderStatus" must be a number.'],
			[[], 'The style must be a JSON object.'],
			['php', 'The style must be a JSON object.'],
		])('refuses %j with 400: %s', async (body, message) => {
			const res = await request(`${sb.origin}/_sandbox/style`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${sb.controlToken}` } });
			expect(res.statusCode).toBe(400);
			expect(await res.body.json()).toEqual({ ok: false, error: { code: 'control_error', message } });
		});

		test('a refused body changes nothing, even its valid switches', async () => {
			await expect(style({ pageCap: 5, answerStyle: 'xml' })).rejects.toThrow(/answerStyle/);
			expect(await sb.control('GET', '/style')).toEqual(DEFAULT_STYLE);
		});

		test('the edges of pageCap are accepted', async () => {
			expect((await style({ pageCap: 1000 })).pageCap).toBe(1000);
			expect((await style({ pageCap: 0 })).pageCap).toBe(0);
		});

		test('POST /reset restores the style too', async () => {
			await style({ answerStyle: 'php', timeZone: 'Asia/Tokyo' });
			await sb.control('POST', '/reset', {});
			expect(await sb.control('GET', '/style')).toEqual(DEFAULT_STYLE);
		});
	});
});

describe('sandbox styles from createSandbox options', () => {
	test('the options are the initial style, and what /style/reset and /reset go back to', async () => {
		const sb = await startSandbox({ orders: 20, timeZone: 'america/new_york', answerStyle: 'php', hasMoreStyle: 'absent', pageCap: 4, errorStyle: 'jsend', foreignOrderStatus: 403 });
		const started = { timeZone: 'America/New_York', answerStyle: 'php', hasMoreStyle: 'absent', pageCap: 4, errorStyle: 'jsend', foreignOrderStatus: 403 };
		const app = sb.apps['seller-a-full'];
		const c = new PartnerClient(sb.baseUrl, app.clientId, app.clientSecret);
		try {
			expect(await sb.control('GET', '/style')).toEqual(started);
			const { json } = await c.get('/orders.php?limit=10');
			expect(json.data.pagination).toEqual({ limit: '10', offset: '0', returned: '4' });
			expect(json.data.orders[0]).toMatchObject({ order_item_id: '500001', created_at: '2026-03-02 19:00:00' });
			await sb.control('POST', '/style', { answerStyle: 'json', pageCap: 0 });
			expect(await sb.control('POST', '/style/reset')).toEqual(started);
			await sb.control('POST', '/style', { timeZone: 'UTC' });
			await sb.control('POST', '/reset', {});
			expect(await sb.control('GET', '/style')).toEqual(started);
		} finally {
			await c.close();
			await sb.close();
		}
	});

	test.each([
		[{ pageCap: -3 }, 'Style switch "pageCap" must be a whole number from 0 (no cap) to 1000.'],
		[{ timeZone: 'Nowhere/Town' }, 'Style switch "timeZone" must be an IANA time zone such as America/New_York; "Nowhere/Town" is not one.'],
		[{ errorStyle: 'soap' }, 'Style switch "errorStyle" must be one of default, http200, flat, jsend, errors.'],
	])('a wrong option %j fails createSandbox: %s', (options, message) => {
		expect(() => createSandbox({ orders: 5, ...options })).toThrow(message);
	});
});

describe('sandbox styles of what it sends and logs', () => {
	let sb: RunningSandbox;
	beforeAll(async () => {
		sb = await startSandbox({ orders: 30, webhookRetryBaseMs: 20 });
	});
	afterAll(() => sb.close());
	afterEach(() => sb.control('POST', '/style/reset'));

	test('webhook events carry datetimes in the zone and values in the answer style', async () => {
		const app = sb.apps['seller-a-full'];
		const receiver = await startReceiver();
		try {
			await sb.control('POST', `/apps/${app.clientId}/webhook`, { url: receiver.url });
			await sb.control('POST', '/style', { timeZone: 'America/New_York', answerStyle: 'php' });
			const before = Date.now();
			const created = await sb.control('POST', '/orders', { clientId: app.clientId, quantity: 2 });
			const [r] = await receiver.waitFor(1);
			const after = Date.now();
			const body = JSON.parse(r.rawBody.toString('utf8'));
			const window = secondsBetween(before, after, 'America/New_York');
			expect(window).toContain(body.created_at);
			expect(window).toContain(body.data.created_at);
			expect(body.test).toBe(0);
			expect(body.data).toMatchObject({ order_item_id: String(created.order.order_item_id), quantity: '2' });
			// The control API's own answer keeps the sandbox's form.
			expect(created.order.order_item_id).toEqual(expect.any(Number));
			expect(secondsBetween(before, after, 'UTC')).toContain(created.order.created_at);

			await sb.control('POST', '/style/reset');
			await sb.control('POST', `/apps/${app.clientId}/test-event`, { event: 'stock.updated' });
			const [, t] = await receiver.waitFor(2);
			const sample = JSON.parse(t.rawBody.toString('utf8'));
			expect(sample.test).toBe(true);
			expect(sample.data.updated).toBe(true);
			expect(secondsBetween(before, Date.now(), 'UTC')).toContain(sample.created_at);
		} finally {
			await receiver.close();
		}
	});

	test('GET /changes shows each change as orders.php writes it in the style in force', async () => {
		const app = sb.apps['seller-a-full'];
		const c = new PartnerClient(sb.baseUrl, app.clientId, app.clientSecret);
		try {
			await sb.control('POST', '/changes', { clientId: app.clientId, changes: { newOrders: 1 } });
			await sb.control('POST', '/style', { timeZone: 'Asia/Tokyo', answerStyle: 'php' });
			const [change] = (await sb.control('GET', '/changes')).slice(-1);
			const listed = (await c.get('/orders.php?limit=100')).json.data.orders.find((o: { order_item_id: string }) => o.order_item_id === String(change.order_item_id));
			expect(change.entry).toEqual(listed);
			expect(change.updated_at).toBe(listed.updated_at);
			expect(change.entry.order_item_id).toBe(String(change.order_item_id));
			expect(Object.keys(change)).toEqual(['seq', 'order_item_id', 'seller_id', 'updated_at', 'entry']);
			await sb.control('POST', '/style/reset');
			const [plain] = (await sb.control('GET', '/changes')).slice(-1);
			const listedPlain = (await c.get('/orders.php?limit=100')).json.data.orders.find((o: { order_item_id: number }) => o.order_item_id === plain.order_item_id);
			expect(plain.entry).toEqual(listedPlain);
			expect(plain.updated_at).toBe(listedPlain.updated_at);
			expect(inZone(Date.parse(`${plain.updated_at.replace(' ', 'T')}Z`), 'Asia/Tokyo')).toBe(change.updated_at);
		} finally {
			await c.close();
		}
	});
});
