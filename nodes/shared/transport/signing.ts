// Request signing of the Partner API ("Authentication > Signature" in the spec), as small pure
// functions over plain values so they can be checked against vectors from an independent tool.
import { createHmac } from 'crypto';
import { trimEnd } from '../helpers/networkText';

export type QueryValue = string | number | boolean | null | undefined;

/**
 * Percent-encodes per RFC 3986 (everything but A-Z a-z 0-9 - . _ ~). Stricter than
 * encodeURIComponent, because HTTP clients re-encode `'`, `!`, `(`, `)` and `*` in a query on their
 * own, which would make the bytes sent differ from the bytes signed.
 */
export function encodeRfc3986(value: string): string {
	return encodeURIComponent(value).replace(
		/[!'()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

/** `a=1&b=x%20y` in the order given; null and undefined values are left out. */
export function buildQueryString(params: Record<string, QueryValue>): string {
	return Object.entries(params)
		.filter(([, value]) => value !== undefined && value !== null)
		.map(([key, value]) => `${encodeRfc3986(key)}=${encodeRfc3986(String(value))}`)
		.join('&');
}

/** The text that is signed: METHOD \n PATH \n TIMESTAMP \n RAW_BODY. */
export function buildSignedText(
	method: string,
	pathWithQuery: string,
	timestamp: string | number,
	rawBody: string,
): string {
	return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${rawBody}`;
}

/** Lower-case hex HMAC-SHA256 of the signed text, keyed with the Client Secret. */
export function signRequest(
	clientSecret: string,
	method: string,
	pathWithQuery: string,
	timestamp: string | number,
	rawBody: string,
): string {
	return createHmac('sha256', clientSecret)
		.update(buildSignedText(method, pathWithQuery, timestamp, rawBody), 'utf8')
		.digest('hex');
}

/**
 * PATH as the spec defines it: the request target relative to the base URL (which already ends in
 * `/v1`), with the query string exactly as it will be sent. Throws when the URL is not under it.
 */
export function pathRelativeToBase(url: string, baseUrl: string): string {
	const base = trimEnd(baseUrl, /\//);
	if (!url.startsWith(`${base}/`)) {
		throw new Error(`The URL ${url} is not under the credential's Base URL ${base}`);
	}
	return url.slice(base.length);
}
