import { toApiDateTime, toWholeNumber } from '../../nodes/MarketplacePartner/helpers/values';

describe('toWholeNumber: spreadsheet values', () => {
	test.each([
		['12', 12],
		[' 12 ', 12],
		[12, 12],
		['0', 0],
	])('%j is %i', (value, expected) => {
		expect(toWholeNumber(value, 'Stock')).toBe(expected);
	});

	test.each([
		['-1', /Stock must be 0 or more, but got -1/],
		['12.5', /Stock must be a whole number, but got "12.5"/],
		[12.5, /Stock must be a whole number, but got "12.5"/],
		['abc', /Stock must be a whole number, but got "abc"/],
		['', /Stock is empty/],
		[undefined, /Stock is empty/],
		['1e3', /whole number/],
		['99999999999999999999', /whole number/],
	])('%j is refused: %s', (value, message) => {
		expect(() => toWholeNumber(value, 'Stock')).toThrow(message);
	});

	test('optional empty values are undefined', () => {
		expect(toWholeNumber('', 'Variant', { optional: true })).toBeUndefined();
		expect(toWholeNumber(undefined, 'Variant', { optional: true })).toBeUndefined();
		expect(() => toWholeNumber('x', 'Variant', { optional: true })).toThrow(/whole number/);
	});
});

describe('toApiDateTime', () => {
	test.each([
		['2026-01-31T14:00:00', '2026-01-31 14:00:00'],
		['2026-01-31 14:00:00', '2026-01-31 14:00:00'],
		['2026-01-31T14:00', '2026-01-31 14:00:00'],
		['2026-01-31T14:00:00.123Z', '2026-01-31 14:00:00'],
		['2026-01-31T16:00:00+02:00', '2026-01-31 14:00:00'],
		['2026-01-31T09:00:00-0500', '2026-01-31 14:00:00'],
	])('%s is sent as %s', (value, expected) => {
		expect(toApiDateTime(value, 'Updated After')).toBe(expected);
	});

	test('a Date object is converted to UTC', () => {
		expect(toApiDateTime(new Date(Date.UTC(2026, 0, 31, 14)), 'Updated After')).toBe('2026-01-31 14:00:00');
	});

	test.each(['yesterday', '31.01.2026', ''])('%j is refused with the field name', (value) => {
		expect(() => toApiDateTime(value, 'Updated After')).toThrow(/Updated After must be a date and time/);
	});
});
