// The record of seen delivery ids: a 24-hour window and a bound on its size.
import type { IDataObject } from 'n8n-workflow';
import { deliveryEntry, ENTRY_CHARS, InFlight, keysOf, MAX_DELIVERY_IDS, recordOf, seenBefore, signedEntry } from '../../nodes/MarketplacePartner/helpers/deliveryLog';

const HOUR = 60 * 60 * 1000;
const TOLERANCE = 300;
/** A verified delivery: `id` in its id header, `body` signed with `timestamp` (by default, bytes of its own). */
const d = (id: string, body = `{"id":"${id}"}`, timestamp = '1780272000') => ({ id, timestamp, rawBody: Buffer.from(body) });
const t0 = Date.UTC(2026, 5, 1);
/** The record that holds these ids, first seen at these Unix seconds, in this order. */
const written = (...seen: Array<[string, number]>) => seen.map(([id, seconds]) => deliveryEntry(id, seconds)).join('');

describe('deliveryEntry', () => {
	test('known answers: 9 bytes of the id\'s SHA-256 in base64url, then the Unix seconds in 8 hex digits', () => {
		// python3: urlsafe_b64encode(sha256(id.encode()).digest()[:9]).decode() + format(seconds, '08x')
		expect(deliveryEntry('whd_1', 1780272000)).toBe('pMs_xWg9ozAR6a1ccb80');
		expect(deliveryEntry('whd_0123456789abcdef01234567', 0)).toBe('4zxUf7yWX7SD00000000');
		expect(deliveryEntry('ü', 2 ** 32 - 1)).toBe('YHR0ykdalyTXffffffff');
		expect(ENTRY_CHARS).toBe(20);
	});
});

describe('signedEntry', () => {
	test('known answer: 9 bytes of the SHA-256 of TIMESTAMP.RAW_BODY in base64url, then the Unix seconds', () => {
		// printf '%s' '1780272000.{"event":"order.created"}' | openssl dgst -sha256 -binary | head -c 9 | basenc --base64url
		expect(signedEntry('1780272000', Buffer.from('{"event":"order.created"}'), 1780272300)).toBe('KW3uDrMHEsT-6a1cccac');
	});
});

describe('recordOf', () => {
	test('a stored record is taken as it is; a list of [id, seconds] pairs (the earlier format) is converted', () => {
		const two = deliveryEntry('whd_1', 5) + deliveryEntry('whd_2', 7);
		expect(recordOf(two)).toBe(two);
		expect(recordOf('')).toBe('');
		expect(
			recordOf([
				['whd_1', 5],
				['whd_2', 7],
			]),
		).toBe(two);
	});

	test('anything else is an empty record: a cut or foreign string, other values, malformed pairs are left out', () => {
		const whole = deliveryEntry('whd_1', 5);
		expect(recordOf(whole.slice(1))).toBe('');
		expect(recordOf(`${whole}x`)).toBe('');
		expect(recordOf('not a record, twenty chars')).toBe('');
		expect(recordOf(`${whole.slice(0, 19)}g`)).toBe('');
		expect(recordOf(`${whole.slice(0, 19)}A`)).toBe('');
		expect(recordOf(`.${whole.slice(1)}`)).toBe('');
		expect(recordOf(undefined)).toBe('');
		expect(recordOf({ whd_1: 5 })).toBe('');
		expect(recordOf([['whd_1', 5], 'whd_2', [3, 4], ['whd_3', -1], ['whd_4', 1.5], ['whd_5', '6'], ['whd_6', 0]])).toBe(
			deliveryEntry('whd_1', 5) + deliveryEntry('whd_6', 0),
		);
	});
});

