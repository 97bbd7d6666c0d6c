// The sandbox's datetime conversions (sandbox/time.js) against known answers: instants written in a
// zone's local time (the `timeZone` style) and local datetimes read back, across DST changes.
/* eslint-disable @typescript-eslint/no-require-imports */
const { formatApiDate, parseApiOrIsoDate, canonicalTimeZone, zoneOffsetMs, zonedWallToMs } = require('../../sandbox/time');

const U = Date.UTC;
const HOUR = 3600_000;

describe('formatApiDate: an instant in a zone, as YYYY-MM-DD HH:MM:SS', () => {
	test.each([
		['UTC', U(2026, 0, 15, 17, 0, 0), '2026-01-15 17:00:00'],
		['America/New_York', U(2026, 0, 15, 17, 0, 0), '2026-01-15 12:00:00'], // winter, EST (UTC-5)
		['America/New_York', U(2026, 6, 15, 17, 0, 0), '2026-07-15 13:00:00'], // summer, EDT (UTC-4)
		['America/New_York', U(2026, 2, 3, 0, 0, 0), '2026-03-02 19:00:00'], // the day before in New York
		['America/New_York', U(2026, 0, 15, 5, 0, 0), '2026-01-15 00:00:00'], // midnight is 00, never 24
		['Asia/Tokyo', U(2026, 0, 15, 17, 0, 0), '2026-01-16 02:00:00'], // UTC+9, the next day
		['Asia/Tokyo', U(2026, 6, 15, 17, 0, 0), '2026-07-16 02:00:00'], // no DST
		['Europe/Moscow', U(2026, 0, 15, 22, 30, 5), '2026-01-16 01:30:05'], // UTC+3
		['Europe/Moscow', U(2026, 6, 15, 22, 30, 5), '2026-07-16 01:30:05'], // no DST since 2014
		['Asia/Kolkata', U(2026, 0, 15, 0, 0, 0), '2026-01-15 05:30:00'], // a half-hour offset
		['Australia/Sydney', U(2026, 0, 15, 0, 0, 0), '2026-01-15 11:00:00'], // southern summer, AEDT
		['Australia/Sydney', U(2026, 6, 15, 0, 0, 0), '2026-07-15 10:00:00'], // southern winter, AEST
	])('%s: %d is %s', (zone, ms, text) => {
		expect(formatApiDate(ms, zone)).toBe(text);
	});

	test('without a zone it writes UTC; fractions of a second are cut, not rounded', () => {
		expect(formatApiDate(U(2026, 0, 15, 17, 0, 0))).toBe('2026-01-15 17:00:00');
		expect(formatApiDate(U(2026, 0, 15, 17, 0, 0) + 999)).toBe('2026-01-15 17:00:00');
		expect(formatApiDate(U(2026, 0, 15, 17, 0, 0) + 999, 'America/New_York')).toBe('2026-01-15 12:00:00');
		expect(formatApiDate(U(2026, 0, 5, 3, 4, 5), 'Asia/Tokyo')).toBe('2026-01-05 12:04:05'); // padded
	});

	test('around New York\'s clock changes the local hour is skipped, then repeated', () => {
		// 2026-03-08: 01:59:59 EST is followed by 03:00:00 EDT.
		expect(formatApiDate(U(2026, 2, 8, 6, 59, 59), 'America/New_York')).toBe('2026-03-08 01:59:59');
		expect(formatApiDate(U(2026, 2, 8, 7, 0, 0), 'America/New_York')).toBe('2026-03-08 03:00:00');
		// 2026-11-01: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
		expect(formatApiDate(U(2026, 10, 1, 5, 30, 0), 'America/New_York')).toBe('2026-11-01 01:30:00');
		expect(formatApiDate(U(2026, 10, 1, 6, 30, 0), 'America/New_York')).toBe('2026-11-01 01:30:00');
	});
});

describe('zoneOffsetMs', () => {
	test.each([
		['UTC', U(2026, 0, 15, 12), 0],
		['America/New_York', U(2026, 0, 15, 12), -5 * HOUR],
		['America/New_York', U(2026, 6, 15, 12), -4 * HOUR],
		['Asia/Tokyo', U(2026, 0, 15, 12), 9 * HOUR],
		['Europe/Moscow', U(2026, 6, 15, 12), 3 * HOUR],
		['Asia/Kolkata', U(2026, 0, 15, 12), 5.5 * HOUR],
		['America/New_York', U(2026, 0, 15, 12) + 500, -5 * HOUR], // a fraction of a second changes nothing
	])('%s at %d: %d ms', (zone, ms, offset) => {
		expect(zoneOffsetMs(ms, zone)).toBe(offset);
	});
});

