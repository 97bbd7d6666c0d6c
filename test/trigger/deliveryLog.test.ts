// The record of seen delivery ids: a 24-hour window and a bound on its size.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import {
	ENTRY_CHARS,
	entriesIn,
	idDigest,
	keysOf,
	idsHeldSince,
	logOf,
	MAX_DELIVERY_IDS,
	MAX_SIGNED_KEYS,
	ProcessRecord,
	recordOf,
	seenBefore,
	signedDigest,
} from '../../nodes/MarketplacePartnerTrigger/deliveryLog';
import { InFlight } from '../../nodes/MarketplacePartnerTrigger/inFlight';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const TOLERANCE = 300;
/** A verified delivery: `id` in its id header, `body` signed with `timestamp` (by default, bytes of its own). */
const d = (id: string, body = `{"id":"${id}"}`, timestamp = '1780272000') => ({ id, timestamp, rawBody: Buffer.from(body) });
const t0 = Date.UTC(2026, 5, 1); // the start of a minute: 0x1c4bf20 minutes
const s0 = t0 / 1000;
/** The record that holds these ids, first seen at these Unix seconds. */
const written = (...seen: Array<[string, number]>) => logOf(seen.map(([id, seconds]) => [idDigest(id), seconds]));
/** A process that has answered nothing: the stored record alone. */
const none = new ProcessRecord();
/** A process's memory of these keys (each its delivery's id key and signed key), answered at these minutes after t0's. */
function remembered(...keys: Array<[minute: number, key: string]>): ProcessRecord {
	const memory = new ProcessRecord();
	for (const [minute, key] of keys) memory.remember([key, key], t0 + minute * MINUTE, TOLERANCE);
	return memory;
}

describe('the keys', () => {
	test("known answers: the first 6 bytes of the id's SHA-256 in base64url", () => {
		// printf '%s' 'whd_1' | openssl dgst -sha256 -binary | head -c 6 | basenc --base64url
		expect(idDigest('whd_1')).toBe('pMs_xWg9');
		expect(idDigest('ü')).toBe('YHR0ykda');
		expect(ENTRY_CHARS).toBe(8);
	});

	test('known answer: the first 6 bytes of the SHA-256 of TIMESTAMP.RAW_BODY in base64url', () => {
		// printf '%s' '1780272000.{"event":"order.created"}' | openssl dgst -sha256 -binary | head -c 6 | basenc --base64url
		expect(signedDigest('1780272000', Buffer.from('{"event":"order.created"}'))).toBe('KW3uDrMH');
	});
});

describe('logOf and entriesIn', () => {
	test('keys grouped by the minute they were first seen, oldest first, each once at its earliest', () => {
		const record = logOf([
			['kkkkkkk3', 120],
			['kkkkkkk1', 60],
			['kkkkkkk2', 119],
			['kkkkkkk1', 180],
		]);
		expect(record).toBe('.0000001kkkkkkk1kkkkkkk2.0000002kkkkkkk3');
		expect(entriesIn(record)).toEqual([
			['kkkkkkk1', 60],
			['kkkkkkk2', 60],
			['kkkkkkk3', 120],
		]);
		expect(logOf([])).toBe('');
		expect(entriesIn('')).toEqual([]);
	});
});

describe('recordOf', () => {
	test('a stored record is taken as it is; the two earlier formats are converted, keeping every key and its minute', () => {
		const two = written(['whd_1', 5], ['whd_2', 67]);
		expect(two).toBe('.0000000pMs_xWg9.0000001' + idDigest('whd_2'));
		expect(recordOf(two)).toBe(two);
		expect(recordOf('')).toBe('');
		// Until 2026-11-26: per key 9 bytes of hash in base64url and its Unix seconds in 8 hex digits.
		expect(recordOf('pMs_xWg9ozAR6a1ccb80YHR0ykdalyTX6a1ccbbb')).toBe('.1c4bf20pMs_xWg9YHR0ykda');
		expect(recordOf('pMs_xWg9ozAR6a1ccb80YHR0ykdalyTX6a1ccbbc')).toBe('.1c4bf20pMs_xWg9.1c4bf21YHR0ykda');
		expect(
			recordOf([
				['whd_1', 5],
				['whd_2', 67],
			]),
		).toBe(two);
	});

	test('anything else is an empty record: a cut or foreign string, other values, malformed pairs are left out', () => {
		const whole = written(['whd_1', 5]);
		for (const odd of [
			whole.slice(1),
			`${whole}x`,
			'.1c4bf20', // a minute without a key
			`${whole.slice(0, -1)}.`,
			'.1C4BF20pMs_xWg9',
			'.1c4bf2gpMs_xWg9',
			'not a record, sixteen',
			'pMs_xWg9ozAR6a1ccb8g',
			'pMs_xWg9ozAR6a1ccb8',
			'.0000000pMs_xWg9ozAR6a1ccb80',
		]) {
			expect(recordOf(odd)).toBe('');
		}
		expect(recordOf(undefined)).toBe('');
		expect(recordOf({ whd_1: 5 })).toBe('');
		expect(recordOf([['whd_1', 5], 'whd_2', [3, 4], ['whd_3', -1], ['whd_4', 1.5], ['whd_5', '6'], ['whd_6', 0]])).toBe(written(['whd_1', 5], ['whd_6', 0]));
	});
});

