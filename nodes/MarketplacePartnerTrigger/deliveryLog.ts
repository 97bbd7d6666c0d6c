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
// Both are bounded in time and in count: every request reads and writes the whole record. They
// differ in what a full log does. The signed log is the replay guard, so it never forgets a copy
// that could still pass the timestamp check: full, it refuses (`RecordFull`) until its oldest key
// leaves. The id log only catches the marketplace's retries, which a refusal would turn into lost
// deliveries: full, its oldest ids go (`idsHeldSince` says from when it still holds them).
const WINDOW_SECONDS = 24 * 60 * 60;
export const MAX_DELIVERY_IDS = 10_000;
export const MAX_SIGNED_KEYS = 10_000;

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

/**
 * The delivery's key for the workflow (the trigger's `deliveryKey`): SHA-256 of the signed bytes,
 * `TIMESTAMP.RAW_BODY` as verified, in full, so a Remove Duplicates node can drop a replay under any
 * delivery id. A marketplace retry signed afresh has another key; its delivery id stays.
 */
export function deliveryKeyOf(timestamp: string, rawBody: Buffer): string {
	return createHash('sha256').update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The key of the signed bytes, `TIMESTAMP.RAW_BODY` as verified. */
export const signedDigest = (timestamp: string, rawBody: Buffer): string => digestOf([`${timestamp}.`, rawBody]);

const headerOf = (minute: number) => `.${minute.toString(16).padStart(7, '0')}`;
/** The minute of the group whose header is at `at` (read without a string: every request reads every header). */
function minuteAt(record: string, at: number): number {
	let minute = 0;
	for (let i = at + 1; i < at + ENTRY_CHARS; i++) minute = minute * 16 + HEX.indexOf(record[i]);
	return minute;
}
const HEX = '0123456789abcdef';
/** Where the group after the one starting at `at` starts. A record is walked group by group, allocating nothing. */
function nextGroup(record: string, at: number): number {
	const next = record.indexOf('.', at + ENTRY_CHARS);
	return next < 0 ? record.length : next;
}

/** The keys of a record with the Unix second their group starts at, oldest first. */
export function entriesIn(record: string): Array<[string, number]> {
	const entries: Array<[string, number]> = [];
	for (let at = 0, end = 0; at < record.length; at = end) {
		end = nextGroup(record, at);
		for (let e = at + ENTRY_CHARS; e < end; e += ENTRY_CHARS) entries.push([record.slice(e, e + ENTRY_CHARS), minuteAt(record, at) * 60]);
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

/** Whether a group of `minute` has left a window of `windowSeconds` at `now`: its keys were first seen up to 59 s after the minute began, it leaves once its last second has. */
const expired = (minute: number, now: number, windowSeconds: number) => now - (minute * 60 + 59) >= windowSeconds;

/** The groups still inside the window at `now`: groups are oldest first, so the expired ones lead. */
function unexpired(record: string, now: number, windowSeconds: number): string {
	let at = 0;
	while (at < record.length && expired(minuteAt(record, at), now, windowSeconds)) at = nextGroup(record, at);
	return record.slice(at);
}

/** Whether `record` holds `key`: a match counts only where an entry starts (a header holds a period, a key never). */
function holds(record: string, key: string): boolean {
	for (let at = record.indexOf(key); at >= 0; at = record.indexOf(key, at + 1)) if (at % ENTRY_CHARS === 0) return true;
	return false;
}

/** What a verified delivery is known by: its id header, and the signed bytes. */
export interface Delivery {
	id: string;
	timestamp: string;
	rawBody: Buffer;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGIT: number[] = [];
for (let i = 0; i < BASE64URL.length; i++) DIGIT[BASE64URL.charCodeAt(i)] = i;

const HALF_CHARS = ENTRY_CHARS / 2;

/**
 * The 24 bits of the half key (4 characters) at `at`; NaN where no key starts (a period, the end).
 * Keys are compared and held as two such halves: a small integer is never a number object on V8's
 * heap, where a 48-bit one is whenever the code is not optimised, one allocation per key compared.
 */
function halfAt(record: string, at: number): number {
	let value = 0;
	for (let i = at; i < at + HALF_CHARS; i++) value = value * 64 + DIGIT[record.charCodeAt(i)];
	return value;
}

/** The key of these two halves as its 8 characters. */
function keyOf(high: number, low: number): string {
	let key = '';
	for (let i = 0, value = high * 2 ** 24 + low; i < ENTRY_CHARS; i++, value = Math.floor(value / 64)) key = BASE64URL[value % 64] + key;
	return key;
}

// The keys of a stored record in a hash table (open addressing, each slot a key's two halves, -1 an
// empty slot), one table reused by every request and grown when a record needs it: looking a
// record's keys up allocates nothing. (A sorted Float64Array cost 560 KB a request with a full
// record: V8's TypedArray sort copies the values into arrays of number objects.) Filled and read
// synchronously, so requests never share it.
let table = new Int32Array(2 << 15);

/** The table filled with the keys of `record`, at most half full. A key's low half is hash bits already. */
function keySet(record: string): Int32Array {
	let slots = table.length / 2;
	while (slots < (2 * record.length) / ENTRY_CHARS) slots *= 2;
	if (2 * slots > table.length) table = new Int32Array(2 * slots);
	table.fill(-1);
	const mask = slots - 1;
	for (let at = 0, end = 0; at < record.length; at = end) {
		end = nextGroup(record, at);
		for (let e = at + ENTRY_CHARS; e < end; e += ENTRY_CHARS) {
			const low = halfAt(record, e + HALF_CHARS);
			let slot = low & mask;
			while (table[2 * slot] >= 0) slot = (slot + 1) & mask;
			table[2 * slot] = halfAt(record, e);
			table[2 * slot + 1] = low;
		}
	}
	return table;
}

/** Whether the table `keySet` filled holds the key of these halves. */
function includes(set: Int32Array, high: number, low: number): boolean {
	const mask = set.length / 2 - 1;
	for (let slot = low & mask; set[2 * slot] >= 0; slot = (slot + 1) & mask) if (set[2 * slot] === high && set[2 * slot + 1] === low) return true;
	return false;
}

/** The keys first seen in one minute, key `i` at `halves[2 * i]` and `halves[2 * i + 1]`. */
interface Group {
	minute: number;
	halves: number[];
}
type Log = 'deliveries' | 'signed';

/**
 * The deliveries this process has answered, per trigger: it catches a repeat that reaches this
 * process when the stored record lost the id to another process's save of the whole column, and
 * puts such keys back into the stored record with the next new delivery. Never saved, so kept as
 * numbers in groups by minute, not as a record's string: remembering a delivery copies nothing.
 * (As a string it was rebuilt at every answered delivery, two 80 KB copies per log when full, which
 * n8n's webhook process carried until its next full collection.)
 */
export class ProcessRecord {
	private readonly logs: Record<Log, Group[]> = { deliveries: [], signed: [] };

	/** The groups of `log` still inside the window at `now`, oldest first (so the expired ones lead). */
	groups(log: Log, now: number, windowSeconds: number): Group[] {
		const groups = this.logs[log];
		let first = 0;
		while (first < groups.length && expired(groups[first].minute, now, windowSeconds)) first++;
		return groups.slice(first);
	}

	/** Whether `log` holds `key` within the window at `now`. */
	holds(log: Log, key: string, now: number, windowSeconds: number): boolean {
		const high = halfAt(key, 0);
		const low = halfAt(key, HALF_CHARS);
		for (const { halves } of this.groups(log, now, windowSeconds)) {
			for (let i = 0; i < halves.length; i += 2) if (halves[i] === high && halves[i + 1] === low) return true;
		}
		return false;
	}

	/** Records an answered delivery by its keys (`keysOf`), first seen at `nowMs`, unless this process knew it already. */
	remember([byId, bySigned]: string[], nowMs: number, toleranceSeconds: number): void {
		const now = Math.floor(nowMs / 1000);
		if (this.holds('deliveries', byId, now, WINDOW_SECONDS) || this.holds('signed', bySigned, now, 2 * toleranceSeconds)) return;
		this.add('deliveries', byId, now, WINDOW_SECONDS);
		this.add('signed', bySigned, now, 2 * toleranceSeconds);
	}

	/**
	 * `key` into `log` at Unix second `now`, as the stored record files it: expired groups go, and
	 * the oldest keys beyond the bound (the signed log's twice its stored bound: it takes only
	 * deliveries the stored record had room for, a few more when requests overlap).
	 */
	private add(log: Log, key: string, now: number, windowSeconds: number): void {
		const groups = this.logs[log];
		while (groups.length && expired(groups[0].minute, now, windowSeconds)) groups.shift();
		const minute = Math.floor(now / 60);
		const last = groups[groups.length - 1];
		const halves = [halfAt(key, 0), halfAt(key, HALF_CHARS)];
		// A clock behind the newest group's files the key in that group, as in the stored record.
		if (last && last.minute >= minute) last.halves.push(...halves);
		else groups.push({ minute, halves });
		const bound = log === 'signed' ? 2 * MAX_SIGNED_KEYS : MAX_DELIVERY_IDS;
		for (let keys = groups.reduce((sum, group) => sum + group.halves.length / 2, 0); keys > bound; keys--) {
			groups[0].halves.splice(0, 2);
			if (!groups[0].halves.length) groups.shift();
		}
	}
}

/** Whether the keys of these halves start `record`'s group at `at` (past its keys a period or the end is no key). */
function startsGroup(record: string, at: number, halves: number[]): boolean {
	for (let i = 0; i < halves.length; i += 2) {
		const e = at + ENTRY_CHARS + i * HALF_CHARS;
		if (halfAt(record, e) !== halves[i] || halfAt(record, e + HALF_CHARS) !== halves[i + 1]) return false;
	}
	return true;
}

/**
 * The stored record `first` (expired groups dropped) with each key of this process's `memory` it
 * lacks, in the group of that key's minute there (groups stay oldest first; within a group,
 * `first`'s keys come first), then `key` first seen at Unix second `now`, and no more than
 * MAX_DELIVERY_IDS keys: the oldest go first. The two differ on almost every request under load
 * (the stored one was loaded before concurrent saves, the memory hears of a delivery only once it
 * is answered), so this allocates no string per key it keeps: groups that `first` holds alike are
 * skipped, the others' keys are looked up as numbers, and the result is joined once, the one new
 * string n8n saves. (A list entry per recorded key cost 11 MB of garbage a request with a full
 * record, a cons string appended and then cut two more copies of it.)
 */
function recorded(first: string, memory: Group[], key: string, now: number, max: number, forgets: boolean): string | undefined {
	let keys = 1 + first.length / ENTRY_CHARS; // of the result before the oldest leave: `key`, `first`'s, the lacking ones
	for (let at = 0; at < first.length; at = nextGroup(first, at)) keys--; // a header is no key
	let firstKeys: Int32Array | undefined;
	const lacking: Array<[minute: number, key: string]> = []; // in minute order, as the memory's groups are
	let at = 0; // `first`'s first group of the memory group's minute or later (both are oldest first)
	for (const { minute, halves } of memory) {
		while (at < first.length && minuteAt(first, at) < minute) at = nextGroup(first, at);
		// A group that starts `first`'s group of its minute has its keys there: no look-up needed.
		// Older minutes are alike in both records; this saves most.
		if (at < first.length && minuteAt(first, at) === minute && startsGroup(first, at, halves)) continue;
		firstKeys ??= keySet(first);
		for (let i = 0; i < halves.length; i += 2) if (!includes(firstKeys, halves[i], halves[i + 1])) lacking.push([minute, keyOf(halves[i], halves[i + 1])]);
	}
	keys += lacking.length;
	if (keys > max && !forgets) return undefined;

	// The result in few pieces: `first` is copied in runs, cut only where a key goes in.
	const pieces: string[] = [];
	let skip = Math.max(0, keys - max); // the oldest keys, left out
	let header = ''; // the open group's header when none of its keys is written yet
	let openMinute = -Infinity;
	let copied = 0; // `first` before this is in `pieces` or left out
	let walked = 0; // `first` before this is walked
	/** A key into the open group, unless left out. */
	const write = (text: string) => {
		if (skip > 0) {
			skip--;
			return;
		}
		pieces.push(first.slice(copied, walked), header, text);
		copied = walked;
		header = '';
	};
	const open = (minute: number) => {
		header = headerOf((openMinute = minute));
	};
	let next = 0;
	/** The lacking keys of `minute`, into the open group. */
	const lackingOf = (minute: number) => {
		for (; next < lacking.length && lacking[next][0] === minute; next++) write(lacking[next][1]);
	};
	/** The lacking keys of minutes before `minute`, in groups of their own. */
	const groupsBefore = (minute: number) => {
		while (next < lacking.length && lacking[next][0] < minute) {
			open(lacking[next][0]);
			lackingOf(openMinute);
		}
	};
	for (let at = 0; at < first.length; at = walked) {
		const end = nextGroup(first, at);
		const minute = minuteAt(first, at);
		groupsBefore(minute);
		openMinute = minute;
		const count = (end - at) / ENTRY_CHARS - 1;
		if (skip >= count) {
			// The whole group leaves; its header stays open for keys of its minute that are kept.
			skip -= count;
			header = first.slice(at, at + ENTRY_CHARS);
			copied = end;
		} else {
			header = '';
			if (skip > 0) {
				// Its oldest keys leave: its header, then its other keys with the run.
				pieces.push(first.slice(at, at + ENTRY_CHARS));
				copied = at + ENTRY_CHARS * (1 + skip);
				skip = 0;
			}
		}
		walked = end;
		lackingOf(openMinute);
	}
	groupsBefore(Infinity);
	// A clock behind the newest group's (another process's) files the key in that group: kept a little longer.
	if (openMinute < Math.floor(now / 60)) open(Math.floor(now / 60));
	write(key);
	return pieces.join('');
}

/** A signed log too full to take a delivery without forgetting one that could still pass: come back in `retryAfterSeconds`. */
export interface RecordFull {
	retryAfterSeconds: number;
}

/**
 * Whether the stored record (the node's static data) or this process's memory saw the delivery's
 * id within a day or its signed bytes within twice the timestamp tolerance (`RecordFull` when
 * neither did and the signed log has no room: nothing is written); if neither did, it is
 * written to the stored record with every key of the memory that record lacks (a process whose
 * save was overwritten by another process's, n8n writing the whole column and the last writer
 * winning, puts the lost keys back with its next one). The memory takes it once it is answered
 * (`ProcessRecord.remember`). A repeat changes nothing: a flood of replays neither runs nor pushes
 * genuine ids out of the record, and n8n has nothing to save.
 */
export function seenBefore(stored: IDataObject, memory: ProcessRecord, delivery: Delivery, nowMs: number, toleranceSeconds: number): boolean | RecordFull {
	const now = Math.floor(nowMs / 1000);
	const [byId, bySigned] = keysOf(delivery);
	const ids = unexpired(recordOf(stored.deliveries), now, WINDOW_SECONDS);
	// A copy accepted at `t` was signed within the tolerance of `t`, and passes the check only while
	// its timestamp is within the tolerance of now: up to twice the tolerance after `t`.
	const signedWindow = 2 * toleranceSeconds;
	const signed = unexpired(recordOf(stored.signed), now, signedWindow);
	if (holds(ids, byId) || memory.holds('deliveries', byId, now, WINDOW_SECONDS)) return true;
	if (holds(signed, bySigned) || memory.holds('signed', bySigned, now, signedWindow)) return true;
	const signedMemory = memory.groups('signed', now, signedWindow);
	const signedRecord = recorded(signed, signedMemory, bySigned, now, MAX_SIGNED_KEYS, false);
	if (signedRecord === undefined) {
		// Room comes when the oldest key of either record leaves the window.
		const oldest = Math.min(signed ? minuteAt(signed, 0) : Infinity, signedMemory[0]?.minute ?? Infinity);
		return { retryAfterSeconds: Math.max(1, oldest * 60 + 59 + signedWindow - now) };
	}
	// One new string each, assigned: n8n notices a change of a top-level key of the node's static data.
	stored.deliveries = recorded(ids, memory.groups('deliveries', now, WINDOW_SECONDS), byId, now, MAX_DELIVERY_IDS, true);
	stored.signed = signedRecord;
	return false;
}

/**
 * The Unix second from which the stored id log holds every id, when it is full and so holds less
 * than a day; undefined while it holds a whole day.
 */
export function idsHeldSince(stored: IDataObject, nowMs: number): number | undefined {
	const ids = unexpired(recordOf(stored.deliveries), Math.floor(nowMs / 1000), WINDOW_SECONDS);
	let keys = ids.length / ENTRY_CHARS;
	for (let at = 0; at < ids.length; at = nextGroup(ids, at)) keys--;
	// The oldest minute may have lost some of its ids already: every id is held from the next one.
	return keys >= MAX_DELIVERY_IDS ? (minuteAt(ids, 0) + 1) * 60 : undefined;
}

/** The keys a delivery is known by in the logs: its id's and its signed bytes'. */
export function keysOf(delivery: Delivery): string[] {
	return [idDigest(delivery.id), signedDigest(delivery.timestamp, delivery.rawBody)];
}
