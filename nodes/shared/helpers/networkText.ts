// Reading what came over the network (or from another node's data) for messages and lookups: in
// linear time, into text of bounded length, and never through an object's prototype, whatever
// the answer holds ("constructor" as a code, a message of 200,000 spaces, JSON nested 100,000 deep).

/**
 * Characters that must not reach a log line, a message or a hint as they are: controls (line
 * breaks, ESC of terminal sequences, NUL, C1), format characters (bidirectional overrides,
 * zero-width spaces) and the Unicode line and paragraph separators. Each is shown as its code
 * instead. The zero-width (non-)joiners stay: they are part of emoji and of scripts' spelling.
 */
const UNPRINTABLE = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * `text` with every unprintable character written as its code (`\u001b`): text from the network can
 * then forge no line of n8n's log and no escape sequence of a terminal (OWASP: neutralise CR, LF and
 * control characters). The one helper every quote of network text goes through (cut, oneLine,
 * jsonPreview) and every run report's fact (reportRun).
 */
export function printable(text: string): string {
	return text.replace(UNPRINTABLE, (char) => `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

/**
 * `text` cut to `limit` characters, with "…" when something was cut, and printable: the codes an
 * unprintable character is written as count in the limit (no code is cut in two).
 */
export function cut(text: string, limit: number): string {
	const head = text.length > limit ? text.slice(0, limit) : text;
	const shown = printable(head);
	if (shown.length <= limit) return head.length < text.length ? `${shown}…` : shown;
	let end = limit;
	const code = shown.lastIndexOf('\\u', end - 1);
	if (code >= 0 && code + 6 > end) end = code;
	return `${shown.slice(0, end)}…`;
}

/** `text` cut to `limit` characters, with "…" when something was cut. */
function sliced(text: string, limit: number): string {
	return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** How much of a value from the network an entry of the editor's lists shows (order items, statuses). */
export const LIST_LABEL_CHARS = 80;

/** `text` with each run of whitespace as one space, trimmed, cut to `limit` characters. */
export function oneLine(text: string, limit: number): string {
	// Words found by a forward scan read each character once; `replace(/\s+/g)` plus `trim()` would
	// too, but over the whole text however little of it is shown.
	const words = /\S+/g;
	let line = '';
	for (let word = words.exec(text); word && line.length <= limit; word = words.exec(text)) line += line ? ` ${word[0]}` : word[0];
	return cut(line, limit);
}

/**
 * `text` without the characters at its end that `char` (a one-character pattern, matching no empty
 * text) matches. One character at a time from the end: `/[.\s]+$/` tries every start of a run
 * again, quadratic in it. Before the first character, charAt gives "", which ends the loop.
 */
export function trimEnd(text: string, char: RegExp): string {
	let end = text.length;
	while (char.test(text.charAt(end - 1))) end--;
	return text.slice(0, end);
}

/**
 * The JSON text of `value`, cut to `limit` characters. Written only as far as it is shown, without
 * recursion: bounded however large or deeply nested the value is, and it never throws (where
 * JSON.stringify overflows the stack on deep nesting). Values JSON has no text for read as null.
 */
export function jsonPreview(value: unknown, limit: number): string {
	return cut(jsonText(value, limit, false), limit);
}

/** JSON with object keys sorted, so the same value always gives the same text; of any depth, never a throw. */
export function stableJson(value: unknown): string {
	return jsonText(value, Infinity, true);
}

/**
 * A value from the network as text, as String() writes text, numbers and flags; an array or
 * object as the start of its JSON. String() throws on `{"toString": 1}` or a prototype-less object.
 */
export function textOf(value: unknown): string {
	// For keys and look-ups, as it came: text to show goes through cut or oneLine.
	return typeof value === 'object' ? sliced(jsonText(value, 200, false), 200) : String(value);
}

/** An array or object being written: its keys (none for an array) and how many of its items are written. */
interface Open {
	items: unknown[] | Record<string, unknown>;
	keys?: string[];
	written: number;
}

function jsonText(value: unknown, limit: number, sortKeys: boolean): string {
	let text = '';
	// The arrays and objects being written, innermost last.
	const open: Open[] = [];
	let next: { key?: string; value: unknown } | undefined = { value };
	while (text.length <= limit) {
		if (!next) {
			const inner = open.at(-1);
			if (!inner) break;
			const count = inner.keys ? inner.keys.length : (inner.items as unknown[]).length;
			if (inner.written === count) {
				open.pop();
				text += inner.keys ? '}' : ']';
				continue;
			}
			if (inner.written > 0) text += ',';
			const key = inner.keys?.[inner.written];
			next = key === undefined ? { value: (inner.items as unknown[])[inner.written] } : { key, value: (inner.items as Record<string, unknown>)[key] };
			inner.written++;
		}
		const { key, value: item } = next;
		next = undefined;
		// Keys and strings are cut before they are escaped: only their start can be shown.
		if (key !== undefined) text += `${JSON.stringify(key.slice(0, limit))}:`;
		if (Array.isArray(item)) {
			text += '[';
			open.push({ items: item, written: 0 });
		} else if (item !== null && typeof item === 'object') {
			const keys = Object.keys(item);
			if (sortKeys) keys.sort();
			text += '{';
			open.push({ items: item as Record<string, unknown>, keys, written: 0 });
		} else if (typeof item === 'string') {
			text += JSON.stringify(item.slice(0, limit));
		} else {
			text += typeof item === 'number' || typeof item === 'boolean' ? JSON.stringify(item) : 'null';
		}
	}
	// Whole, as written past the limit: each caller cuts it (stableJson's text, hashed into keys
	// that earlier versions saved, stays as it always was).
	return text;
}

/**
 * `record[key]` when `record` holds `key` itself: a key that came from the network ("constructor",
 * "__proto__", "toString") never finds what every object inherits.
 */
export function ownValue<T>(record: Record<string, T>, key: string): T | undefined {
	return Object.hasOwn(record, key) ? record[key] : undefined;
}
