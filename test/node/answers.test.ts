import type { INode } from 'n8n-workflow';
import { checkPageMoved, readFlag, readOrdersPage, successData } from '../../nodes/MarketplacePartner/transport/answers';

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

describe('a page that repeats the one before it', () => {
	test('the same ids at the next offset: the API ignores offset, and the walk stops with an error', () => {
		expect(() => checkPageMoved(node, page(1, 2), page('1', '2'), 2, 3)).toThrow('The API answered offset 2 with the same order items as the page before it');
		try {
			checkPageMoved(node, page(7), page(7), 1);
		} catch (error) {
			expect((error as { description?: string }).description).toBe(
				'It seems to ignore the offset parameter, so the order items after the first page cannot be read. Nothing was skipped silently: report this to the marketplace operator.',
			);
		}
		expect.assertions(2);
	});

	test.each([
		['the first page', undefined, page(1, 2)],
		['after an empty page', [], page(1, 2)],
		['an empty page', page(1, 2), []],
		['other ids', page(1, 2), page(2, 3)],
		['a page sharing its first id only', page(1, 2), page(1, 3)],
		['a shorter page', page(1, 2), page(1)],
	])('%s is no repeat', (_, previous, current) => {
		expect(() => checkPageMoved(node, previous, current, 2)).not.toThrow();
	});

	test('the item index is kept on the error', () => {
		let caught: { context?: { itemIndex?: number } } | undefined;
		try {
			checkPageMoved(node, page(1), page(1), 1, 4);
		} catch (error) {
			caught = error as never;
		}
		expect(caught?.context?.itemIndex).toBe(4);
	});
});
