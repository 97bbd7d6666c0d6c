// What each API error code means for the person running the workflow, and what to do about it.
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { cut, jsonPreview, oneLine, ownValue, trimEnd } from '../helpers/networkText';

interface Explanation {
	message: string;
	description: string;
}

/** Codes from the spec, then the ones the local sandbox documents (sandbox/README.md). */
export const API_ERRORS: Record<string, Explanation> = {
	missing_auth_headers: {
		message: 'The Partner API did not receive the authentication headers',
		description:
			"Check the credential's Header Prefix: it must be the prefix the marketplace uses (X-SVC- is the documentation's stand-in for it). A proxy between n8n and the API may also strip custom headers.",
	},
	invalid_signature: {
		message: 'The Partner API could not verify the request signature',
		description:
			'The Client ID or Client Secret in the credential is wrong, or the Client Secret was rotated. Paste both again exactly as the operator issued them (no spaces), and check the Base URL ends in /v1.',
	},
	expired_timestamp: {
		message: "The Partner API refused the request's timestamp as too old or too far ahead",
		description:
			"The clock of the machine running n8n is off. Synchronise it (NTP). The node already retried once with the server's time from its Date header.",
	},
	invalid_timestamp: {
		message: 'The Partner API refused the request timestamp as malformed',
		description: 'The timestamp header must be Unix seconds. If you set it yourself in an HTTP Request node, remove it.',
	},
	replayed_signature: {
		message: 'The Partner API refused a signature it had already seen',
		description:
			'The same request was sent twice with the same signature, e.g. by a proxy that retries. Try again; each new attempt is signed afresh.',
	},
	client_inactive: {
		message: 'This partner application is deactivated',
		description: 'The marketplace operator has deactivated this Client ID. Ask the operator to reactivate it or issue new credentials.',
	},
	insufficient_permission: {
		message: 'This partner application lacks the permission for this operation',
		description:
			'Ask the marketplace operator to grant the permission (orders:read for listing orders, orders:detail for order details, stock:write for stock updates).',
	},
	order_not_found: {
		message: 'The order item was not found',
		description:
			"Check the Order Item ID: take it from Order › Get Many (field order_item_id). An order item of another seller is also answered as not found, because this app sees only its own seller's orders.",
	},
	product_not_found: {
		message: 'The product was not found',
		description: 'Check the Product ID: it is the marketplace product_id, not your SKU or your own system\'s id.',
	},
	forbidden_product: {
		message: 'The product belongs to another seller',
		description:
			"This app can change only its own seller's products. Check the Product ID, or use the credential of the seller who owns this product.",
	},
	variant_not_found: {
		message: 'The variant combination was not found for this product',
		description: 'Check the Variant Combination ID: it must be one of this product\'s variants (see product.variant_combination_id in an order detail).',
	},
	variant_required: {
		message: 'This product has variants: the stock must be set per variant',
		description: 'Set Variant Combination ID to the variant whose stock you are updating.',
	},
	negative_stock: {
		message: 'The stock must not be negative',
		description: 'Send 0 or more.',
	},
	invalid_field: { message: 'The Partner API refused a field of the request', description: '' },
	missing_field: { message: 'The Partner API is missing a required field', description: '' },
	invalid_parameter: { message: 'The Partner API refused a parameter of the request', description: '' },
	invalid_json: {
		message: 'The Partner API could not read the request body as JSON',
		description: 'If you send a custom body through the HTTP Request node, check it is valid JSON.',
	},
	unsupported_media_type: {
		message: 'The Partner API needs Content-Type: application/json',
		description: 'If you send a custom request through the HTTP Request node, send the body as JSON.',
	},
	payload_too_large: { message: 'The request body is too large for the Partner API', description: '' },
	endpoint_not_found: {
		message: 'The Partner API has no such endpoint',
		description: "Check the credential's Base URL: it must end in /v1, e.g. https://partner.example.com/api/partner/v1.",
	},
	method_not_allowed: { message: 'The Partner API does not accept this HTTP method here', description: '' },
	rate_limited: {
		message: 'The Partner API is rate limiting this app',
		description: 'The node waited as the API asked (Retry-After) and slowed down. Lower Concurrency, raise Give Up After, or run the workflow later.',
	},
	service_unavailable: {
		message: 'The Partner API is temporarily unavailable',
		description: 'The node retried with backoff. Try again later, or raise Give Up After to wait longer.',
	},
};

export interface ApiErrorBody {
	code?: string;
	message?: string;
	field?: string;
}

