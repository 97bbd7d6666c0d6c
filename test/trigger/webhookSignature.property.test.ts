// Webhook verification over generated input (fast-check): whatever the body, the headers, their
// encodings and prefixes, readWebhook accepts a delivery only when a listed signature is the HMAC
// of its exact signed bytes under one of the secrets, never throws, and takes time in proportion to
// what it was given (a budget per KB that catches quadratic work, loose enough for a busy machine);
// and every form of one delivery it accepts is keyed as that delivery, so none is recorded twice.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { entriesIn, keysOf, ProcessRecord, recordOf, seenBefore } from '../../nodes/MarketplacePartnerTrigger/deliveryLog';
import { readWebhook, type WebhookCheck } from '../../nodes/MarketplacePartnerTrigger/webhookSignature';

const NOW_MS = Date.UTC(2026, 10, 25, 12);
const NOW = String(NOW_MS / 1000);
const hmac = (secret: string, timestamp: string, body: Buffer) => createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

/** The ways a sender may write one digest: hex in either case, base64, base64url, with or without a prefix. */
const written = (digest: Buffer) =>
	fc.tuple(fc.constantFrom('hex', 'HEX', 'base64', 'base64url'), fc.constantFrom('', 'sha256=', 'v1=', 'v1:')).map(([encoding, prefix]) => {
		const text = encoding === 'HEX' ? digest.toString('hex').toUpperCase() : digest.toString(encoding as BufferEncoding);
		return prefix + text;
	});

const secret = fc.string({ minLength: 1, maxLength: 64 });
const body = fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes));
const check = (overrides: Partial<WebhookCheck>): WebhookCheck => ({
	secrets: ['s'],
	idHeader: 'whd_1',
	timestampHeader: NOW,
	signatureHeader: '',
	rawBody: Buffer.alloc(0),
	nowMs: NOW_MS,
	toleranceSeconds: 300,
	...overrides,
});

/** Milliseconds `run` takes, and whether it stayed within `base + perKb` per KB of `size`. */
function withinBudget(size: number, run: () => void, base = 50, perKb = 5): boolean {
	const started = performance.now();
	run();
	return performance.now() - started <= base + (perKb * size) / 1024;
}

describe('webhook verification, generated', () => {
	test('a genuine delivery in any encoding, among junk candidates, is accepted', () => {
		fc.assert(
			fc.property(secret, body, fc.array(fc.string({ maxLength: 80 }), { maxLength: 5 }), (key, raw, junk) =>
				fc.assert(
					fc.property(written(hmac(key, NOW, raw)), fc.constantFrom(',', ', ', ' ', ';'), (signature, separator) => {
						const header = [...junk.map((j) => j.replace(/[,; \s]/g, '')), signature].filter(Boolean).join(separator);
						expect(readWebhook(check({ secrets: [key], signatureHeader: header, rawBody: raw })).rejection).toBeUndefined();
					}),
					{ numRuns: 3 },
				),
			),
			{ numRuns: 100 },
		);
	});

	test('changed bytes, another timestamp text or another secret are never accepted', () => {
		fc.assert(
			fc.property(secret, secret, body, fc.nat({ max: 4095 }), fc.integer({ min: 1, max: 255 }), (key, other, raw, at, flip) => {
				const signature = hmac(key, NOW, raw).toString('hex');
				if (raw.length > 0) {
					const tampered = Buffer.from(raw);
					tampered[at % raw.length] ^= flip;
					expect(readWebhook(check({ secrets: [key], signatureHeader: signature, rawBody: tampered })).rejection).toBe('invalid_signature');
				}
				expect(readWebhook(check({ secrets: [key], signatureHeader: signature, rawBody: raw, timestampHeader: `0${NOW}` })).rejection).toBe('invalid_signature');
				if (other !== key) expect(readWebhook(check({ secrets: [other], signatureHeader: signature, rawBody: raw })).rejection).toBe('invalid_signature');
			}),
			{ numRuns: 300 },
		);
	});

	test('arbitrary headers never throw and never pass without the right signature', () => {
		const header = fc.option(fc.oneof(fc.string({ maxLength: 300 }), fc.stringMatching(/^[0-9a-fA-F=,;: v1sha256-]{0,300}$/)), { nil: undefined });
		fc.assert(
			fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 3 }), header, header, header, body, (secrets, id, timestamp, signature, raw) => {
				const verdict = readWebhook(check({ secrets, idHeader: id, timestampHeader: timestamp, signatureHeader: signature, rawBody: raw })).rejection;
				expect(verdict).not.toBeUndefined();
			}),
			{ numRuns: 1000 },
		);
	});

	test('time in proportion to the input: long headers, many candidates and large bodies', () => {
		const big = fc.integer({ min: 1, max: 64 }).map((kb) => kb * 1024);
		fc.assert(
			fc.property(big, fc.constantFrom(' ', ',', 'v1=', 'a', '=', 'sha256=', '0'), big, (headerSize, unit, bodySize) => {
				const signatureHeader = unit.repeat(Math.ceil(headerSize / unit.length)).slice(0, headerSize);
				const rawBody = Buffer.alloc(bodySize * 16, 0x7b);
				const args = check({ secrets: ['s', 'previous'], signatureHeader, rawBody });
				expect(withinBudget(signatureHeader.length + rawBody.length, () => readWebhook(args).rejection)).toBe(true);
			}),
			{ numRuns: 40 },
		);
		// The worst of the candidate lists: as many signature-shaped entries as a 16 KB header holds.
		const candidates = Array.from({ length: 240 }, (_, i) => `v1=${i.toString(16).padStart(64, 'f')}`).join(',');
		expect(withinBudget(candidates.length, () => readWebhook(check({ secrets: ['s', 'previous'], signatureHeader: candidates })).rejection)).toBe(true);
	});
});

