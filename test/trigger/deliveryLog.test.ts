// The record of seen delivery ids: a 24-hour window and a bound on its size.
import type { IDataObject } from 'n8n-workflow';
import { deliveryEntry, ENTRY_CHARS, MAX_DELIVERY_IDS, recordOf, seenBefore } from '../../nodes/MarketplacePartner/helpers/deliveryLog';

const HOUR = 60 * 60 * 1000;
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
		expect(seenBefore([state], 'whd_1', t0)).toBe(false);
		expect(seenBefore([state], 'whd_1', t0 + 24 * HOUR - 1000)).toBe(true);
		expect(seenBefore([state], 'whd_1', t0 + 24 * HOUR)).toBe(false);
	});

	test('an id recorded exactly 24 hours ago is forgotten when a new one is recorded', () => {
		const state: IDataObject = {};
		seenBefore([state], 'whd_old', t0);
		seenBefore([state], 'whd_new', t0 + 24 * HOUR);
		expect(state.deliveries).toBe(written(['whd_new', (t0 + 24 * HOUR) / 1000]));
	});

	test('ids older than the window are dropped when a new one is recorded', () => {
		const state: IDataObject = {};
		seenBefore([state], 'whd_old', t0);
		seenBefore([state], 'whd_mid', t0 + 12 * HOUR);
		seenBefore([state], 'whd_new', t0 + 25 * HOUR);
		expect(state.deliveries).toBe(written(['whd_mid', (t0 + 12 * HOUR) / 1000], ['whd_new', (t0 + 25 * HOUR) / 1000]));
	});

	test(`at most ${MAX_DELIVERY_IDS} ids are kept, the oldest go first`, () => {
		const state: IDataObject = {};
		for (let i = 0; i <= MAX_DELIVERY_IDS; i++) seenBefore([state], `whd_${i}`, t0 + i);
		const kept = state.deliveries as string;
		expect(kept).toHaveLength(MAX_DELIVERY_IDS * ENTRY_CHARS);
		expect(kept.slice(0, ENTRY_CHARS)).toBe(deliveryEntry('whd_1', Math.floor((t0 + 1) / 1000)));
		expect(seenBefore([state], 'whd_0', t0 + MAX_DELIVERY_IDS + 1)).toBe(false);
		expect(seenBefore([state], `whd_${MAX_DELIVERY_IDS}`, t0 + MAX_DELIVERY_IDS + 2)).toBe(true);
	});

	test('a repeat leaves the record untouched; something else stored there is replaced, not trusted', () => {
		const state: IDataObject = {};
		seenBefore([state], 'whd_1', t0);
		const before = state.deliveries;
		expect(seenBefore([state], 'whd_1', t0 + 1000)).toBe(true);
		expect(state.deliveries).toBe(before);
		const odd: IDataObject = { deliveries: 'not a record' };
		expect(seenBefore([odd], 'whd_1', t0)).toBe(false);
		expect(odd.deliveries).toBe(written(['whd_1', t0 / 1000]));
	});

	test('a new id is written to every record with what each one knows; a repeat known to one changes none', () => {
		const stored: IDataObject = { deliveries: written(['whd_b', t0 / 1000 + 2]) }; // another process's save
		const memory: IDataObject = { deliveries: written(['whd_a', t0 / 1000 + 1]) }; // lost from the stored record
		expect(seenBefore([stored, memory], 'whd_a', t0 + 3000)).toBe(true);
		expect(seenBefore([stored, memory], 'whd_b', t0 + 3000)).toBe(true);
		expect(stored.deliveries).toBe(written(['whd_b', t0 / 1000 + 2]));
		expect(memory.deliveries).toBe(written(['whd_a', t0 / 1000 + 1]));
		expect(seenBefore([stored, memory], 'whd_c', t0 + 3000)).toBe(false);
		const all = written(['whd_a', t0 / 1000 + 1], ['whd_b', t0 / 1000 + 2], ['whd_c', t0 / 1000 + 3]);
		expect(stored.deliveries).toBe(all);
		expect(memory.deliveries).toBe(all);
	});

	test('an id in both records is kept once, at the time it was first seen; expired ones in either are dropped', () => {
		const stored: IDataObject = { deliveries: written(['whd_old', t0 / 1000 - 25 * 3600], ['whd_x', t0 / 1000 + 5]) };
		const memory: IDataObject = { deliveries: written(['whd_x', t0 / 1000 + 5], ['whd_y', t0 / 1000 + 1]) };
		expect(seenBefore([stored, memory], 'whd_z', t0 + 10_000)).toBe(false);
		expect(stored.deliveries).toBe(written(['whd_y', t0 / 1000 + 1], ['whd_x', t0 / 1000 + 5], ['whd_z', t0 / 1000 + 10]));
	});

	test('a record in the earlier format (a list of pairs) keeps its ids: they are repeats, and written back as entries', () => {
		const stored: IDataObject = { deliveries: [['whd_a', t0 / 1000 - 3600]] };
		expect(seenBefore([stored], 'whd_a', t0)).toBe(true);
		expect(seenBefore([stored], 'whd_b', t0)).toBe(false);
		expect(stored.deliveries).toBe(written(['whd_a', t0 / 1000 - 3600], ['whd_b', t0 / 1000]));
	});

	test('the record is one string whatever the window holds: nothing of n8n\'s loaded static data is kept in memory', () => {
		const stored: IDataObject = {};
		const memory: IDataObject = {};
		for (let i = 0; i < 3; i++) seenBefore([stored, memory], `whd_${i}`, t0 + i * 1000);
		expect(typeof stored.deliveries).toBe('string');
		expect(typeof memory.deliveries).toBe('string');
		expect(memory.deliveries).toBe(written(['whd_0', t0 / 1000], ['whd_1', t0 / 1000 + 1], ['whd_2', t0 / 1000 + 2]));
	});
});
