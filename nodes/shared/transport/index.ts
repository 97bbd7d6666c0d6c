// Every call of the Partner API goes through apiRequest: signing (in the credential), retries,
// clock correction and error mapping live here once.
import type {
	ICredentialsDecrypted,
	IDataObject,
	IHttpRequestMethods,
	IN8nHttpFullResponse,
	IN8nHttpResponse,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { CREDENTIAL_TYPE, parseCredentials, type PartnerCredentials } from './credentials';
import { toNodeError } from '../helpers/items';
import { apiErrorFromResponse, cutAtDeadline, describeNetworkError, networkCode, NotSentError, notHttpError, readBody, redirectError, ssrfBlockedError } from './errors';
import { dateHeaderMs, retryAfterMs, successData } from './answerReading';
import { retryWaitMs, runPolicyOf, type ApiContext, type RunPolicy, type StopReason } from './runPolicy';
import { buildQueryString, type QueryValue } from './signing';

export type Endpoint = '/orders.php' | '/order_detail.php' | '/stock_update.php' | '/ping.php';
/** A known endpoint, or one a custom API call names (under the Base URL, checked by customPath). */
export type Path = Endpoint | `/${string}`;

/**
 * Every endpoint is safe to retry: GETs read, and a stock update sets an absolute value, so
 * applying it twice leaves the same stock as applying it once. Retried: 429 and 503 (after their
 * Retry-After), 502/504, time-outs and connections dropped before an answer, for as long as the
 * run's policy (runPolicy.ts) allows; 500 a few times (SERVER_ERROR_RETRIES). Each attempt is
 * signed afresh.
 */
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/**
 * Retries of a request answered 500, within Give Up After. A 500 is the server failing on this
 * request (a PHP fatal error page): often passing (a database connection lost once), but it may
 * be this request's own bug, which no wait cures; 502/503/504 say "not now" whatever the request.
 * Three retries (backoff 0.25 s doubling: about 1-2 s in all) outlast a passing failure without
 * sending a row that breaks the server again and again until Give Up After. Not a rate limit: the
 * run neither pauses nor slows down for it.
 */
const SERVER_ERROR_RETRIES = 3;
/** Network failures of a connection that never reached the API: a request that is not idempotent may be sent again after them. */
const NEVER_ARRIVED = /^(ECONNREFUSED|EAI_AGAIN)$/;
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * The most of one answer the node reads: a page of 100 order items, the largest answer, is some
 * 100 KB. n8n reads answers whole, without a bound (axios's maxContentLength is Infinity and not an
 * option of its requests), so the node takes the answer as a stream and stops reading past this:
 * the request fails at once, not retried (the same request would bring the same answer).
 */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** An answer longer than MAX_ANSWER_BYTES, left unread past them. */
class AnswerTooLarge extends Error {}

/** The answer's text, read up to MAX_ANSWER_BYTES (decompressed: a small gzip cannot fill memory). */
async function readAnswer(body: unknown): Promise<unknown> {
	// An n8n whose helper hands the body already read (not a stream) has read it whole already.
	if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return body;
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body as AsyncIterable<Buffer | string>) {
		const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		size += bytes.length;
		if (size > MAX_ANSWER_BYTES) {
			(body as { destroy(): void }).destroy();
			throw new AnswerTooLarge();
		}
		chunks.push(bytes);
	}
	// TextDecoder drops a byte order mark, as n8n's own reading did.
	return new TextDecoder().decode(Buffer.concat(chunks));
}
/**
 * The status an error answered with HTTP 2xx stands for, by its API code: some backends answer
 * every error with 200 and `ok: false`, and a rate limit or an expired timestamp must still be
 * handled as one.
 */
const STATUS_OF_CODE = new Map<string | undefined, number>([
	['rate_limited', 429],
	['service_unavailable', 503],
	['expired_timestamp', 401],
]);

/**
 * The largest clock difference the node corrects by itself. Beyond it, one of the two clocks is
 * wrong by more than drift (a Date header of 2099, a machine booted without NTP): signing with the
 * API's time would send timestamps no one can check, so the run stops and says which clock to fix.
 */
export const MAX_CLOCK_OFFSET_SEC = 15 * 60;