describe('one delivery, one key, generated', () => {
	/** What Node.js's parser does to a header value before the node sees it: strips SP and HTAB around it, nothing else. */
	const throughNode = (value: string) => value.replace(/^[ \t]+|[ \t]+$/g, '');
	/** Spaces a header may carry: the two Node.js strips, and ones it passes on (0xA0 and 0x85 as bytes; the others as a caller might hand them). */
	const SPACES = [' ', '\t', '\u00a0', '\u0085', '\ufeff', '\u2003', '\u200b', '\u3000', '\u2028', '\u180e'];
	const spaces = fc.array(fc.constantFrom(...SPACES), { maxLength: 3 }).map((chosen) => chosen.join(''));
	/** A header value with spaces of any kind around it. */
	const dressed = (value: string) => fc.tuple(spaces, spaces).map(([before, after]) => before + value + after);
	/** The timestamp text rewritten: zeros or a sign in front, the same instant in the other unit, dressed. */
	const timestampForm = (ts: string) => fc.constantFrom(ts, `0${ts}`, `00${ts}`, `+${ts}`, `${ts}000`, ts.length > 10 ? ts.slice(0, 10) : `${ts}.0`).chain(dressed);
	/** The id dressed, repeated (Node.js joins a repeated header with ", "), or another id altogether. */
	const idForm = (id: string) => fc.oneof(dressed(id).map((text) => ({ text, same: true })), fc.constant({ text: `${id}, ${id}`, same: true }), fc.string({ minLength: 1, maxLength: 20 }).map((text) => ({ text, same: false })));
	/** The signature in any encoding the verifier takes, maybe in a list, dressed. */
	const signatureForm = (digest: Buffer) => fc.tuple(written(digest), written(digest), fc.constantFrom('', ', ', ' ', ';')).chain(([a, b, separator]) => dressed(separator ? `${a}${separator}${b}` : a));
	/** A genuine delivery: its secret, body, id and timestamp text (seconds or milliseconds, as the sender signed it). */
	const delivery = fc.record({
		key: secret,
		raw: body,
		id: fc.stringMatching(/^[\x21-\x7e]{1,24}$/),
		ts: fc.constantFrom(NOW, `${NOW}000`, String(NOW_MS + 123)),
	});
	const read = (key: string, raw: Buffer, form: { id: string; timestamp: string; signature: string }) =>
		readWebhook(check({ secrets: [key], idHeader: throughNode(form.id), timestampHeader: throughNode(form.timestamp), signatureHeader: throughNode(form.signature), rawBody: raw }));

	test('every accepted form of a delivery has its keys: the same signed bytes, and the same id unless another id was sent', () => {
		fc.assert(
			fc.property(
				delivery.chain((d) => fc.tuple(fc.constant(d), timestampForm(d.ts), idForm(d.id), signatureForm(hmac(d.key, d.ts, d.raw)))),
				([{ key, raw, id, ts }, timestamp, sentId, signature]) => {
					const original = read(key, raw, { id, timestamp: ts, signature: hmac(key, ts, raw).toString('hex') });
					expect(original.rejection).toBeUndefined(); // the property is about accepted forms: the original is one
					const [byId, bySigned] = keysOf({ ...original.headers!, rawBody: raw });
					const form = read(key, raw, { id: sentId.text, timestamp, signature });
					if (form.rejection) return;
					const keys = keysOf({ ...form.headers, rawBody: raw });
					expect(keys[1]).toBe(bySigned); // under any id a duplicate
					if (sentId.same) expect(keys[0]).toBe(byId);
				},
			),
			{ numRuns: 500 },
		);
	});

	test('forms of one delivery, accepted or refused, grow the record by that one delivery at most', () => {
		fc.assert(
			fc.property(
				delivery.chain((d) => fc.tuple(fc.constant(d), fc.array(fc.tuple(timestampForm(d.ts), idForm(d.id), signatureForm(hmac(d.key, d.ts, d.raw))), { minLength: 1, maxLength: 20 }))),
				([{ key, raw }, forms]) => {
					const stored: IDataObject = {};
					const memory = new ProcessRecord();
					for (const [timestamp, sentId, signature] of forms) {
						const form = read(key, raw, { id: sentId.text, timestamp, signature });
						// As the node records a verified delivery, selected or not.
						if (form.headers) seenBefore(stored, memory, { ...form.headers, rawBody: raw }, NOW_MS, 300);
					}
					expect(entriesIn(recordOf(stored.signed)).length).toBeLessThanOrEqual(1);
					expect(entriesIn(recordOf(stored.deliveries)).length).toBeLessThanOrEqual(1);
				},
			),
			{ numRuns: 300 },
		);
	});
});
