// The Orders Trigger's memory: which states of order items it has already seen, and where its next
// window starts. Kept in the poll node's static data, which n8n saves only when a poll emits items,
// so every state written here must also be safe to lose back to the last emitted one.
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { formatApiDateTime } from './values';
import { stableJson, textOf } from './networkText';

export interface PollState {
	version: 1;
	/** The next poll asks for `updated_after` = this (an API datetime, in the API's own zone). */
	since: string;
	/** Keys of the states seen, by their `updated_at`; only those the next window can return. */
	seen: Record<string, string[]>;
}

const API_DATE = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;
/** Longer than any datetime's text: not read as one (and never a key of the saved state). */
const MAX_DATE_CHARS = 64;
const HOUR_MS = 3_600_000;
/** An order item id longer than this is kept in the saved state as its hash. */
const MAX_ID_CHARS = 40;

/**
 * The most change keys the saved state holds. A window holds the changes of about a minute (the
 * overlap and the poll); the first one up to a day, a Start From catch-up any number: past this,
 * the oldest are forgotten and the window start moves past them (see remember). With ids of at
 * most MAX_ID_CHARS and dates of at most MAX_DATE_CHARS, the state stays under 1.5 MB.
 */
export const MAX_SEEN_KEYS = 10_000;
/** How long a change whose updated_at cannot be read is remembered: no window can tell when it ends. */
export const UNREADABLE_KEEP_MS = 24 * HOUR_MS;
/** The saved state's bucket of changes with an unreadable updated_at: this prefix and the Unix second they were first seen. */
const UNREADABLE = '?';

/**
 * An API datetime (`YYYY-MM-DD HH:MM:SS`; ISO accepted too) as milliseconds of its wall clock read
 * as if it were UTC, or undefined: for comparing the API's datetimes with each other, whatever zone
 * the API writes them in.
 */
export function parseApiDate(text: unknown): number | undefined {
	if (typeof text !== 'string' || text.length > MAX_DATE_CHARS) return undefined;
	const m = API_DATE.exec(text);
	const ms = m ? Date.parse(`${m[1]}T${m[2]}Z`) : Date.parse(text);
	return Number.isNaN(ms) ? undefined : ms;
}

/** The moment `ms` as the wall clock of `timeZone` shows it, read as parseApiDate reads the API's datetimes. */
export function wallClockMs(ms: number, timeZone: string): number {
	return parseApiDate(formatApiDateTime(ms, timeZone)) as number;
}

/** How far `timeZone`'s wall clock is ahead of UTC at `ms`, to the second. */
function offsetAt(ms: number, timeZone: string): number {
	return wallClockMs(ms, timeZone) - Math.floor(ms / 1000) * 1000;
}

/**
 * An API datetime as ISO 8601 with the offset of the API's `timeZone` at that moment
 * (`2026-12-02 05:00:00` in Europe/Istanbul: `2026-12-02T05:00:00+03:00`), which n8n's date tools
 * read as a moment. Null for text that is no datetime; one with a zone of its own is that moment.
 */
