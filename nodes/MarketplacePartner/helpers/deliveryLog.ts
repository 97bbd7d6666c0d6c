import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

// Deliveries seen recently, kept in the trigger node's workflow static data. n8n loads a live
// webhook's static data from its database on every request and saves it after answering, so the
// record is shared by every main and webhook process of one installation and survives restarts.
// Two logs, because the spec signs only `TIMESTAMP.RAW_BODY`: the delivery id is an unsigned header.
// - `deliveries`, by delivery id, for 24 hours: the marketplace's own retries (re-signed or not).
// - `signed`, by the signed bytes: a captured delivery re-sent under a fresh id is the same signed
//   bytes. Kept only while such a copy could still pass the timestamp check (twice the tolerance
//   after it was accepted), so this log stays small when deliveries are few.
// Both are bounded in time and in count: every request reads and writes the whole record.
const WINDOW_SECONDS = 24 * 60 * 60;
export const MAX_DELIVERY_IDS = 10_000;

// Each log is one string, oldest first: groups of the keys first seen in one minute, each group a
// period and the Unix minute in 7 hex digits, then per key the first 6 bytes of its SHA-256 in
// base64url (8 characters, never a period). One string, not a list: n8n wraps every object of a
// workflow's static data in a Proxy of its own each time it loads it (n8n-workflow's
// ObservableObject), and objects taken from such a list into this process's record kept every
// request's whole static data alive (issue #27: 8.7 GB after 1,000 deliveries). Every request
// reads and writes the whole column, and a webhook process's memory grows with its size, so a key
// takes 8 bytes and a minute one header (a full log 80 KB, where 9-byte hashes with their own Unix
// seconds took 200 KB). With 48 bits of hash a new key falsely matches one of 10,000 with a chance
// of about 4 in 10^11: a seller taking 10,000 deliveries a day would meet one in about 7,000 years.
// Header and key are equally wide, so every entry starts at a multiple of 8.
export const ENTRY_CHARS = 8;
const RECORD = /^(?:\.[0-9a-f]{7}(?:[\w-]{8})+)*$/;
// The record before 2026-11-26: per key 9 bytes of hash in base64url and its Unix seconds in 8 hex digits.
const RECORD_OF_SECONDS = /^(?:[\w-]{12}[0-9a-f]{8})*$/;

/** The key of these parts hashed in order. */
function digestOf(parts: Array<string | Buffer>): string {
	const hash = createHash('sha256');
	for (const part of parts) hash.update(part);
	return hash.digest().subarray(0, 6).toString('base64url');
}

/** The key of a delivery id. */
export const idDigest = (deliveryId: string): string => digestOf([deliveryId]);

/** The key of the signed bytes, `TIMESTAMP.RAW_BODY` as verified. */
export const signedDigest = (timestamp: string, rawBody: Buffer): string => digestOf([`${timestamp}.`, rawBody]);

const headerOf = (minute: number) => `.${minute.toString(16).padStart(7, '0')}`;
const minuteAt = (record: string, at: number) => parseInt(record.slice(at + 1, at + ENTRY_CHARS), 16);
/** Where the group after the one starting at `at` starts. */
function nextGroup(record: string, at: number): number {
	const next = record.indexOf('.', at + ENTRY_CHARS);
	return next < 0 ? record.length : next;
}

/** The groups of a record, oldest first: each one's minute, and where its keys start and where it ends. */
function* groupsIn(record: string): Generator<[minute: number, keysStart: number, end: number]> {
	for (let at = 0, end = 0; at < record.length; at = end) {
		end = nextGroup(record, at);
		yield [minuteAt(record, at), at + ENTRY_CHARS, end];
	}
}

/** The keys of a record with the Unix second their group starts at, oldest first. */
export function entriesIn(record: string): Array<[string, number]> {
	const entries: Array<[string, number]> = [];
	for (const [minute, keysStart, end] of groupsIn(record)) {
		for (let e = keysStart; e < end; e += ENTRY_CHARS) entries.push([record.slice(e, e + ENTRY_CHARS), minute * 60]);
	}
	return entries;
}

/** The record of these keys, each first seen at a Unix second: each key once, at its earliest, oldest first. */
export function logOf(entries: Array<[string, number]>): string {
	const keys = new Set<string>();
	let record = '';
	let minute = -1;
	for (const [key, seconds] of [...entries].sort((a, b) => a[1] - b[1])) {
		if (keys.has(key)) continue;
		keys.add(key);
		if (Math.floor(seconds / 60) !== minute) record += headerOf((minute = Math.floor(seconds / 60)));
		record += key;
	}
	return record;
}

