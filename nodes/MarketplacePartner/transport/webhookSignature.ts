// Webhook verification ("Events" in the spec): HMAC-SHA256 over `TIMESTAMP.RAW_BODY` keyed with the
// Webhook Secret. Small pure functions over plain values, in the manner of stripe-node's Webhooks.
// The spec does not show the signature's encoding, so hex (either case) and base64 are accepted,
// with or without a `sha256=` / `v1=` style prefix, and a header may list several signatures.
import { createHmac, timingSafeEqual } from 'crypto';

const DIGEST_BYTES = 32;
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

/** Unix time of a timestamp header in seconds, or milliseconds when it is that large; else undefined. */
export function parseWebhookTimestamp(value: string): number | undefined {
	if (!/^\d{1,16}$/.test(value)) return undefined;
	const number = Number(value);
	return number >= 1e12 ? Math.floor(number / 1000) : number;
}

/** Whether the timestamp is within `toleranceSeconds` of now, in either direction. */
export function timestampIsFresh(timestampSeconds: number, nowMs: number, toleranceSeconds: number): boolean {
	return Math.abs(nowMs / 1000 - timestampSeconds) <= toleranceSeconds;
}

export type WebhookRejection = 'no_secret' | 'missing_headers' | 'invalid_timestamp' | 'stale_timestamp' | 'invalid_signature';

export interface WebhookCheck {
	secrets: string[];
	timestampHeader: string | undefined;
	signatureHeader: string | undefined;
	idHeader: string | undefined;
	rawBody: Buffer;
	nowMs: number;
	toleranceSeconds: number;
}

/** All the checks in order; returns why a delivery is refused, or undefined when it is genuine. */
export function checkWebhook(check: WebhookCheck): WebhookRejection | undefined {
	const secrets = check.secrets.some((s) => s === '') ? check.secrets.filter((s) => s !== '') : check.secrets;
	if (secrets.length === 0) return 'no_secret';
	if (!check.timestampHeader || !check.signatureHeader || !check.idHeader) return 'missing_headers';
	const timestampText = check.timestampHeader.trim();
	const timestamp = parseWebhookTimestamp(timestampText);
	if (timestamp === undefined) return 'invalid_timestamp';
	// The signature is over the timestamp text as sent, so it is checked before the clock.
	if (!signatureMatches(secrets, timestampText, check.rawBody, check.signatureHeader)) {
		return 'invalid_signature';
	}
	if (!timestampIsFresh(timestamp, check.nowMs, check.toleranceSeconds)) return 'stale_timestamp';
	return undefined;
}
