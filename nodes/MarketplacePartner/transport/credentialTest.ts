// The credential's Test button. A function rather than a declarative `test`: n8n's tester shows a
// declarative test's network failure as the bare code ("ECONNREFUSED"), which says nothing about
// the Base URL. Every node that uses the credential names this test
// (`testedBy: 'marketplacePartnerApiTest'`, a literal: the community lint reads it from the source).
import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';
import { parseCredentials } from './credentials';
import { describeNetworkError, readErrorBody } from './errors';
import { signRequestOptions } from './requestSigner';
import { readFlag } from './answers';

const TEST_TIMEOUT_MS = 15_000;

/** What a refused ping means for the credential's fields, by the API's error code. */
const REFUSALS: Record<string, string> = {
	invalid_signature: 'The API could not verify the signature: the Client ID or Client Secret is wrong.',
	expired_timestamp: 'The API refused the timestamp: the clock of the machine running n8n is off. Synchronise it (NTP).',
	missing_auth_headers: 'The API did not see the authentication headers: check the Header Prefix.',
	client_inactive: 'This partner application is deactivated: ask the marketplace operator.',
	endpoint_not_found: 'The Base URL has no Partner API /ping.php under it: check it is the partner API address ending in /v1.',
};

/** The verdict on a /ping.php answer of any status and body shape. */
export function judgePing(statusCode: number, body: unknown): INodeCredentialTestResult {
	// Any JSON value or text: `ok` is read off whatever came (a string or number has none).
	const ok = readFlag(((body ?? {}) as { ok?: unknown }).ok);
	if (statusCode >= 200 && statusCode < 300 && ok === true) return { status: 'OK', message: 'Connection successful!' };
	const { code } = readErrorBody(body);
	if (code && REFUSALS[code]) return { status: 'Error', message: REFUSALS[code] };
	if (ok === false) {
		return {
			status: 'Error',
			message: `The API refused the credentials (HTTP ${statusCode}${code ? `, ${code}` : ''}). Check Client ID, Client Secret and Header Prefix.`,
		};
	}
	return {
		status: 'Error',
		message: `The Base URL does not answer like the Partner API (HTTP ${statusCode}): check it is the partner API address ending in /v1.`,
	};
}

function networkCodeOf(error: unknown): string {
	const e = error as { code?: unknown; cause?: { code?: unknown } };
	const code = e?.cause?.code ?? e?.code;
	return typeof code === 'string' && code ? code : 'no answer';
}

export async function testPartnerApiCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	let baseUrl: string;
	let signed;
	try {
		baseUrl = parseCredentials(credential.data ?? {}).baseUrl;
		signed = await signRequestOptions(credential.data ?? {}, { method: 'GET', url: `${baseUrl}/ping.php` });
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
	let response: { statusCode: number; body: unknown };
	try {
		// `request` is the only HTTP helper n8n gives a credential test (ICredentialTestFunctions).
		// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions
		response = await this.helpers.request({
			method: 'GET',
			uri: signed.url,
			headers: signed.headers,
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			timeout: TEST_TIMEOUT_MS,
		});
	} catch (error) {
		const code = networkCodeOf(error);
		const where = new URL(baseUrl).origin;
		return {
			status: 'Error',
			message: `Could not reach ${where}: ${describeNetworkError(code)} (${code}). Check the Base URL (host, port, https), and that the API is reachable from this n8n.`,
		};
	}
	return judgePing(response.statusCode, response.body);
}