/**
 * The record as stored: its string; the two formats of earlier versions (per key its Unix seconds;
 * a list of `[id, seconds]` pairs) converted, so that an update forgets nothing; anything else is an
 * empty record.
 */
export function recordOf(stored: unknown): string {
	if (typeof stored === 'string') {
		if (RECORD.test(stored)) return stored;
		if (!RECORD_OF_SECONDS.test(stored)) return '';
		// The same hash: its first 8 characters are the first 6 bytes.
		const entries = Array.from({ length: stored.length / 20 }, (_, i): [string, number] => [stored.slice(i * 20, i * 20 + 8), parseInt(stored.slice(i * 20 + 12, i * 20 + 20), 16)]);
		return logOf(entries);
	}
	if (!Array.isArray(stored)) return '';
	return logOf(
		stored
			.filter((pair): pair is [string, number] => Array.isArray(pair) && typeof pair[0] === 'string' && Number.isInteger(pair[1]) && pair[1] >= 0)
			.map(([id, seconds]) => [idDigest(id), seconds]),
	);
}

/**
 * The groups still inside the window at `now`: groups are oldest first, so the expired ones lead.
 * A group's keys were first seen up to 59 s after its minute began: it leaves once its last second has.
 */
function unexpired(record: string, now: number, windowSeconds: number): string {
	let at = 0;
	while (at < record.length && now - (minuteAt(record, at) * 60 + 59) >= windowSeconds) at = nextGroup(record, at);
	return record.slice(at);
}

/** Whether `record` holds `key`: a match counts only where an entry starts (a header holds a period, a key never). */
function holds(record: string, key: string): boolean {
	for (let at = record.indexOf(key); at >= 0; at = record.indexOf(key, at + 1)) if (at % ENTRY_CHARS === 0) return true;
	return false;
}

/** `record` with `key` first seen at Unix second `now`, and no more than MAX_DELIVERY_IDS keys: the oldest go first. */
function appended(record: string, key: string, now: number): string {
	const last = record.lastIndexOf('.');
	const minute = Math.floor(now / 60);
	// A clock behind the newest group's (another process's) files the key in that group: kept a little longer.
	let result = last >= 0 && minuteAt(record, last) >= minute ? record + key : record + headerOf(minute) + key;
	let groups = 0;
	for (let at = 0; at < result.length; at = nextGroup(result, at)) groups++;
	let excess = result.length / ENTRY_CHARS - groups - MAX_DELIVERY_IDS;
	while (excess > 0) {
		const end = nextGroup(result, 0);
		const keys = end / ENTRY_CHARS - 1;
		result = keys > excess ? result.slice(0, ENTRY_CHARS) + result.slice(ENTRY_CHARS * (1 + excess)) : result.slice(end);
		excess -= keys;
	}
	return result;
}

/** What a verified delivery is known by: its id header, and the signed bytes. */
export interface Delivery {
	id: string;
	timestamp: string;
	rawBody: Buffer;
}

/** The record of one log as each record holds it, without expired groups. */
function known(records: IDataObject[], log: 'deliveries' | 'signed', now: number, windowSeconds: number): string[] {
	return records.map((state) => unexpired(recordOf(state[log]), now, windowSeconds));
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGIT: number[] = [];
for (let i = 0; i < BASE64URL.length; i++) DIGIT[BASE64URL.charCodeAt(i)] = i;

/** The 48 bits of the key at `at` as a number: keys compared without a string each. */
function keyValueAt(record: string, at: number): number {
	let value = 0;
	for (let i = at; i < at + ENTRY_CHARS; i++) value = value * 64 + DIGIT[record.charCodeAt(i)];
	return value;
}

/** The keys of a record as numbers, in order: looked up by bisection. */
function sortedKeys(record: string): Float64Array {
	const values = new Float64Array(record.length / ENTRY_CHARS);
	let count = 0;
	for (const [, keysStart, end] of groupsIn(record)) for (let e = keysStart; e < end; e += ENTRY_CHARS) values[count++] = keyValueAt(record, e);
	return values.subarray(0, count).sort();
}

/** Whether `sorted` holds `value`. */
function includes(sorted: Float64Array, value: number): boolean {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (sorted[middle] < value) low = middle + 1;
		else high = middle;
	}
	return sorted[low] === value;
}