export interface RequestOptions {
	qs?: Record<string, QueryValue>;
	body?: IDataObject;
	itemIndex?: number;
	/**
	 * Whether sending the request twice does no harm (default: true, as for every known endpoint).
	 * A custom call's POST is not known to be: it is sent again only after an answer that says it
	 * was not taken (429, 503) or a connection that never reached the API.
	 */
	idempotent?: boolean;
	/** An endpoint whose answer's shape is not known: any `data` of a success is taken (see successData). */
	anyData?: boolean;
}

interface LoadedCredentials {
	decrypted: ICredentialsDecrypted;
	parsed: PartnerCredentials;
}

// One credential read per run (an execution of the node, or one poll): in n8n each read is a
// database query plus a decryption, and a sheet of thousands of rows would otherwise pay for it
// twice per row. Keyed by the run's policy, not its context: n8n runs every poll of an activation
// through one context, and an edited credential must count from the next poll on.
const credentialsByRun = new WeakMap<RunPolicy, Promise<LoadedCredentials>>();

async function loadCredentials(this: ApiContext, itemIndex = 0): Promise<LoadedCredentials> {
	const data = await this.getCredentials(CREDENTIAL_TYPE, itemIndex);
	let parsed: PartnerCredentials;
	try {
		parsed = parseCredentials(data);
	} catch (error) {
		// No item index here: the item that fails with it gets its own (toNodeError).
		throw new NodeOperationError(this.getNode(), (error as Error).message);
	}
	// n8n reads only the `data` of a credential handed to it (n8n-core 1.x and 2.x); the rest names
	// it as the node does, which getCredentials has just checked.
	const decrypted = { ...this.getNode().credentials![CREDENTIAL_TYPE], type: CREDENTIAL_TYPE, data } as ICredentialsDecrypted;
	return { decrypted, parsed };
}

function credentialsFor(this: ApiContext, run: RunPolicy, itemIndex?: number): Promise<LoadedCredentials> {
	let loaded = credentialsByRun.get(run);
	if (!loaded) {
		loaded = loadCredentials.call(this, itemIndex);
		credentialsByRun.set(run, loaded);
		loaded.catch(() => credentialsByRun.delete(run)); // a failed read is retried by the next item
	}
	return loaded;
}

/** The run's credential, as read for its requests: what an operation needs of it (the API's time zone). */
export async function apiCredentials(this: ApiContext, itemIndex?: number): Promise<PartnerCredentials> {
	return (await credentialsFor.call(this, runPolicyOf(this), itemIndex)).parsed;
}

/** The `data` of the API's success answer; any other answer is thrown as an error that explains it. */
export async function apiRequest(this: ApiContext, method: IHttpRequestMethods, endpoint: Path, options: RequestOptions = {}): Promise<IDataObject> {
	return (await send.call(this, method, endpoint, options, false)) as IDataObject;
}