describe('zonedWallToMs: a local datetime in a zone, as an instant', () => {
	test.each([
		['UTC', [2026, 1, 15, 12, 0, 0], U(2026, 0, 15, 12, 0, 0)],
		['America/New_York', [2026, 1, 15, 12, 0, 0], U(2026, 0, 15, 17, 0, 0)],
		['America/New_York', [2026, 7, 15, 13, 0, 0], U(2026, 6, 15, 17, 0, 0)],
		['Asia/Tokyo', [2026, 1, 16, 2, 0, 0], U(2026, 0, 15, 17, 0, 0)],
		['Europe/Moscow', [2026, 1, 16, 1, 30, 5], U(2026, 0, 15, 22, 30, 5)],
		['Asia/Kolkata', [2026, 1, 15, 5, 30, 0], U(2026, 0, 15, 0, 0, 0)],
		['Australia/Sydney', [2026, 1, 15, 11, 0, 0], U(2026, 0, 15, 0, 0, 0)],
		// Spring forward: 01:59:59 still EST, 02:30 does not exist and is moved forward by the gap
		// (it reads as 03:30 EDT), 03:00 is EDT.
		['America/New_York', [2026, 3, 8, 1, 59, 59], U(2026, 2, 8, 6, 59, 59)],
		['America/New_York', [2026, 3, 8, 2, 30, 0], U(2026, 2, 8, 7, 30, 0)],
		['America/New_York', [2026, 3, 8, 3, 0, 0], U(2026, 2, 8, 7, 0, 0)],
		// Fall back: 01:30 happens twice and is its earlier (EDT) occurrence; 02:00 is EST.
		['America/New_York', [2026, 11, 1, 1, 30, 0], U(2026, 10, 1, 5, 30, 0)],
		['America/New_York', [2026, 11, 1, 0, 59, 59], U(2026, 10, 1, 4, 59, 59)],
		['America/New_York', [2026, 11, 1, 2, 0, 0], U(2026, 10, 1, 7, 0, 0)],
		// Sydney's clocks go back on 2026-04-05 at 03:00 (AEDT to AEST): 02:30 is the AEDT one.
		['Australia/Sydney', [2026, 4, 5, 2, 30, 0], U(2026, 3, 4, 15, 30, 0)],
	])('%s %j is %d', (zone, wall, ms) => {
		const [y, mo, d, h, mi, s] = wall as number[];
		expect(zonedWallToMs(y, mo, d, h, mi, s, zone)).toBe(ms);
	});

	test('every hour of 2026 in New York reads back as the instant it was written from, but the repeated hour', () => {
		const misses: string[] = [];
		for (let ms = U(2026, 0, 1); ms < U(2027, 0, 1); ms += HOUR) {
			const text = formatApiDate(ms + 17_000, 'America/New_York');
			if (parseApiOrIsoDate(text, 'America/New_York') !== ms + 17_000) misses.push(text);
		}
		// 01:00:17 on 2026-11-01 happens twice; it reads as the first.
		expect(misses).toEqual(['2026-11-01 01:00:17']);
	});
});

describe('parseApiOrIsoDate in a zone', () => {
	test('an API datetime and an ISO one without offset are read in the zone', () => {
		expect(parseApiOrIsoDate('2026-01-15 12:00:00', 'America/New_York')).toBe(U(2026, 0, 15, 17));
		expect(parseApiOrIsoDate('2026-01-15T12:00:00', 'America/New_York')).toBe(U(2026, 0, 15, 17));
		expect(parseApiOrIsoDate('2026-01-15T12:00', 'America/New_York')).toBe(U(2026, 0, 15, 17));
		expect(parseApiOrIsoDate('2026-01-16 02:00:00', 'Asia/Tokyo')).toBe(U(2026, 0, 15, 17));
		expect(parseApiOrIsoDate('2026-01-15 12:00:00')).toBe(U(2026, 0, 15, 12)); // UTC by default
		expect(parseApiOrIsoDate('2026-01-15 12:00:00', 'UTC')).toBe(U(2026, 0, 15, 12));
	});

	test('an ISO offset or Z is honoured whatever the zone', () => {
		expect(parseApiOrIsoDate('2026-01-15T12:00:00Z', 'America/New_York')).toBe(U(2026, 0, 15, 12));
		expect(parseApiOrIsoDate('2026-01-15T12:00:00+03:00', 'America/New_York')).toBe(U(2026, 0, 15, 9));
		expect(parseApiOrIsoDate('2026-01-15T12:00:00-0530', 'Asia/Tokyo')).toBe(U(2026, 0, 15, 17, 30));
	});

	test('what is not a datetime is null in any zone', () => {
		for (const text of ['2026-02-30 00:00:00', '2026-01-15 24:00:00', '2026-01-15', 'yesterday', '']) {
			expect(parseApiOrIsoDate(text, 'America/New_York')).toBeNull();
		}
	});
});

describe('canonicalTimeZone', () => {
	test.each([
		['America/New_York', 'America/New_York'],
		['Asia/Tokyo', 'Asia/Tokyo'],
		['utc', 'UTC'],
		['UTC', 'UTC'],
		['Mars/Olympus_Mons', null],
		['', null],
		[5, null],
		[null, null],
		[undefined, null],
	])('%p is %p', (name, canonical) => {
		expect(canonicalTimeZone(name)).toBe(canonical);
	});
});
