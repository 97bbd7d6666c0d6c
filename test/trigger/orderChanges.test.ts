// The Orders Trigger's memory as plain functions: what a state's key is made of, which saved data
// counts as a state, and how datetimes are read. The poll tests show them at work against the sandbox.
import { createHash } from 'node:crypto';
import { formatApiDateTime } from '../../nodes/shared/helpers/values';
import { changeKey, firstSince, MAX_SEEN_KEYS, nextSince, parseApiDate, readState, remember, repeatedHourHold, UNREADABLE_KEEP_MS } from '../../nodes/shared/helpers/orderChanges';

const entry = {
	order_item_id: 500001,
	status: 'shipped',
	updated_at: '2026-03-01 10:00:00',
	items: [{ sku: 'SKU-A-1', quantity: 2 }, null],
	customer: { name: 'Ada', city: null },
};

describe('changeKey: one state of one order item', () => {
	// Keys are saved in static data: a key computed otherwise after an upgrade would emit old states again.
	test('is the order item id and the first 16 hex digits of the SHA-256 of the state as sorted JSON', () => {
		const sortedJson =
			'{"customer":{"city":null,"name":"Ada"},"items":[{"quantity":2,"sku":"SKU-A-1"},null],"order_item_id":500001,"status":"shipped","updated_at":"2026-03-01 10:00:00"}';
		// Independent of the node's code: node's own crypto over the text written out by hand.
		const hash = createHash('sha256').update(sortedJson).digest('hex').slice(0, 16);
		expect(changeKey(entry)).toBe(`500001:${hash}`);
	});

	test('the same state in another key order is the same key', () => {
		const reordered = { customer: { city: null, name: 'Ada' }, updated_at: entry.updated_at, status: 'shipped', items: entry.items, order_item_id: 500001 };
		expect(changeKey(reordered)).toBe(changeKey(entry));
	});

	test.each([
		['a nested value', { ...entry, customer: { name: 'Ada', city: 'Köln' } }],
		['an array element', { ...entry, items: [{ sku: 'SKU-A-1', quantity: 3 }, null] }],
		['the array order', { ...entry, items: [null, { sku: 'SKU-A-1', quantity: 2 }] }],
		['a status', { ...entry, status: 'delivered' }],
		['a field missing', { order_item_id: 500001, status: 'shipped', updated_at: entry.updated_at, items: entry.items }],
		['a value of another type', { ...entry, order_item_id: '500001' }],
	])('%s changed is another key', (_, changed) => {
		expect(changeKey(changed)).not.toBe(changeKey(entry));
	});
});

describe('readState: saved static data', () => {
	const state = { version: 1, since: '2026-03-01 10:00:00', seen: { '2026-03-01 10:00:00': ['500001:abc'] } };

	test('a state written by this version is read as it is', () => {
		expect(readState({ ...state, other: true })).toEqual(state);
	});

	test.each([
		['nothing saved yet', {}],
		['another version', { ...state, version: 2 }],
		['since not a string', { ...state, since: 1700000000 }],
		['no seen', { version: 1, since: state.since }],
		['seen not an object', { ...state, seen: 'x' }],
		['seen null', { ...state, seen: null }],
	])('%s is no state: the trigger starts as on its first activation', (_, data) => {
		expect(readState(data as never)).toBeUndefined();
	});
});

describe('parseApiDate', () => {
	test.each([
		['2026-03-01 10:00:00', Date.UTC(2026, 2, 1, 10)],
		['2026-03-01T10:00:00Z', Date.UTC(2026, 2, 1, 10)],
	])('%s is read as a wall clock, as if UTC', (text, ms) => {
		expect(parseApiDate(text)).toBe(ms);
	});

	test.each([[undefined], [null], [1772359200000], ['soon'], ['']])('%j is no date', (value) => {
		expect(parseApiDate(value)).toBeUndefined();
	});
});

