// Property-based tests of what the node reads from sheets, expressions and the API besides answers
// (issue 31): datetimes (helpers/values.ts, the Orders Trigger's parseApiDate), SKUs and whole
// numbers, columns found by header, the credential's Base URL, and the bounded readers behind
// every message (helpers/networkText.ts). Whatever the value: the result or a clear Error naming
// the field, never another throw, never a backtracking regular expression (a time budget per KB).
import fc from 'fast-check';
import { formatApiDateTime, toApiDateTime, toSku, toWholeNumber } from '../../nodes/shared/helpers/values';
import { parseApiDate } from '../../nodes/shared/helpers/orderChanges';
import { columnFinder, headerKey } from '../../nodes/MarketplacePartner/helpers/columnNames';
import { stockColumns } from '../../nodes/MarketplacePartner/actions/stock/stockColumns';
import { parseCredentials } from '../../nodes/shared/transport/credentials';
import { MarketplacePartnerApi } from '../../credentials/MarketplacePartnerApi.credentials';
import { pathRelativeToBase } from '../../nodes/shared/transport/signing';
import { cut, jsonPreview, oneLine, ownValue, trimEnd } from '../../nodes/shared/helpers/networkText';
import { Budget, HOSTILE_TEXTS, nested } from '../helpers/budget';
import { propertyRuns } from '../helpers/soak';
import { anyText, anyValue, bigText, INHERITED, trickyText } from '../helpers/arbitraries';