describe('seenBefore', () => {
	test('an id is a repeat for 24 hours and at most the rest of its minute, then new again', () => {
		const state: IDataObject = {};
		expect(seenBefore(state, none, d('whd_1'), t0 + 30_000, TOLERANCE)).toBe(false);
		expect(seenBefore(state, none, d('whd_1'), t0 + 24 * HOUR + 58_999, TOLERANCE)).toBe(true);
		expect(seenBefore(state, none, d('whd_1'), t0 + 24 * HOUR + 59_000, TOLERANCE)).toBe(false);
	});

	test('a minute whose last second is 24 hours old is forgotten when a new id is recorded', () => {
		const state: IDataObject = {};
		seenBefore(state, none, d('whd_old'), t0 + 59_000, TOLERANCE);
		seenBefore(state, none, d('whd_new'), t0 + 24 * HOUR + 59_000, TOLERANCE);
		expect(state.deliveries).toBe(written(['whd_new', s0 + 24 * 3600 + 59]));
	});

	test('ids older than the window are dropped when a new one is recorded', () => {
		const state: IDataObject = {};
		seenBefore(state, none, d('whd_old'), t0, TOLERANCE);
		seenBefore(state, none, d('whd_mid'), t0 + 12 * HOUR, TOLERANCE);
		seenBefore(state, none, d('whd_new'), t0 + 25 * HOUR, TOLERANCE);
		expect(state.deliveries).toBe(written(['whd_mid', s0 + 12 * 3600], ['whd_new', s0 + 25 * 3600]));
	});

	test('ids of one minute share its header; the next minute starts a group', () => {
		const state: IDataObject = {};
		seenBefore(state, none, d('whd_1'), t0, TOLERANCE);
		seenBefore(state, none, d('whd_2'), t0 + 59_999, TOLERANCE);
		seenBefore(state, none, d('whd_3'), t0 + MINUTE, TOLERANCE);
		expect(state.deliveries).toBe(`.1c4bf20${idDigest('whd_1')}${idDigest('whd_2')}.1c4bf21${idDigest('whd_3')}`);
	});

	test("a clock behind the record's newest minute files the id in that minute, where it is kept a little longer", () => {
		const state: IDataObject = {};
		seenBefore(state, none, d('whd_1'), t0 + 5 * MINUTE, TOLERANCE);
		seenBefore(state, none, d('whd_2'), t0, TOLERANCE);
		expect(state.deliveries).toBe(written(['whd_1', s0 + 300], ['whd_2', s0 + 300]));
	});

	// 7 or 8 ids a minute (one every 8 s): minute 0 holds whd_0 to whd_7, minute 1 whd_8 to whd_14.
	test.each([
		[8, 'a whole minute'],
		[9, 'a whole minute and the first id of the next, whose header stays with the ids it keeps'],
	])(`at most ${MAX_DELIVERY_IDS} ids are kept, the oldest go first: %i over the bound drop %s`, (over) => {
		// Full as 10,000 deliveries leave it (built at once: 10,000 requests make the test slow), then `over` more.
		const state: IDataObject = { deliveries: written(...Array.from({ length: MAX_DELIVERY_IDS }, (_, i): [string, number] => [`whd_${i}`, s0 + i * 8])) };
		for (let i = MAX_DELIVERY_IDS; i < MAX_DELIVERY_IDS + over; i++) seenBefore(state, none, d(`whd_${i}`), t0 + i * 8_000, TOLERANCE);
		const kept = entriesIn(state.deliveries as string);
		expect(kept).toHaveLength(MAX_DELIVERY_IDS);
		expect(kept.slice(0, 16 - over)).toEqual(Array.from({ length: 16 - over }, (_, n) => n + over).map((i) => [idDigest(`whd_${i}`), s0 + (i < 15 ? 60 : 120)]));
		expect(state.deliveries).toBe(logOf(kept));
		expect(seenBefore(state, none, d(`whd_${over - 1}`), t0 + (MAX_DELIVERY_IDS + over) * 8_000, TOLERANCE)).toBe(false);
		expect(seenBefore(state, none, d('whd_10'), t0 + (MAX_DELIVERY_IDS + over + 1) * 8_000, TOLERANCE)).toBe(true);
		expect(entriesIn(state.deliveries as string)).toHaveLength(MAX_DELIVERY_IDS);
	});

	test('a repeat leaves the record untouched; something else stored there is replaced, not trusted', () => {
		const state: IDataObject = {};
		seenBefore(state, none, d('whd_1'), t0, TOLERANCE);
		const before = state.deliveries;
		expect(seenBefore(state, none, d('whd_1'), t0 + 1000, TOLERANCE)).toBe(true);
		expect(state.deliveries).toBe(before);
		const odd: IDataObject = { deliveries: 'not a record' };
		expect(seenBefore(odd, none, d('whd_1'), t0, TOLERANCE)).toBe(false);
		expect(odd.deliveries).toBe(written(['whd_1', s0]));
	});

	test("a new id is written to the stored record with the process's memory; a repeat known to either changes nothing", () => {
		const stored: IDataObject = { deliveries: written(['whd_b', s0 + 62]) }; // another process's save
		const memory = new ProcessRecord();
		memory.remember(keysOf(d('whd_a')), t0 + 1000, TOLERANCE); // answered here, lost from the stored record
		expect(seenBefore(stored, memory, d('whd_a'), t0 + 63_000, TOLERANCE)).toBe(true);
		expect(seenBefore(stored, memory, d('whd_b'), t0 + 63_000, TOLERANCE)).toBe(true);
		expect(stored.deliveries).toBe(written(['whd_b', s0 + 62]));
		expect(seenBefore(stored, memory, d('whd_c'), t0 + 63_000, TOLERANCE)).toBe(false);
		expect(stored.deliveries).toBe(written(['whd_a', s0 + 1], ['whd_b', s0 + 62], ['whd_c', s0 + 63]));
		// The memory takes a delivery only when told it was answered.
		expect(seenBefore({}, memory, d('whd_c'), t0 + 64_000, TOLERANCE)).toBe(false);
		memory.remember(keysOf(d('whd_c')), t0 + 64_000, TOLERANCE);
		expect(seenBefore({}, memory, d('whd_c'), t0 + 65_000, TOLERANCE)).toBe(true);
	});

	test("an id in both records is kept once, at the stored record's minute; expired ones in either are dropped", () => {
		const stored: IDataObject = { deliveries: written(['whd_old', s0 - 25 * 3600], ['whd_x', s0 + 65]) };
		const memory = new ProcessRecord();
		// In the window when the next ones are remembered, out of it at the merge (its minute's last second 24 h and 81 s before).
		memory.remember(keysOf(d('whd_memory_old')), t0 - 24 * HOUR + 100_000, TOLERANCE);
		memory.remember(keysOf(d('whd_y')), t0 + 1000, TOLERANCE);
		memory.remember(keysOf(d('whd_x')), t0 + 5000, TOLERANCE);
		expect(seenBefore(stored, memory, d('whd_z'), t0 + 200_000, TOLERANCE)).toBe(false);
		expect(stored.deliveries).toBe(written(['whd_y', s0 + 1], ['whd_x', s0 + 65], ['whd_z', s0 + 200]));
	});

	test('records that differ are merged group by group: each lacking key joins its minute, in minute order, after the keys already there', () => {
		const [m0, m1, m2, m3, m4] = ['.1c4bf1f', '.1c4bf20', '.1c4bf21', '.1c4bf22', '.1c4bf23'];
		// The same minute and length with other keys (m1), a minute only one record has (m0, m2, m4), a minute alike (m3).
		const stored: IDataObject = { deliveries: `${m1}AAAAAAAAkkkkkkk1${m3}kkkkkkk3` };
		const memory = remembered([-1, 'kkkkkkk0'], [0, 'AAAAAAAA'], [0, 'kkkkkkk2'], [1, 'kkkkkkk4'], [2, 'kkkkkkk3'], [3, 'kkkkkkk5']);
		expect(seenBefore(stored, memory, d('whd_new'), t0 + 3 * MINUTE, TOLERANCE)).toBe(false);
		expect(stored.deliveries).toBe(`${m0}kkkkkkk0${m1}AAAAAAAAkkkkkkk1kkkkkkk2${m2}kkkkkkk4${m3}kkkkkkk3${m4}kkkkkkk5${idDigest('whd_new')}`);
	});

	test('every key a big record holds is found, wherever it sits: the same keys filed a minute later are not added again', () => {
		const ids = Array.from({ length: 300 }, (_, i) => `whd_${i}`);
		const stored: IDataObject = {};
		const memory = new ProcessRecord();
		ids.forEach((id, i) => seenBefore(stored, none, d(id), t0 + i * 1000, TOLERANCE));
		ids.forEach((id, i) => memory.remember(keysOf(d(id)), t0 + MINUTE + i * 1000, TOLERANCE)); // other minutes, other groups
		memory.remember(keysOf(d('whd_lost')), t0 + 7 * MINUTE, TOLERANCE);
		const before = stored.deliveries as string;
		expect(seenBefore(stored, memory, d('whd_new'), t0 + 8 * MINUTE, TOLERANCE)).toBe(false);
		expect(stored.deliveries).toBe(`${before}.1c4bf27${idDigest('whd_lost')}.1c4bf28${idDigest('whd_new')}`);
	});

	test("minutes only the memory has become groups of their own, before, between and after the stored record's", () => {
		const stored: IDataObject = { deliveries: '.1c4bf22kkkkkkk2.1c4bf24kkkkkkk4' };
		const memory = remembered([1, 'kkkkkkk1'], [3, 'kkkkkkk3'], [4, 'kkkkkkk4'], [5, 'kkkkkkk5']);
		seenBefore(stored, memory, d('whd_new'), t0 + 5 * MINUTE, TOLERANCE);
		expect(stored.deliveries).toBe(`.1c4bf21kkkkkkk1.1c4bf22kkkkkkk2.1c4bf23kkkkkkk3.1c4bf24kkkkkkk4.1c4bf25kkkkkkk5${idDigest('whd_new')}`);
	});

	test('keys that differ in one character, at any place and of any of the 64, are different keys', () => {
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
		const keys = [...alphabet].flatMap((c) => [0, 3, 7].map((place) => 'AAAAAAAA'.slice(0, place) + c + 'AAAAAAAA'.slice(place + 1)));
		const unique = [...new Set(keys)];
		const stored: IDataObject = { deliveries: '.1c4bf20AAAAAAAA' };
		const memory = remembered(...unique.map((key): [number, string] => [0, key]));
		seenBefore(stored, memory, d('whd_new'), t0, TOLERANCE);
		expect(stored.deliveries).toBe(`.1c4bf20${unique.join('')}${idDigest('whd_new')}`);
		expect(unique).toHaveLength(3 * 63 + 1);
	});

	test('a record in an earlier format keeps its ids: they are repeats, and written back in this one', () => {
		const stored: IDataObject = { deliveries: [['whd_a', s0 - 3600]] };
		expect(seenBefore(stored, none, d('whd_a'), t0, TOLERANCE)).toBe(true);
		expect(seenBefore(stored, none, d('whd_b'), t0, TOLERANCE)).toBe(false);
		expect(stored.deliveries).toBe(written(['whd_a', s0 - 3600], ['whd_b', s0]));
		const seconds: IDataObject = { deliveries: 'pMs_xWg9ozAR6a1ccb80' }; // whd_1 at s0, as stored until 2026-11-26
		expect(seenBefore(seconds, none, d('whd_1'), t0 + HOUR, TOLERANCE)).toBe(true);
		expect(seenBefore(seconds, none, d('whd_2'), t0 + HOUR, TOLERANCE)).toBe(false);
		expect(seconds.deliveries).toBe(written(['whd_1', s0], ['whd_2', s0 + 3600]));
	});

	test("the process's memory files a key as the stored record does: by the minute it was answered, once", () => {
		const memory = new ProcessRecord();
		for (let i = 0; i < 3; i++) memory.remember(keysOf(d(`whd_${i}`)), t0 + i * MINUTE, TOLERANCE);
		memory.remember(keysOf(d('whd_1')), t0 + 3 * MINUTE, TOLERANCE); // known: not filed again
		memory.remember(keysOf(d('whd_late')), t0 + MINUTE, TOLERANCE); // a clock behind the newest group's
		const stored: IDataObject = {};
		seenBefore(stored, memory, d('whd_new'), t0 + 3 * MINUTE, TOLERANCE);
		expect(stored.deliveries).toBe(written(['whd_0', s0], ['whd_1', s0 + 60], ['whd_2', s0 + 120], ['whd_late', s0 + 120], ['whd_new', s0 + 180]));
		expect(typeof stored.signed).toBe('string');
	});

	test.each([
		['id', TOLERANCE, 24 * HOUR],
		['signed bytes', 10, 20_000],
	])("the process's memory keeps a delivery's %s as long as the stored record does", (_, tolerance, window) => {
		const memory = new ProcessRecord();
		memory.remember(keysOf(d('whd_1')), t0, tolerance);
		// The signed bytes under another id; the id with other signed bytes.
		const repeat = window > HOUR ? d('whd_1', '{"other":1}') : d('whd_copy', '{"id":"whd_1"}');
		expect(seenBefore({}, memory, repeat, t0 + window + 58_999, tolerance)).toBe(true);
		expect(seenBefore({}, memory, repeat, t0 + window + 59_000, tolerance)).toBe(false);
	});

	test('the memory takes an answered delivery only when it knows neither its id (a day) nor its signed bytes (twice the tolerance)', () => {
		const memory = new ProcessRecord();
		memory.remember(keysOf(d('whd_a', '{"a":1}')), t0, TOLERANCE);
		memory.remember(keysOf(d('whd_a', '{"a":2}')), t0 + MINUTE, TOLERANCE); // its id known
		memory.remember(keysOf(d('whd_b', '{"a":1}')), t0 + 2 * MINUTE, TOLERANCE); // its signed bytes known
		const stored: IDataObject = {};
		seenBefore(stored, memory, d('whd_new', '{"n":1}'), t0 + 3 * MINUTE, TOLERANCE);
		expect(stored.deliveries).toBe(written(['whd_a', s0], ['whd_new', s0 + 180]));
		expect(entriesIn(stored.signed as string).map(([key]) => key)).toEqual([signedDigest('1780272000', Buffer.from('{"a":1}')), signedDigest('1780272000', Buffer.from('{"n":1}'))]);
	});

	test("the process's memory keeps earlier signed bytes when it takes later ones inside the window", () => {
		const memory = new ProcessRecord();
		memory.remember(keysOf(d('whd_a', '{"a":1}')), t0, TOLERANCE);
		memory.remember(keysOf(d('whd_b', '{"b":1}')), t0 + 2 * MINUTE, TOLERANCE);
		expect(seenBefore({}, memory, d('whd_a_copy', '{"a":1}'), t0 + 3 * MINUTE, TOLERANCE)).toBe(true);
	});

	test.each([1, 2])("the process's memory keeps no more keys than the bound, the oldest go first, a minute left empty too (%i over)", (over) => {
		const memory = new ProcessRecord();
		// The first key alone in its minute: once it goes, the next oldest are the following minute's.
		for (let i = 0; i < MAX_DELIVERY_IDS + over; i++) memory.remember(keysOf(d(`whd_${i}`)), t0 + i * 1000 - (i === 0 ? MINUTE : 0), TOLERANCE);
		const now = t0 + (MAX_DELIVERY_IDS + over) * 1000;
		expect(seenBefore({}, memory, d(`whd_${over - 1}`), now, TOLERANCE)).toBe(false);
		expect(seenBefore({}, memory, d(`whd_${over}`), now, TOLERANCE)).toBe(true);
		const stored: IDataObject = {};
		seenBefore(stored, memory, d('whd_new'), now, TOLERANCE);
		const kept = entriesIn(stored.deliveries as string).map(([key]) => key);
		expect(kept).toHaveLength(MAX_DELIVERY_IDS);
		expect(kept.slice(0, 2)).toEqual([idDigest(`whd_${over + 1}`), idDigest(`whd_${over + 2}`)]);
		expect(kept[MAX_DELIVERY_IDS - 1]).toBe(idDigest('whd_new'));
	});

	test('a copy of accepted signed bytes under another id is a repeat and changes nothing, for twice the tolerance', () => {
		const state: IDataObject = {};
		expect(seenBefore(state, none, d('whd_genuine', '{"n":1}'), t0 + 59_000, TOLERANCE)).toBe(false);
		const before = { ...state };
		expect(seenBefore(state, none, d('whd_replay_1', '{"n":1}'), t0 + 60_000, TOLERANCE)).toBe(true);
		expect(seenBefore(state, none, d('whd_replay_2', '{"n":1}'), t0 + 59_000 + 2 * TOLERANCE * 1000 - 1000, TOLERANCE)).toBe(true);
		expect(state).toEqual(before);
		// The same body signed at another timestamp is other signed bytes: the marketplace's re-signed retry.
		expect(seenBefore(state, none, d('whd_other', '{"n":1}', '1780272001'), t0 + 61_000, TOLERANCE)).toBe(false);
		// Past twice the tolerance the copy's timestamp cannot pass the check any more: the bytes are forgotten.
		expect(seenBefore(state, none, d('whd_replay_3', '{"n":1}'), t0 + 59_000 + 2 * TOLERANCE * 1000, TOLERANCE)).toBe(false);
	});

	test('the signed log keeps its minutes for twice the tolerance only; the id log for a day', () => {
		const state: IDataObject = {};
		seenBefore(state, none, d('whd_1'), t0, 10);
		seenBefore(state, none, d('whd_2'), t0 + MINUTE, 10);
		seenBefore(state, none, d('whd_3'), t0 + MINUTE + 59_000 + 20_000, 10);
		expect(state.signed).toBe(logOf([[signedDigest('1780272000', d('whd_3').rawBody), s0 + 139]]));
		expect(state.deliveries).toBe(written(['whd_1', s0], ['whd_2', s0 + 60], ['whd_3', s0 + 139]));
		seenBefore(state, none, d('whd_4'), t0 + 2 * MINUTE + 59_000 + 19_999, 10);
		expect(entriesIn(state.signed as string).map(([key]) => key)).toEqual([signedDigest('1780272000', d('whd_3').rawBody), signedDigest('1780272000', d('whd_4').rawBody)]);
	});

	test('a flood of replays under fresh ids records nothing: genuine ids stay known, the record keeps its size', () => {
		const state: IDataObject = {};
		for (let i = 0; i < 50; i++) seenBefore(state, none, d(`whd_genuine_${i}`), t0 + i, TOLERANCE);
		seenBefore(state, none, d('whd_captured', '{"captured":true}'), t0 + 100, TOLERANCE);
		const before = { ...state };
		for (let i = 0; i <= MAX_DELIVERY_IDS; i++) {
			expect(seenBefore(state, none, d(`whd_forged_${i}`, '{"captured":true}'), t0 + 200, TOLERANCE)).toBe(true);
		}
		expect(state).toEqual(before);
		expect(entriesIn(state.deliveries as string)).toHaveLength(51);
		for (let i = 0; i < 50; i++) expect(seenBefore(state, none, d(`whd_genuine_${i}`, `{"retry":${i}}`, '1780272009'), t0 + 300, TOLERANCE)).toBe(true);
	});

	test("signed bytes known to either record are a repeat; a new delivery writes both logs with the memory's keys", () => {
		const stored: IDataObject = {};
		const memory = new ProcessRecord();
		memory.remember(keysOf(d('whd_a', '{"a":1}')), t0, TOLERANCE); // answered by this process, lost from the stored record
		expect(seenBefore(stored, memory, d('whd_a_copy', '{"a":1}'), t0 + 1000, TOLERANCE)).toBe(true);
		expect(stored).toEqual({});
		expect(seenBefore(stored, memory, d('whd_b', '{"b":1}'), t0 + 2000, TOLERANCE)).toBe(false);
		expect(entriesIn(stored.signed as string).map(([key]) => key)).toEqual([signedDigest('1780272000', Buffer.from('{"a":1}')), signedDigest('1780272000', Buffer.from('{"b":1}'))]);
		expect(stored.deliveries).toBe(written(['whd_a', s0], ['whd_b', s0 + 2]));
	});

	/** `count` distinct keys, none a delivery's. */
	const manyKeys = (count: number, tag = 'k') => Array.from({ length: count }, (_, i) => `${tag}${i.toString(36).padStart(7, '0')}`).join('');

	test('a stored record larger than any this code writes (40,000 keys, from elsewhere) is looked up whole, and cut to the bound', () => {
		const stored: IDataObject = { deliveries: `.1c4bf20${manyKeys(40_000)}` };
		const memory = remembered([0, 'k00000zz'], [0, 'mmmmmmm1']); // the record's 1,296th key, and one it lacks
		expect(seenBefore(stored, memory, d('whd_new'), t0, TOLERANCE)).toBe(false);
		const kept = stored.deliveries as string;
		expect(kept).toBe(`.1c4bf20${manyKeys(40_000).slice(8 * 30_002)}mmmmmmm1${idDigest('whd_new')}`);
	});

	test('keys that share their last four characters (one slot of the look-up table) are all found; a key of zeros is a key; one that shares its first half and its slot with a stored key is another key', () => {
		const stored: IDataObject = { deliveries: '.1c4bf20AAAAzzzzBBBBzzzzCCCCzzzz' };
		const memory = remembered([0, 'CCCCzzzz'], [0, 'BBBBzzzz'], [0, 'AAAAzzzz'], [0, 'DDDDzzzz'], [0, 'AAAAAAAA'], [0, 'AAAAyzzz']);
		seenBefore(stored, memory, d('whd_new'), t0, TOLERANCE);
		expect(stored.deliveries).toBe(`.1c4bf20AAAAzzzzBBBBzzzzCCCCzzzzDDDDzzzzAAAAAAAAAAAAyzzz${idDigest('whd_new')}`);
	});

	test("a memory group is taken as the stored group's start only if each key matches in both halves", () => {
		const stored: IDataObject = { deliveries: '.1c4bf20AAAAzzzzkkkkkkk1' };
		const memory = remembered([0, 'BBBBzzzz']); // the stored group's first key but its first half
		seenBefore(stored, memory, d('whd_new'), t0, TOLERANCE);
		expect(stored.deliveries).toBe(`.1c4bf20AAAAzzzzkkkkkkk1BBBBzzzz${idDigest('whd_new')}`);
	});

	test('each merge looks keys up in its own stored record only, not in one merged before', () => {
		const memory = remembered([0, 'kkkkkkk1']);
		const before: IDataObject = { deliveries: '.1c4bf20kkkkkkk1kkkkkkk2' };
		seenBefore(before, memory, d('whd_1'), t0, TOLERANCE);
		const stored: IDataObject = { deliveries: '.1c4bf20kkkkkkk2' }; // a save that lost kkkkkkk1
		seenBefore(stored, memory, d('whd_2'), t0, TOLERANCE);
		expect(stored.deliveries).toBe(`.1c4bf20kkkkkkk2kkkkkkk1${idDigest('whd_2')}`);
	});

	test("a minute whose stored keys all leave keeps its header for the memory's keys of it that stay", () => {
		// 1 + 9,998 stored keys, 2 the stored record lacks, and the new one: the oldest two leave.
		const stored: IDataObject = { deliveries: `.1c4bf20kkkkkkk1.1c4bf21${manyKeys(9_998, 'n')}` };
		const memory = remembered([0, 'mmmmmmm1'], [0, 'mmmmmmm2']);
		seenBefore(stored, memory, d('whd_new'), t0 + MINUTE, TOLERANCE);
		expect(stored.deliveries).toBe(`.1c4bf20mmmmmmm2.1c4bf21${manyKeys(9_998, 'n')}${idDigest('whd_new')}`);
	});

	test('the oldest keys leave across several minutes: whole groups first, then the start of the next', () => {
		// 1 + 1 + 9,998 stored keys, 2 the stored record lacks (of the last minute), and the new one: three leave.
		const stored: IDataObject = { deliveries: `.1c4bf20kkkkkkk1.1c4bf21kkkkkkk2.1c4bf22${manyKeys(9_998, 'n')}` };
		const memory = remembered([2, 'mmmmmmm1'], [2, 'mmmmmmm2']);
		seenBefore(stored, memory, d('whd_new'), t0 + 2 * MINUTE, TOLERANCE);
		expect(stored.deliveries).toBe(`.1c4bf22${manyKeys(9_998, 'n').slice(8)}mmmmmmm1mmmmmmm2${idDigest('whd_new')}`);
	});

	test('a key found across two entries or in a header is no match; the same key where an entry starts is', () => {
		const key = idDigest('whd_straddle');
		const straddling = `.1c4bf20A${key}${'B'.repeat(7)}`;
		expect(straddling.indexOf(key)).toBe(9);
		const state: IDataObject = { deliveries: straddling };
		expect(seenBefore(state, none, d('whd_straddle', '{"first":1}'), t0, TOLERANCE)).toBe(false);
		expect(state.deliveries).toBe(straddling + key);
		expect(seenBefore(state, none, d('whd_straddle', '{"retry":1}'), t0 + 1000, TOLERANCE)).toBe(true);
	});
});

