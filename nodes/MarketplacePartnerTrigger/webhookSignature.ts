// Webhook verification ("Events" in the spec): HMAC-SHA256 over `TIMESTAMP.RAW_BODY` keyed with the
// Webhook Secret. Small pure functions over plain values, in the manner of stripe-node's Webhooks.
// The spec does not show the signature's encoding, so hex (either case) and base64 are accepted,
// with or without a `sha256=` / `v1=` style prefix, and a header may list several signatures.
import { createHmac, timingSafeEqual } from 'crypto';

const DIGEST_BYTES = 32;
/** The signature header's name after the credential's Header Prefix. */
export const SIGNATURE_HEADER = 'webhook-signature';
const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/**
 * The raw 32-byte HMAC-SHA256 digest of the signed text: the timestamp, a period, then the raw body
 * exactly as received. Fed in two parts so a large body is never copied.
 */
export function computeWebhookSignature(secret: string, timestamp: string, rawBody: Buffer): Buffer {
	return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest();
}

/** Constant-time equality; unequal lengths are unequal without an early exit on content. */
export function constantTimeEqual(a: Buffer, b: Buffer): boolean {
	if (a.length !== b.length) {
		timingSafeEqual(a, a);
		return false;
	}
	return timingSafeEqual(a, b);
}

/** One signature text as digest bytes: 64 hex digits (any case) or base64/base64url of 32 bytes. */
export function decodeSignature(text: string): Buffer | undefined {
	if (HEX_DIGEST.test(text)) return Buffer.from(text, 'hex');
	if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(text)) {
		const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
		if (bytes.length === DIGEST_BYTES) return bytes;
	}
	return undefined;
}

/**
 * Every candidate digest in a signature header: entries split on commas or white space, each with
 * an optional `name=` prefix (`sha256=…`, `v1=…`). Entries that are not a digest (e.g. `t=…`) are
 * ignored.
 */
export function parseSignatureHeader(header: string): Buffer[] {
	// The common case, one bare hex digest, without splitting or prefix handling.
	if (header.length === 64 && HEX_DIGEST.test(header)) return [Buffer.from(header, 'hex')];
	const digests: Buffer[] = [];
	for (const entry of header.split(/[\s,;]+/)) {
		if (!entry) continue;
		const unprefixed = entry.replace(/^[A-Za-z][A-Za-z0-9_-]{0,15}[=:](?=[A-Za-z0-9+/_-]{40})/, '');
		const digest = decodeSignature(unprefixed) ?? decodeSignature(entry);
		if (digest) digests.push(digest);
	}
	return digests;
}

/** Whether any listed signature matches any of the secrets (current and previous). */
export function signatureMatches(secrets: string[], timestamp: string, rawBody: Buffer, header: string): boolean {
	const candidates = parseSignatureHeader(header);
	let matched = false;
	for (const secret of secrets) {
		const expected = computeWebhookSignature(secret, timestamp, rawBody);
		// No early exit: every comparison runs, so timing says nothing about which one matched.
		for (const candidate of candidates) matched = constantTimeEqual(candidate, expected) || matched;
	}
	return matched;
}

// What reaches the node: Node.js's parser strips SP and HTAB around a header value (OWS), answers
// 400 for control characters, and passes bytes 0x80-0xFF on as U+0080-U+00FF (U+00A0 among them);
// it joins a repeated header with ", ". Nothing more is trimmed here: a header is taken exactly as
// it arrives or refused, so the text verified is the text the duplicate keys and the output use.
const TIMESTAMP = /^\d{1,16}$/; // ASCII digits only: no sign, no space, no other script's digits
const DELIVERY_ID = /^[\x21-\x7e]+$/; // visible ASCII: a copy under the id with a space added is refused, not new

/** Unix time of a timestamp header in seconds, or milliseconds when it is that large; else undefined. */
export function parseWebhookTimestamp(value: string): number | undefined {
	if (!TIMESTAMP.test(value)) return undefined;
	const number = Number(value);
	return number >= 1e12 ? Math.floor(number / 1000) : number;
}

/** Whether the timestamp is within `toleranceSeconds` of now, in either direction. */
export function timestampIsFresh(timestampSeconds: number, nowMs: number, toleranceSeconds: number): boolean {
	return Math.abs(nowMs / 1000 - timestampSeconds) <= toleranceSeconds;
}

export type WebhookRejection = 'no_secret' | 'missing_headers' | 'invalid_id' | 'invalid_timestamp' | 'stale_timestamp' | 'invalid_signature';

export interface WebhookCheck {
	secrets: string[];
	timestampHeader: string | undefined;
	signatureHeader: string | undefined;
	idHeader: string | undefined;
	rawBody: Buffer;
	nowMs: number;
	toleranceSeconds: number;
}

/** A verified delivery's headers, read once: its id, its timestamp text as signed, and that timestamp in Unix seconds. */
export interface WebhookHeaders {
	id: string;
	timestamp: string;
	seconds: number;
}

export type WebhookVerdict = { headers: WebhookHeaders; rejection?: undefined } | { headers?: undefined; rejection: WebhookRejection };

/**
 * All the checks in order, the cheap ones first: headers and the clock need no secret, so junk is
 * refused before any HMAC. Gives the headers as verified, or why the delivery is refused.
 */
export function readWebhook(check: WebhookCheck): WebhookVerdict {
	const { idHeader: id, timestampHeader: timestamp, signatureHeader: signature } = check;
	if (!id || !timestamp || !signature) return { rejection: 'missing_headers' };
	if (!DELIVERY_ID.test(id)) return { rejection: 'invalid_id' };
	const seconds = parseWebhookTimestamp(timestamp);
	if (seconds === undefined) return { rejection: 'invalid_timestamp' };
	if (!timestampIsFresh(seconds, check.nowMs, check.toleranceSeconds)) return { rejection: 'stale_timestamp' };
	const secrets = check.secrets.filter((secret) => secret !== '');
	if (secrets.length === 0) return { rejection: 'no_secret' };
	if (!signatureMatches(secrets, timestamp, check.rawBody, signature)) return { rejection: 'invalid_signature' };
	return { headers: { id, timestamp, seconds } };
}

/**
 * Whether a credential edited since the copy was read could let in a delivery that copy refused:
 * another secret, or another Header Prefix (the signature header then arrives under another name).
 * A timestamp's format and freshness, and an absent header, no credential changes.
 */
export function editCouldAdmit(rejection: WebhookRejection, headerNames: string[], prefix: string): boolean {
	if (rejection === 'missing_headers') return headerNames.some((name) => name.endsWith(SIGNATURE_HEADER) && name !== prefix + SIGNATURE_HEADER);
	return rejection === 'no_secret' || rejection === 'invalid_signature';
}
