// Values typed by hand or mapped from a spreadsheet: "12" is 12, and anything that is not a whole
// number gets an error that names the field and the value, before any request is sent.
import { cut, jsonPreview } from './networkText';

/** What a missing value is called: a sheet's cell is blank, a parameter or a model's argument empty. */
export type EmptyWord = 'empty' | 'blank';

/** How much of a wrong value an error quotes. */
const QUOTED_CHARS = 100;

/**
 * Returns the whole number, or undefined when optional and empty; throws a message otherwise.
 * `why` says why the minimum exists, for a value under it ("stock cannot be negative").
 * `empty` is what a missing value is called: a sheet's cell is blank, a parameter empty.
 * `ifLetters` is added for text with letters in it: no mistyped number but another kind of value,
 * such as a SKU where an id belongs, which the user fixes elsewhere than in the value.
 */
export function toWholeNumber(
	value: unknown,
	field: string,
	{ min = 0, optional = false, why, ifLetters, empty = 'empty' }: { min?: number; optional?: boolean; why?: string; ifLetters?: string; empty?: EmptyWord } = {},
): number | undefined {
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
	// A checkbox or a nested value is not empty: it is the wrong kind of value, as toSku says too.
	if (text === undefined && value !== undefined && value !== null) throw new Error(`${field} must be a whole number, but got ${jsonPreview(value, QUOTED_CHARS)}.`);
	if (text === undefined || text === '') {
		if (optional) return undefined;
		throw new Error(`${field} is ${empty}; it needs a whole number${min > 0 ? ` of ${min} or more` : ''}.`);
	}
	if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
		const hint = ifLetters && /\p{L}/u.test(text) ? `, ${ifLetters}` : '';
		throw new Error(`${field} must be a whole number, but got "${cut(text, QUOTED_CHARS)}"${hint}.`);
	}
	const number = Number(text);
	if (number < min) {
		throw new Error(`${field} must be ${min} or more, but got ${number}${why ? ` (${why})` : ''}.`);
	}
	return number;
}

// The API writes datetimes as YYYY-MM-DD HH:MM:SS and never says in which zone (a PHP backend
// writes its server's local time). The credential's Time Zone names it; datetimes the API wrote
// are compared among themselves as they are, so only moments from outside (n8n's clock, a value
// with a zone) need it.
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** Throws a message that says what to set when `timeZone` is not an IANA zone this n8n knows. */
export function checkTimeZone(timeZone: string): string {
	if (!wallClocks.has(timeZone)) {
		const format = wallClock(timeZone);
		if (!format) {
			throw new Error(`The credential's Time Zone "${timeZone}" is not a time zone name. Use an IANA name such as UTC, Europe/Istanbul or America/New_York.`);
		}
		wallClocks.set(timeZone, format);
	}
	return timeZone;
}

function wallClock(timeZone: string): Intl.DateTimeFormat | undefined {
	try {
		return new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			era: 'short',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
	} catch {
		return undefined; // a RangeError: no such zone
	}
}

/** The moment `ms` as the API writes it: `YYYY-MM-DD HH:MM:SS` in `timeZone`. */
export function formatApiDateTime(ms: number, timeZone = 'UTC'): string {
	const parts = Object.fromEntries(
		wallClocks
			.get(checkTimeZone(timeZone))!
			.formatToParts(new Date(ms))
			.map((part) => [part.type, part.value]),
	);
	// Intl counts the years before year 1 backwards (1 BC, 2 BC); ISO 8601 counts on through year 0.
	const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
	// Intl writes years before 1000 with fewer digits; the API reads four.
	return `${year < 0 ? '-' : ''}${String(Math.abs(year)).padStart(4, '0')}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * The API's datetime form, `YYYY-MM-DD HH:MM:SS`. A value with a time zone (an n8n DateTime, an
 * ISO string with Z or an offset) is a moment, written in `timeZone` (the API's); a value without
 * one is sent as written.
 */
export function toApiDateTime(value: unknown, field: string, timeZone = 'UTC'): string {
	const text = dateText(value);
	// Anchored at the start, and each part is followed by a character it cannot hold: linear.
	const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text ?? '');
	if (!m) {
		const got = text === undefined ? jsonPreview(value, QUOTED_CHARS) : `"${cut(text, QUOTED_CHARS)}"`;
		throw new Error(`${field} must be a date and time such as 2026-01-31 14:00:00 or 2026-01-31T14:00:00Z, but got ${got}.`);
	}
	const [, day, hm, seconds = '00', zone] = m;
	const local = `${day} ${hm}:${seconds}`;
	if (!zone) return local;
	// Node reads an offset without its colon (-0500) as with it.
	const ms = Date.parse(`${day}T${hm}:${seconds}${zone}`);
	if (Number.isNaN(ms)) throw new Error(`${field} is not a valid date: "${cut(m[0], QUOTED_CHARS)}".`);
	const written = formatApiDateTime(ms, timeZone);
	// In the API's zone the moment can leave the four-digit years (9999-12-31T23:00:00Z is year 10000 in Istanbul).
	if (!/^\d{4}-/.test(written)) {
		throw new Error(`${field} is outside the years the API can write (0000 to 9999 in its time zone, ${timeZone}): "${cut(m[0], QUOTED_CHARS)}" is ${written} there.`);
	}
	return written;
}

/**
 * A date value as text: an n8n DateTime or a valid Date as its ISO form, text as typed. Undefined
 * for a value that has no text (an object without a prototype, or whose toString is not one).
 */
function dateText(value: unknown): string | undefined {
	try {
		return (value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : String(value ?? '')).trim();
	} catch {
		return undefined;
	}
}

/** A SKU as text: a sheet may hold it as a number. Spaces around it are a sheet's, not the SKU's. */
export function toSku(value: unknown, field: string, empty: EmptyWord = 'empty'): string {
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
	if (text === undefined && value !== undefined && value !== null) throw new Error(`${field} must be text, but got ${jsonPreview(value, QUOTED_CHARS)}.`);
	if (!text) throw new Error(`${field} is ${empty}; it needs the product's SKU.`);
	return text;
}

/** A Status filter as every node reads it: trimmed, and empty is no filter. */
export function toStatusFilter(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