describe('a full signed log refuses rather than forgets (issue #51)', () => {
	/** The signed keys of `count` deliveries spread over the 5 minutes from Unix second `from`. */
	const signedLog = (count: number, from: number) =>
		logOf(Array.from({ length: count }, (_, i): [string, number] => [signedDigest('1780272000', Buffer.from(`{"n":${i}}`)), from + Math.floor((i * 300) / count)]));

	test(`with ${MAX_SIGNED_KEYS} deliveries in twice the tolerance the next is refused until the oldest minute leaves, writing nothing; every copy stays a repeat`, () => {
		const stored: IDataObject = { signed: signedLog(MAX_SIGNED_KEYS, s0) };
		const before = { ...stored };
		const now = t0 + 5 * MINUTE;
		// The oldest group (minute s0) leaves at s0 + 59 + 600.
		expect(seenBefore(stored, none, d('whd_next', '{"next":1}'), now, TOLERANCE)).toEqual({ retryAfterSeconds: 59 + 600 - 300 });
		expect(stored).toEqual(before);
		// The very first delivery, captured and re-sent under a fresh id, is still known.
		expect(seenBefore(stored, none, d('whd_fresh', '{"n":0}'), now, TOLERANCE)).toBe(true);
		expect(seenBefore(stored, none, d('whd_next', '{"next":1}'), t0 + 659_000 - 1000, TOLERANCE)).toEqual({ retryAfterSeconds: 1 });
		expect(seenBefore(stored, none, d('whd_next', '{"next":1}'), t0 + 659_000, TOLERANCE)).toBe(false);
		expect(entriesIn(stored.signed as string).length).toBeLessThanOrEqual(MAX_SIGNED_KEYS);
	});

	test("the memory's keys the stored record lacks count too, and its older minute sets the wait", () => {
		const stored: IDataObject = { signed: signedLog(MAX_SIGNED_KEYS - 1, s0 + 60) };
		const memory = remembered([0, 'mmmmmmm1']);
		expect(seenBefore(stored, memory, d('whd_next', '{"next":1}'), t0 + 2 * MINUTE, TOLERANCE)).toEqual({ retryAfterSeconds: 59 + 600 - 120 });
		expect(seenBefore({ signed: signedLog(MAX_SIGNED_KEYS - 2, s0 + 60) }, memory, d('whd_next', '{"next":1}'), t0 + 2 * MINUTE, TOLERANCE)).toBe(false);
	});

	test('generated: no delivery accepted can be accepted again under any id while its timestamp could pass, however many come', () => {
		fc.assert(
			fc.property(fc.integer({ min: MAX_SIGNED_KEYS - 40, max: MAX_SIGNED_KEYS }), fc.array(fc.tuple(fc.nat(40), fc.boolean(), fc.oneof(fc.nat(3), fc.nat(2 * MAX_SIGNED_KEYS))), { minLength: 1, maxLength: 60 }), (filled, steps) => {
				const stored: IDataObject = { signed: signedLog(filled, s0) };
				// The deliveries that filled the log, then those accepted here: any may come again.
				const accepted = Array.from({ length: filled }, (_, i) => ({ body: `{"n":${i}}`, at: (s0 + Math.floor((i * 300) / filled)) * 1000 }));
				let now = t0 + 300_000;
				for (const [gapSeconds, replay, pick] of steps) {
					now += gapSeconds * 1000;
					// A copy of one whose timestamp could still pass, the oldest such most often (the first a count would forget).
					const live = accepted.filter(({ at }) => now - at < 2 * TOLERANCE * 1000);
					const original = live[pick % Math.max(1, live.length)];
					const body = replay && original ? original.body : `{"new":${now},"p":${pick}}`;
					const seen = seenBefore(stored, none, d(`whd_${now}_${pick}`, body), now, TOLERANCE);
					if (replay && original) expect(seen).not.toBe(false);
					if (seen === false && !(replay && original)) accepted.push({ body, at: now });
					if (typeof seen === 'object') expect(seen.retryAfterSeconds).toBeGreaterThanOrEqual(1);
					expect(entriesIn(stored.signed as string).length).toBeLessThanOrEqual(MAX_SIGNED_KEYS);
				}
			}),
			{ numRuns: 30 },
		);
	});
});

