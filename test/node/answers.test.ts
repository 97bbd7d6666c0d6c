import type { INode } from 'n8n-workflow';
import { MAX_WALK_ORDERS, MAX_WALK_PAGES, PageCheck, readFlag, readOrdersPage, retryAfterMs, successData } from '../../nodes/shared/transport/answerReading';
import { listRequestOf } from '../../nodes/shared/transport/orderPages';

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

describe('the page check of a walk', () => {
	const answer = (ids: Array<number | string>, offset?: number) => ({ orders: page(...ids), pagination: { has_more: true, ...(offset === undefined ? {} : { offset }) } });
	const walk = (pages: Array<[Array<number | string>, number, number?]>, itemIndex?: number) => {
		const check = new PageCheck(node, itemIndex);
		return pages.map(([ids, offset, answeredAt]) => check.page(offset, answer(ids, answeredAt), 100).fresh.map((o) => o.order_item_id));
	};
	const caught = (run: () => unknown) => {
		try {
			run();
		} catch (error) {
			return error as { message?: string; description?: string; context?: { itemIndex?: number } };
		}
		return undefined;
	};

	test('a page read before, a second time at another offset, stops the walk with an error that says why', () => {
		const error = caught(() => walk([[[1, 2], 0], [['1', '2'], 2], [[1, 2], 4]], 3));
		expect(error?.message).toBe('The API answered offset 4 with the same order items as offset 0');
		expect(error?.description).toBe(
			'It says more order items follow (has_more) but does not page on: it seems to ignore or clamp the offset parameter, so reading on would never end. The node stopped rather than read on: nothing was returned twice. Report this to the marketplace operator.',
		);
		expect(error?.context?.itemIndex).toBe(3);
		// Any page, not only the first.
		expect(caught(() => walk([[[1, 2], 0], [[3, 4], 2], [[3, 4], 4], [[3, 4], 6]]))?.message).toBe('The API answered offset 6 with the same order items as offset 2');
	});

	test('an API that wrote the offsets asked for and then another one clamped it: stopped at once', () => {
		expect(caught(() => walk([[[1, 2], 0, 0], [[3, 4], 2, 2], [[3, 4], 4, 2]]))?.message).toBe('The API answered offset 4 with the page at offset 2 (its pagination.offset)');
		// Written wrong from the start (always 0) is no clamp.
		expect(walk([[[1, 2], 0, 0], [[3, 4], 2, 0], [[5], 4, 0]])).toEqual([[1, 2], [3, 4], [5]]);
	});

	test('each order item is handed on once: repeats of a list that moved are left out, and the walk goes on', () => {
		expect(walk([[[1, 2, 3], 0], [[3, 4, 5], 3], [[4, 5, 6], 6], [[2, 3, 4], 9], [[7], 12]])).toEqual([[1, 2, 3], [4, 5], [6], [], [7]]);
	});

	test.each([
		['once: a list that moved while paging', [[[7], 0], [[7], 1], [[8], 2]]],
		['empty pages', [[[1, 2], 0], [[], 2], [[], 2], [[], 4]]],
		['pages sharing the first id only', [[[1, 2], 0], [[1, 3], 2], [[1, 3], 4]]],
		['an empty first page', [[[], 0], [[], 3], [[], 6]]],
	])('%s is no error', (_, pages) => {
		expect(() => walk(pages as Array<[number[], number]>)).not.toThrow();
	});

	test('the last page ends a walk whatever it holds', () => {
		const check = new PageCheck(node);
		check.page(0, answer([1, 2]), 2);
		check.page(2, answer([1, 2]), 2);
		expect(check.page(4, { orders: page(1, 2), pagination: { has_more: false } }, 2)).toMatchObject({ fresh: [], more: false });
	});

	test(`the caps: ${MAX_WALK_PAGES} pages, or ${MAX_WALK_ORDERS} order items`, () => {
		const pages = new PageCheck(node);
		for (let n = 0; n < MAX_WALK_PAGES; n++) {
			expect(() => pages.next()).not.toThrow();
			pages.page(n, answer([n + 1], n), 1);
		}
		expect(caught(() => pages.next())?.message).toBe('The orders list goes on past 1,000 pages (1,000 order items), where the node stops reading it');
		const orders = new PageCheck(node);
		const ids = Array.from({ length: MAX_WALK_ORDERS }, (_, n) => n + 1);
		orders.page(0, answer(ids, 0), MAX_WALK_ORDERS);
		expect(caught(() => orders.next())?.description).toMatch(/^One read of the list stops at 1,000 pages or 100,000 order items, so that a run cannot grow without end\. Narrow the list/);		// Inside one page too: a page asked with a larger limit stops at the cap, counting what it read.
		const onePage = new PageCheck(node, 2);
		const error = caught(() => onePage.page(0, answer([...ids, MAX_WALK_ORDERS + 1], 0), 2 * MAX_WALK_ORDERS));
		expect(error?.message).toBe('The orders list goes on past 1 page (100,000 order items), where the node stops reading it');
		expect(error?.context?.itemIndex).toBe(2);
	});

	test('pages whose ids only run together (1, 23 and 12, 3) are different pages', () => {
		expect(walk([[[1, 23], 0], [[12, 3], 2], [[123], 4]])).toEqual([[1, 23], [12, 3], [123]]);
	});

	test('a page of no more order items than the walk asked for again on purpose (its overlap) is no repeated page', () => {
		const pages = new PageCheck(node);
		for (let n = 0; n < 4; n++) expect(pages.page(n, answer([1], n), 100, 1).fresh).toHaveLength(n === 0 ? 1 : 0);
		const noOverlap = new PageCheck(node);
		expect(caught(() => [0, 1, 2].forEach((n) => noOverlap.page(n, answer([1], n), 100)))?.message).toBe('The API answered offset 2 with the same order items as offset 0');
	});
});

describe('the filters a list request is held to', () => {
	test('a status and an updated_after given as text are held to; empty or other values are no filter', () => {
		expect(listRequestOf({ status: 'accepted', updated_after: '2026-06-01 10:00:00', limit: 50 })).toEqual({ status: 'accepted', updatedAfter: '2026-06-01 10:00:00' });
		expect(listRequestOf({ status: '', updated_after: '' })).toEqual({ status: undefined, updatedAfter: undefined });
		expect(listRequestOf({ status: 1, updated_after: true })).toEqual({ status: undefined, updatedAfter: undefined });
		expect(listRequestOf({})).toEqual({ status: undefined, updatedAfter: undefined });
	});
});
