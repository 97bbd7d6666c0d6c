import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

// Deliveries seen recently, kept in the trigger node's workflow static data. n8n loads a live
// webhook's static data from its database on every request and saves it after answering, so the
// record is shared by every main and webhook process of one installation and survives restarts.
// Two logs, because the spec signs only `TIMESTAMP.RAW_BODY`: the delivery id is an unsigned header.
// - `deliveries`, by delivery id, for 24 hours: the marketplace's own retries (re-signed or not).
// - `signed`, by the signed bytes: a captured delivery re-sent under a fresh id is the same signed
//   bytes. Kept only while such a copy could still pass the timestamp check (twice the tolerance
//   after it was accepted), so this log stays small and the record's size per id is unchanged.
// Both are bounded in time and in count: every request reads and writes the whole record.
const WINDOW_SECONDS = 24 * 60 * 60;
export const MAX_DELIVERY_IDS = 10_000;

// Each log is one string of fixed-width entries, oldest first: per key, the first 9 bytes of its
// SHA-256 in base64url and the Unix seconds it was first seen in 8 hex digits. One string, not a
// list of pairs: n8n wraps every object of a workflow's static data in a Proxy of its own each
// time it loads it (n8n-workflow's ObservableObject: 10,000 of them per request with a full list),
// and pairs taken from such a list into this process's record kept every request's whole static
// data alive (issue #27: 8.7 GB after 1,000 deliveries). A string holds no object to wrap or to
// keep, every entry costs the same 20 bytes (a full record 200 KB; the list of pairs was 440 KB),
// and with 72 bits of hash a new key falsely matches one of 10,000 with a chance of about 2 in 10^18.
const DIGEST_CHARS = 12;
export const ENTRY_CHARS = DIGEST_CHARS + 8;
const RECORD = /^(?:[\w-]{12}[0-9a-f]{8})*$/;

/** The entry of a key (its parts hashed in order) first seen at Unix second `seconds`. */
function entryOf(parts: Array<string | Buffer>, seconds: number): string {
	const hash = createHash('sha256');
	for (const part of parts) hash.update(part);
	return hash.digest().subarray(0, 9).toString('base64url') + seconds.toString(16).padStart(8, '0');
}

/** The entry of `deliveryId` first seen at Unix second `seconds`. */
export const deliveryEntry = (deliveryId: string, seconds: number): string => entryOf([deliveryId], seconds);

/** The entry of the signed bytes (`TIMESTAMP.RAW_BODY`, as verified) accepted at Unix second `seconds`. */
export const signedEntry = (timestamp: string, rawBody: Buffer, seconds: number): string => entryOf([`${timestamp}.`, rawBody], seconds);

const digestOf = (entry: string) => entry.slice(0, DIGEST_CHARS);
const secondsAt = (record: string, at: number) => parseInt(record.slice(at + DIGEST_CHARS, at + ENTRY_CHARS), 16);
const entriesIn = (record: string) => Array.from({ length: record.length / ENTRY_CHARS }, (_, i) => record.slice(i * ENTRY_CHARS, (i + 1) * ENTRY_CHARS));

/**
 * The record as stored: its string, or a list of `[id, seconds]` pairs, what versions before the
 * string stored (read so that an update forgets nothing); anything else is an empty record.
 */
export function recordOf(stored: unknown): string {
	if (typeof stored === 'string') return RECORD.test(stored) ? stored : '';
	if (!Array.isArray(stored)) return '';
	return stored
		.filter((pair): pair is [string, number] => Array.isArray(pair) && typeof pair[0] === 'string' && Number.isInteger(pair[1]) && pair[1] >= 0)
		.map(([id, seconds]) => deliveryEntry(id, seconds))
		.join('');
}

/** The entries still inside the window at `now`: entries are oldest first, so the expired ones lead. */
function unexpired(record: string, now: number, windowSeconds: number): string {
	let at = 0;
	while (at < record.length && now - secondsAt(record, at) >= windowSeconds) at += ENTRY_CHARS;
	return record.slice(at);
}

