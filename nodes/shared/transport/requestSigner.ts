// The credential's `authenticate`: turns any n8n request (ours, the HTTP Request node's, the
// credential test's) into one whose signed bytes are exactly the bytes that will be sent.
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { parseCredentials } from './credentials';
import { trimEnd } from '../helpers/networkText';
import { buildQueryString, pathRelativeToBase, signRequest, type QueryValue } from './signing';

/**
 * Two identical requests signed in the same second have the same signature, and a server may
 * refuse one it has seen. Signatures used recently are remembered so a repeat is signed for an
 * earlier second instead (still well inside any reasonable clock tolerance).
 */
const USED_SIGNATURE_TTL_MS = 10 * 60 * 1000;
const MAX_BACKDATE_SECONDS = 60;
const usedSignatures = new Map<string, number>(); // signature -> when it was used (ms)

function forgetOldSignatures(nowMs: number) {
	for (const [signature, usedAt] of usedSignatures) {
		if (nowMs - usedAt < USED_SIGNATURE_TTL_MS) break; // insertion order is time order
		usedSignatures.delete(signature);
	}
}

/**
 * Signs with the latest timestamp at or before this second (plus `offsetSeconds`) whose signature
 * was not used yet. The clock is read once per try: `nowMs` for the first, so a timestamp the
 * caller gave is used exactly as given.
 */
async function uniqueSignature(
	sign: (timestamp: number) => string,
	offsetSeconds: number,
	nowMs: number,
): Promise<{ timestamp: number; signature: string }> {
	for (;;) {
		forgetOldSignatures(nowMs);
		const newest = Math.floor(nowMs / 1000) + offsetSeconds;
		for (let timestamp = newest; timestamp > newest - MAX_BACKDATE_SECONDS; timestamp--) {
			const signature = sign(timestamp);
			if (!usedSignatures.has(signature)) {
				usedSignatures.set(signature, nowMs);
				return { timestamp, signature };
			}
		}
		await sleep(1000); // every recent second is taken for this exact request: wait for a new one
		nowMs = Date.now();
	}
}

// Node holds timeout and composite abort signals weakly: one that only axios listens to can be
// collected before it fires (seen under load: the answer was then read to its end). Each is held
// here until its deadline passes.
const liveDeadlines = new Set<AbortSignal>();

function holdUntilDeadline(deadline: AbortSignal, ...signals: AbortSignal[]) {
	for (const signal of [deadline, ...signals]) liveDeadlines.add(signal);
	deadline.addEventListener('abort', () => {
		for (const signal of [deadline, ...signals]) liveDeadlines.delete(signal);
	});
}

function findHeader(headers: IDataObject, name: string): string | undefined {
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
	return key === undefined ? undefined : String(headers[key]);
}

function setHeader(headers: IDataObject, name: string, value: string) {
	for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
	headers[name] = value;
}

function appendQuery(url: string, qs: IDataObject | undefined): string {
	if (!qs || Object.keys(qs).length === 0) return url;
	// No prototype: a query parameter named __proto__ is sent like any other.
	const flat: Record<string, QueryValue> = Object.create(null);
	const repeated: string[] = [];
	for (const [key, value] of Object.entries(qs)) {
		if (Array.isArray(value)) repeated.push(...value.map((v) => buildQueryString({ [key]: v as QueryValue })));
		else flat[key] = (typeof value === 'object' && value !== null ? JSON.stringify(value) : value) as QueryValue;
	}
	const query = [buildQueryString(flat), ...repeated].filter(Boolean).join('&');
	if (!query) return url;
	return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** The body as the exact text that will be sent; objects are serialised here, once. */
function rawBodyOf(body: IHttpRequestOptions['body']): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof URLSearchParams) return body.toString();
	if (typeof (body as { getHeaders?: unknown }).getHeaders === 'function') {
		throw new Error('Multipart (form-data) bodies cannot be signed for the Partner API; send JSON.');
	}
	return JSON.stringify(body);
}

