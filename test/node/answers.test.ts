import type { INode } from 'n8n-workflow';
import { OffsetCheck, readFlag, readOrdersPage, retryAfterMs, successData } from '../../nodes/MarketplacePartner/transport/answers';

const node = { name: 'Marketplace Partner', type: 'marketplacePartner', typeVersion: 1, position: [0, 0], parameters: {} } as unknown as INode;
const page = (...ids: Array<number | string>) => ids.map((order_item_id) => ({ order_item_id }));

describe('flags as backends write them', () => {
	test.each([true, 1, '1', 'true', ' TRUE ', 'True'])('%j is true', (value) => {
		expect(readFlag(value)).toBe(true);
	});
	test.each([false, 0, '0', 'false', ' False '])('%j is false', (value) => {
		expect(readFlag(value)).toBe(false);
	});
	test.each([undefined, null, '', 'yes', 2, -1, 'on', {}, []])('%j is no flag', (value) => {
		expect(readFlag(value)).toBeUndefined();
	});
});

describe('the success envelope', () => {
	test.each([true, 1, '1', 'true'])('ok %j with an object in data is a success', (ok) => {
		expect(successData({ ok, data: { pong: true } })).toEqual({ pong: true });
	});
	test.each([
		['ok false', { ok: false, data: { pong: true } }],
		['ok 0', { ok: 0, data: {} }],
		['no ok', { data: {} }],
		['data null', { ok: true, data: null }],
		['data a list', { ok: true, data: [] }],
		['data text', { ok: true, data: 'pong' }],
		['no body', undefined],
		['a text body', 'ok'],
	])('%s is not', (_, envelope) => {
		expect(successData(envelope)).toBeUndefined();
	});
});

describe('Retry-After: seconds or a date', () => {
	const now = Date.parse('2026-11-26T10:00:00Z');
	test.each<[unknown, number | undefined]>([
		['120', 120_000],
		['0', 0],
		[['7', '9'], 7000],
		['Thu, 26 Nov 2026 10:00:05 GMT', 5000],
		['2026-11-26T10:00:03Z', 3000],
		['2026-11-26T10:00:03+00:00', 3000],
		['Wed, 21 Oct 2015 07:28:00 GMT', 0], // already past: no wait
		['soon', undefined],
		['', undefined],
		[undefined, undefined],
		[[], undefined],
	])('%j', (header, expected) => {
		expect(retryAfterMs(header, now)).toBe(expected);
	});
});

describe('a page of GET /orders.php', () => {
	test.each([
		['has_more true', true, true],
		['has_more 1', 1, true],
		['has_more "true"', 'true', true],
		['has_more "1"', '1', true],
		['has_more false', false, false],
		['has_more 0', 0, false],
		['has_more "false"', 'false', false],
		['has_more "0"', '0', false],
		// Unknown: a page with entries may have more behind it (one request more, never a page less).
		['no has_more', undefined, true],
		['has_more "maybe"', 'maybe', true],
	])('a page with entries and %s: more is %s', (_, hasMore, more) => {
		const pagination = hasMore === undefined ? { limit: 100, offset: 0 } : { has_more: hasMore };
		expect(readOrdersPage({ orders: page(1, 2), pagination })).toEqual({ orders: page(1, 2), more });
	});

	test.each([true, 1, 'true', undefined])('an empty page is the last, whatever has_more says (%j)', (hasMore) => {
		expect(readOrdersPage({ orders: [], pagination: { has_more: hasMore } })).toEqual({ orders: [], more: false });
	});

	test('no orders list and no pagination: an empty last page', () => {
		expect(readOrdersPage({})).toEqual({ orders: [], more: false });
		expect(readOrdersPage({ orders: { 0: { order_item_id: 1 } } as never })).toEqual({ orders: [], more: false });
	});
});

describe('an API that ignores offset', () => {
	const walk = (pages: Array<[Array<number | string>, number]>, itemIndex?: number) => {
		const check = new OffsetCheck(node, itemIndex);
		for (const [ids, offset] of pages) check.page(page(...ids), offset);
	};

	test('the first page at a later offset a second time stops the walk with an error that says why', () => {
		let caught: { message?: string; description?: string; context?: { itemIndex?: number } } | undefined;
		try {
			walk(
				[
					[[1, 2], 0],
					[['1', '2'], 2],
					[[1, 2], 4],
				],
				3,
			);
		} catch (error) {
			caught = error as never;
		}
		expect(caught?.message).toBe('The API answered offset 4 with the same order items as the first page');
		expect(caught?.description).toBe(
			'It seems to ignore the offset parameter, so the order items after the first page cannot be read. Nothing was skipped silently: report this to the marketplace operator.',
		);
		expect(caught?.context?.itemIndex).toBe(3);
	});

	test.each([
		['once: a list that moved while paging', [[[7], 0], [[7], 1], [[8], 2]]],
		['the first page read again at offset 0 (a second scan of a window)', [[[1, 2], 0], [[2, 3], 1], [[1, 2], 0], [[1, 2], 0], [[2, 3], 1]]],
		['empty pages', [[[1, 2], 0], [[], 2], [[], 2], [[], 4]]],
		['other pages', [[[1, 2], 0], [[3, 4], 2], [[3, 4], 4], [[5], 6]]],
		['pages sharing the first id only', [[[1, 2], 0], [[1, 3], 2], [[1, 3], 4]]],
		['an empty first page', [[[], 0], [[], 3], [[], 6]]],
	])('%s is no error', (_, pages) => {
		expect(() => walk(pages as Array<[number[], number]>)).not.toThrow();
	});

	test('the first page is the first one read at offset 0', () => {
		expect(() => walk([[[1], 0], [[2], 0], [[2], 1], [[2], 2]])).not.toThrow();
		expect(() => walk([[[1], 0], [[2], 0], [[1], 1], [[1], 2]])).toThrow(/offset 2/);
	});
});