export function toIsoDateTime(value: unknown, timeZone: string): string | null {
	const read = parseApiDate(value);
	if (read === undefined) return null;
	let wall = read;
	let offset: number;
	if (API_DATE.test(value as string)) {
		// The offset at the moment this wall clock shows: found from a guess, then from the moment it gives.
		const guess = wall - offsetAt(wall, timeZone);
		offset = offsetAt(guess, timeZone);
	} else {
		// The offset to the second: a fraction of the moment's second is no part of it (UTC as -00:00).
		offset = offsetAt(read, timeZone);
		wall = read + offset;
	}
	const minutes = Math.round(Math.abs(offset) / 60_000);
	const zone = `${offset < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
	// Outside the four-digit years (+010000-…, or past the last moment a Date holds): no datetime to give.
	const written = Number.isNaN(new Date(wall).getTime()) ? '' : new Date(wall).toISOString();
	return /^\d{4}-/.test(written) ? `${written.slice(0, 19)}${zone}` : null;
}

/** The datetimes of an order item also as ISO 8601 (`created_at_iso` after `created_at`, `updated_at_iso` after `updated_at`). */
export function withIsoDates(order: IDataObject, timeZone: string): IDataObject {
	// Built by Object.fromEntries, which defines every key as the item's own: an API field named
	// "__proto__" (JSON.parse keeps it) stays a field instead of becoming the item's prototype.
	return Object.fromEntries(
		Object.entries(order).flatMap(([key, value]) =>
			(key === 'created_at' || key === 'updated_at') && !Object.hasOwn(order, `${key}_iso`) ? [[key, value], [`${key}_iso`, toIsoDateTime(value, timeZone)]] : [[key, value]],
		),
	) as IDataObject;
}

/**
 * One state of one order item: `order_item_id` and a hash of everything the list says about it
 * (`updated_at` included). The API gives `updated_at` to the second, so two changes of an item in
 * one second share it; their content tells them apart.
 */
export function changeKey(entry: IDataObject): string {
	const hash = createHash('sha256').update(stableJson(entry)).digest('hex').slice(0, 16);
	return `${orderItemKey(entry)}:${hash}`;
}

/** The order item an entry is of, as the saved state names it: its id, or the hash of an id too long to keep. */
export function orderItemKey(entry: IDataObject): string {
	const id = textOf(entry.order_item_id);
	return id.length > MAX_ID_CHARS ? `#${createHash('sha256').update(id).digest('hex').slice(0, 24)}` : id;
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
			// The hash after the last colon has none; an id may.
			orderItemIds.add(key.slice(0, key.lastIndexOf(':')));
		}
	}
	return { keys, orderItemIds };
}

/** UTC-12, the zone furthest behind: no wall clock on earth shows an earlier time. */
const EARLIEST_ZONE_MS = 12 * HOUR_MS;

/**
 * Where the first window starts when the trigger begins "now": at the earliest time any wall clock
 * shows now, less the margins. Whatever zone the API writes in (the credential's setting may be
 * wrong), this is not after its "now", so the first window misses nothing; it costs reading up to a
 * day of changes once (they become the starting point, not emitted).
 */
export function firstSince(pollStartedMs: number, { overlapSeconds, skewSeconds }: Margins): string {
	return formatApiDateTime(Math.floor(pollStartedMs / 1000) * 1000 - EARLIEST_ZONE_MS - (skewSeconds + overlapSeconds + 1) * 1000);
}

interface Margins {
	overlapSeconds: number;
	skewSeconds: number;
}

/**
 * Where the next window starts, anchored on the API's own datetimes, in whole seconds before which
 * nothing can still appear:
 * - not after the newest `updated_at` seen less the poll's duration: a change made while we paged,
 *   even onto a page already read, is stamped after the API's clock showed that (the newest stamp
 *   is at most the API's "now" when the poll ended, and durations are the same on every clock);
 * - not after n8n's clock at the poll's start written in the API's zone (`apiNow`), less the clock
 *   skew allowance: a bound against a stamp in the future; a wrong zone setting only moves it later
 *   (nothing lost) or earlier (more re-reading);
 * - less the overlap, for changes that become visible after later ones (stamped, then committed);
 * - one second less again, since `updated_after` is strict and datetimes are whole seconds;
 * - not after `holdBelow` (repeatedHourHold: while the API's wall clock repeats an hour);
 * - never before the current start (the window only moves forward), and not at all when the window
 *   held nothing: without a datetime of the API's there is nothing to anchor on.
 */
export function nextSince(
	current: string,
	{ newestSeen, pollMs, apiNow, holdBelow = Infinity }: { newestSeen: number | undefined; pollMs: number; apiNow: number; holdBelow?: number },
	{ overlapSeconds, skewSeconds }: Margins,
): string {
	if (newestSeen === undefined) return current;
	const anchor = Math.min(newestSeen - Math.ceil(pollMs / 1000) * 1000, Math.floor(apiNow / 1000) * 1000 - skewSeconds * 1000);
	const candidate = Math.min(anchor - overlapSeconds * 1000 - 1000, holdBelow);
	const currentMs = parseApiDate(current) ?? -Infinity;
	return candidate > currentMs ? formatApiDateTime(candidate) : current;
}