describe('remember and nextSince', () => {
	test('keys stay while the next window can still return them', () => {
		const seen = { '2026-03-01 09:59:59': ['a'], '2026-03-01 10:00:00': ['b'] };
		expect(remember(seen, [['2026-03-01 10:00:01', 'c']], '2026-03-01 10:00:00', 0)).toEqual({ seen: { '2026-03-01 10:00:01': ['c'] }, since: '2026-03-01 10:00:00' });
		// A start that is not a date forgets nothing.
		expect(remember(seen, [], 'not a date', 0)).toEqual({ seen, since: 'not a date' });
	});

	// The poll started at 10:00:30.4 on n8n's clock, written in the credential's zone.
	const apiNow = Date.UTC(2026, 2, 1, 10, 0, 30, 400);
	test.each([
		// newest less the poll's duration (whole seconds, rounded up), less overlap, less one (updated_after is strict)
		['the newest change seen less the poll duration', Date.UTC(2026, 2, 1, 9, 58), 2_100, { overlapSeconds: 60, skewSeconds: 0 }, '2026-03-01 09:56:56'],
		['the newest change seen, after a poll of no time', Date.UTC(2026, 2, 1, 9, 58), 0, { overlapSeconds: 60, skewSeconds: 0 }, '2026-03-01 09:56:59'],
		['n8n\'s clock in the API\'s zone less skew, when the newest change seen is later', Date.UTC(2026, 2, 1, 11), 0, { overlapSeconds: 0, skewSeconds: 300 }, '2026-03-01 09:55:29'],
		['n8n\'s clock in the API\'s zone, whole seconds', Date.UTC(2026, 2, 1, 11), 0, { overlapSeconds: 0, skewSeconds: 0 }, '2026-03-01 10:00:29'],
	])('the next window starts from %s', (_, newestSeen, pollMs, margins, expected) => {
		expect(nextSince('2026-03-01 09:00:00', { newestSeen, pollMs, apiNow }, margins)).toBe(expected);
	});

	test('a window that held nothing stays where it is, whatever n8n\'s clock says', () => {
		for (const now of [apiNow, apiNow + 5 * 3_600_000, apiNow - 5 * 3_600_000]) {
			expect(nextSince('2026-03-01 09:00:00', { newestSeen: undefined, pollMs: 0, apiNow: now }, { overlapSeconds: 60, skewSeconds: 300 })).toBe(
				'2026-03-01 09:00:00',
			);
		}
	});

	test('the window never moves back, and stays where it is when the computed start equals it', () => {
		const margins = { overlapSeconds: 60, skewSeconds: 0 };
		const newestSeen = Date.UTC(2026, 2, 1, 10, 0, 30);
		expect(nextSince('2026-03-01 09:59:40', { newestSeen, pollMs: 0, apiNow }, margins)).toBe('2026-03-01 09:59:40');
		expect(nextSince('2026-03-01 09:59:29', { newestSeen, pollMs: 0, apiNow }, margins)).toBe('2026-03-01 09:59:29');
		expect(nextSince('2026-03-01 09:59:28', { newestSeen, pollMs: 0, apiNow }, margins)).toBe('2026-03-01 09:59:29');
	});

	test('the first window starts at the earliest wall clock on earth (UTC-12), less skew, overlap and one second', () => {
		expect(firstSince(Date.UTC(2026, 2, 1, 10, 0, 30, 400), { overlapSeconds: 60, skewSeconds: 300 })).toBe('2026-02-28 21:54:29');
		expect(firstSince(Date.UTC(2026, 2, 1, 10, 0, 30, 400), { overlapSeconds: 0, skewSeconds: 0 })).toBe('2026-02-28 22:00:29');
	});

	test('a new key at the window start is forgotten at once; one after it is kept', () => {
		const added: Array<[string, string]> = [
			['2026-03-01 10:00:00', 'at'],
			['2026-03-01 10:00:01', 'after'],
		];
		expect(remember({}, added, '2026-03-01 10:00:00', 0).seen).toEqual({ '2026-03-01 10:00:01': ['after'] });
	});

	describe('changes whose updated_at cannot be read', () => {
		const now = Date.UTC(2026, 4, 2, 12);
		const bucket = (ms: number) => `?${Math.floor(ms / 1000)}`;

		test('are kept under the second they were first seen, for exactly UNREADABLE_KEEP_MS', () => {
			const first = remember({}, [['yesterday', 'a']], '2026-05-01 09:00:00', now);
			expect(first.seen).toEqual({ [bucket(now)]: ['a'] });
			expect(remember(first.seen, [], first.since, now + UNREADABLE_KEEP_MS - 1000).seen).toEqual(first.seen);
			expect(remember(first.seen, [], first.since, now + UNREADABLE_KEEP_MS).seen).toEqual({});
		});

		test('a stored bucket that is not "?" and whole seconds (an earlier version named it by the updated_at itself) is kept from now on', () => {
			const recent = Math.floor(now / 1000) - 60;
			for (const stored of [`?${recent}x`, `x?${recent}`, `?${recent} `, 'soon'])
				expect(remember({ [stored]: ['k'] }, [], '2026-05-01 09:00:00', now).seen).toEqual({ [bucket(now)]: ['k'] });
		});

		test(`past ${MAX_SEEN_KEYS.toLocaleString('en-US')} keys the dated buckets go first, oldest first, then the unreadable ones by when they were seen; the start moves only with dated ones`, () => {
			const seen: Record<string, string[]> = Object.create(null);
			// Filed newest first, so that the order they go in is the sort's, not the record's.
			seen[bucket(now - 1000)] = Array.from({ length: 3 }, (_, n) => `new${n}`);
			seen[bucket(now - 2000)] = Array.from({ length: 3 }, (_, n) => `old${n}`);
			seen['2026-05-01 11:00:00'] = Array.from({ length: MAX_SEEN_KEYS - 4 }, (_, n) => `late${n}`);
			seen['2026-05-01 10:00:00'] = ['early'];
			const kept = remember(seen, [], '2026-05-01 09:00:00', now);
			// 10,003 keys: "early" goes (10,002 left), then the late bucket; the unreadable ones stay.
			expect(Object.keys(kept.seen).sort()).toEqual([bucket(now - 2000), bucket(now - 1000)]);
			expect(kept.since).toBe('2026-05-01 11:00:00');
			const fewer = remember({ ...seen, '2026-05-01 11:00:00': Array.from({ length: MAX_SEEN_KEYS - 6 }, (_, n) => `late${n}`) }, [], '2026-05-01 09:00:00', now);
			// 10,001 keys: "early" goes, and that is enough.
			expect(Object.keys(fewer.seen).sort()).toEqual(['2026-05-01 11:00:00', bucket(now - 2000), bucket(now - 1000)]);
			expect(fewer.since).toBe('2026-05-01 10:00:00');
			const unreadableOnly: Record<string, string[]> = Object.create(null);
			unreadableOnly[bucket(now - 1000)] = Array.from({ length: MAX_SEEN_KEYS }, (_, n) => `new${n}`);
			unreadableOnly[bucket(now - 2000)] = ['old'];
			const dropped = remember(unreadableOnly, [], '2026-05-01 09:00:00', now);
			expect(Object.keys(dropped.seen)).toEqual([bucket(now - 1000)]);
			expect(dropped.since).toBe('2026-05-01 09:00:00');
		});
	});

	test('a current start that is not a date is moved to the computed one', () => {
		expect(nextSince('not a date', { newestSeen: Date.UTC(2026, 2, 1, 11), pollMs: 0, apiNow }, { overlapSeconds: 60, skewSeconds: 0 })).toBe(
			'2026-03-01 09:59:29',
		);
	});
});

