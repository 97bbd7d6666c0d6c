// Connection › Check Setup, run by n8n's engine against the sandbox over HTTP in each of its
// answer styles: the report says what the sandbox plays, and what to set.
import type { IDataObject } from 'n8n-workflow';
import { MAX_CLOCK_OFFSET_SEC } from '../../nodes/shared/transport';
import { checkSetupAgainst } from '../helpers/checkSetupRun';
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { clampingList, ok, startScriptedApi, type Answer, type ScriptedRequest } from '../helpers/scriptedApi';

type Product = { product_id: number; sku: string; stock: number; variant_combination_ids: number[] };

// n8n's table view makes a column of every key any finding has, and shows a red `undefined` (or
// `null`, `[empty]`, `[empty object]`) where a finding lacks one: each finding fills every column.
const COLUMNS = ['check', 'result', 'finding', 'setting', 'details'];
function expectEveryColumn(findings: IDataObject[]) {
	const blank = (value: unknown) => value === undefined || value === null || value === '' || (typeof value === 'object' && Object.keys(value).length === 0);
	expect(findings.flatMap((f) => COLUMNS.filter((column) => blank(f[column])).map((column) => `${String(f.check)}: ${column}`))).toEqual([]);
	expect(findings.filter((f) => Object.keys(f).join() !== COLUMNS.join())).toEqual([]);
}

async function checkSetup(sb: RunningSandbox, extra: IDataObject = {}, testProduct: IDataObject = {}, app = 'seller-a-full') {
	const { items, error } = await runNode({
		parameters: { resource: 'connection', operation: 'checkSetup', testProduct },
		credentials: credentialsFor(sb.baseUrl, sb.apps[app], extra),
	});
	expect(error).toBeUndefined();
	expect(items.every((i) => JSON.stringify(i.pairedItem) === '{"item":0}')).toBe(true);
	expectEveryColumn(items.map((i) => i.json));
	return Object.fromEntries(items.map((i) => [i.json.check, i.json])) as Record<string, IDataObject>;
}