describe('idsHeldSince: whether the id log still holds a whole day', () => {
	test('undefined below the bound; at the bound, the minute after its oldest (whose first ids may have gone)', () => {
		const ids = (count: number) => written(...Array.from({ length: count }, (_, i): [string, number] => [`whd_${i}`, s0 + i]));
		expect(idsHeldSince({}, t0)).toBeUndefined();
		expect(idsHeldSince({ deliveries: ids(MAX_DELIVERY_IDS - 1) }, t0 + HOUR)).toBeUndefined();
		expect(idsHeldSince({ deliveries: ids(MAX_DELIVERY_IDS) }, t0 + HOUR)).toBe(s0 + 60);
		// Expired groups are not held: a day later the count is under the bound again.
		expect(idsHeldSince({ deliveries: ids(MAX_DELIVERY_IDS) }, t0 + 24 * HOUR + 10 * MINUTE)).toBeUndefined();
	});
});

describe('InFlight: deliveries accepted and not yet queued', () => {
	const keys = (id: string) => keysOf(d(id));

	test('a claim holds all its keys until released; a claim that meets one held key is refused and takes none', () => {
		const inFlight = new InFlight();
		expect(inFlight.claim(keys('whd_1'), 0)).toBe(true);
		expect(inFlight.claim([keys('whd_2')[0], keys('whd_1')[1]], 1)).toBe(false);
		expect(inFlight.claim(keys('whd_2'), 1)).toBe(true);
		inFlight.release(keys('whd_1'));
		expect(inFlight.claim(keys('whd_1'), 2)).toBe(true);
	});

	test('a claim lapses a minute after it was made (a run n8n never queued leaves it behind), not before', () => {
		const inFlight = new InFlight();
		inFlight.claim(['a'], 0);
		inFlight.claim(['b'], 30_000);
		expect(inFlight.claim(['a'], 59_999)).toBe(false);
		expect(inFlight.claim(['a'], 60_000)).toBe(true);
		expect(inFlight.claim(['b'], 60_000)).toBe(false);
		expect(inFlight.claim(['b'], 90_000)).toBe(true);
	});

	test('keysOf: the id and the signed bytes, each on its own', () => {
		const [byId, bySigned] = keysOf(d('whd_k', '{"k":1}', '1780272000'));
		expect(byId).toBe(idDigest('whd_k'));
		expect(bySigned).toBe(signedDigest('1780272000', Buffer.from('{"k":1}')));
	});
});
