// Inputs for the property tests of what the node reads from the network or from other nodes.
import fc from 'fast-check';

/** Characters that regular expressions and trimming treat specially, with a few ordinary ones. */
const TRICKY = [' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\ufeff', '.', '/', '\\', '"', ':', ',', '-', '+', '[', ']', '{', '}', 'T', 'Z', 'a', 'é', '1', '0', '\ud83d'];

/** Short text built of those characters. */
export const trickyText = fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 40 });

/** 100–250 KB of a short pattern repeated, and maybe one character to end it: the shape that makes backtracking slow. */
export const bigText = fc
	.tuple(fc.string({ unit: fc.constantFrom(...TRICKY), minLength: 1, maxLength: 6 }), fc.integer({ min: 100_000, max: 250_000 }), fc.constantFrom('', 'a', '.', ' ', 'x1'))
	.map(([pattern, length, end]) => pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length) + end);

/** Any text: short and tricky, any string, or big. */
export const anyText = fc.oneof(trickyText, fc.string({ unit: 'binary' }), fc.string(), bigText);

/** Bytes read as the text a server may send (invalid UTF-8 included). */
export const byteText = fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes).toString('utf8'));

/** Names every object inherits, as keys and as values. */
export const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

/** Any value of any shape, prototype-less objects and inherited names included. */
export const anyValue = fc.oneof(
	fc.anything({ withNullPrototype: true, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withBoxedValues: true }),
	fc.jsonValue(),
	fc.constantFrom(...INHERITED),
	fc.dictionary(fc.constantFrom(...INHERITED), fc.jsonValue()),
);
