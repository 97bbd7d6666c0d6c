// The record of seen delivery ids: a 24-hour window and a bound on its size.
import type { IDataObject } from 'n8n-workflow';
import { MAX_DELIVERY_IDS, seenBefore } from '../../nodes/MarketplacePartner/helpers/deliveryLog';

const HOUR = 60 * 60 * 1000;
const t0 = Date.UTC(2026, 5, 1);

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
		expect((state.deliveries as Array<[string, number]>).map(([id]) => id)).toEqual(['whd_new']);
	});

	test('ids older than the window are dropped when a new one is recorded', () => {
		const state: IDataObject = {};
		seenBefore([state], 'whd_old', t0);
		seenBefore([state], 'whd_mid', t0 + 12 * HOUR);
		seenBefore([state], 'whd_new', t0 + 25 * HOUR);
		expect(state.deliveries).toEqual([
			['whd_mid', (t0 + 12 * HOUR) / 1000],
			['whd_new', (t0 + 25 * HOUR) / 1000],
		]);
	});

	test(`at most ${MAX_DELIVERY_IDS} ids are kept, the oldest go first`, () => {
		const state: IDataObject = {};
		for (let i = 0; i <= MAX_DELIVERY_IDS; i++) seenBefore([state], `whd_${i}`, t0 + i);
		const kept = state.deliveries as Array<[string, number]>;
		expect(kept).toHaveLength(MAX_DELIVERY_IDS);
		expect(kept[0][0]).toBe('whd_1');
		expect(seenBefore([state], 'whd_0', t0 + MAX_DELIVERY_IDS + 1)).toBe(false);
		expect(seenBefore([state], `whd_${MAX_DELIVERY_IDS}`, t0 + MAX_DELIVERY_IDS + 2)).toBe(true);
	});

	test('a repeat leaves the record untouched; something else stored there is replaced, not trusted', () => {
		const state: IDataObject = {};
		seenBefore([state], 'whd_1', t0);
		const before = state.deliveries;
		expect(seenBefore([state], 'whd_1', t0 + 1000)).toBe(true);
		expect(state.deliveries).toBe(before);
		const odd: IDataObject = { deliveries: 'not a list' };
		expect(seenBefore([odd], 'whd_1', t0)).toBe(false);
		expect(odd.deliveries).toEqual([['whd_1', t0 / 1000]]);
	});

	test('a new id is written to every record with what each one knows; a repeat known to one changes none', () => {
		const stored: IDataObject = { deliveries: [['whd_b', t0 / 1000 + 2]] }; // another process's save
		const memory: IDataObject = { deliveries: [['whd_a', t0 / 1000 + 1]] }; // lost from the stored record
		expect(seenBefore([stored, memory], 'whd_a', t0 + 3000)).toBe(true);
		expect(seenBefore([stored, memory], 'whd_b', t0 + 3000)).toBe(true);
		expect(stored.deliveries).toEqual([['whd_b', t0 / 1000 + 2]]);
		expect(memory.deliveries).toEqual([['whd_a', t0 / 1000 + 1]]);
		expect(seenBefore([stored, memory], 'whd_c', t0 + 3000)).toBe(false);
		const all = [
			['whd_a', t0 / 1000 + 1],
			['whd_b', t0 / 1000 + 2],
			['whd_c', t0 / 1000 + 3],
		];
		expect(stored.deliveries).toEqual(all);
		expect(memory.deliveries).toEqual(all);
		// Each its own array: n8n must see the stored record's key assigned.
		expect(stored.deliveries).not.toBe(memory.deliveries);
	});

	test('an id in both records is kept once, at the time it was first seen; expired ones in either are dropped', () => {
		const stored: IDataObject = { deliveries: [['whd_old', t0 / 1000 - 25 * 3600], ['whd_x', t0 / 1000 + 5]] };
		const memory: IDataObject = { deliveries: [['whd_x', t0 / 1000 + 5], ['whd_y', t0 / 1000 + 1]] };
		expect(seenBefore([stored, memory], 'whd_z', t0 + 10_000)).toBe(false);
		expect(stored.deliveries).toEqual([
			['whd_y', t0 / 1000 + 1],
			['whd_x', t0 / 1000 + 5],
			['whd_z', t0 / 1000 + 10],
		]);
	});
});