describe('Check Setup against the sandbox as it is by default', () => {
	let sb: RunningSandbox;
	let product: Product;
	beforeAll(async () => {
		sb = await startSandbox({ orders: 260, products: 40 });
		product = ((await sb.control('GET', '/products?sellerId=1001')) as Product[]).find((p) => p.variant_combination_ids.length === 0)!;
	});
	afterAll(() => sb.close());

	test('reads only and reports each point; stock and time zone wait for a test product', async () => {
		await sb.control('POST', '/stats/reset');
		const report = await checkSetup(sb);
		expect(Object.keys(report)).toEqual([
			'Authentication',
			'Clock',
			'Permission orders:read',
			'List paging',
			'List values',
			'List limit',
			'Status filter',
			'Updated After filter',
			'Permission orders:detail',
			'Errors',
			'Permission stock:write',
			'Time zone',
		]);
		expect(report['List limit']).toEqual({
			check: 'List limit',
			result: 'ok',
			finding: 'Asked for 2 order items, the API answered 2: it applies limit.',
			setting: 'None needed',
			details: { asked: 2, outside: 0 },
		});
		expect(report['Status filter']).toEqual({
			check: 'Status filter',
			result: 'ok',
			finding: 'Asked for status accepted, the API answered only order items of that status: it applies the filter.',
			setting: 'None needed',
			details: { asked: 'accepted', outside: 0 },
		});
		expect(report['Updated After filter']).toMatchObject({
			result: 'ok',
			finding: expect.stringMatching(/^Asked for updated_after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d, the API answered only order items updated after it: it applies the filter\.$/),
			details: { asked: expect.stringMatching(/^\d{4}-/), outside: 0 },
		});
		expect(report.Authentication).toEqual({
			check: 'Authentication',
			result: 'ok',
			finding: 'Requests are signed correctly: /ping.php answered HTTP 200.',
			setting: 'None needed',
			details: { okWrittenAs: 'boolean true' },
		});
		expect(report.Clock).toMatchObject({ result: 'ok', finding: "The API's clock and this machine's agree (Date header)." });
		expect(report['Permission orders:read']).toEqual({
			check: 'Permission orders:read',
			result: 'ok',
			finding: 'Granted: Order › Get Many and the Orders Trigger can be used.',
			setting: 'None needed',
			details: { httpStatus: 200 },
		});
		expect(report['List paging']).toEqual({
			check: 'List paging',
			result: 'ok',
			finding: 'The first page held 100 order items (100 asked for). has_more is written as boolean true.',
			setting: 'None needed',
			details: { returned: 100, pageCap: null, hasMoreWrittenAs: 'boolean true' },
		});
		expect(report['List values'].finding).toMatch(/^Ids and numbers are written as number; datetimes as string "\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"\. The page is ordered by order_item_id ascending\.$/);
		expect(report['Permission orders:detail']).toMatchObject({ result: 'ok' });
		expect(report.Errors).toEqual({
			check: 'Errors',
			result: 'ok',
			finding: 'A missing order item is answered HTTP 404 with code order_not_found, as {"ok":false,"error":{"code","message"}} (the code inside an error object).',
			setting: 'None needed',
			details: { httpStatus: 404, code: 'order_not_found' },
		});
		expect(report['Time zone']).toMatchObject({
			result: 'skipped',
			finding: expect.stringMatching(/^Not checked: fill in Test Product/),
			setting: 'Test Product, to check it',
			details: { waitingFor: 'Test Product' },
		});
		// Nothing written.
		const stats = await sb.control('GET', '/stats');
		expect(Object.keys(stats.byEndpoint).filter((k: string) => k.startsWith('POST'))).toEqual([]);
	});

	test('with a test product: one absolute stock update, the zone matches UTC, updates by SKU accepted', async () => {
		const report = await checkSetup(sb, {}, { productId: product.product_id, stock: 13, sku: product.sku });
		expect(report['Permission stock:write']).toMatchObject({ result: 'ok', finding: 'Granted: Stock › Update can be used.' });
		expect(report['Time zone']).toMatchObject({
			result: 'ok',
			finding: "The API writes datetimes at UTC+00:00, as the credential's Time Zone of the API (UTC) says.",
			setting: 'Time Zone of the API: UTC',
		});
		expect(report['Updates by SKU']).toMatchObject({ result: 'ok', setting: 'Identify Product By: SKU or Product ID' });
		expect((await sb.control('GET', `/products/${product.product_id}`)).stock).toBe(13);
	});

	test('a marketplace that does not take sku: Identify Product By must be Product ID', async () => {
		await sb.control('POST', '/sku-updates', { accepted: false });
		try {
			const report = await checkSetup(sb, {}, { productId: product.product_id, stock: 13, sku: product.sku });
			expect(report['Updates by SKU']).toMatchObject({
				result: 'warning',
				finding: expect.stringMatching(/^This marketplace does not accept updates by SKU\. /),
				setting: 'Identify Product By: Product ID',
			});
		} finally {
			await sb.control('POST', '/sku-updates', { accepted: true });
		}
	});

	test('a read-only app: the missing permissions are named, the rest still reported', async () => {
		const report = await checkSetup(sb, {}, { productId: product.product_id, stock: 13 }, 'seller-a-readonly');
		expect(report['Permission orders:read']).toMatchObject({ result: 'ok' });
		expect(report['Permission orders:detail']).toMatchObject({
			result: 'warning',
			finding: 'Not granted: Order › Get and Include Order Detail cannot be used. Ask the marketplace operator for orders:detail if you need it.',
		});
		expect(report['Permission stock:write']).toMatchObject({ result: 'warning', details: { code: 'insufficient_permission' } });
		expect(report['Time zone']).toBeUndefined();
	});

	test('a wrong Client Secret: authentication fails with what to fix, and the other checks are skipped', async () => {
		const report = await checkSetup(sb, { clientSecret: 'cs_wrong' });
		expect(report.Authentication).toMatchObject({
			result: 'error',
			finding: expect.stringMatching(/^The Partner API could not verify the request signature\. API code: invalid_signature\./),
			details: { httpStatus: 401 },
		});
		expect(report['Other checks']).toEqual({
			check: 'Other checks',
			result: 'skipped',
			finding: 'Skipped: they need a credential the API accepts. Fix the authentication first.',
			setting: 'None needed',
			details: { waitingFor: 'Authentication' },
		});
		expect(Object.keys(report)).toEqual(['Authentication', 'Clock', 'Other checks']);
	});

	test.each([
		[120, 'ahead of'],
		[-120, 'behind'],
	])('a clock %i s off: the Date header tells by how much, and which way', async (skew, way) => {
		await sb.control('POST', '/faults', { clockSkewSec: skew });
		try {
			const report = await checkSetup(sb);
			expect(report.Clock).toMatchObject({
				result: 'warning',
				finding: expect.stringMatching(new RegExp(`^The API's clock is 1(19|20|21) s ${way} this machine's \\(Date header\\)\\. The node corrects its timestamps`)),
			});
			expect(Math.abs(Number((report.Clock.details as IDataObject).apiAheadSeconds) - skew)).toBeLessThanOrEqual(1);
		} finally {
			await sb.control('POST', '/faults/reset');
		}
	});

	test('a SKU is tried only after the update by product id succeeded, and an empty SKU is none', async () => {
		const refused = await checkSetup(sb, {}, { productId: product.product_id, stock: 13, sku: product.sku }, 'seller-a-readonly');
		expect(refused['Updates by SKU']).toBeUndefined();
		const empty = await checkSetup(sb, {}, { productId: product.product_id, stock: 13, sku: '' });
		expect(empty['Permission stock:write'].result).toBe('ok');
		expect(empty['Updates by SKU']).toBeUndefined();
	});
});

