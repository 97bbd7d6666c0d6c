import type { IDataObject } from 'n8n-workflow';

// Delivery ids seen recently, kept in the trigger node's workflow static data. n8n loads a live
// webhook's static data from its database on every request and saves it after answering, so the
// record is shared by every main and webhook process of one installation and survives restarts.
// Bounded in time and in count: every request reads and writes the whole record.
const WINDOW_SECONDS = 24 * 60 * 60;
export const MAX_DELIVERY_IDS = 10_000;

/** `[deliveryId, receivedAtUnixSeconds]`, oldest first: an array keeps its order in any JSON store. */
type Seen = Array<[string, number]>;

/**
 * Records `deliveryId` in every record (the node's static data, this process's memory); true when
 * any of them saw it within the window, in which case nothing changes (so n8n has nothing to save).
 * A new id is written with everything each record knows: a process whose save of the stored record
 * was overwritten by another process's (n8n writes the whole column, last writer wins) puts the
 * lost ids back with its next one.
 */
export function seenBefore(records: IDataObject[], deliveryId: string, nowMs: number): boolean {
	const now = Math.floor(nowMs / 1000);
	const known = records.map((state) =>
		((Array.isArray(state.deliveries) ? state.deliveries : []) as Seen).filter(([, at]) => now - at < WINDOW_SECONDS),
	);
	if (known.some((seen) => seen.some(([id]) => id === deliveryId))) return true;
	// Usually the records agree: only ids missing from the first are added, and only then re-sorted.
	const [first, ...others] = known;
	const ids = new Set(first.map(([id]) => id));
	const missing = others.flat().filter(([id]) => !ids.has(id) && ids.add(id));
	const merged = [...(missing.length ? [...first, ...missing].sort((a, b) => a[1] - b[1]) : first), [deliveryId, now] as [string, number]].slice(
		-MAX_DELIVERY_IDS,
	);
	// A new array each, assigned: n8n notices a change of a top-level key of the node's static data.
	for (const state of records) state.deliveries = [...merged];
	return false;
}
