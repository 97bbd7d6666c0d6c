import { columnFinder, headerKey } from '../../nodes/MarketplacePartner/helpers/columnNames';
import { checkTimeZone, formatApiDateTime, toApiDateTime, toSku, toWholeNumber } from '../../nodes/shared/helpers/values';

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
		['1'.repeat(150), new RegExp(`^Stock must be a whole number, but got "${'1'.repeat(100)}…"\\.$`)],
		[{ nested: [[['x'.repeat(200)]]] }, new RegExp(`^Stock must be a whole number, but got \\{"nested":\\[\\[\\["${'x'.repeat(86)}…\\.$`)],
	])('%j is refused: %s', (value, message) => {
		expect(() => toWholeNumber(value, 'Stock')).toThrow(message);
	});

	test('under the minimum: the message gives the reason only where one is given', () => {
		expect(() => toWholeNumber('-1', 'Overlap (Seconds)')).toThrow(new Error('Overlap (Seconds) must be 0 or more, but got -1.'));
		expect(() => toWholeNumber(-2, 'Stock', { why: 'stock cannot be negative' })).toThrow(new Error('Stock must be 0 or more, but got -2 (stock cannot be negative).'));
	});

	test('optional empty values are undefined', () => {
		expect(toWholeNumber('', 'Variant', { optional: true })).toBeUndefined();
		expect(toWholeNumber(undefined, 'Variant', { optional: true })).toBeUndefined();
		expect(() => toWholeNumber('x', 'Variant', { optional: true })).toThrow(/whole number/);
	});

	test.each([
		[true, 'true'],
		[{ id: 7 }, '{"id":7}'],
		[[3], '[3]'],
	])('%j is the wrong kind of value, optional or not, and is quoted', (value, quoted) => {
		for (const optional of [false, true]) {
			expect(() => toWholeNumber(value, 'Variant Combination ID', { optional, min: 1 })).toThrow(
				new Error(`Variant Combination ID must be a whole number, but got ${quoted}.`),
			);
		}
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
		// Found by the property test: Intl writes the year 999 with three digits.
		['1000-01-01T02:59:59+03:00', '0999-12-31 23:59:59'],
	])('%s is sent as %s', (value, expected) => {
		expect(toApiDateTime(value, 'Updated After')).toBe(expected);
	});

	test('a Date object is converted to UTC', () => {
		expect(toApiDateTime(new Date(Date.UTC(2026, 0, 31, 14)), 'Updated After')).toBe('2026-01-31 14:00:00');
	});

	test.each(['yesterday', '31.01.2026', '', 'on 2026-01-31 14:00:00', '2026-01-31 14:00:00 tomorrow'])('%j is refused with the field name', (value) => {
		expect(() => toApiDateTime(value, 'Updated After')).toThrow(/Updated After must be a date and time/);
	});
});

// Known answers from GNU date and the system's tzdata: TZ=<zone> date -d <instant> '+%F %T'
const ZONE_ANSWERS: Array<[string, string, string]> = [
	['America/New_York', '2026-01-31T14:00:00Z', '2026-01-31 09:00:00'],
	['America/New_York', '2026-07-01T23:30:05Z', '2026-07-01 19:30:05'],
	['Asia/Tokyo', '2026-01-31T14:00:00Z', '2026-01-31 23:00:00'],
	['Asia/Tokyo', '2026-07-01T23:30:05Z', '2026-07-02 08:30:05'],
	['Europe/Moscow', '2026-07-01T23:30:05Z', '2026-07-02 02:30:05'],
	['Asia/Kathmandu', '2026-01-31T14:00:00Z', '2026-01-31 19:45:00'],
	['Pacific/Kiritimati', '2026-01-31T14:00:00Z', '2026-02-01 04:00:00'],
	['Etc/GMT+12', '2026-07-01T23:30:05Z', '2026-07-01 11:30:05'],
	['UTC', '2026-07-01T23:30:05Z', '2026-07-01 23:30:05'],
];

describe('the API\'s time zone', () => {
	test.each(ZONE_ANSWERS)('in %s, %s is written %s', (zone, instant, expected) => {
		expect(formatApiDateTime(Date.parse(instant), zone)).toBe(expected);
		expect(toApiDateTime(instant, 'Updated After', zone)).toBe(expected);
	});

	test('a moment is written in UTC when no zone is given', () => {
		expect(formatApiDateTime(Date.parse('2026-07-01T23:30:05.999Z'))).toBe('2026-07-01 23:30:05');
		expect(toApiDateTime(new Date(Date.UTC(2026, 0, 31, 14)), 'Updated After', 'Asia/Tokyo')).toBe('2026-01-31 23:00:00');
	});

	// Found by the property test: the year past 9999 went out as five digits, year 0 as year 1 (Intl's 1 BC).
	test('years are counted as ISO 8601 counts them, through year 0 and before it', () => {
		expect(formatApiDateTime(Date.parse('0000-06-01T00:00:00Z'))).toBe('0000-06-01 00:00:00');
		expect(formatApiDateTime(Date.parse('0000-01-01T00:30:00Z'), 'Etc/GMT+1')).toBe('-0001-12-31 23:30:00');
		expect(formatApiDateTime(Date.parse('0999-03-04T05:06:07Z'))).toBe('0999-03-04 05:06:07');
		expect(toApiDateTime('0000-06-01T00:00:00Z', 'Updated After', 'UTC')).toBe('0000-06-01 00:00:00');
		expect(toApiDateTime('9999-12-31T20:59:59Z', 'Updated After', 'Europe/Istanbul')).toBe('9999-12-31 23:59:59');
	});

	test.each([
		['9999-12-31T21:00:00Z', 'Europe/Istanbul', '10000-01-01 00:00:00'],
		['0000-01-01T00:30:00+01:00', 'UTC', '-0001-12-31 23:30:00'],
	])('a moment outside the four-digit years in the API\'s zone is refused: %s in %s', (value, zone, there) => {
		expect(() => toApiDateTime(value, 'Updated After', zone)).toThrow(
			new Error(`Updated After is outside the years the API can write (0000 to 9999 in its time zone, ${zone}): "${value}" is ${there} there.`),
		);
	});

	test('a value without a zone is the API\'s own wall clock: sent as written, whatever the zone', () => {
		expect(toApiDateTime('2026-01-31T14:00', 'Updated After', 'Asia/Tokyo')).toBe('2026-01-31 14:00:00');
	});

	test('a name that is no time zone is refused with what to set', () => {
		expect(() => checkTimeZone('Mars/Olympus')).toThrow(
			new Error('The credential\'s Time Zone "Mars/Olympus" is not a time zone name. Use an IANA name such as UTC, Europe/Istanbul or America/New_York.'),
		);
		expect(() => formatApiDateTime(0, 'GMT+3')).toThrow(/Time Zone "GMT\+3" is not a time zone name/);
		expect(checkTimeZone('Europe/Istanbul')).toBe('Europe/Istanbul');
	});
});