describe('the hour a wall clock shows twice (the end of daylight saving time)', () => {
	const HOUR = 3_600_000;
	// Europe/Berlin on 2026-10-25: 03:00 CEST (UTC+2) becomes 02:00 CET (UTC+1) at 01:00 UTC.
	const berlin = Date.UTC(2026, 9, 25, 1);
	test.each([
		['Europe/Berlin, three hours before', 'Europe/Berlin', berlin - 3 * HOUR + 1000, '2026-10-25 01:59:59'],
		['Europe/Berlin, in the first pass', 'Europe/Berlin', berlin - 1000, '2026-10-25 01:59:59'],
		['Europe/Berlin, at the end of the second pass', 'Europe/Berlin', berlin + HOUR, '2026-10-25 01:59:59'],
		['Europe/Berlin, one second after the second pass', 'Europe/Berlin', berlin + HOUR + 1000, undefined],
		['Europe/Berlin, more than three hours before', 'Europe/Berlin', berlin - 3 * HOUR - 1000, undefined],
		['Europe/Berlin, when the clock goes forward (no hour repeats)', 'Europe/Berlin', Date.UTC(2026, 2, 29, 1), undefined],
		['America/New_York (02:00 EDT becomes 01:00 EST)', 'America/New_York', Date.UTC(2026, 10, 1, 6), '2026-11-01 00:59:59'],
		['Australia/Lord_Howe (half an hour repeats)', 'Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15) + 30 * 60_000, '2026-04-05 01:29:59'],
		['UTC', 'UTC', berlin, undefined],
		['Europe/Istanbul (no daylight saving time)', 'Europe/Istanbul', berlin, undefined],
	])('%s', (_, zone, nowMs, expected) => {
		const hold = repeatedHourHold(nowMs, zone);
		expect(hold === undefined ? undefined : formatApiDateTime(hold)).toBe(expected);
	});

	test('nextSince never starts the window after holdBelow', () => {
		const apiNow = Date.UTC(2026, 9, 25, 2, 40);
		const margins = { overlapSeconds: 60, skewSeconds: 300 };
		const args = { newestSeen: Date.UTC(2026, 9, 25, 2, 39), pollMs: 0, apiNow };
		expect(nextSince('2026-10-25 01:00:00', args, margins)).toBe('2026-10-25 02:33:59');
		expect(nextSince('2026-10-25 01:00:00', { ...args, holdBelow: Date.UTC(2026, 9, 25, 1, 59, 59) }, margins)).toBe('2026-10-25 01:59:59');
		expect(nextSince('2026-10-25 02:10:00', { ...args, holdBelow: Date.UTC(2026, 9, 25, 1, 59, 59) }, margins)).toBe('2026-10-25 02:10:00');
	});

	// Polls every 5 minutes of an API that writes local time and stamps a change every minute, from
	// four hours before the clocks go back to two after: every change is read by some poll.
	test.each(['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'])('in %s, polls across the repeated hour read every change', (zone) => {
		const transitions: Record<string, number> = {
			'Europe/Berlin': berlin,
			'America/New_York': Date.UTC(2026, 10, 1, 6),
			'Australia/Lord_Howe': Date.UTC(2026, 3, 4, 15),
		};
		const start = transitions[zone] - 4 * HOUR;
		const changes: Array<{ realMs: number; stamp: string }> = [];
		const read = new Set<number>();
		let since = formatApiDateTime(start - 10 * 60_000, zone);
		for (let t = start; t <= transitions[zone] + 2 * HOUR; t += 60_000) {
			changes.push({ realMs: t, stamp: formatApiDateTime(t, zone) });
			if ((t - start) % (5 * 60_000) !== 0) continue;
			const sinceMs = parseApiDate(since)!;
			const window = changes.filter((c) => parseApiDate(c.stamp)! > sinceMs);
			for (const c of window) read.add(c.realMs);
			const newestSeen = Math.max(...window.map((c) => parseApiDate(c.stamp)!));
			since = nextSince(since, { newestSeen, pollMs: 0, apiNow: parseApiDate(formatApiDateTime(t, zone))!, holdBelow: repeatedHourHold(t, zone) }, { overlapSeconds: 60, skewSeconds: 300 });
		}
		expect(changes.filter((c) => !read.has(c.realMs)).map((c) => c.stamp)).toEqual([]);
	});
});