/** Whether `record` holds an entry of `digest`: a match counts only where an entry starts. */
function holds(record: string, digest: string): boolean {
	for (let at = record.indexOf(digest); at >= 0; at = record.indexOf(digest, at + 1)) if (at % ENTRY_CHARS === 0) return true;
	return false;
}

/** What a verified delivery is known by: its id header, and the signed bytes. */
export interface Delivery {
	id: string;
	timestamp: string;
	rawBody: Buffer;
}

/** The record of one log as each record holds it, without expired entries. */
function known(records: IDataObject[], log: 'deliveries' | 'signed', now: number, windowSeconds: number): string[] {
	return records.map((state) => unexpired(recordOf(state[log]), now, windowSeconds));
}

/**
 * `entry` added to one log of every record, with everything each record knows: a process whose
 * save of the stored record was overwritten by another process's (n8n writes the whole column,
 * last writer wins) puts the lost entries back with its next one.
 */
function add(writeTo: IDataObject[], log: 'deliveries' | 'signed', [first, ...others]: string[], entry: string): void {
	// Usually the records agree: only entries missing from the first are added, and only then re-sorted.
	const differing = others.filter((record) => record !== first);
	const digests = new Set(differing.length ? entriesIn(first).map(digestOf) : []);
	const missing = differing.flatMap(entriesIn).filter((e) => !digests.has(digestOf(e)) && digests.add(digestOf(e)));
	const merged = missing.length ? [...entriesIn(first), ...missing].sort((a, b) => secondsAt(a, 0) - secondsAt(b, 0)).join('') : first;
	// One new string, assigned: n8n notices a change of a top-level key of the node's static data.
	const record = (merged + entry).slice(-MAX_DELIVERY_IDS * ENTRY_CHARS);
	for (const state of writeTo) state[log] = record;
}

/**
 * Whether any record (the node's static data, this process's memory) saw the delivery's id within
 * a day or its signed bytes within twice the timestamp tolerance; if none did, it is written to
 * `writeTo` (by default every record) with what each record knows. A repeat changes nothing: a
 * flood of replays neither runs nor pushes genuine ids out of the record, and n8n has nothing to save.
 */
export function seenBefore(records: IDataObject[], delivery: Delivery, nowMs: number, toleranceSeconds: number, writeTo = records): boolean {
	const now = Math.floor(nowMs / 1000);
	const byId = deliveryEntry(delivery.id, now);
	const bySigned = signedEntry(delivery.timestamp, delivery.rawBody, now);
	const ids = known(records, 'deliveries', now, WINDOW_SECONDS);
	// A copy accepted at `t` was signed within the tolerance of `t`, and passes the check only while
	// its timestamp is within the tolerance of now: up to twice the tolerance after `t`.
	const signed = known(records, 'signed', now, 2 * toleranceSeconds);
	if (ids.some((record) => holds(record, digestOf(byId))) || signed.some((record) => holds(record, digestOf(bySigned)))) return true;
	add(writeTo, 'deliveries', ids, byId);
	add(writeTo, 'signed', signed, bySigned);
	return false;
}

/** The keys a delivery is known by in the logs: its id's digest and its signed bytes' digest. */
export function keysOf(delivery: Delivery): string[] {
	return [digestOf(deliveryEntry(delivery.id, 0)), digestOf(signedEntry(delivery.timestamp, delivery.rawBody, 0))];
}

const IN_FLIGHT_MS = 60_000;

/**
 * Deliveries this process has accepted and n8n has not queued yet. A copy that arrives meanwhile is
 * neither run a second time nor dropped for a run that may still fail to start: it is told to come
 * back later. A claim lapses after a minute (a run n8n never queued leaves it behind).
 */
export class InFlight {
	private readonly until = new Map<string, number>(); // key -> when its claim lapses (ms), oldest first

	/** Claims every key; false, claiming nothing, when one of them is claimed already. */
	claim(keys: string[], nowMs: number): boolean {
		for (const [key, until] of this.until) {
			if (until > nowMs) break;
			this.until.delete(key);
		}
		if (keys.some((key) => this.until.has(key))) return false;
		for (const key of keys) this.until.set(key, nowMs + IN_FLIGHT_MS);
		return true;
	}

	release(keys: string[]): void {
		for (const key of keys) this.until.delete(key);
	}
}