/** The value of a JSON text, or undefined when it is not JSON: answers of any shape are expected. */
export function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** How much of an API's message, code and field an error shows: enough to read, bounded whatever came. */
const MESSAGE_CHARS = 500;
const NAME_CHARS = 100;
/** How much of an answer that is not an API error is shown. */
const SNIPPET_CHARS = 300;

/** An answer's body read once: its JSON value (the text itself when it is not JSON), and what it says as an error. */
export interface ReadBody {
	body: unknown;
	error: ApiErrorBody;
}

export function readBody(raw: unknown): ReadBody {
	const body = typeof raw === 'string' ? (parseJson(raw) ?? raw) : raw;
	return { body, error: errorOf(body) };
}

/** What an answer (its text, or its JSON value) says as an error; see readBody to read it once. */
export function readErrorBody(body: unknown): ApiErrorBody {
	return readBody(body).error;
}

/**
 * Finds `{ error: { code, message } }`, `{ error: "code", message }`, `{ errors: [{ code, message }] }`,
 * `{ status: "error", code, message }` and similar shapes, each part cut to a readable length.
 */
function errorOf(body: unknown): ApiErrorBody {
	if (!body || typeof body !== 'object') return {};
	const top = body as Record<string, unknown>;
	const inner = top.error ?? (Array.isArray(top.errors) ? top.errors[0] : undefined);
	const source = inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : top;
	const pick = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
	const code = pick(source.code) ?? pick(inner) ?? pick(top.error_code);
	const message = pick(source.message) ?? pick(top.message) ?? pick(top.error_description);
	const field = pick(source.field);
	return {
		code: code && cut(code, NAME_CHARS),
		message: message && oneLine(message, MESSAGE_CHARS),
		field: field && cut(field, NAME_CHARS),
	};
}

function snippet(body: unknown): string {
	return oneLine(typeof body === 'string' ? body : jsonPreview(body ?? '', SNIPPET_CHARS), SNIPPET_CHARS);
}

/** What the API said, as the descriptions quote it: its message without its own full stops, and the field it named. */
function apiSaid(message: string | null | undefined, field: string | null | undefined): string {
	return [message && trimEnd(message, /[.\s]/), field && `(field: ${field})`].filter(Boolean).join(' ');
}

/** An error for an HTTP answer that is not a success, whatever shape its body has. */
export function apiErrorFromResponse(node: INode, statusCode: number, raw: unknown, itemIndex?: number, { body, error: parsed }: ReadBody = readBody(raw)): NodeApiError {
	const known = parsed.code ? ownValue(API_ERRORS, parsed.code) : undefined;
	const detail = apiSaid(parsed.message, parsed.field);
	// n8n's error panel shows only the HTTP status as "Error code": the API's own code leads the
	// description, so "invalid_signature" is on screen next to "401".
	const apiCode = parsed.code ? `API code: ${parsed.code}.` : '';
	let message: string;
	let description: string;
	if (known) {
		message = known.message;
		description = [apiCode, detail && `The API said: ${detail}.`, known.description].filter(Boolean).join(' ');
	} else if (parsed.code || parsed.message) {
		message = `The Partner API refused the request (HTTP ${statusCode}${parsed.code ? `, ${parsed.code}` : ''})`;
		description = [apiCode, detail && `The API said: ${detail}.`].filter(Boolean).join(' ');
	} else if (statusCode === 500) {
		// The server's own failure (a PHP fatal error page, say), not a wrong address: its first bytes say which.
		message = 'The Partner API failed with a server error (HTTP 500)';
		description = `The error is on the marketplace's side: if it persists, tell its operator what the answer started with: ${snippet(body) || '(empty)'}`;
	} else {
		message = `The Partner API answered HTTP ${statusCode} with a body it does not normally send`;
		description = `Check the credential's Base URL. Response started with: ${snippet(body) || '(empty)'}`;
	}
	const errorResponse: JsonObject = { httpCode: String(statusCode), code: parsed.code ?? null, apiMessage: parsed.message ?? null, field: parsed.field ?? null };
	return new NodeApiError(node, errorResponse, { message, description, httpCode: String(statusCode), itemIndex });
}

/**
 * What an answer means when the request named its product by `sku`, the alternative the spec
 * mentions without publishing its field: the id-based explanations would send the user to the
 * Product ID they did not use.
 */
const BY_SKU: Record<string, Explanation> = {
	product_not_found: {
		message: 'No product has this SKU',
		description:
			"Check the SKU: it must be the seller's SKU exactly as the marketplace holds it (letters, case and inner spaces count; the node removes only spaces around it).",
	},
	forbidden_product: {
		message: 'The SKU belongs to another seller',
		description: "This app can change only its own seller's products. Check the SKU, or use the credential of the seller who owns it.",
	},
};