/**
 * `first` with each key of `others` that it lacks, in the group of that key's minute there (groups
 * stay oldest first; within a group, `first`'s keys come first). Two records of one process differ
 * on almost every request under load (the stored one was loaded before concurrent saves, this
 * process's memory hears of a delivery only once it is answered), so the merge allocates no string
 * or list per key: groups that `first` holds alike are skipped, the others' keys are looked up as
 * numbers, and the result is `first`'s groups and the keys it lacks joined once. (Building every
 * entry as a list cost 11 MB of garbage a request with a full record, which n8n's webhook process
 * carried until its next full collection.)
 */
function merged(first: string, others: string[]): string {
	const groupAt = new Map<number, number>(); // minute -> where that group of `first` starts
	for (const [minute, keysStart] of groupsIn(first)) if (!groupAt.has(minute)) groupAt.set(minute, keysStart - ENTRY_CHARS);
	let firstKeys: Float64Array | undefined;
	const lacking: Array<[minute: number, key: string]> = [];
	const taken = new Set<string>();
	for (const other of others) {
		for (const [minute, keysStart, end] of groupsIn(other)) {
			// The group as it starts `first`'s group of that minute (a key holds no period): its keys
			// are there, no look-up needed. Older minutes are alike in both records; this saves most.
			const at = groupAt.get(minute);
			if (at !== undefined && first.startsWith(other.slice(keysStart - ENTRY_CHARS, end), at)) continue;
			firstKeys ??= sortedKeys(first);
			for (let e = keysStart; e < end; e += ENTRY_CHARS) {
				if (includes(firstKeys, keyValueAt(other, e))) continue;
				const key = other.slice(e, e + ENTRY_CHARS); // a string only for a key `first` lacks
				if (taken.has(key)) continue;
				taken.add(key);
				lacking.push([minute, key]);
			}
		}
	}
	if (!lacking.length) return first;
	lacking.sort((a, b) => a[0] - b[0]);
	const pieces: string[] = [];
	let next = 0;
	/** The lacking keys of `minute`, after the pieces so far. */
	const lackingOf = (minute: number) => {
		while (next < lacking.length && lacking[next][0] === minute) pieces.push(lacking[next++][1]);
	};
	/** The lacking keys of minutes before `minute`, in groups of their own. */
	const groupsBefore = (minute: number) => {
		while (next < lacking.length && lacking[next][0] < minute) {
			const own = lacking[next][0];
			pieces.push(headerOf(own));
			lackingOf(own);
		}
	};
	for (const [minute, keysStart, end] of groupsIn(first)) {
		groupsBefore(minute);
		pieces.push(first.slice(keysStart - ENTRY_CHARS, end));
		lackingOf(minute);
	}
	groupsBefore(Infinity);
	return pieces.join('');
}

/**
 * `key` added to one log of every record, with everything each record knows: a process whose
 * save of the stored record was overwritten by another process's (n8n writes the whole column,
 * last writer wins) puts the lost keys back with its next one.
 */
function add(writeTo: IDataObject[], log: 'deliveries' | 'signed', [first, ...others]: string[], key: string, now: number): void {
	// Records that agree (deliveries one at a time) need no merge.
	const differing = others.filter((record) => record !== first);
	// One new string, assigned: n8n notices a change of a top-level key of the node's static data.
	const record = appended(differing.length ? merged(first, differing) : first, key, now);
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
	const [byId, bySigned] = keysOf(delivery);
	const ids = known(records, 'deliveries', now, WINDOW_SECONDS);
	// A copy accepted at `t` was signed within the tolerance of `t`, and passes the check only while
	// its timestamp is within the tolerance of now: up to twice the tolerance after `t`.
	const signed = known(records, 'signed', now, 2 * toleranceSeconds);
	if (ids.some((record) => holds(record, byId)) || signed.some((record) => holds(record, bySigned))) return true;
	add(writeTo, 'deliveries', ids, byId, now);
	add(writeTo, 'signed', signed, bySigned, now);
	return false;
}

/** The keys a delivery is known by in the logs: its id's and its signed bytes'. */
export function keysOf(delivery: Delivery): string[] {
	return [idDigest(delivery.id), signedDigest(delivery.timestamp, delivery.rawBody)];
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
