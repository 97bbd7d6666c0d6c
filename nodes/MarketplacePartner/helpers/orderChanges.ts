// The Orders Trigger's memory: which states of order items it has already seen, and where its next
// window starts. Kept in the poll node's static data, which n8n saves only when a poll emits items,
// so every state written here must also be safe to lose back to the last emitted one.
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

export interface PollState {
	version: 1;
	/** The next poll asks for `updated_after` = this (API datetime, UTC). */
	since: string;
	/** Keys of the states seen, by their `updated_at`; only those the next window can return. */
	seen: Record<string, string[]>;
}

const API_DATE = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/** Milliseconds of an API datetime (`YYYY-MM-DD HH:MM:SS`, UTC; ISO accepted too), or undefined. */
export function parseApiDate(text: unknown): number | undefined {
	if (typeof text !== 'string') return undefined;
	const m = API_DATE.exec(text);
	const ms = m ? Date.parse(`${m[1]}T${m[2]}Z`) : Date.parse(text);
	return Number.isNaN(ms) ? undefined : ms;
}

export function formatApiDate(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** JSON with object keys sorted, so the same state always gives the same text. */
function stableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.keys(value as IDataObject)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${stableJson((value as IDataObject)[k])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * One state of one order item: `order_item_id` and a hash of everything the list says about it
 * (`updated_at` included). The API gives `updated_at` to the second, so two changes of an item in
 * one second share it; their content tells them apart.
 */
export function changeKey(entry: IDataObject): string {
	const hash = createHash('sha256').update(stableJson(entry)).digest('hex').slice(0, 16);
	return `${entry.order_item_id}:${hash}`;
}

export function readState(data: IDataObject): PollState | undefined {
	const { version, since, seen } = data as Partial<PollState>;
	if (version !== 1 || typeof since !== 'string' || !seen || typeof seen !== 'object') return undefined;
	return { version, since, seen };
}

/** The seen keys, plus the order items they belong to (for telling new items from updated ones). */
export function seenSets(state: PollState | undefined): { keys: Set<string>; orderItemIds: Set<string> } {
	const keys = new Set<string>();
	const orderItemIds = new Set<string>();
	for (const list of Object.values(state?.seen ?? {})) {
		for (const key of list) {
			keys.add(key);
			orderItemIds.add(key.slice(0, key.indexOf(':')));
		}
	}
	return { keys, orderItemIds };
}

/**
 * Where the next window starts, in whole seconds before which nothing can still appear:
 * - not after when this poll started, on n8n's clock, less the clock skew allowance: a change made
 *   while we paged, even onto a page already read, is stamped at or after that moment on the API's
 *   clock (if the clocks differ by at most the allowance);
 * - not after the newest `updated_at` seen (the API's own clock, whatever n8n's says);
 * - less the overlap, for changes that become visible after later ones (stamped, then committed);
 * - one second less again, since `updated_after` is strict and datetimes are whole seconds;
 * - never before the current start (the window only moves forward).
 */
export function nextSince(
	current: string,
	pollStartedMs: number,
	newestSeen: number | undefined,
	{ overlapSeconds, skewSeconds }: { overlapSeconds: number; skewSeconds: number },
): string {
	let anchor = Math.floor(pollStartedMs / 1000) * 1000 - skewSeconds * 1000;
	if (newestSeen !== undefined) anchor = Math.min(anchor, newestSeen);
	const candidate = anchor - overlapSeconds * 1000 - 1000;
	const currentMs = parseApiDate(current) ?? -Infinity;
	return candidate > currentMs ? formatApiDate(candidate) : current;
}

/** Adds the keys seen by this poll and forgets those the window starting at `since` cannot return. */
export function remember(seen: PollState['seen'], added: Array<[updatedAt: string, key: string]>, since: string) {
	const next: PollState['seen'] = {};
	const sinceMs = parseApiDate(since) ?? -Infinity;
	const keep = (updatedAt: string) => (parseApiDate(updatedAt) ?? Infinity) > sinceMs;
	for (const [updatedAt, keys] of Object.entries(seen)) if (keep(updatedAt)) next[updatedAt] = [...keys];
	for (const [updatedAt, key] of added) if (keep(updatedAt)) (next[updatedAt] ??= []).push(key);
	return next;
}