/**
 * When the API's wall clock goes back (the end of daylight saving time), it shows an hour twice, and
 * an API that writes local time stamps the changes of the second pass below those of the first. From
 * three hours before such a change until the second pass has ended (n8n's clock at `nowMs`), the
 * window must not start in the repeated hour: returns the wall-clock datetime (as parseApiDate reads
 * it) one second before that hour, or undefined when `timeZone` repeats no hour around `nowMs`.
 */
export function repeatedHourHold(nowMs: number, timeZone: string): number | undefined {
	const before = offsetAt(nowMs - 3 * HOUR_MS, timeZone);
	const after = offsetAt(nowMs + 3 * HOUR_MS, timeZone);
	if (after >= before) return undefined;
	// The moment of the change, to the second: the offset is `before` up to it and `after` from it.
	let low = nowMs - 3 * HOUR_MS;
	let high = nowMs + 3 * HOUR_MS;
	while (high - low > 1000) {
		const middle = low + Math.floor((high - low) / 2);
		if (offsetAt(middle, timeZone) === before) low = middle;
		else high = middle;
	}
	const changeMs = Math.floor(high / 1000) * 1000;
	if (nowMs > changeMs + (before - after)) return undefined; // the second pass is over
	return changeMs + after - 1000;
}

/**
 * Adds the keys seen by this poll at `nowMs` and forgets those the window starting at `since` cannot
 * return: the window is held to its start (an entry updated at or before it is never emitted, even
 * from an API that ignores updated_after), so a key is needed only while its updated_at is after it.
 * Keys of an updated_at that cannot be read are kept for UNREADABLE_KEEP_MS from when they were first
 * seen. Past MAX_SEEN_KEYS the oldest go, and `since` moves to the newest updated_at forgotten, so
 * that what was forgotten can still not come out again. Returns the keys kept and that start.
 */
export function remember(seen: PollState['seen'], added: Array<[updatedAt: string, key: string]>, since: string, nowMs: number): Pick<PollState, 'seen' | 'since'> {
	// Keyed by the API's updated_at, whatever it holds: without a prototype, "constructor" or
	// "__proto__" is a key like any other.
	const next: PollState['seen'] = Object.create(null);
	const sinceMs = parseApiDate(since) ?? -Infinity;
	const nowBucket = `${UNREADABLE}${Math.floor(nowMs / 1000)}`;
	/**
	 * The bucket a key goes in, or undefined when the window no longer needs it: its updated_at's,
	 * or for one that cannot be read, the bucket of when it was first seen (`stored`: the bucket it
	 * was kept in).
	 */
	const bucketOf = (updatedAt: string, stored: boolean): string | undefined => {
		const ms = parseApiDate(updatedAt);
		if (ms !== undefined) return ms > sinceMs ? updatedAt : undefined;
		const firstSeen = stored ? /^\?(\d{1,12})$/.exec(updatedAt) : null;
		// New, or a bucket of an earlier version named by the unreadable updated_at itself: kept from now on.
		if (!firstSeen) return nowBucket;
		return nowMs - Number(firstSeen[1]) * 1000 < UNREADABLE_KEEP_MS ? updatedAt : undefined;
	};
	const file = (bucket: string | undefined, keys: string[]) => {
		if (bucket !== undefined) for (const key of keys) (next[bucket] ??= []).push(key);
	};
	for (const [updatedAt, keys] of Object.entries(seen)) file(bucketOf(updatedAt, true), keys);
	for (const [updatedAt, key] of added) file(bucketOf(updatedAt, false), [key]);

	let count = Object.values(next).reduce((sum, keys) => sum + keys.length, 0);
	let start = since;
	if (count > MAX_SEEN_KEYS) {
		// Oldest first: the dated buckets by their datetime, then the unreadable ones by when they were seen.
		const order = (bucket: string) => parseApiDate(bucket) ?? Number.MAX_SAFE_INTEGER + Number(bucket.slice(1));
		for (const bucket of Object.keys(next).sort((a, b) => order(a) - order(b))) {
			if (count <= MAX_SEEN_KEYS) break;
			count -= next[bucket].length;
			delete next[bucket];
			const dated = parseApiDate(bucket);
			if (dated !== undefined) start = formatApiDateTime(dated);
		}
	}
	return { seen: next, since: start };
}