describe('toApiDateTime: what the error quotes', () => {
	test.each([
		['an invalid Date', '"Invalid Date"', new Date(Number.NaN)],
		['an object without a prototype', '{}', Object.create(null)],
		['an object whose toString is not a function', '{"toString":1}', { toString: 1 }],
		['150 characters', `"${'x'.repeat(100)}…"`, ` ${'x'.repeat(150)} `],
	])('%s is quoted as %s, at most 100 characters', (_, quoted, value) => {
		expect(() => toApiDateTime(value, 'Start From')).toThrow(
			new Error(`Start From must be a date and time such as 2026-01-31 14:00:00 or 2026-01-31T14:00:00Z, but got ${quoted}.`),
		);
	});

	test('a value that is no date on any calendar is quoted at most 100 characters long', () => {
		expect(() => toApiDateTime(`2026-13-01T10:00:00.${'1'.repeat(150)}Z`, 'Start From')).toThrow(
			new Error(`Start From is not a valid date: "2026-13-01T10:00:00.${'1'.repeat(80)}…".`),
		);
	});

	test.each([null, undefined])('%j is quoted as an empty value', (value) => {
		expect(() => toApiDateTime(value, 'Start From')).toThrow(
			new Error('Start From must be a date and time such as 2026-01-31 14:00:00 or 2026-01-31T14:00:00Z, but got "".'),
		);
	});

	test('a date with a zone that no calendar has is refused with the value as given', () => {
		expect(() => toApiDateTime(' 2026-13-01T10:00:00Z ', 'Start From')).toThrow(new Error('Start From is not a valid date: "2026-13-01T10:00:00Z".'));
	});
});

describe('toSku: SKUs from a sheet', () => {
	test.each([
		['SKU-A-70001', 'SKU-A-70001'],
		['  ab 12 ', 'ab 12'],
		[4711, '4711'],
	])('%j is sent as %j', (value, expected) => {
		expect(toSku(value, 'SKU')).toBe(expected);
	});

	test.each([
		['', "SKU is empty; it needs the product's SKU."],
		['   ', "SKU is empty; it needs the product's SKU."],
		[undefined, "SKU is empty; it needs the product's SKU."],
		[null, "SKU is empty; it needs the product's SKU."],
		[true, 'SKU must be text, but got true.'],
		[{ a: 1 }, 'SKU must be text, but got {"a":1}.'],
		[{ a: 'x'.repeat(200) }, `SKU must be text, but got {"a":"${'x'.repeat(94)}….`],
	])('%j is refused', (value, message) => {
		expect(() => toSku(value, 'SKU')).toThrow(message);
	});
});

describe('columns found by header', () => {
	test.each(['Product ID', 'product-id', 'productId', 'PRODUCT_ID', ' product id '])('%j reads as product_id', (header) => {
		expect(headerKey(header)).toBe(headerKey('product_id'));
		expect(columnFinder(['product_id'])({ [header]: 1, other: 2 })).toBe(header);
	});

	test('letters beyond ASCII are kept: "Stück" is not "Stck"', () => {
		expect(headerKey('Stück-Zahl')).toBe('stückzahl');
		expect(columnFinder(['stck'])({ Stück: 1 })).toBeUndefined();
	});

	test('a name every object inherits is a column only where the item has it', () => {
		expect(columnFinder(['constructor'])({ other: 1 })).toBeUndefined();
		expect(columnFinder(['toString'])({ toString: 2 })).toBe('toString');
		expect(columnFinder(['constructor', 'sku'])({ sku: 3 })).toBe('sku');
	});

	test('columns that all read as the field are listed, up to 500 characters', () => {
		const json = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`${'_'.repeat(i)}sku`, i]));
		const listed = Object.keys(json).map((m) => `"${m}"`).join(' and ');
		expect(() => columnFinder(['SKU'])(json)).toThrow(new Error(`The columns ${listed.slice(0, 500)}… all read as SKU; keep one of them, or name the one to use under Column Names.`));
	});

	test('an exact name wins; no match is undefined; two variants are an error', () => {
		const find = columnFinder(['external_ref', 'external_reference']);
		expect(find({ 'External Ref': 1, external_reference: 2 })).toBe('external_reference');
		expect(find({ ref: 1 })).toBeUndefined();
		expect(() => find({ 'External Ref': 1, externalReference: 2 })).toThrow('The columns "External Ref" and "externalReference" all read as external_ref');
	});
});