// Each style: what the report must say of it.
const STYLES: Array<[string, IDataObject, { paging: RegExp; numbers: string; errors: RegExp; ordering?: string }]> = [
	[
		'PHP types and pages of 50',
		{ answerStyle: 'php', pageCap: 50 },
		{ paging: /^Pages hold at most 50 order items though 100 were asked for; the node pages on\. has_more is written as number 1\.$/, numbers: 'string', errors: /^A missing order item is answered HTTP 404 with code order_not_found/ },
	],
	[
		'has_more absent and errors as HTTP 200',
		{ hasMoreStyle: 'absent', errorStyle: 'http200' },
		{ paging: /has_more is absent: the node reads on until an empty page/, numbers: 'number', errors: /^A missing order item is answered HTTP 200 with code order_not_found, as .* Errors come with a success status: the node reads them as errors all the same\.$/ },
	],
	[
		'has_more as text, flat errors, newest first',
		{ hasMoreStyle: 'string', errorStyle: 'flat', listOrder: 'updated_at_desc' },
		{ paging: /has_more is written as string "true"\.$/, numbers: 'number', errors: /as \{"error":"code","message"\} \(a flat error code\)\.$/, ordering: 'updated_at descending' },
	],
	[
		'JSend errors',
		{ errorStyle: 'jsend' },
		{ paging: /has_more is written as boolean true\.$/, numbers: 'number', errors: /as \{"code","message"\} beside a status field \(code at the top\)\.$/ },
	],
	['a list of errors', { errorStyle: 'errors' }, { paging: /boolean true/, numbers: 'number', errors: /as \{"errors":\[\{"code","message"\}\]\} \(a list of errors\)\.$/ }],
];

describe.each(STYLES)('Check Setup against a marketplace with %s', (_, style, expected) => {
	let sb: RunningSandbox;
	beforeAll(async () => (sb = await startSandbox({ orders: 260, ...style })));
	afterAll(() => sb.close());

	test('reports the style', async () => {
		const report = await checkSetup(sb);
		expect(report.Authentication).toMatchObject({ result: 'ok' });
		expect(report['List values'].result).toBe('ok');
		expect(String(report['List values'].finding).includes('(the node reads both)')).toBe(expected.numbers === 'string');
		expect(report['List paging'].finding).toMatch(expected.paging);
		expect(report['List values'].details).toEqual({ numbersWrittenAs: expected.numbers, ordering: expected.ordering ?? 'order_item_id ascending' });
		expect(report.Errors.finding).toMatch(expected.errors);
	});
});

describe.each([
	['America/New_York', '-05:00|-04:00'],
	['Europe/Istanbul', '\\+03:00'],
	['Asia/Kathmandu', '\\+05:45'],
])('Check Setup against a marketplace writing %s time', (zone, offset) => {
	let sb: RunningSandbox;
	let product: Product;
	beforeAll(async () => {
		sb = await startSandbox({ orders: 50, products: 20, timeZone: zone, answerStyle: 'php' });
		product = ((await sb.control('GET', '/products?sellerId=1001')) as Product[]).find((p) => p.variant_combination_ids.length === 0)!;
	});
	afterAll(() => sb.close());

	test('with the credential left at UTC: the zone is found and the setting named', async () => {
		const report = await checkSetup(sb, {}, { productId: product.product_id, stock: 3 });
		expect(report['Time zone'].result).toBe('warning');
		expect(report['Time zone'].finding).toMatch(new RegExp(`^The API writes datetimes at UTC(${offset}) \\(its updated_at .*\\), but the credential's Time Zone of the API is UTC \\(UTC\\+00:00\\)\\. Set it to the marketplace's zone, e\\.g\\. `));
		// Zones at that offset now, by name (Node's ICU may still call Kathmandu Katmandu).
		expect(report['Time zone'].finding).toMatch(zone === 'Asia/Kathmandu' ? /e\.g\. Asia\/Kath?mandu\.$/ : /e\.g\. ([A-Z][A-Za-z_]+\/[A-Za-z_/-]+, ){5}[A-Z][A-Za-z_]+\/[A-Za-z_/-]+\.$/);
		expect(report['Time zone'].setting).toMatch(/^Time Zone of the API: [A-Z][A-Za-z_]+\/[A-Za-z_/-]+$/);
		expect(report['Time zone'].details).toEqual({ apiOffset: expect.stringMatching(new RegExp(`^UTC(${offset})$`)), credentialOffset: 'UTC+00:00' });
	});

	test('with the credential set to it: the zone is confirmed', async () => {
		const report = await checkSetup(sb, { timeZone: zone }, { productId: product.product_id, stock: 4 });
		expect(report['Time zone']).toMatchObject({ result: 'ok', setting: `Time Zone of the API: ${zone}` });
	});
});