const SKU_NOT_ACCEPTED: Explanation = {
	message: 'This marketplace does not accept updates by SKU',
	description:
		'The node sent the product as sku, and the API asked for product_id instead: not every marketplace accepts SKUs. Set Identify Product By to Product ID and map the column that holds the marketplace product_id.',
};

/**
 * Re-explains an API refusal of a request that named its product by SKU. A marketplace that does
 * not take `sku` ignores it and then misses product_id: its answer names that field.
 */
export function explainBySku(error: NodeApiError): NodeApiError {
	const { code, apiMessage, field } = (error.errorResponse ?? {}) as { code?: string | null; apiMessage?: string | null; field?: string | null };
	const asksForProductId = Number(error.httpCode) < 500 && (field === 'product_id' || (!field && /product_id/.test(apiMessage ?? '')));
	const explanation = asksForProductId ? SKU_NOT_ACCEPTED : code ? ownValue(BY_SKU, code) : undefined;
	if (!explanation) return error;
	const said = apiSaid(apiMessage, field);
	error.message = explanation.message;
	error.description = [code && `API code: ${code}.`, said && `The API said: ${said}.`, explanation.description].filter(Boolean).join(' ');
	return error;
}

const FOREIGN_ORDER: Explanation = {
	message: 'The order item is not this seller\'s',
	description:
		"The API refused it (HTTP 403): a marketplace may answer another seller's order item as refused or as not found. Check the Order Item ID: take it from Order › Get Many (field order_item_id) of this credential.",
};

/**
 * Re-explains a 403 of the order detail endpoint: besides a missing permission (its own code), the
 * spec lets the API refuse another seller's order item that way.
 */
export function explainOrderDetail(error: NodeApiError): NodeApiError {
	const { code, apiMessage } = (error.errorResponse ?? {}) as { code?: string | null; apiMessage?: string | null };
	if (error.httpCode !== '403' || (code && ownValue(API_ERRORS, code) && code !== 'order_not_found')) return error;
	const said = apiSaid(apiMessage, undefined);
	error.message = FOREIGN_ORDER.message;
	error.description = [code && `API code: ${code}.`, said && `The API said: ${said}.`, FOREIGN_ORDER.description].filter(Boolean).join(' ');
	return error;
}

/**
 * A request the run stopped before it reached the API (the run gave up, or another row failed):
 * nothing was changed by it, so it is told apart from a request the API refused.
 */
export class NotSentError extends NodeOperationError {
	constructor(node: INode, reason: string, itemIndex?: number) {
		super(node, 'Not sent: the node stopped before sending this request', { description: reason, itemIndex });
	}
}

/**
 * What a failed request's error says of itself, most specific first: its cause's code and message,
 * its own, and the network's own words, which n8n 1.x keeps in `messages` of the error it wraps
 * them in ("socket hang up"). Only non-empty text: anything can be thrown.
 */
function failureWords(failure: unknown): string[] {
	const e = failure as { code?: unknown; message?: unknown; messages?: unknown; cause?: { code?: unknown; message?: unknown } } | null | undefined;
	const messages: unknown[] = Array.isArray(e?.messages) ? e.messages : [];
	return [e?.cause?.code, e?.code, e?.cause?.message, e?.message, ...messages].filter((part): part is string => typeof part === 'string' && part !== '');
}

// Failures that say a request got no answer, so that trying again may get one.
const RETRYABLE_NETWORK = /ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ECONNABORTED|EAI_AGAIN|socket hang up|other side closed|timeout/i;

/** The network failure a request's error reports, when a retry may cure it; undefined for any other failure. */
export function networkCode(failure: unknown): string | undefined {
	for (const word of failureWords(failure)) {
		const code = RETRYABLE_NETWORK.exec(word)?.[0];
		if (code) return code;
	}
	return undefined;
}

/**
 * Whether a request was cancelled by the signer's deadline (requestSigner.ts): an answer still
 * arriving at the time-out. axios words that "canceled", as it words a run cancelled by the user,
 * which is told apart by the time it came.
 */
export function cutAtDeadline(failure: unknown, elapsedMs: number, timeoutMs: number): boolean {
	return elapsedMs >= timeoutMs && failureWords(failure).some((word) => word === 'ERR_CANCELED' || word === 'canceled');
}

/**
 * An error for an answer that is not HTTP at all (n8n says only "Parse Error: Expected HTTP/"):
 * the Base URL points at a port where something else listens, or https at an http port. Undefined
 * for any other failure.
 */