const sizeOf = (value: unknown) => (typeof value === 'string' ? value.length : 1024);
const API_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Text shaped like a datetime, with any part replaced by tricky or big text. */
const dateLike = fc
	.tuple(fc.date({ noInvalidDate: true, min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z') }), fc.constantFrom('', 'Z', '+03:00', '-0530', '.123Z'), trickyText)
	.map(([date, zone, noise]) => `${date.toISOString().slice(0, 19)}${zone}${noise}`);

/** A value of any kind, as an expression or a sheet cell may hold it, big text included. */
const anyInput = fc.oneof(anyValue, anyText, dateLike, bigText, fc.constantFrom(...HOSTILE_TEXTS), fc.date());

/** What every reader here may do besides returning: throw an Error (not a TypeError or RangeError) that names the field, quoting at most a little of the value. */
function expectClearError(error: unknown, field: string) {
	expect(error).toBeInstanceOf(Error);
	expect((error as Error).constructor).toBe(Error);
	expect((error as Error).message.startsWith(field) || (error as Error).message.includes(`"${field}`)).toBe(true);
	expect((error as Error).message.length).toBeLessThanOrEqual(field.length + 400);
}

describe('datetimes', () => {
	test("toApiDateTime: any value is the API's datetime or a clear error; within the budget per KB", () => {
		const budget = new Budget();
		fc.assert(
			fc.property(anyInput, fc.constantFrom('UTC', 'Europe/Istanbul', 'Asia/Kathmandu'), (value, timeZone) => {
				const { result, error } = budget.check(sizeOf(value), () => toApiDateTime(value, 'Start From', timeZone));
				if (error) expectClearError(error, 'Start From');
				else expect(result).toMatch(API_DATETIME);
			}),
			{ numRuns: propertyRuns(400) },
		);
		budget.expectKept();
	});

	test('toApiDateTime: a moment in UTC is written as the API writes it, in any zone', () => {
		fc.assert(
			fc.property(fc.date({ noInvalidDate: true, min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-30T23:59:59Z') }), fc.constantFrom('UTC', 'America/New_York', 'Asia/Kathmandu'), (date, timeZone) => {
				const ms = Math.floor(date.getTime() / 1000) * 1000;
				expect(toApiDateTime(new Date(ms).toISOString(), 'Start From', timeZone)).toBe(formatApiDateTime(ms, timeZone));
				expect(toApiDateTime(new Date(ms), 'Start From', timeZone)).toBe(formatApiDateTime(ms, timeZone));
			}),
			{ numRuns: propertyRuns(200) },
		);
	});

	test("parseApiDate: the API's datetimes read as their wall clock, anything else as undefined, never a throw; within the budget per KB", () => {
		const budget = new Budget();
		fc.assert(
			fc.property(anyInput, (value) => {
				const { result, error } = budget.check(sizeOf(value), () => parseApiDate(value));
				expect(error).toBeUndefined();
				if (result !== undefined) expect(Number.isFinite(result)).toBe(true);
				if (typeof value === 'string' && API_DATETIME.test(value) && result !== undefined) expect(formatApiDateTime(result)).toBe(value);
			}),
			{ numRuns: propertyRuns(400) },
		);
		budget.expectKept();
	});
});

describe('SKUs, whole numbers and columns', () => {
	test('toSku: text is the SKU without the spaces around it; anything else a clear error; within the budget per KB', () => {
		const budget = new Budget();
		fc.assert(
			fc.property(anyInput, (value) => {
				const { result, error } = budget.check(sizeOf(value), () => toSku(value, 'SKU'));
				if (error) expectClearError(error, 'SKU');
				else expect(result).toBe(typeof value === 'number' ? String(value) : (value as string).trim());
			}),
			{ numRuns: propertyRuns(400) },
		);
		budget.expectKept();
	});

	test('toWholeNumber: a safe whole number or a clear error; within the budget per KB', () => {
		const budget = new Budget();
		fc.assert(
			fc.property(fc.oneof(anyInput, fc.integer().map(String), fc.bigInt().map(String)), (value) => {
				const { result, error } = budget.check(sizeOf(value), () => toWholeNumber(value, 'Stock'));
				if (error) expectClearError(error, 'Stock');
				else expect(Number.isSafeInteger(result) && result! >= 0).toBe(true);
			}),
			{ numRuns: propertyRuns(400) },
		);
		budget.expectKept();
	});

	/** Item keys as a sheet may have them: header variants, inherited names, tricky and big text. */
	const header = fc.oneof(fc.constantFrom('Product ID', 'product-id', 'SKU', 'Stock', 'stock', 'External Ref', ...INHERITED), trickyText, fc.string());
	const item = fc.oneof(fc.dictionary(header, fc.jsonValue(), { maxKeys: 12 }), fc.tuple(bigText, fc.jsonValue()).map(([key, value]) => ({ [key]: value, Stock: 1 })));

	test("columnFinder: finds only the item's own columns, or a clear error naming them; within the budget per KB", () => {
		const budget = new Budget();
		fc.assert(
			fc.property(fc.oneof(fc.constantFrom(...stockColumns('sku').map((c) => c.names)), fc.array(fc.oneof(header, fc.constantFrom(...INHERITED)), { minLength: 1, maxLength: 2 })), item, (names, json) => {
				const size = Object.keys(json).reduce((sum, key) => sum + key.length, 0);
				const { result, error } = budget.check(size, () => columnFinder(names)(json));
				if (error) {
					expect((error as Error).constructor).toBe(Error);
					expect((error as Error).message).toMatch(/^The columns .* all read as /s);
					expect((error as Error).message.length).toBeLessThanOrEqual(800);
				} else if (result !== undefined) {
					expect(Object.hasOwn(json, result)).toBe(true);
					expect(names.includes(result) || names.some((name) => headerKey(name) === headerKey(result))).toBe(true);
				}
			}),
			{ numRuns: propertyRuns(400) },
		);
		budget.expectKept();
	});

	test('an identifier that every object inherits is not a set of columns', () => {
		for (const name of INHERITED) expect(stockColumns(name as 'sku').map((c) => c.id)).toEqual(stockColumns('productId').map((c) => c.id));
	});
});

describe("the credential's Base URL", () => {
	/** The Test button's baseURL over the Base URL as typed: the credential's expression is a trim, then its own pattern removed. */
	const [, pattern] = /^=\{\{ String\(\$credentials\.baseUrl\)\.trim\(\)\.replace\(\/(.+)\/, ""\) \}\}$/.exec(String(new MarketplacePartnerApi().test.request.baseURL))!;
	const testButtonBaseUrl = (text: string) => text.trim().replace(new RegExp(pattern), '');

	test('any Base URL is read or refused with a clear error quoting at most 200 characters of it; within the budget per KB', () => {
		const budget = new Budget();
		// Runs of what URL readers treat apart: delimiters, dot segments, escapes, spaces and controls.
		const urlish = fc
			.array(fc.constantFrom('?', '#', '/', '\\', '.', '%', '%2e', '%2f', '%3f', '@', ':', '[', ']', ' ', '\t', '\u0000', '\u00a0', '\u200b', '\ufeff', 'v', '1'), { maxLength: 8 })
			.map((parts) => parts.join(''));
		const baseUrl = fc.oneof(
			anyText,
			fc.tuple(fc.constantFrom('http://127.0.0.1:8787/api/partner/v1', 'https://partner.example.com/v1', 'HTTPS://Partner.Example.com:443/v1', 'http://localhost'), urlish, anyText).map((parts) => parts.join('')),
			fc.tuple(fc.constantFrom('https://', 'http://localhost'), urlish, fc.constantFrom('/v1', 'v1', '/api/v2'), urlish).map((parts) => parts.join('')),
		);
		fc.assert(
			fc.property(baseUrl, (text) => {
				const { result, error } = budget.check(text.length, () => parseCredentials({ baseUrl: text, clientId: 'cli', clientSecret: 'secret' }));
				if (error) expectClearError(error, "The credential's Base URL");
				// The Test button's URL (its baseURL expression over the Base URL as typed, then the path) is the nodes'.
				else expect(new URL(`${testButtonBaseUrl(text)}/ping.php`).href).toBe(`${result!.baseUrl}/ping.php`);
			}),
			{ numRuns: propertyRuns(3000) },
		);
		budget.expectKept();
	});

	test('a control character anywhere in it is refused, as the URL reader would keep it in the request path', () => {
		for (const text of ['http://127.0.0.1:8787/api/partner/v1\u0000', 'https://partner.example.com/v\n1', 'https://partner.exa\tmple.com/v1', 'https://partner.example.com/v1\u007f', 'https://partner.example.com/v1\u0085']) {
			expect(() => parseCredentials({ baseUrl: text, clientId: 'cli', clientSecret: 'secret' })).toThrow(/^The credential's Base URL holds an invisible character/);
		}
	});

	test('a ? or # anywhere in it is refused, even with nothing after it, as n8n would append the path after it', () => {
		for (const text of ['http://127.0.0.1:8787/api/partner/v1?', 'https://partner.example.com/v1#', 'https://partner.example.com/v1?a=1', 'https://partner.example.com/x?/v1', 'https://partner.example.com/x#/v1']) {
			expect(() => parseCredentials({ baseUrl: text, clientId: 'cli', clientSecret: 'secret' })).toThrow(/^The credential's Base URL must end in the version segment/);
		}
	});

	test('trailing slashes, 200,000 of them, are dropped in linear time, as the request path is read', () => {
		const budget = new Budget();
		const url = `http://127.0.0.1:1/api/partner/v1${'/'.repeat(200_000)}`;
		expect(budget.check(url.length, () => parseCredentials({ baseUrl: url, clientId: 'cli', clientSecret: 'secret' })).result?.baseUrl).toBe('http://127.0.0.1:1/api/partner/v1');
		const refused = budget.check(url.length, () => parseCredentials({ baseUrl: `${url}x`, clientId: 'cli', clientSecret: 'secret' }));
		expect((refused.error as Error).message).toBe(`The credential's Base URL must end in the version segment, e.g. https://partner.example.com/api/partner/v1 (got "${cut(`${url}x`, 200)}").`);
		const path = budget.check(url.length, () => pathRelativeToBase('http://127.0.0.1:1/api/partner/v1/ping.php', `${url}x`));
		expect((path.error as Error).message).toMatch(/^The URL http:\/\/127\.0\.0\.1:1\/api\/partner\/v1\/ping\.php is not under the credential's Base URL/);
		budget.expectKept();
	});
});

describe('the bounded readers behind every message', () => {
	const LIMIT = 60;

	test('jsonPreview is the start of JSON.stringify, cut at the limit', () => {
		fc.assert(
			fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 200 }), (value, limit) => {
				expect(jsonPreview(value, limit)).toBe(cut(JSON.stringify(value), limit));
			}),
			{ numRuns: propertyRuns(500) },
		);
	});

	test('jsonPreview: any value, deep or big, is bounded text and never a throw; within the budget per KB', () => {
		const budget = new Budget();
		fc.assert(
			fc.property(fc.oneof(anyInput, fc.integer({ min: 1, max: 200_000 }).map(nested)), (value) => {
				const { result, error } = budget.check(sizeOf(value), () => jsonPreview(value, LIMIT));
				expect(error).toBeUndefined();
				expect(result!.length).toBeLessThanOrEqual(LIMIT + 1);
			}),
			{ numRuns: propertyRuns(300) },
		);
		budget.expectKept();
	});

	test("oneLine is the text's whitespace runs as single spaces, trimmed, cut at the limit; within the budget per KB", () => {
		const budget = new Budget();
		fc.assert(
			fc.property(anyText, (text) => {
				const { result } = budget.check(text.length, () => oneLine(text, LIMIT));
				// The whole text collapsed is linear too; only its start is compared.
				const expected = text.length > 20_000 ? undefined : cut(text.replace(/\s+/g, ' ').trim(), LIMIT);
				if (expected !== undefined) expect(result).toBe(expected);
				else expect(result!.length).toBeLessThanOrEqual(LIMIT + 1);
			}),
			{ numRuns: propertyRuns(400) },
		);
		budget.expectKept();
	});

	test('trimEnd drops what /[.\\s]+$/ matches; within the budget per KB', () => {
		const budget = new Budget();
		fc.assert(
			fc.property(anyText, (text) => {
				const { result } = budget.check(text.length, () => trimEnd(text, /[.\s]/));
				// The regular expression itself is quadratic: compared on short text only.
				if (text.length <= 2000) expect(result).toBe(text.replace(/[.\s]+$/, ''));
				else expect(text.startsWith(result!) && /^[.\s]*$/.test(text.slice(result!.length))).toBe(true);
			}),
			{ numRuns: propertyRuns(400) },
		);
		budget.expectKept();
	});

	test('ownValue finds only what the record holds itself', () => {
		const record: Record<string, number> = { a: 1, constructor: 2 };
		fc.assert(
			fc.property(fc.oneof(fc.string(), fc.constantFrom(...INHERITED, 'a')), (key) => {
				expect(ownValue(record, key)).toBe(Object.hasOwn(record, key) ? record[key] : undefined);
			}),
		);
		expect(ownValue(record, 'constructor')).toBe(2);
		expect(ownValue(record, 'toString')).toBeUndefined();
	});
});
