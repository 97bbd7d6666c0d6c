// Connection › Check Setup, run by n8n's engine against the sandbox over HTTP in each of its
// answer styles: the report says what the sandbox plays, and what to set.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

type Product = { product_id: number; sku: string; stock: number; variant_combination_ids: number[] };

async function checkSetup(sb: RunningSandbox, extra: IDataObject = {}, testProduct: IDataObject = {}, app = 'seller-a-full') {
	const { items, error } = await runNode({
		parameters: { resource: 'connection', operation: 'checkSetup', testProduct },
		credentials: credentialsFor(sb.baseUrl, sb.apps[app], extra),
	});
	expect(error).toBeUndefined();
	expect(items.every((i) => JSON.stringify(i.pairedItem) === '{"item":0}')).toBe(true);
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
			'Permission orders:detail',
			'Errors',
			'Permission stock:write',
			'Time zone',
		]);
		expect(report.Authentication).toEqual({
			check: 'Authentication',
			result: 'ok',
			finding: 'Requests are signed correctly: /ping.php answered HTTP 200.',
			details: { okWrittenAs: 'boolean true' },
		});
		expect(report.Clock).toMatchObject({ result: 'ok', finding: "The API's clock and this machine's agree (Date header)." });
		expect(report['Permission orders:read']).toEqual({ check: 'Permission orders:read', result: 'ok', finding: 'Granted: Order › Get Many and the Orders Trigger can be used.' });
		expect(report['List paging']).toEqual({
			check: 'List paging',
			result: 'ok',
			finding: 'The first page held 100 order items (100 asked for). has_more is written as boolean true.',
			details: { returned: 100, pageCap: null, hasMoreWrittenAs: 'boolean true' },
		});
		expect(report['List values'].finding).toMatch(/^Ids and numbers are written as number; datetimes as string "\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"\. The page is ordered by order_item_id ascending\.$/);
		expect(report['Permission orders:detail']).toMatchObject({ result: 'ok' });
		expect(report.Errors).toEqual({
			check: 'Errors',
			result: 'ok',
			finding: 'A missing order item is answered HTTP 404 with code order_not_found, as {"ok":false,"error":{"code","message"}} (the code inside an error object).',
			details: { httpStatus: 404, code: 'order_not_found' },
		});
		expect(report['Time zone']).toMatchObject({ result: 'skipped', finding: expect.stringMatching(/^Not checked: fill in Test Product/) });
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
		expect(report['Other checks']).toMatchObject({ result: 'skipped' });
		expect(Object.keys(report)).toEqual(['Authentication', 'Clock', 'Other checks']);
	});

	test('a clock ahead: the Date header tells by how much', async () => {
		await sb.control('POST', '/faults', { clockSkewSec: 120 });
		try {
			const report = await checkSetup(sb);
			expect(report.Clock).toMatchObject({ result: 'warning', finding: expect.stringMatching(/^The API's clock is 1(19|20|21) s ahead of this machine's/) });
		} finally {
			await sb.control('POST', '/faults/reset');
		}
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
	});

	test('with the credential set to it: the zone is confirmed', async () => {
		const report = await checkSetup(sb, { timeZone: zone }, { productId: product.product_id, stock: 4 });
		expect(report['Time zone']).toMatchObject({ result: 'ok', setting: `Time Zone of the API: ${zone}` });
	});
});
