// Property-based tests of the Orders Trigger's memory over any list entry (issue 31): keys of the
// states seen stay what saved workflows hold, whatever an entry carries nothing throws, and the
// seen states are keyed by any updated_at, "__proto__" included; within a time budget per KB.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { changeKey, parseApiDate, remember } from '../../nodes/shared/helpers/orderChanges';
import { Budget, nested } from '../helpers/budget';
import { propertyRuns } from '../helpers/soak';
import { anyText, anyValue, INHERITED } from '../helpers/arbitraries';

/** changeKey as released (recursive): the keys saved workflows hold in their static data. */
function releasedStableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(releasedStableJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.keys(value as IDataObject)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${releasedStableJson((value as IDataObject)[k])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
const releasedChangeKey = (entry: IDataObject) => `${entry.order_item_id}:${createHash('sha256').update(releasedStableJson(entry)).digest('hex').slice(0, 16)}`;

const id = fc.oneof(fc.integer({ min: 1 }), fc.string(), fc.constantFrom(...INHERITED));
const jsonEntry = fc.record({ order_item_id: id, updated_at: fc.oneof(fc.string(), fc.constantFrom(...INHERITED)), status: fc.string(), product: fc.jsonValue() }, { requiredKeys: ['order_item_id'] });

describe("the Orders Trigger's memory over any entry", () => {
	test('changeKey gives the keys saved workflows already hold, for every entry JSON can carry', () => {
		fc.assert(
			fc.property(jsonEntry, fc.dictionary(fc.oneof(fc.string(), fc.constantFrom(...INHERITED)), fc.jsonValue(), { maxKeys: 4 }), (entry, extra) => {
				const withExtra = { ...extra, ...entry } as IDataObject;
				expect(changeKey(withExtra)).toBe(releasedChangeKey(withExtra));
			}),
			{ numRuns: propertyRuns(500) },
		);
	});

	test('changeKey never throws, whatever the entry holds (prototype-less values, ids String() cannot write, deep nesting); within the budget per KB', () => {
		const budget = new Budget();
		// A note and its size in JSON characters (a level of nesting writes at most 12).
		const note = fc.oneof(
			anyText.map((text) => ({ value: text, size: text.length + 1024 })),
			fc.integer({ min: 1, max: 100_000 }).map((depth) => ({ value: nested(depth), size: depth * 12 + 1024 })),
		);
		const entry = fc.record({ order_item_id: fc.oneof(id, anyValue), updated_at: anyValue, note });
		fc.assert(
			fc.property(entry, ({ note: { value: noteValue, size }, ...rest }) => {
				const { result, error } = budget.check(size, () => changeKey({ ...rest, note: noteValue } as IDataObject));
				expect(error).toBeUndefined();
				expect(result).toMatch(/:[0-9a-f]{16}$/);
			}),
			{ numRuns: propertyRuns(300) },
		);
		budget.expectKept();
	});

	test('remember keeps every state by its own updated_at, names every object inherits included, forgets only those before the window, and keeps an unreadable one by when it was seen', () => {
		const updatedAt = fc.oneof(fc.constantFrom(...INHERITED, '2026-05-01 10:00:00', '2026-05-01 09:00:00', '?1777000000'), fc.string());
		const now = Date.UTC(2026, 4, 1, 12);
		fc.assert(
			fc.property(fc.array(fc.tuple(updatedAt, fc.string()), { maxLength: 20 }), fc.array(fc.tuple(updatedAt, fc.string()), { maxLength: 20 }), (before, added) => {
				const first = remember({}, before, '2026-05-01 09:30:00', now);
				const { seen, since } = remember(JSON.parse(JSON.stringify(first.seen)), added, '2026-05-01 09:30:00', now + 1000);
				const expected = new Map<string, string[]>();
				for (const [at, key, seenAt] of [...before.map(([a, k]) => [a, k, now / 1000]), ...added.map(([a, k]) => [a, k, now / 1000 + 1])] as Array<[string, string, number]>) {
					const ms = parseApiDate(at);
					const bucket = ms === undefined ? `?${seenAt}` : ms > (parseApiDate('2026-05-01 09:30:00') as number) ? at : undefined;
					if (bucket !== undefined) expected.set(bucket, [...(expected.get(bucket) ?? []), key]);
				}
				expect(new Map(Object.entries(seen))).toEqual(expected);
				expect([first.since, since]).toEqual(['2026-05-01 09:30:00', '2026-05-01 09:30:00']);
			}),
			{ numRuns: propertyRuns(500) },
		);
	});
});
