import {
	errorShape,
	formatOffset,
	hasMoreFinding,
	listOrdering,
	numberKinds,
	offsetMinutes,
	writtenAs,
	zoneOffsetMinutes,
	zonesAtOffset,
} from '../../nodes/MarketplacePartner/helpers/setupFindings';

describe('how a value is written', () => {
	test.each([
		[true, 'boolean true'],
		[1, 'number 1'],
		['1', 'string "1"'],
		[undefined, 'absent'],
		[null, 'null'],
		[[1], 'list [1]'],
	])('%j: %s', (value, expected) => {
		expect(writtenAs(value)).toBe(expected);
	});
});

describe('error shapes', () => {
	test.each([
		[{ ok: false, error: { code: 'x' } }, '{"ok":false,"error":{"code","message"}} (the code inside an error object)'],
		[{ ok: false, error: 'x', message: 'm' }, '{"error":"code","message"} (a flat error code)'],
		[{ errors: [{ code: 'x' }] }, '{"errors":[{"code","message"}]} (a list of errors)'],
		[{ status: 'error', code: 'x' }, '{"code","message"} beside a status field (code at the top)'],
		[{ code: 'x' }, '{"code","message"} (code at the top)'],
		[{ message: 'm' }, 'a JSON body without an error code'],
		['<html>', 'a body that is not JSON'],
		['', 'no body'],
		[undefined, 'no body'],
		[[1], 'no body'],
	])('%j', (body, expected) => {
		expect(errorShape(body)).toBe(expected);
	});
});

describe('the order of a page', () => {
	const at = (s: number) => `2026-05-01 10:00:${String(s).padStart(2, '0')}`;
	test.each([
		['ids rising', [{ order_item_id: 1 }, { order_item_id: '2' }, { order_item_id: 3 }], 'order_item_id ascending'],
		['ids falling', [{ order_item_id: 3 }, { order_item_id: 2 }], 'order_item_id descending'],
		[
			'updated_at rising, ids not',
			[
				{ order_item_id: 2, updated_at: at(1) },
				{ order_item_id: 1, updated_at: at(1) },
				{ order_item_id: 3, updated_at: at(5) },
			],
			'updated_at ascending',
		],
		[
			'updated_at falling',
			[
				{ order_item_id: 2, updated_at: at(9), created_at: at(1) },
				{ order_item_id: 3, updated_at: at(5), created_at: at(2) },
				{ order_item_id: 1, updated_at: at(5), created_at: at(0) },
			],
			'updated_at descending',
		],
		[
			'created_at only',
			[
				{ order_item_id: 2, updated_at: at(9), created_at: at(1) },
				{ order_item_id: 3, updated_at: at(5), created_at: at(2) },
				{ order_item_id: 1, updated_at: at(7), created_at: at(3) },
			],
			'created_at ascending',
		],
	])('%s', (_, orders, expected) => {
		expect(listOrdering(orders)).toBe(expected);
	});

	test.each([
		['one entry', [{ order_item_id: 1 }]],
		['no entries', []],
		['all equal', [{ order_item_id: 1 }, { order_item_id: 1 }]],
		['no order', [{ order_item_id: 2 }, { order_item_id: 1 }, { order_item_id: 3 }]],
		['ids not numbers and no dates', [{ order_item_id: 'a' }, { order_item_id: 'b' }]],
	])('%s: none', (_, orders) => {
		expect(listOrdering(orders)).toBeUndefined();
	});
});

describe('number kinds of an order item', () => {
	test.each([
		[{ order_item_id: 1, quantity: 2, unit_price: 3.5, product: { product_id: 4 } }, 'number'],
		[{ order_item_id: '1', quantity: '2', unit_price: '3.50', product: { product_id: '4' } }, 'string'],
		[{ order_item_id: 1, quantity: '2' }, 'number and string'],
		[{ order_item_id: '1', product: { product_id: 4 } }, 'number and string'],
		[{}, 'absent'],
	])('%j: %s', (order, expected) => {
		expect(numberKinds(order)).toBe(expected);
	});
});

describe('has_more as found', () => {
	test.each([
		[{ has_more: true }, { writtenAs: 'boolean true', more: true }],
		[{ has_more: '0' }, { writtenAs: 'string "0"', more: false }],
		[{ limit: 100 }, { writtenAs: 'absent', more: undefined }],
		[undefined, { writtenAs: 'absent', more: undefined }],
	])('%j', (pagination, expected) => {
		expect(hasMoreFinding(pagination)).toEqual(expected);
	});
});

describe("the API's offset from a datetime it wrote and its Date header", () => {
	const at = Date.UTC(2026, 0, 31, 14, 0, 0);
	test.each([
		['2026-01-31 17:00:00', 180],
		['2026-01-31 09:00:01', -300],
		['2026-01-31 19:45:00', 345],
		['2026-01-31 14:07:00', 0],
		['2026-01-31 14:08:00', 15],
		['2026-01-31 13:52:00', -15],
		['2026-02-01 04:00:00', 840],
	])('%s: %i minutes', (written, minutes) => {
		expect(offsetMinutes(written, at)).toBe(minutes);
	});

	test.each([
		['not a date', at],
		[undefined, at],
		['2026-01-31 17:00:00', NaN],
	])('%j at %d: unknown', (written, when) => {
		expect(offsetMinutes(written, when)).toBeUndefined();
	});

	test.each([
		[0, 'UTC+00:00'],
		[180, 'UTC+03:00'],
		[-300, 'UTC-05:00'],
		[345, 'UTC+05:45'],
		[-570, 'UTC-09:30'],
		[840, 'UTC+14:00'],
	])('%i minutes: %s', (minutes, text) => {
		expect(formatOffset(minutes)).toBe(text);
	});
});

describe('zones and their offsets', () => {
	const winter = Date.UTC(2026, 0, 31, 14, 0, 0, 700);
	const summer = Date.UTC(2026, 6, 1, 14);
	test.each([
		['UTC', winter, 0],
		['America/New_York', winter, -300],
		['America/New_York', summer, -240],
		['Asia/Kathmandu', winter, 345],
		['Europe/Istanbul', summer, 180],
	])('%s at %d: %i', (zone, at, minutes) => {
		expect(zoneOffsetMinutes(zone, at)).toBe(minutes);
	});

	test('zones at an offset: the credential\'s own first, at most the number asked', () => {
		const zones = zonesAtOffset(180, summer, 'Europe/Istanbul');
		expect(zones[0]).toBe('Europe/Istanbul');
		expect(zones).toHaveLength(6);
		for (const zone of zones) expect(zoneOffsetMinutes(zone, summer)).toBe(180);
		expect(zonesAtOffset(180, summer, 'Europe/Istanbul', 2)).toHaveLength(2);
	});

	test('a preferred zone at another offset is not put first', () => {
		const zones = zonesAtOffset(-300, winter, 'Europe/Istanbul');
		expect(zones).not.toContain('Europe/Istanbul');
		expect(zones[0]).toMatch(/^America\//);
		expect(zonesAtOffset(0, winter, 'Asia/Tokyo')[0]).toBe('UTC');
	});

	test('an offset no zone has: none', () => {
		expect(zonesAtOffset(7, winter, 'UTC')).toEqual([]);
	});
});
