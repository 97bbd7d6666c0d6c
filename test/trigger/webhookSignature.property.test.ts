// Webhook verification over generated input (fast-check): whatever the body, the headers, their
// encodings and prefixes, checkWebhook accepts a delivery only when a listed signature is the HMAC
// of its exact signed bytes under one of the secrets, never throws, and takes time in proportion to
// what it was given (a budget per KB that catches quadratic work, loose enough for a busy machine).
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { checkWebhook, type WebhookCheck } from '../../nodes/MarketplacePartner/transport/webhookSignature';

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
						expect(checkWebhook(check({ secrets: [key], signatureHeader: header, rawBody: raw }))).toBeUndefined();
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
					expect(checkWebhook(check({ secrets: [key], signatureHeader: signature, rawBody: tampered }))).toBe('invalid_signature');
				}
				expect(checkWebhook(check({ secrets: [key], signatureHeader: signature, rawBody: raw, timestampHeader: `0${NOW}` }))).toBe('invalid_signature');
				if (other !== key) expect(checkWebhook(check({ secrets: [other], signatureHeader: signature, rawBody: raw }))).toBe('invalid_signature');
			}),
			{ numRuns: 300 },
		);
	});

	test('arbitrary headers never throw and never pass without the right signature', () => {
		const header = fc.option(fc.oneof(fc.string({ maxLength: 300 }), fc.stringMatching(/^[0-9a-fA-F=,;: v1sha256-]{0,300}$/)), { nil: undefined });
		fc.assert(
			fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 3 }), header, header, header, body, (secrets, id, timestamp, signature, raw) => {
				const verdict = checkWebhook(check({ secrets, idHeader: id, timestampHeader: timestamp, signatureHeader: signature, rawBody: raw }));
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
				expect(withinBudget(signatureHeader.length + rawBody.length, () => checkWebhook(args))).toBe(true);
			}),
			{ numRuns: 40 },
		);
		// The worst of the candidate lists: as many signature-shaped entries as a 16 KB header holds.
		const candidates = Array.from({ length: 240 }, (_, i) => `v1=${i.toString(16).padStart(64, 'f')}`).join(',');
		expect(withinBudget(candidates.length, () => checkWebhook(check({ secrets: ['s', 'previous'], signatureHeader: candidates })))).toBe(true);
	});
});