/** A definitive answer as it came (status, headers, body parsed when JSON): what Check Setup inspects. */
export interface ApiAnswer {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/**
 * The API's first definitive answer, success or refusal, unread: only answers that are no answer
 * (429, 5xx, dropped connections) are retried, and an expired timestamp corrected, as for apiRequest.
 */
export async function apiAnswer(this: ApiContext, method: IHttpRequestMethods, endpoint: Endpoint, options: RequestOptions = {}): Promise<ApiAnswer> {
	return (await send.call(this, method, endpoint, options, true)) as ApiAnswer;
}

/**
 * One request as send() makes it: what every attempt sends (the same bytes, signed afresh), and what
 * the attempts have met so far.
 */
interface Exchange {
	context: ApiContext;
	policy: RunPolicy;
	method: IHttpRequestMethods;
	url: string;
	rawBody: string | undefined;
	credentials: LoadedCredentials;
	itemIndex?: number;
	idempotent: boolean;
	anyData: boolean;
	/** Answer a definitive refusal as it came (apiAnswer) instead of throwing it. */
	raw: boolean;
	attempts: number;
	serverErrors: number;
	clockCorrected: boolean;
	/** The last transient failure, thrown if the run stops before a retry succeeds. */
	lastError?: NodeApiError;
}

type ReadBody = ReturnType<typeof readBody>;

/** A definitive answer as apiAnswer gives it: status, headers, and the body as read once. */
function answerOf({ statusCode, headers }: IN8nHttpFullResponse, read: ReadBody): ApiAnswer {
	return { statusCode, headers, body: read.body };
}

/** What a step returns to send() when the request goes again (after the wait it has made). */
const SEND_AGAIN = Symbol('send again');
type Outcome = IDataObject | ApiAnswer | typeof SEND_AGAIN;

/**
 * The request, attempted until the API answers definitively, the run stops, or a failure is final:
 * each attempt takes a slot of the run's policy, and each answer is judged by one step below.
 */
async function send(
	this: ApiContext,
	method: IHttpRequestMethods,
	endpoint: Path,
	{ qs, body, itemIndex, idempotent = true, anyData = false }: RequestOptions,
	raw: boolean,
): Promise<IDataObject | ApiAnswer> {
	const policy = runPolicyOf(this);
	const credentials = await credentialsFor.call(this, policy, itemIndex);
	const query = qs ? buildQueryString(qs) : '';
	const exchange: Exchange = {
		context: this,
		policy,
		method,
		url: `${credentials.parsed.baseUrl}${endpoint}${query ? `?${query}` : ''}`,
		// Serialised once, here: these exact bytes are signed and sent on every attempt (none without a body).
		rawBody: JSON.stringify(body),
		credentials,
		itemIndex,
		idempotent,
		anyData,
		raw,
		attempts: 0,
		serverErrors: 0,
		clockCorrected: false,
	};
	for (;;) {
		if (!(await policy.acquire(exchange.attempts > 0))) throw stopped(this, policy, exchange.lastError, itemIndex);
		const sentAt = Date.now();
		const timeoutMs = policy.timeoutMs(REQUEST_TIMEOUT_MS);
		exchange.attempts++;
		const { response, failure } = await attempt(exchange, timeoutMs);
		const outcome = response ? await judgeAnswer(exchange, response, sentAt) : await judgeNoAnswer(exchange, failure, sentAt, timeoutMs);
		if (outcome !== SEND_AGAIN) return outcome;
	}
}

/** One attempt: the signed request through n8n's helper, its answer read within the same deadline. */
async function attempt({ context, policy, method, url, rawBody, credentials }: Exchange, timeoutMs: number): Promise<{ response?: IN8nHttpFullResponse; failure?: unknown }> {
	// Accept and Content-Type come from the credential's signer, which every request goes through.
	const headers: IDataObject = {};
	// Learnt in this run only (one execution, one poll): a clock set right since, or an API that
	// moved, must not be signed for; a run whose clock is still off learns it again with one request.
	const offset = policy.report.clockOffsetSec;
	if (offset) headers[`${credentials.parsed.headerPrefix}TIMESTAMP`] = String(Math.floor(Date.now() / 1000) + offset);
	try {
		const answer = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			{
				method,
				url,
				body: rawBody,
				headers,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: timeoutMs,
				encoding: 'stream',
			},
			// Already read for this run: spares n8n a second read per request.
			{ credentialsDecrypted: credentials.decrypted },
		)) as IN8nHttpFullResponse;
		// Read within the same deadline: an answer cut by it fails here, as a time-out.
		return { response: { ...answer, body: (await readAnswer(answer.body)) as IN8nHttpResponse } };
	} catch (error) {
		return { failure: error };
	}
}

