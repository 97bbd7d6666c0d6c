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
 * Records `deliveryId` in `state` (the node's static data); true when it was already recorded
 * within the window, in which case nothing changes (so n8n has nothing to save).
 */
export function seenBefore(state: IDataObject, deliveryId: string, nowMs: number): boolean {
	const now = Math.floor(nowMs / 1000);
	const seen = (Array.isArray(state.deliveries) ? state.deliveries : []) as Seen;
	if (seen.some(([id, at]) => id === deliveryId && now - at < WINDOW_SECONDS)) return true;
	let first = 0;
	while (first < seen.length && (now - seen[first][1] >= WINDOW_SECONDS || seen.length - first >= MAX_DELIVERY_IDS)) first++;
	// A new array, assigned: n8n notices a change of a top-level key of the node's static data.
	state.deliveries = [...seen.slice(first), [deliveryId, now]];
	return false;
}