export function notHttpError(node: INode, failure: unknown, baseUrl: string, itemIndex?: number): NodeOperationError | undefined {
	const said = [...new Set(failureWords(failure))].join(' ');
	const tls = /EPROTO|wrong version number|packet length too long/i.test(said);
	if (!tls && !/HPE_|Parse Error/i.test(said)) return undefined;
	return new NodeOperationError(node, tls ? 'The Base URL does not speak https' : 'The Base URL does not answer in HTTP', {
		description: `The server at ${new URL(baseUrl).origin} answered something that is not ${tls ? 'TLS' : 'HTTP'} (${said.slice(0, 120)}). Check the credential's Base URL: scheme (https or http), host and port must be the Partner API's, ending in /v1.`,
		itemIndex,
	});
}

// n8n 2.x's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) refusing an address or a host name
// before connecting: its errors by name (SsrfBlockedIpError, SsrfBlockedHostnameError) or by words.
const SSRF_BLOCKED = /SsrfBlocked(?:Ip|Hostname)Error|request was blocked because (?:it resolves to a restricted IP address|the destination hostname is restricted)/;

/**
 * An error for a request n8n's SSRF protection refused (nothing was sent, nothing retried): the administrator's to
 * allow, not the data's to fix, with the exact setting that allows the Base URL's host. An address
 * in the URL is allowed by its range only: n8n consults allowed host names for names alone.
 * Undefined for any other failure.
 */
export function ssrfBlockedError(node: INode, failure: unknown, baseUrl: string, itemIndex?: number): NodeApiError | undefined {
	const e = failure as { name?: unknown; cause?: { name?: unknown } } | null | undefined;
	const said = [e?.name, e?.cause?.name, ...failureWords(failure)].filter((part): part is string => typeof part === 'string');
	if (!said.some((word) => SSRF_BLOCKED.test(word))) return undefined;
	const host = new URL(baseUrl).hostname;
	const bare = host.replace(/^\[|\]$/g, '');
	const allow = bare.includes(':')
		? `N8N_SSRF_ALLOWED_IP_RANGES=${bare}/128`
		: /^\d{1,3}(?:\.\d{1,3}){3}$/.test(bare)
			? `N8N_SSRF_ALLOWED_IP_RANGES=${bare}/32`
			: `N8N_SSRF_ALLOWED_HOSTNAMES=${bare}`;
	// A NodeApiError without an API code, as for a network failure: the row's values are not at fault.
	return new NodeApiError(node, { ssrfBlocked: host } as JsonObject, {
		message: "n8n's SSRF protection blocked the request to the Base URL",
		description: `This n8n refuses requests to ${host} (N8N_SSRF_PROTECTION_ENABLED: it blocks private, loopback and other internal addresses, and host names its administrator lists). Nothing was sent. If ${host} is your marketplace's Partner API, the n8n administrator allows exactly it with ${allow}; otherwise correct the credential's Base URL.`,
		itemIndex,
	});
}

/** What a network error code means, in words; the code itself is shown beside it. */
export function describeNetworkError(code: string): string {
	if (/ECONNREFUSED/i.test(code)) return 'the connection was refused';
	if (/ETIMEDOUT|ECONNABORTED|timeout/i.test(code)) return 'the request timed out';
	if (/ENOTFOUND|EAI_AGAIN/i.test(code)) return 'the host name could not be resolved';
	if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) return 'the TLS certificate was not accepted';
	return 'the connection was closed before an answer came';
}

/**
 * The error for a redirect (3xx) answer. A signed request is never sent on to another address, nor
 * anything read from there as the API's answer: the signature headers and a stock update's body
 * would go wherever the server points. Names where it pointed (a bounded, printable excerpt).
 */
export function redirectError(node: INode, statusCode: number, location: unknown, baseUrl: string, itemIndex?: number): NodeApiError {
	const raw = Array.isArray(location) ? location[0] : location;
	const target = typeof raw === 'string' && raw !== '' ? raw.slice(0, 200).replace(/[^\x20-\x7e]/g, '?') : undefined;
	return new NodeApiError(node, { statusCode, location: target ?? null } as JsonObject, {
		httpCode: String(statusCode),
		message: `The Partner API answered with a redirect (HTTP ${statusCode})${target ? ` to ${target}` : ''}, which is not followed`,
		description: `A signed request is never sent to another address. Correct the credential's Base URL (${baseUrl}) to the address the Partner API answers at${target ? ', e.g. the one it redirected to, if you trust it' : ''}.`,
		itemIndex,
	});
}