// Answers the sandbox never gives, in the order Check Setup asks: ping, the list (and its next page
// when the first is short), the first item's detail, a missing item, the test product by id, by SKU.
describe('Check Setup against answers the sandbox never gives', () => {
	async function checkScripted(answers: Parameters<typeof startScriptedApi>[0], testProduct: IDataObject = {}) {
		const api = await startScriptedApi(answers);
		try {
			const { items, error } = await runNode({
				parameters: { resource: 'connection', operation: 'checkSetup', testProduct },
				credentials: credentialsFor(api.baseUrl, api.app),
			});
			expectEveryColumn(items.map((i) => i.json));
			return { report: Object.fromEntries(items.map((i) => [i.json.check, i.json])) as Record<string, IDataObject>, error, requests: api.requests.map((r) => `${r.method} ${r.url.replace('/api/partner/v1', '')}`) };
		} finally {
			await api.close();
		}
	}
	const date = (ms: number) => ({ date: new Date(ms).toUTCString() });
	const order = (id: number, updated = '2026-05-01 10:00:00') => ({ order_item_id: id, updated_at: updated, created_at: updated });

	test('whether filters and the limit are applied: an API that answers the probes with no list says so; one order item outside is named in the singular; a first page of two cannot show the limit', async () => {
		const entry = (id: number, status: string, updated: string) => ({ order_item_id: id, status, updated_at: updated, created_at: updated });
		// One updated_at the node cannot read: it is no moment to ask for.
		const page = [entry(1, 'accepted', '2026-05-01 10:00:00'), entry(2, 'shipped', '2026-05-01 11:00:00'), entry(3, 'accepted', '2026-05-01 12:00:00'), entry(4, 'accepted', 'soon')];
		const listed = (query: URLSearchParams) => ok({ orders: query.has('status') ? [page[0], page[1]] : query.has('updated_after') ? [page[0], page[2]] : query.get('limit') === '2' ? page.slice(0, 3) : page, pagination: { has_more: false } });
		const unlisted = await checkScripted((request) => {
			const query = new URL(request.url, 'http://x').searchParams;
			if (!request.url.includes('/orders.php')) return request.url.includes('/ping.php') ? ok({ pong: true }) : ok({ order: { order_item_id: 1 } });
			return query.get('limit') === '100' && !query.has('status') && !query.has('updated_after') ? listed(query) : { status: 400, body: { ok: false, error: { code: 'invalid_parameter', message: 'no' } } };
		});
		for (const check of ['List limit', 'Status filter', 'Updated After filter']) {
			expect(unlisted.report[check]).toEqual({ check, result: 'warning', finding: 'The API did not answer the list request with a list.', setting: 'None needed', details: { asked: null, outside: null } });
		}
		const one = await checkScripted((request) => {
			const query = new URL(request.url, 'http://x').searchParams;
			if (!request.url.includes('/orders.php')) return request.url.includes('/ping.php') ? ok({ pong: true }) : ok({ order: { order_item_id: 1 } });
			return listed(query);
		});
		expect(one.report['Status filter']).toMatchObject({
			result: 'warning',
			finding: 'Asked for status accepted, the API answered 1 order item of other statuses: it does not apply the status filter. The node leaves them out and names them in each run; every list it reads with a Status is the whole list.',
			details: { asked: 'accepted', outside: 1 },
		});
		expect(one.report['Updated After filter']).toMatchObject({
			result: 'warning',
			finding: 'Asked for updated_after 2026-05-01 11:00:00, the API answered 1 order item updated at or before it: it does not apply the filter (or not in this format). The node leaves them out and names them in each run; the Orders Trigger reads the whole list on every poll, and still emits each change once.',
			details: { asked: '2026-05-01 11:00:00', outside: 1 },
		});
		expect(one.report['List limit']).toMatchObject({ result: 'warning', finding: 'Asked for 2 order items, the API answered 3: it does not apply limit. The node reads at most the limit it asked of each page and pages on; each run says so.', details: { asked: 2, outside: 1 } });
		// Two order items, statuses unwritten, two moments: the limit cannot be shown, the status filter neither; the middle of two moments is the later.
		const unwritten = page.slice(0, 2).map((o) => ({ order_item_id: o.order_item_id, updated_at: o.updated_at, created_at: o.created_at }));
		const two = await checkScripted((request) =>
			request.url.includes('/orders.php') ? ok({ orders: unwritten, pagination: { has_more: false } }) : request.url.includes('/ping.php') ? ok({ pong: true }) : ok({ order: { order_item_id: 1 } }),
		);
		expect(two.report['Status filter']).toEqual({
			check: 'Status filter',
			result: 'skipped',
			finding: 'Not checked: the first page shows no status, so a filter cannot show whether the API applies it.',
			setting: 'None needed',
			details: { waitingFor: 'Order items of two statuses' },
		});
		expect(two.report['Updated After filter']).toMatchObject({ result: 'warning', details: { asked: '2026-05-01 11:00:00', outside: 2 } });
		expect(two.report['List limit']).toEqual({
			check: 'List limit',
			result: 'skipped',
			finding: 'Not checked: the first page held 2 order items; it needs more than 2.',
			setting: 'None needed',
			details: { waitingFor: 'More than 2 order items' },
		});
		expect(two.requests.filter((r) => r.includes('limit=2&'))).toEqual([]);
	});

	test('no Date header, an empty list, a missing order item answered as a success', async () => {
		const { report, requests } = await checkScripted([
			ok({ pong: true }),
			ok({ orders: [], pagination: { has_more: false } }),
			ok({ order: { order_item_id: 2147483647 } }),
		]);
		expect(report.Clock).toEqual({
			check: 'Clock',
			result: 'warning',
			finding: "The API sends no Date header: the node cannot correct a clock difference by itself. Keep this machine's clock synchronised (NTP).",
			setting: "None in n8n: synchronise this machine's clock (NTP)",
			details: { dateHeader: 'absent' },
		});
		expect(report['List paging']).toMatchObject({ finding: 'The first page held 0 order items (100 asked for). has_more is written as boolean false.', details: { returned: 0, pageCap: null } });
		expect(report['List values']).toBeUndefined();
		expect(report['Permission orders:detail']).toEqual({
			check: 'Permission orders:detail',
			result: 'skipped',
			finding: 'Not checked: the list held no order item to read.',
			setting: 'None needed',
			details: { waitingFor: 'An order item in the list' },
		});
		expect(report.Errors).toEqual({
			check: 'Errors',
			result: 'warning',
			finding: 'Order item 2147483647 (which should not exist) was answered as a success.',
			setting: 'None needed',
			details: { httpStatus: 200 },
		});
		expect(requests).toEqual(['GET /ping.php', 'GET /orders.php?limit=100&offset=0', 'GET /order_detail.php?order_item_id=2147483647']);
	});

	test('an API that clamps offset at its last page and says has_more forever: List paging is an error naming it, after two pages of repeats', async () => {
		const list = clampingList(30);
		const { report, requests } = await checkScripted((request) =>
			request.url.includes('/orders.php') ? list(request) : request.url.includes('/ping.php') ? ok({ pong: true }) : ok({ order: { order_item_id: 1 } }),
		);
		expect(report['List paging']).toEqual({
			check: 'List paging',
			result: 'error',
			finding:
				'The API answered offset 60 with the same order items as offset 0. It says more order items follow (has_more) but does not page on: it seems to ignore or clamp the offset parameter, so reading on would never end. The node stopped rather than read on: nothing was returned twice. Report this to the marketplace operator.',
			setting: 'None in n8n: the marketplace operator fixes the paging',
			details: { returned: 30, pageCap: null, hasMoreWrittenAs: 'boolean true' },
		});
		// Then the limit is asked of the list once: its entries share one status and one datetime, nothing to tell a filter by.
		expect(requests.filter((r) => r.includes('/orders.php'))).toEqual(['GET /orders.php?limit=100&offset=0', 'GET /orders.php?limit=100&offset=30', 'GET /orders.php?limit=100&offset=60', 'GET /orders.php?limit=2&offset=0']);
		expect(report['Status filter']).toMatchObject({ result: 'skipped', finding: 'Not checked: every order item of the first page has status accepted, so a filter cannot show whether the API applies it.' });
		expect(report['Updated After filter']).toEqual({
			check: 'Updated After filter',
			result: 'skipped',
			finding: 'Not checked: the first page shows fewer than two datetimes the node can read.',
			setting: 'None needed',
			details: { waitingFor: 'Order items updated at two moments' },
		});
	});

	test('a marketplace that applies neither limit, status nor updated_after: each is a warning that says what the node does instead', async () => {
		const sb = await startSandbox({ orders: 200 });
		try {
			await sb.control('POST', '/faults', { listIgnoresLimit: true, listIgnoresStatus: true, listIgnoresUpdatedAfter: true });
			const report = await checkSetup(sb);
			const notApplied = 'None in n8n: the node leaves out what the API should not have sent; ask the marketplace operator';
			expect(report['List limit']).toEqual({
				check: 'List limit',
				result: 'warning',
				finding: 'Asked for 2 order items, the API answered 100: it does not apply limit. The node reads at most the limit it asked of each page and pages on; each run says so.',
				setting: notApplied,
				details: { asked: 2, outside: 98 },
			});
			expect(report['Status filter']).toMatchObject({
				result: 'warning',
				finding: expect.stringMatching(/^Asked for status accepted, the API answered \d+ order items of other statuses: it does not apply the status filter\. The node leaves them out and names them in each run; every list it reads with a Status is the whole list\.$/),
				setting: notApplied,
			});
			expect(report['Updated After filter']).toMatchObject({
				result: 'warning',
				finding: expect.stringMatching(/^Asked for updated_after \S+ \S+, the API answered \d+ order items updated at or before it: it does not apply the filter \(or not in this format\)\. The node leaves them out and names them in each run; the Orders Trigger reads the whole list on every poll, and still emits each change once\.$/),
				setting: notApplied,
			});
			// The status and datetime asked are the first page's: an API that applied them would have answered fewer.
			const accepted = (sb.raw.state.ordersBySeller.get(1001) as Array<{ status: string }>).slice(0, 100).filter((o) => o.status !== 'accepted').length;
			expect(report['Status filter'].details).toEqual({ asked: 'accepted', outside: accepted });
			expect((report['Updated After filter'].details as IDataObject).outside).toBeGreaterThan(0);
		} finally {
			await sb.close();
		}
	});

	test('a short first page without has_more and an empty next one: no cap; one entry: no ordering', async () => {
		const { report, requests } = await checkScripted([
			{ ...ok({ pong: true }), headers: date(Date.now()) },
			ok({ orders: [order(5)], pagination: { limit: 100 } }),
			ok({ orders: [], pagination: { limit: 100 } }),
			ok({ order: { order_item_id: 5 } }),
			{ status: 404, body: { error: 'order_not_found' } },
		]);
		expect(report['List paging']).toEqual({
			check: 'List paging',
			result: 'ok',
			finding: 'The first page held 1 order item (100 asked for). has_more is absent: the node reads on until an empty page (one request more per list).',
			setting: 'None needed',
			details: { returned: 1, pageCap: null, hasMoreWrittenAs: 'absent' },
		});
		expect(report['List values'].finding).toBe(
			'Ids and numbers are written as number; datetimes as string "2026-05-01 10:00:00". The page follows no order the node can tell (the node does not rely on one).',
		);
		expect(report.Errors.finding).toBe('A missing order item is answered HTTP 404 with code order_not_found, as {"error":"code","message"} (a flat error code).');
		expect(requests.slice(1, 4)).toEqual(['GET /orders.php?limit=100&offset=0', 'GET /orders.php?limit=100&offset=1', 'GET /order_detail.php?order_item_id=5']);
	});

	test('a short page whose next page fails: no cap claimed', async () => {
		const { report } = await checkScripted([
			ok({ pong: true }),
			ok({ orders: [order(5), order(6)], pagination: { has_more: true } }),
			{ status: 400, body: { error: { code: 'invalid_parameter', message: 'offset too large' } } },
			ok({}),
			{ status: 404, body: {} },
		]);
		expect(report['List paging'].details).toMatchObject({ returned: 2, pageCap: null });
		expect(report.Errors.finding).toBe('A missing order item is answered HTTP 404, as a JSON body without an error code.');
	});

	test('a list refused for another reason than the permission is an error with the API\'s words', async () => {
		const { report } = await checkScripted([ok({ pong: true }), { status: 400, body: { error: { code: 'invalid_parameter', message: 'limit must be 50' } } }, { status: 404, body: '' }]);
		expect(report['Permission orders:read']).toEqual({
			check: 'Permission orders:read',
			result: 'error',
			finding: 'The Partner API refused a parameter of the request. API code: invalid_parameter. The API said: limit must be 50.',
			setting: 'See the finding',
			details: { httpStatus: 400, code: 'invalid_parameter' },
		});
		expect(report['List paging']).toBeUndefined();
		expect(report['Permission orders:detail'].result).toBe('skipped');
		expect(report.Errors.finding).toBe('A missing order item is answered HTTP 404, as no body.');
	});

	test('a stock answer without updated_at: the zone is not known; a SKU that updated another product is named', async () => {
		const { report } = await checkScripted(
			[
				ok({ pong: true }),
				ok({ orders: [], pagination: { has_more: false } }),
				{ status: 404, body: { error: { code: 'order_not_found' } } },
				{ ...ok({ product_id: 4, new_stock: 3 }), headers: date(Date.now()) },
				ok({ product_id: 5, new_stock: 3 }),
			],
			{ productId: 4, stock: 3, sku: ' SKU-4 ' },
		);
		expect(report['Time zone']).toEqual({
			check: 'Time zone',
			result: 'skipped',
			finding: "Not known: the stock answer's updated_at is absent and its Date header is there.",
			setting: "Time Zone of the API: the marketplace's zone (ask the operator)",
			details: { updatedAtWrittenAs: 'absent', dateHeader: 'present' },
		});
		expect(report['Updates by SKU']).toEqual({
			check: 'Updates by SKU',
			result: 'warning',
			finding: 'Accepted, but the SKU updated product 5, not 4: check the SKU.',
			setting: 'Identify Product By: SKU or Product ID',
			details: { productIdUpdated: '5' },
		});
	});

	test('the test product\'s updates: what is sent, and a missing Date header', async () => {
		const api = await startScriptedApi([
			ok({ pong: true }),
			ok({ orders: [], pagination: { has_more: false } }),
			{ status: 404, body: { error: { code: 'order_not_found' } } },
			ok({ product_id: '4', updated_at: '2026-05-01 10:00:00' }),
			ok({ product_id: '4', updated_at: '2026-05-01 10:00:00' }),
		]);
		try {
			const { items } = await runNode({
				parameters: { resource: 'connection', operation: 'checkSetup', testProduct: { productId: '4', stock: '0', sku: 'SKU-4' } },
				credentials: credentialsFor(api.baseUrl, api.app),
			});
			expectEveryColumn(items.map((i) => i.json));
			const report = Object.fromEntries(items.map((i) => [i.json.check, i.json]));
			expect(report['Time zone'].finding).toBe("Not known: the stock answer's updated_at is string \"2026-05-01 10:00:00\" and its Date header is missing.");
			expect(report['Updates by SKU']).toMatchObject({ result: 'ok', finding: 'Accepted: the SKU updated the test product.' });
			expect(api.requests.slice(3).map((r) => r.rawBody)).toEqual([
				'{"product_id":4,"stock":0,"external_ref":"n8n-check-setup"}',
				'{"sku":"SKU-4","stock":0,"external_ref":"n8n-check-setup"}',
			]);
		} finally {
			await api.close();
		}
	});

	test.each([
		[{ productId: 'abc', stock: 1 }, 'Test Product › Product ID must be a whole number, but got "abc".'],
		[{ productId: 4 }, 'Test Product › Stock to Set is empty; it needs a whole number.'],
		[{ productId: 4, stock: -1 }, 'Test Product › Stock to Set must be 0 or more, but got -1 (stock cannot be negative).'],
		[{ productId: 4, stock: 1, sku: true }, 'Test Product › SKU must be text, but got true.'],
	])('a test product of %j is refused before anything is sent', async (testProduct, message) => {
		const { error, requests } = await checkScripted([ok({ pong: true })], testProduct);
		expect(error?.message).toBe(message);
		expect(requests).toEqual([]);
	});

	test.each([['SKU-4'], [true]])('a SKU without a product id is not used (nor checked): nothing is written (SKU %p)', async (sku) => {
		const { report, requests } = await checkScripted(
			[ok({ pong: true }), ok({ orders: [], pagination: { has_more: false } }), { status: 404, body: { error: { code: 'order_not_found' } } }],
			{ sku, stock: 2 },
		);
		expect(report['Permission stock:write'].result).toBe('skipped');
		expect(requests.filter((r) => r.startsWith('POST'))).toEqual([]);
	});
});

