// Reading what came over the network (or from another node's data) for messages and lookups: in
// linear time, into text of bounded length, and never through an object's prototype, whatever
// the answer holds ("constructor" as a code, a message of 200,000 spaces, JSON nested 100,000 deep).

/** `text` cut to `limit` characters, with "…" when something was cut. */
export function cut(text: string, limit: number): string {
	return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

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
 * `text` without the characters at its end that `char` (a one-character pattern) matches. One
 * character at a time from the end: `/[.\s]+$/` tries every start of a run again, quadratic in it.
 */
export function trimEnd(text: string, char: RegExp): string {
	let end = text.length;
	while (end > 0 && char.test(text[end - 1])) end--;
	return text.slice(0, end);
}

type Entry = [key: string | undefined, value: unknown];

function* arrayEntries(items: unknown[]): Generator<Entry> {
	for (const item of items) yield [undefined, item];
}

function* objectEntries(object: object): Generator<Entry> {
	for (const key of Object.keys(object)) yield [key, (object as Record<string, unknown>)[key]];
}

/**
 * The JSON text of `value`, cut to `limit` characters. Written only as far as it is shown, without
 * recursion: bounded however large or deeply nested the value is, and it never throws (where
 * JSON.stringify overflows the stack on deep nesting). Values JSON has no text for read as null.
 */
export function jsonPreview(value: unknown, limit: number): string {
	let text = '';
	// The arrays and objects being written, innermost last, with what is left of each.
	const open: Array<{ rest: Generator<Entry>; close: string; first: boolean }> = [];
	let next: Entry | undefined = [undefined, value];
	while (text.length <= limit) {
		if (!next) {
			const inner = open.at(-1);
			if (!inner) break;
			const step = inner.rest.next();
			if (step.done) {
				open.pop();
				text += inner.close;
				continue;
			}
			if (!inner.first) text += ',';
			inner.first = false;
			next = step.value;
		}
		const [key, item]: Entry = next;
		next = undefined;
		// Keys and strings are cut before they are escaped: only their start can be shown.
		if (key !== undefined) text += `${JSON.stringify(key.slice(0, limit))}:`;
		if (Array.isArray(item)) {
			text += '[';
			open.push({ rest: arrayEntries(item), close: ']', first: true });
		} else if (item !== null && typeof item === 'object') {
			text += '{';
			open.push({ rest: objectEntries(item), close: '}', first: true });
		} else if (typeof item === 'string') {
			text += JSON.stringify(item.slice(0, limit));
		} else {
			text += typeof item === 'number' || typeof item === 'boolean' ? JSON.stringify(item) : 'null';
		}
	}
	return cut(text, limit);
}

/**
 * `record[key]` when `record` holds `key` itself: a key that came from the network ("constructor",
 * "__proto__", "toString") never finds what every object inherits.
 */
export function ownValue<T>(record: Record<string, T>, key: string): T | undefined {
	return Object.hasOwn(record, key) ? record[key] : undefined;
}
