// Order items' datetimes also as ISO 8601 with the offset of the credential's Time Zone of the API
// (issue 52, item 6): known answers across zones and DST, and a property over any moment and zone.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { toIsoDateTime, withIsoDates } from '../../nodes/shared/helpers/orderChanges';
import { anyValue } from '../helpers/arbitraries';

const ZONES = ['UTC', 'Europe/Istanbul', 'America/New_York', 'Asia/Kolkata', 'Asia/Tokyo', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'Europe/Berlin'];

test.each([
	['2026-12-02 05:00:00', 'Europe/Istanbul', '2026-12-02T05:00:00+03:00'],
	['2026-12-02 05:00:00', 'UTC', '2026-12-02T05:00:00+00:00'],
	['2026-07-01 12:00:00', 'America/New_York', '2026-07-01T12:00:00-04:00'],
	['2026-01-15 12:00:00', 'America/New_York', '2026-01-15T12:00:00-05:00'],
	// The hour after the clocks go back, and the first second of summer time in Berlin.
	['2026-11-01 01:30:00', 'America/New_York', '2026-11-01T01:30:00-04:00'],
	['2026-03-29 03:00:00', 'Europe/Berlin', '2026-03-29T03:00:00+02:00'],
	['2026-12-02 05:00:00', 'Asia/Kolkata', '2026-12-02T05:00:00+05:30'],
	['2026-01-10 05:00:00', 'Pacific/Chatham', '2026-01-10T05:00:00+13:45'],
	['2026-12-02 05:00:00', 'America/St_Johns', '2026-12-02T05:00:00-03:30'],
	// A datetime with its own zone is that moment, written in the API's zone.
	['2026-12-02T05:00:00Z', 'Europe/Istanbul', '2026-12-02T08:00:00+03:00'],
	['0001-01-01 00:00:00', 'UTC', '0001-01-01T00:00:00+00:00'],
	// Fractions of a second are no part of the offset (read as one, UTC came out as -00:00).
	['2026-12-02T05:00:00.500Z', 'UTC', '2026-12-02T05:00:00+00:00'],
	['2026-12-02T05:00:00.999+03:00', 'Europe/Istanbul', '2026-12-02T05:00:00+03:00'],
	['1969-12-31T23:59:59.250Z', 'UTC', '1969-12-31T23:59:59+00:00'],
])('%s in %s is %s', (value, zone, iso) => {
	expect(toIsoDateTime(value, zone)).toBe(iso);
});

test.each([['garbage'], [''], [null], [undefined], [42], [{}], ['9999-12-31 23:59:59'.replace('9999', '99999')], ['+275760-09-13T00:00:00Z']])('%j is no datetime: null', (value) => {
	expect(toIsoDateTime(value, 'Europe/Istanbul')).toBeNull();
});

test('any moment in any zone: the ISO form is that moment, and the API wall clock it was read from', () => {
	const wall = (zone: string) =>
		new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
	fc.assert(
		fc.property(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }), fc.constantFrom(...ZONES), (ms, zone) => {
			const second = Math.floor(ms / 1000) * 1000;
			const written = wall(zone).format(second);
			const iso = toIsoDateTime(written, zone)!;
			expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
			expect(iso.slice(0, 19).replace('T', ' ')).toBe(written);
			// The same wall clock twice a year (clocks going back) is either moment; otherwise exactly this one.
			const moment = Date.parse(iso);
			expect(wall(zone).format(moment)).toBe(written);
			expect([0, 1_800_000, 3_600_000]).toContain(Math.abs(moment - second));
		}),
		{ numRuns: 2000 },
	);
});

test('any ISO moment, fractions included, in any zone: its offset is a whole minute of that zone and it names the same second', () => {
	fc.assert(
		fc.property(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }), fc.constantFrom(...ZONES), (ms, zone) => {
			const iso = toIsoDateTime(new Date(ms).toISOString(), zone)!;
			expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
			expect(iso.endsWith('-00:00')).toBe(false);
			expect(Date.parse(iso)).toBe(Math.floor(ms / 1000) * 1000);
		}),
		{ numRuns: 2000 },
	);
});

test('withIsoDates puts each ISO form after its datetime, keeps everything else, and never overwrites a field of the API', () => {
	const entry = { order_item_id: 1, created_at: '2026-05-01 10:00:00', status: 'accepted', updated_at: 'soon', updated_at_iso: 'the API said so' };
	expect(Object.entries(withIsoDates(entry, 'Europe/Istanbul'))).toEqual([
		['order_item_id', 1],
		['created_at', '2026-05-01 10:00:00'],
		['created_at_iso', '2026-05-01T10:00:00+03:00'],
		['status', 'accepted'],
		['updated_at', 'soon'],
		['updated_at_iso', 'the API said so'],
	]);
	expect(withIsoDates({ order_item_id: 2 }, 'UTC')).toEqual({ order_item_id: 2 });
	fc.assert(
		fc.property(fc.dictionary(fc.string(), anyValue, { maxKeys: 6 }), (record) => {
			const out = withIsoDates(record as IDataObject, 'UTC');
			for (const [key, value] of Object.entries(record)) expect(out[key]).toBe(value);
		}),
	);
});