describe('seenBefore', () => {
	test('an id is a repeat for 24 hours, then new again', () => {
		const state: IDataObject = {};
		expect(seenBefore([state], d('whd_1'), t0, TOLERANCE)).toBe(false);
		expect(seenBefore([state], d('whd_1'), t0 + 24 * HOUR - 1000, TOLERANCE)).toBe(true);
		expect(seenBefore([state], d('whd_1'), t0 + 24 * HOUR, TOLERANCE)).toBe(false);
	});

	test('an id recorded exactly 24 hours ago is forgotten when a new one is recorded', () => {
		const state: IDataObject = {};
		seenBefore([state], d('whd_old'), t0, TOLERANCE);
		seenBefore([state], d('whd_new'), t0 + 24 * HOUR, TOLERANCE);
		expect(state.deliveries).toBe(written(['whd_new', (t0 + 24 * HOUR) / 1000]));
	});

	test('ids older than the window are dropped when a new one is recorded', () => {
		const state: IDataObject = {};
		seenBefore([state], d('whd_old'), t0, TOLERANCE);
		seenBefore([state], d('whd_mid'), t0 + 12 * HOUR, TOLERANCE);
		seenBefore([state], d('whd_new'), t0 + 25 * HOUR, TOLERANCE);
		expect(state.deliveries).toBe(written(['whd_mid', (t0 + 12 * HOUR) / 1000], ['whd_new', (t0 + 25 * HOUR) / 1000]));
	});

	test(`at most ${MAX_DELIVERY_IDS} ids are kept, the oldest go first`, () => {
		const state: IDataObject = {};
		for (let i = 0; i <= MAX_DELIVERY_IDS; i++) seenBefore([state], d(`whd_${i}`), t0 + i, TOLERANCE);
		const kept = state.deliveries as string;
		expect(kept).toHaveLength(MAX_DELIVERY_IDS * ENTRY_CHARS);
		expect(kept.slice(0, ENTRY_CHARS)).toBe(deliveryEntry('whd_1', Math.floor((t0 + 1) / 1000)));
		expect(seenBefore([state], d('whd_0'), t0 + MAX_DELIVERY_IDS + 1, TOLERANCE)).toBe(false);
		expect(seenBefore([state], d(`whd_${MAX_DELIVERY_IDS}`), t0 + MAX_DELIVERY_IDS + 2, TOLERANCE)).toBe(true);
	});

	test('a repeat leaves the record untouched; something else stored there is replaced, not trusted', () => {
		const state: IDataObject = {};
		seenBefore([state], d('whd_1'), t0, TOLERANCE);
		const before = state.deliveries;
		expect(seenBefore([state], d('whd_1'), t0 + 1000, TOLERANCE)).toBe(true);
		expect(state.deliveries).toBe(before);
		const odd: IDataObject = { deliveries: 'not a record' };
		expect(seenBefore([odd], d('whd_1'), t0, TOLERANCE)).toBe(false);
		expect(odd.deliveries).toBe(written(['whd_1', t0 / 1000]));
	});

	test('a new id is written to every record with what each one knows; a repeat known to one changes none', () => {
		const stored: IDataObject = { deliveries: written(['whd_b', t0 / 1000 + 2]) }; // another process's save
		const memory: IDataObject = { deliveries: written(['whd_a', t0 / 1000 + 1]) }; // lost from the stored record
		expect(seenBefore([stored, memory], d('whd_a'), t0 + 3000, TOLERANCE)).toBe(true);
		expect(seenBefore([stored, memory], d('whd_b'), t0 + 3000, TOLERANCE)).toBe(true);
		expect(stored.deliveries).toBe(written(['whd_b', t0 / 1000 + 2]));
		expect(memory.deliveries).toBe(written(['whd_a', t0 / 1000 + 1]));
		expect(seenBefore([stored, memory], d('whd_c'), t0 + 3000, TOLERANCE)).toBe(false);
		const all = written(['whd_a', t0 / 1000 + 1], ['whd_b', t0 / 1000 + 2], ['whd_c', t0 / 1000 + 3]);
		expect(stored.deliveries).toBe(all);
		expect(memory.deliveries).toBe(all);
	});

	test('an id in both records is kept once, at the time it was first seen; expired ones in either are dropped', () => {
		const stored: IDataObject = { deliveries: written(['whd_old', t0 / 1000 - 25 * 3600], ['whd_x', t0 / 1000 + 5]) };
		const memory: IDataObject = { deliveries: written(['whd_x', t0 / 1000 + 5], ['whd_y', t0 / 1000 + 1]) };
		expect(seenBefore([stored, memory], d('whd_z'), t0 + 10_000, TOLERANCE)).toBe(false);
		expect(stored.deliveries).toBe(written(['whd_y', t0 / 1000 + 1], ['whd_x', t0 / 1000 + 5], ['whd_z', t0 / 1000 + 10]));
	});

	test('a record in the earlier format (a list of pairs) keeps its ids: they are repeats, and written back as entries', () => {
		const stored: IDataObject = { deliveries: [['whd_a', t0 / 1000 - 3600]] };
		expect(seenBefore([stored], d('whd_a'), t0, TOLERANCE)).toBe(true);
		expect(seenBefore([stored], d('whd_b'), t0, TOLERANCE)).toBe(false);
		expect(stored.deliveries).toBe(written(['whd_a', t0 / 1000 - 3600], ['whd_b', t0 / 1000]));
	});

	test('the record is one string whatever the window holds: nothing of n8n\'s loaded static data is kept in memory', () => {
		const stored: IDataObject = {};
		const memory: IDataObject = {};
		for (let i = 0; i < 3; i++) seenBefore([stored, memory], d(`whd_${i}`), t0 + i * 1000, TOLERANCE);
		expect(typeof stored.deliveries).toBe('string');
		expect(typeof memory.deliveries).toBe('string');
		expect(memory.deliveries).toBe(written(['whd_0', t0 / 1000], ['whd_1', t0 / 1000 + 1], ['whd_2', t0 / 1000 + 2]));
	});

	test('a copy of accepted signed bytes under another id is a repeat and changes nothing, for twice the tolerance', () => {
		const state: IDataObject = {};
		expect(seenBefore([state], d('whd_genuine', '{"n":1}'), t0, TOLERANCE)).toBe(false);
		const before = { ...state };
		expect(seenBefore([state], d('whd_replay_1', '{"n":1}'), t0 + 1000, TOLERANCE)).toBe(true);
		expect(seenBefore([state], d('whd_replay_2', '{"n":1}'), t0 + 2 * TOLERANCE * 1000 - 1000, TOLERANCE)).toBe(true);
		expect(state).toEqual(before);
		// The same body signed at another timestamp is other signed bytes: the marketplace's re-signed retry.
		expect(seenBefore([state], d('whd_other', '{"n":1}', '1780272001'), t0 + 1000, TOLERANCE)).toBe(false);
		// Past twice the tolerance the copy's timestamp cannot pass the check any more: the bytes are forgotten.
		expect(seenBefore([state], d('whd_replay_3', '{"n":1}'), t0 + 2 * TOLERANCE * 1000, TOLERANCE)).toBe(false);
	});

	test('the signed log keeps entries for twice the tolerance only; the id log for a day', () => {
		const state: IDataObject = {};
		seenBefore([state], d('whd_1'), t0, 10);
		seenBefore([state], d('whd_2'), t0 + 19_000, 10);
		seenBefore([state], d('whd_3'), t0 + 20_000, 10);
		expect(state.signed).toBe(
			signedEntry('1780272000', d('whd_2').rawBody, t0 / 1000 + 19) + signedEntry('1780272000', d('whd_3').rawBody, t0 / 1000 + 20),
		);
		expect(state.deliveries).toBe(written(['whd_1', t0 / 1000], ['whd_2', t0 / 1000 + 19], ['whd_3', t0 / 1000 + 20]));
	});

	test('a flood of replays under fresh ids records nothing: genuine ids stay known, the record keeps its size', () => {
		const state: IDataObject = {};
		for (let i = 0; i < 50; i++) seenBefore([state], d(`whd_genuine_${i}`), t0 + i, TOLERANCE);
		seenBefore([state], d('whd_captured', '{"captured":true}'), t0 + 100, TOLERANCE);
		const before = { ...state };
		for (let i = 0; i <= MAX_DELIVERY_IDS; i++) {
			expect(seenBefore([state], d(`whd_forged_${i}`, '{"captured":true}'), t0 + 200, TOLERANCE)).toBe(true);
		}
		expect(state).toEqual(before);
		expect(recordOf(state.deliveries)).toHaveLength(51 * ENTRY_CHARS);
		for (let i = 0; i < 50; i++) expect(seenBefore([state], d(`whd_genuine_${i}`, `{"retry":${i}}`, '1780272009'), t0 + 300, TOLERANCE)).toBe(true);
	});

	test('signed bytes known to either record are a repeat; a new delivery writes both logs to both records', () => {
		const stored: IDataObject = {};
		const memory: IDataObject = {};
		seenBefore([memory], d('whd_a', '{"a":1}'), t0, TOLERANCE); // saved by this process, lost from the stored record
		expect(seenBefore([stored, memory], d('whd_a_copy', '{"a":1}'), t0 + 1000, TOLERANCE)).toBe(true);
		expect(stored).toEqual({});
		expect(seenBefore([stored, memory], d('whd_b', '{"b":1}'), t0 + 2000, TOLERANCE)).toBe(false);
		expect(stored).toEqual(memory);
		expect(recordOf(stored.signed)).toHaveLength(2 * ENTRY_CHARS);
	});

	test('a key found across two entries is no match; the same key where an entry starts is', () => {
		const now = Math.floor(t0 / 1000);
		const secondsHex = now.toString(16).padStart(8, '0');
		const digestChars = ENTRY_CHARS - 8;
		// An id whose digest ends with the first character of the seconds field: the record below then
		// holds the digest from offset 1, across the digest and the seconds of one entry.
		const id = Array.from({ length: 10_000 }, (_, n) => `whd_straddle_${n}`).find((i) => deliveryEntry(i, now)[digestChars - 1] === secondsHex[0])!;
		const digest = deliveryEntry(id, now).slice(0, digestChars);
		const straddling = `A${digest.slice(0, -1)}${secondsHex}`;
		expect(straddling.indexOf(digest)).toBe(1);
		const state: IDataObject = { deliveries: straddling };
		expect(seenBefore([state], d(id, '{"first":1}'), t0, TOLERANCE)).toBe(false);
		expect(recordOf(state.deliveries)).toBe(straddling + deliveryEntry(id, now));
		expect(seenBefore([state], d(id, '{"retry":1}'), t0 + 1000, TOLERANCE)).toBe(true);
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
		expect(byId).toBe(deliveryEntry('whd_k', 0).slice(0, ENTRY_CHARS - 8));
		expect(bySigned).toBe(signedEntry('1780272000', Buffer.from('{"k":1}'), 0).slice(0, ENTRY_CHARS - 8));
	});
});