/** No answer: an answer too large (final), a network failure or time-out (sent again when safe), or an error of n8n's (final). */
async function judgeNoAnswer(exchange: Exchange, failure: unknown, sentAt: number, timeoutMs: number): Promise<Outcome> {
	const { context, policy, method, itemIndex, attempts } = exchange;
	const { baseUrl } = exchange.credentials.parsed;
	if (failure instanceof AnswerTooLarge) {
		policy.answered();
		policy.release(true);
		throw new NodeApiError(context.getNode(), {} as JsonObject, {
			message: `The API's answer was larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB, where the node stops reading`,
			description: `No answer of the Partner API is near that size (a page of 100 order items is some 100 KB), so the node read no further and sent nothing again. Check the credential's Base URL (${baseUrl}); if it is right, report this to the marketplace operator.`,
			itemIndex,
		});
	}
	const code = networkCode(failure) ?? (cutAtDeadline(failure, Date.now() - sentAt, timeoutMs) ? 'ETIMEDOUT' : undefined);
	if (code) policy.failed(); // before the slot is freed: the next request must see it
	policy.release(!code);
	if (!code) {
		throw (
			notHttpError(context.getNode(), failure, baseUrl, itemIndex) ??
			ssrfBlockedError(context.getNode(), failure, baseUrl, itemIndex) ??
			toNodeError.call(context, failure, itemIndex)
		);
	}
	if (!exchange.idempotent && !NEVER_ARRIVED.test(code)) {
		throw new NodeApiError(context.getNode(), { networkError: code } as JsonObject, {
			message: `No answer from the Partner API (${describeNetworkError(code)}), and the request was not sent again`,
			description: `The request may have reached the API before the connection failed (${code}), and a ${method} to an endpoint this node does not know may not be safe to apply twice. Check in the marketplace whether it was applied before you run it again.`,
			itemIndex,
		});
	}
	// The raw code stays out of `message` and `code`: n8n swaps such messages for a generic one.
	exchange.lastError = new NodeApiError(context.getNode(), { networkError: code } as JsonObject, {
		message: `Could not reach the Partner API: ${describeNetworkError(code)}`,
		description: `Tried ${attempts} time${attempts === 1 ? '' : 's'} (last error: ${code}). Check the credential's Base URL (${baseUrl}) and that the API is reachable from this n8n.`,
		itemIndex,
	});
	// A run that stops meanwhile refuses the next attempt its slot (send()).
	await policy.waitToRetry(policy.backoffMs(attempts - 1), `no answer (${code})`, itemIndex);
	return SEND_AGAIN;
}

/** An answer: a redirect (final), a success, one to wait out and send again, a clock to correct, or a refusal. */
async function judgeAnswer(exchange: Exchange, response: IN8nHttpFullResponse, sentAt: number): Promise<Outcome> {
	const { context, policy, itemIndex } = exchange;
	const { statusCode: httpStatus, headers } = response;
	if (httpStatus >= 300 && httpStatus < 400) {
		// The signer turns redirects off: the 3xx itself is the answer, definitive and never followed.
		policy.answered();
		policy.release(true);
		throw redirectError(context.getNode(), httpStatus, headers.location, exchange.credentials.parsed.baseUrl, itemIndex);
	}
	// Parsed once, read once as an error: every step below shares it.
	const read = readBody(response.body);
	let statusCode = httpStatus;
	// 2xx: a 1xx is never an answer of its own, and a 3xx was handled above.
	if (httpStatus < 300) {
		const data = successData(read.body, exchange.anyData);
		if (data) {
			policy.answered();
			policy.release();
			return exchange.raw ? answerOf(response, read) : data;
		}
		statusCode = STATUS_OF_CODE.get(read.error.code) ?? httpStatus;
	}
	// Not taken (429, 503): safe to send again whatever the request; 500/502/504 only when idempotent.
	const retryable = exchange.idempotent || statusCode === 429 || statusCode === 503;
	if (retryable && (RETRYABLE_STATUS.has(statusCode) || (statusCode === 500 && ++exchange.serverErrors <= SERVER_ERROR_RETRIES))) {
		return await waitToSendAgain(exchange, response, read, statusCode, sentAt);
	}
	if (!exchange.clockCorrected && read.error.code === 'expired_timestamp') {
		const corrected = correctClock(exchange, response, read);
		if (corrected !== undefined) return corrected;
	}
	return refusal(exchange, response, read, statusCode, retryable);
}

/** An answer that says "not now" (429, 503, a passing 5xx): waited out as the API asks, within the node's floor and Give Up After. */
async function waitToSendAgain(exchange: Exchange, { statusCode: httpStatus, headers }: IN8nHttpFullResponse, read: ReadBody, statusCode: number, sentAt: number): Promise<Outcome> {
	const { context, policy, itemIndex } = exchange;
	policy.failed();
	policy.release();
	exchange.lastError = apiErrorFromResponse(context.getNode(), httpStatus, read.body, itemIndex, read);
	const asked = statusCode === 429 || statusCode === 503 ? retryAfterMs(headers['retry-after'], Date.now()) : undefined;
	if (statusCode === 429) policy.rateLimited(sentAt, asked);
	if (asked !== undefined && asked > policy.giveUpAfterMs) {
		// Waiting that long cannot happen within the run's bound: stop now rather than ask again.
		policy.stop({
			itemIndex,
			message: `The API asked to wait ${Math.ceil(asked / 1000)} s (Retry-After), longer than the node may wait without progress (Give Up After: ${Math.round(policy.giveUpAfterMs / 1000)} s).`,
		});
		throw stopped(context, policy, exchange.lastError, itemIndex);
	}
	await policy.waitToRetry(retryWaitMs(asked, policy.backoffMs(exchange.attempts - 1)), `HTTP ${httpStatus}${read.error.code ? ` (${read.error.code})` : ''}`, itemIndex);
	return SEND_AGAIN;
}