// Connection › Check Setup's look past a short first page, and its clock finding at the edge of what
// the node corrects: run by n8n's engine against a scripted API over loopback, which answers each
// list request by its offset and writes the Date header the test wants.
describe('Check Setup against a scripted API that answers each list page by its offset', () => {
	const order = (id: number) => ({ order_item_id: id, order_no: `ORD-${id}`, updated_at: '2026-05-01 10:00:00', created_at: '2026-05-01 10:00:00' });

	/** A list that answers each offset with the given order item ids (has_more as given), and an empty last page elsewhere. */
	function listByOffset(pages: Record<number, { ids: number[]; more: boolean }>) {
		return (request: ScriptedRequest): Answer => {
			if (request.url.includes('/ping.php')) return ok({ pong: true });
			if (request.url.includes('/order_detail.php')) return { status: 404, body: { error: { code: 'order_not_found' } } };
			const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
			const page = pages[offset] ?? { ids: [], more: false };
			return ok({ orders: page.ids.map(order), pagination: { has_more: page.more } });
		};
	}

	async function checkSetup(answers: Parameters<typeof checkSetupAgainst>[0]) {
		const { report, requests } = await checkSetupAgainst(answers);
		const listOffsets = requests.filter((r) => r.url.includes('/orders.php')).map((r) => Number(new URL(r.url, 'http://x').searchParams.get('offset')));
		return { report, listOffsets };
	}

	describe('Check Setup reads past a short first page only as far as it needs', () => {
		test('an empty first page that says more follow is not read again', async () => {
			const { report, listOffsets } = await checkSetup(listByOffset({ 0: { ids: [], more: true } }));
			expect(listOffsets).toEqual([0]);
			expect(report['List paging']).toMatchObject({ result: 'ok', details: { returned: 0, pageCap: null } });
		});

		test('a short page followed by new order items: the cap is named after one page more, and no third page is read', async () => {
			const { report, listOffsets } = await checkSetup(
				listByOffset({ 0: { ids: [1, 2], more: true }, 2: { ids: [3, 4], more: true }, 4: { ids: [5, 6], more: true } }),
			);
			expect(listOffsets).toEqual([0, 2]);
			expect(report['List paging']).toMatchObject({
				result: 'ok',
				finding: 'Pages hold at most 2 order items though 100 were asked for; the node pages on. has_more is written as boolean true.',
				details: { returned: 2, pageCap: 2 },
			});
		});

		test('a short page whose next page is the last: reading stops there', async () => {
			const { report, listOffsets } = await checkSetup(listByOffset({ 0: { ids: [1, 2], more: true }, 2: { ids: [2], more: false }, 3: { ids: [1, 2], more: true } }));
			expect(listOffsets).toEqual([0, 2]);
			expect(report['List paging'].details).toMatchObject({ returned: 2, pageCap: null });
		});

		test('pages that only repeat order items already read, each in another arrangement: two pages more are read, then no more', async () => {
			// No page repeats another whole, so nothing says the list pages in a circle; no page brings anything new.
			const { report, listOffsets } = await checkSetup(
				listByOffset({ 0: { ids: [1, 2], more: true }, 2: { ids: [1], more: true }, 3: { ids: [2], more: true }, 4: { ids: [2, 1], more: true } }),
			);
			expect(listOffsets).toEqual([0, 2, 3]);
			expect(report['List paging']).toMatchObject({ result: 'ok', details: { returned: 2, pageCap: null } });
		});

		test('a next page the API refuses ends the look with no finding against the paging', async () => {
			const { report, listOffsets } = await checkSetup((request) => {
				if (request.url.includes('offset=2')) return { status: 400, body: { error: { code: 'invalid_parameter', message: 'offset too large' } } };
				return listByOffset({ 0: { ids: [1, 2], more: true } })(request);
			});
			expect(listOffsets).toEqual([0, 2]);
			expect(report['List paging']).toEqual({
				check: 'List paging',
				result: 'ok',
				finding: 'The first page held 2 order items (100 asked for). has_more is written as boolean true.',
				setting: 'None needed',
				details: { returned: 2, pageCap: null, hasMoreWrittenAs: 'boolean true' },
			});
		});
	});

	describe('Check Setup on a clock at the edge of what the node corrects', () => {
		/**
		 * Check Setup's clock finding for an API whose Date header is `aheadSeconds` ahead: the header is
		 * written to the second, so a run can land a second off; it is run again until it lands.
		 */
		async function clockAhead(aheadSeconds: number) {
			for (let attempt = 0; attempt < 4; attempt++) {
				const { report } = await checkSetup((request) => {
					const answer = listByOffset({})(request);
					if (!request.url.includes('/ping.php')) return answer;
					// The whole second nearest to the moment `aheadSeconds` from now.
					return { ...answer, headers: { date: new Date(Math.round(Date.now() / 1000 + aheadSeconds) * 1000).toUTCString() } };
				});
				if ((report.Clock.details as IDataObject).apiAheadSeconds === aheadSeconds) return report.Clock;
			}
			throw new Error(`the clock never read ${aheadSeconds} s ahead`);
		}

		test(`${MAX_CLOCK_OFFSET_SEC} s ahead, the most the node corrects: a warning that the node corrects it`, async () => {
			expect(MAX_CLOCK_OFFSET_SEC).toBe(900);
			const clock = await clockAhead(MAX_CLOCK_OFFSET_SEC);
			expect(clock).toMatchObject({
				result: 'warning',
				finding: expect.stringMatching(/^The API's clock is 900 s ahead of this machine's \(Date header\)\. The node corrects its timestamps after an expired_timestamp answer/),
			});
		});

		test('a second more: an error, the node cannot correct it', async () => {
			const clock = await clockAhead(MAX_CLOCK_OFFSET_SEC + 1);
			expect(clock).toMatchObject({ result: 'error', finding: expect.stringMatching(/^The API's clock is 901 s ahead of this machine's \(Date header\)\. The node corrects at most 15 minutes/) });
		});
	});
});

