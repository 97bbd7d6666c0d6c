// Every call of the Partner API goes through apiRequest: signing (in the credential), retries,
// clock correction and error mapping live here once.
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IN8nHttpFullResponse,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { CREDENTIAL_TYPE, parseCredentials, type PartnerCredentials } from './credentials';
import { toNodeError } from '../helpers/items';
import { apiErrorFromResponse, parseJson, readErrorBody } from './errors';
import { buildQueryString, type QueryValue } from './signing';

/** Who may call the API: an action node's run, or a polling trigger's poll. */
export type ApiContext = IExecuteFunctions | IPollFunctions;

export type Endpoint = '/orders.php' | '/order_detail.php' | '/stock_update.php' | '/ping.php';

/**
 * Every endpoint is safe to retry: GETs read, and a stock update sets an absolute value, so
 * applying it twice leaves the same stock as applying it once. Retried: 429 (after Retry-After),
 * 502/503/504 and connections dropped before an answer. Each attempt is signed afresh.
 */
const MAX_RETRIES = 4;
const RETRY_BASE_MS = 300;
const MAX_RETRY_AFTER_MS = 60_000;
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const RETRYABLE_NETWORK = /ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ECONNABORTED|EAI_AGAIN|socket hang up|other side closed/i;
const REQUEST_TIMEOUT_MS = 30_000;

/** Seconds the API's clock is ahead of ours, per base URL, learnt from an expired_timestamp answer. */
const clockOffsets = new Map<string, number>();

export interface RequestOptions {
	qs?: Record<string, QueryValue>;
	body?: IDataObject;
	itemIndex?: number;
}

interface LoadedCredentials {
	decrypted: ICredentialsDecrypted;
	parsed: PartnerCredentials;
}

// One credential read per node run: in n8n each read is a database query plus a decryption, and a
// sheet of thousands of rows would otherwise pay for it twice per row.
const credentialsByRun = new WeakMap<ApiContext, Promise<LoadedCredentials>>();

async function loadCredentials(this: ApiContext, itemIndex = 0): Promise<LoadedCredentials> {
	const data = await this.getCredentials(CREDENTIAL_TYPE, itemIndex);
	let parsed: PartnerCredentials;
	try {
		parsed = parseCredentials(data);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), (error as Error).message, { itemIndex });
	}
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return { decrypted: { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data }, parsed };
}

function credentialsFor(this: ApiContext, itemIndex?: number): Promise<LoadedCredentials> {
	let loaded = credentialsByRun.get(this);
	if (!loaded) {
		loaded = loadCredentials.call(this, itemIndex);
		credentialsByRun.set(this, loaded);
		loaded.catch(() => credentialsByRun.delete(this)); // a failed read is retried by the next item
	}
	return loaded;
}

function retryAfterMs(header: unknown): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' || value === '') return undefined;
	if (/^\d+$/.test(value)) return Number(value) * 1000;
	const at = Date.parse(value);
	return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function backoffMs(retry: number): number {
	const exp = RETRY_BASE_MS * 2 ** retry;
	return exp / 2 + Math.random() * (exp / 2);
}

function networkCode(error: unknown): string | undefined {
	const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
	const text = [e?.cause?.code, e?.code, e?.cause?.message, e?.message].filter(Boolean).join(' ');
	return RETRYABLE_NETWORK.test(text) ? (text.match(RETRYABLE_NETWORK)?.[0] ?? 'network error') : undefined;
}

export async function apiRequest(
	this: ApiContext,
	method: IHttpRequestMethods,
	endpoint: Endpoint,
	{ qs, body, itemIndex }: RequestOptions = {},
): Promise<IDataObject> {
	const { decrypted, parsed: credentials } = await credentialsFor.call(this, itemIndex);
	const query = qs ? buildQueryString(qs) : '';
	const url = `${credentials.baseUrl}${endpoint}${query ? `?${query}` : ''}`;
	// Serialised once, here: these exact bytes are signed and sent on every attempt.
	const rawBody = body === undefined ? undefined : JSON.stringify(body);
	let retries = 0;
	let clockCorrected = false;

	for (;;) {
		const headers: IDataObject = { Accept: 'application/json' };
		if (rawBody !== undefined) headers['Content-Type'] = 'application/json';
		const offset = clockOffsets.get(credentials.baseUrl);
		if (offset) headers[`${credentials.headerPrefix}TIMESTAMP`] = String(Math.floor(Date.now() / 1000) + offset);

		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{
					method,
					url,
					body: rawBody,
					headers,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					timeout: REQUEST_TIMEOUT_MS,
				},
				// Already read for this run: spares n8n a second read per request.
				{ credentialsDecrypted: decrypted },
			)) as IN8nHttpFullResponse;
		} catch (error) {
			const code = networkCode(error);
			if (code && retries < MAX_RETRIES) {
				await sleep(backoffMs(retries++));
				continue;
			}
			if (code) {
				// The raw code stays out of `message` and `code`: n8n swaps such messages for a generic one.
				throw new NodeApiError(this.getNode(), { networkError: code } as JsonObject, {
					message: `Could not reach the Partner API: ${describeNetworkError(code)}`,
					description: `Tried ${retries + 1} times (last error: ${code}). Check the credential's Base URL (${credentials.baseUrl}) and that the API is reachable from this n8n.`,
					itemIndex,
				});
			}
			throw toNodeError.call(this, error, itemIndex);
		}

		const { statusCode, headers: responseHeaders } = response;
		const responseBody = response.body as unknown;
		if (statusCode >= 200 && statusCode < 300) {
			const envelope = (typeof responseBody === 'string' ? parseJson(responseBody) : responseBody) as IDataObject | undefined;
			if (envelope && envelope.ok === true && envelope.data && typeof envelope.data === 'object') {
				return envelope.data as IDataObject;
			}
			throw apiErrorFromResponse(this.getNode(), statusCode, responseBody, itemIndex);
		}

		if (RETRYABLE_STATUS.has(statusCode) && retries < MAX_RETRIES) {
			const asked = statusCode === 429 ? retryAfterMs(responseHeaders?.['retry-after']) : undefined;
			if (asked === undefined || asked <= MAX_RETRY_AFTER_MS) {
				await sleep(asked ?? backoffMs(retries));
				retries++;
				continue;
			}
		}

		if (statusCode === 401 && !clockCorrected && readErrorBody(responseBody).code === 'expired_timestamp') {
			const serverMs = Date.parse(String(responseHeaders?.date ?? ''));
			if (!Number.isNaN(serverMs)) {
				clockOffsets.set(credentials.baseUrl, Math.round((serverMs - Date.now()) / 1000));
				clockCorrected = true;
				continue;
			}
		}

		throw apiErrorFromResponse(this.getNode(), statusCode, responseBody, itemIndex);
	}
}

function describeNetworkError(code: string): string {
	if (/ECONNREFUSED/i.test(code)) return 'the connection was refused';
	if (/ETIMEDOUT/i.test(code)) return 'the connection timed out';
	if (/EAI_AGAIN/i.test(code)) return 'the host name could not be resolved';
	return 'the connection was closed before an answer came';
}