/**
 * An expired timestamp with the API's Date: a clock within MAX_CLOCK_OFFSET_SEC is corrected for
 * this run and the request sent again once; one further off is final. Undefined without a Date.
 */
function correctClock(exchange: Exchange, response: IN8nHttpFullResponse, read: ReadBody): Outcome | undefined {
	const { context, policy, itemIndex } = exchange;
	const serverMs = dateHeaderMs(response.headers);
	if (Number.isNaN(serverMs)) return undefined;
	const nowMs = Date.now();
	const ahead = Math.round((serverMs - nowMs) / 1000);
	if (Math.abs(ahead) <= MAX_CLOCK_OFFSET_SEC) {
		policy.report.clockOffsetSec = ahead;
		exchange.clockCorrected = true;
		policy.release();
		return SEND_AGAIN;
	}
	policy.answered();
	policy.release(true);
	// Check Setup reads the refusal itself, and reports the two clocks.
	if (exchange.raw) return answerOf(response, read);
	throw clockTooFarError(context.getNode(), serverMs, nowMs, itemIndex);
}

/**
 * A definitive refusal (the API is working, the request is wrong), or a 500 that persisted: this
 * request is done either way, and rows held back by its retries may go.
 */
function refusal(exchange: Exchange, response: IN8nHttpFullResponse, read: ReadBody, statusCode: number, retryable: boolean): ApiAnswer {
	const { context, policy, itemIndex, method } = exchange;
	policy.answered();
	policy.release(true);
	if (exchange.raw) return answerOf(response, read);
	const error = apiErrorFromResponse(context.getNode(), response.statusCode, read.body, itemIndex, read);
	if (exchange.lastError) policy.report.failedAfterRetries();
	if (!retryable && statusCode >= 500) error.description = `Not sent again: a ${method} to an endpoint this node does not know may not be safe to apply twice; check in the marketplace whether it was applied. ${error.description}`;
	else if (statusCode === 500) error.description = `Tried ${exchange.attempts} times, answered HTTP 500 ${exchange.serverErrors} times (a 500 is retried at most ${SERVER_ERROR_RETRIES} times). ${error.description}`;
	throw error;
}

function stopped(context: ApiContext, policy: RunPolicy, lastError: NodeApiError | undefined, itemIndex?: number) {
	// Only a stopped run ends a request here: its slot or its retry was refused.
	const { message } = policy.stopReasonIfAny as StopReason;
	if (!lastError) return new NotSentError(context.getNode(), message, itemIndex);
	lastError.description = `${lastError.description} ${message}`;
	return lastError;
}

/** An expired_timestamp whose Date header is further from this machine's clock than the node corrects. */
function clockTooFarError(node: INode, serverMs: number, nowMs: number, itemIndex?: number): NodeApiError {
	const minutes = Math.round(Math.abs(serverMs - nowMs) / 60_000);
	return new NodeApiError(node, { code: 'expired_timestamp' } as JsonObject, {
		message: `The API refused the request's timestamp, and its clock is ${minutes} minutes ${serverMs > nowMs ? 'ahead of' : 'behind'} this machine's`,
		description: `The API's clock (its Date header) says ${new Date(serverMs).toISOString()}, this machine's clock ${new Date(nowMs).toISOString()}. The node corrects a difference of up to ${MAX_CLOCK_OFFSET_SEC / 60} minutes by itself, not more, and signed nothing with the API's time. If this machine's clock is wrong, set it right (NTP); if it is right, the API's clock is wrong: report it to the marketplace operator.`,
		httpCode: '401',
		itemIndex,
	});
}