// Connection › Check Setup's findings about the test product: what they wait for when none is
// given, and the details they rest on when the API leaves out the Date header or refuses the
// update by SKU. Run by n8n's engine against a scripted API over loopback, answering in the order
// Check Setup asks: ping, the list, a missing item, the test product by id, by SKU.
describe("Check Setup's findings about the test product, against a scripted API", () => {
	async function checkSetup(answers: Answer[], testProduct: IDataObject = {}) {
		return (await checkSetupAgainst(answers, testProduct)).report;
	}

	const readsOnly: Answer[] = [ok({ pong: true }), ok({ orders: [], pagination: { has_more: false } }), { status: 404, body: { error: { code: 'order_not_found' } } }];

	test('without a test product, the stock permission check says it waits for one', async () => {
		const report = await checkSetup(readsOnly);
		expect(report['Permission stock:write']).toEqual({
			check: 'Permission stock:write',
			result: 'skipped',
			finding: 'Not checked: fill in Test Product (a product set aside for tests) to check it with one stock update.',
			setting: 'Test Product, to check it',
			details: { waitingFor: 'Test Product' },
		});
	});

	test("an update by SKU refused with a code: the finding's details keep the API's code; a stock answer without a Date header is said to lack it", async () => {
		const report = await checkSetup(
			[
				...readsOnly,
				ok({ product_id: 4, new_stock: 3, updated_at: '2026-05-01 10:00:00' }),
				{ status: 400, body: { error: { code: 'invalid_parameter', message: 'sku is not accepted' } } },
			],
			{ productId: 4, stock: 3, sku: 'SKU-4' },
		);
		expect(report['Updates by SKU']).toMatchObject({ result: 'warning', setting: 'Identify Product By: Product ID', details: { httpStatus: 400, code: 'invalid_parameter' } });
		expect(report['Time zone']).toMatchObject({ result: 'skipped', details: { updatedAtWrittenAs: 'string "2026-05-01 10:00:00"', dateHeader: 'absent' } });
	});
});