export async function signRequestOptions(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const creds = parseCredentials(credentials);
	const method = (requestOptions.method ?? 'GET').toUpperCase();
	// Join baseURL and url the way axios does (concatenation), then fold the query into the URL
	// ourselves so nothing re-serialises it after signing.
	// n8n's legacy request path (used by the HTTP Request node) names the URL `uri` and may carry a
	// `form` or `formData` body instead of `body`.
	const legacy = requestOptions as IHttpRequestOptions & { uri?: string; form?: IDataObject | string; formData?: unknown };
	if (legacy.formData !== undefined) {
		throw new Error('Multipart (form-data) bodies cannot be signed for the Partner API; send JSON.');
	}
	let url = requestOptions.url ?? legacy.uri ?? '';
	if (requestOptions.baseURL && !/^https?:\/\//i.test(url)) {
		url = `${trimEnd(requestOptions.baseURL, /\//)}/${url.replace(/^\/+/, '')}`;
	}
	url = appendQuery(url, requestOptions.qs);
	// The HTTP client sends the WHATWG-normalised form of the URL (spaces and non-ASCII
	// percent-encoded); sign that same form.
	const target = new URL(url);
	const base = new URL(creds.baseUrl);
	if (target.origin !== base.origin) {
		throw new Error(`The URL ${target.origin}${target.pathname} is not under the credential's Base URL ${creds.baseUrl}.`);
	}
	const sentUrl = `${target.origin}${target.pathname}${target.search}`;
	const path = pathRelativeToBase(sentUrl, creds.baseUrl);

	const headers: IDataObject = { ...(requestOptions.headers ?? {}) };
	const hasBody = method !== 'GET' && method !== 'HEAD';
	const formBody = legacy.form === undefined || requestOptions.body !== undefined ? undefined : legacy.form;
	const rawBody = hasBody
		? formBody !== undefined
			? typeof formBody === 'string'
				? formBody
				: new URLSearchParams(formBody as Record<string, string>).toString()
			: rawBodyOf(requestOptions.body)
		: '';
	if (formBody !== undefined && !findHeader(headers, 'content-type')) {
		setHeader(headers, 'Content-Type', 'application/x-www-form-urlencoded');
	}
	if (rawBody && !findHeader(headers, 'content-type')) setHeader(headers, 'Content-Type', 'application/json');
	if (!findHeader(headers, 'accept')) setHeader(headers, 'Accept', 'application/json');

	// A caller that knows the server's clock runs ahead or behind (see transport/index.ts) sends the
	// corrected timestamp in the timestamp header; otherwise this machine's clock is used.
	const timestampHeader = `${creds.headerPrefix}TIMESTAMP`;
	// It is kept as an offset from this clock, so a wait for a free second still moves forward.
	const given = findHeader(headers, timestampHeader);
	const nowMs = Date.now();
	const offset = given !== undefined && /^\d+$/.test(given) ? Number(given) - Math.floor(nowMs / 1000) : 0;
	const { timestamp, signature } = await uniqueSignature((ts) => signRequest(creds.clientSecret, method, path, ts, rawBody), offset, nowMs);
	setHeader(headers, `${creds.headerPrefix}CLIENT-ID`, creds.clientId);
	setHeader(headers, timestampHeader, String(timestamp));
	setHeader(headers, `${creds.headerPrefix}SIGNATURE`, signature);

	// Redirects are never followed, whoever asked for them: n8n would send the signature headers
	// (and a body) on to wherever the server points, and read that answer as the API's. Both of
	// n8n's request paths: disableFollowRedirect for httpRequest, the rest for the legacy request
	// options the HTTP Request node uses.
	const signed: IHttpRequestOptions & { uri?: string; form?: unknown; followRedirect?: boolean; followAllRedirects?: boolean } = {
		...requestOptions,
		url: sentUrl,
		headers,
		method: method as IHttpRequestOptions['method'],
		disableFollowRedirect: true,
		maxRedirects: 0,
		followRedirect: false,
		followAllRedirects: false,
	};
	// axios's `timeout` counts idle time only: an answer that trickles in a byte at a time would hold
	// the run for as long as it lasts. A signal bounds the whole request, beside n8n's own (set just
	// before signing, an AbortController's: a cancelled execution).
	if (requestOptions.timeout) {
		const deadline = AbortSignal.timeout(requestOptions.timeout);
		const signal = requestOptions.abortSignal ? AbortSignal.any([requestOptions.abortSignal as AbortSignal, deadline]) : deadline;
		holdUntilDeadline(deadline, signal);
		signed.abortSignal = signal;
	}
	delete signed.baseURL;
	delete signed.qs;
	delete signed.uri;
	delete signed.form;
	if (hasBody && rawBody) signed.body = rawBody;
	else delete signed.body;
	return signed;
}
