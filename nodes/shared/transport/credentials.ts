// Reading and validating the credential's fields, once each, for the signer, the nodes, the Test
// button and the webhook trigger alike.
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { checkTimeZone } from '../helpers/values';
import { cut, trimEnd } from '../helpers/networkText';

export const CREDENTIAL_TYPE = 'marketplacePartnerApi';

/** The spec's stand-in for the service's own header prefix; the credential's default. */
export const DEFAULT_HEADER_PREFIX = 'X-SVC-';

export interface PartnerCredentials {
	/** Base URL without a trailing slash, e.g. https://partner.example.com/api/partner/v1 */
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	headerPrefix: string;
	/** The IANA zone the API writes its datetimes in (helpers/values.ts). */
	timeZone: string;
}

/**
 * The Header Prefix as every request and every webhook check uses it: trimmed (pasted with a space,
 * it would otherwise name other headers on one side only), the default when empty. Throws an Error
 * that says what to fix.
 */
export function headerPrefixOf(credentials: ICredentialDataDecryptedObject): string {
	const headerPrefix = String(credentials.headerPrefix ?? '').trim() || DEFAULT_HEADER_PREFIX;
	if (!/^[A-Za-z0-9-]+$/.test(headerPrefix)) {
		throw new Error(`The credential's Header Prefix may hold only letters, digits and dashes, like X-SVC-.`);
	}
	return headerPrefix;
}

/**
 * The secrets a webhook may be signed with: the Webhook Secret, and during a rotation the Previous
 * Webhook Secret. Keys, used exactly as given. Without a Webhook Secret none: the credential says
 * no delivery is accepted then, and a previous secret left in must not admit any on its own.
 */
export function webhookSecretsOf(credentials: ICredentialDataDecryptedObject): string[] {
	const secret = (name: string) => (typeof credentials[name] === 'string' ? (credentials[name] as string) : '');
	if (secret('webhookSecret') === '') return [];
	return [secret('webhookSecret'), secret('previousWebhookSecret')].filter((key) => key !== '');
}

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Throws an Error whose message says what to fix; never includes a secret. */
export function parseCredentials(credentials: ICredentialDataDecryptedObject): PartnerCredentials {
	const text = (name: string) => String(credentials[name] ?? '').trim();
	// Spaces and slashes at the end, in any order ("…/v1/ "), are pasting noise.
	const baseUrl = trimEnd(text('baseUrl'), /[\s/]/);
	// The URL reader drops these at the ends but keeps them, encoded, once a path follows: the
	// requests would go to another path than the one read here.
	if (/\p{Cc}/u.test(baseUrl)) {
		throw new Error(
			`The credential's Base URL holds an invisible character (a tab, line break or other control character). Type it again: the partner API address the operator gave you, ending in /v1.`,
		);
	}
	if (!URL.canParse(baseUrl)) {
		throw new Error(
			// Not quoted with an @: it may hold a password.
			`The credential's Base URL ${baseUrl.includes('@') ? '' : `"${cut(baseUrl, 200)}" `}is not a URL. Use the partner API address the operator gave you, ending in /v1.`,
		);
	}
	const parsed = new URL(baseUrl);
	// n8n would send them as Basic auth, and every message that names the Base URL would show them.
	if (parsed.username || parsed.password) {
		throw new Error(
			`The credential's Base URL holds a user name or password (before an @). Remove them: the Partner API signs with Client ID and Client Secret, and the Base URL is shown in error messages.`,
		);
	}
	if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && LOOPBACK_HOSTS.test(parsed.hostname))) {
		throw new Error(
			`The credential's Base URL must use https:// (plain http:// is allowed only for a local sandbox on 127.0.0.1 or localhost).`,
		);
	}
	// The Test button appends its path to the Base URL as typed, the nodes to the one read here: both
	// must be one URL. A ? or # breaks that even with nothing after it (which the URL reader drops):
	// "…/v1?" + "/ping.php" asks "…/v1" with the query "/ping.php".
	if (!/\/v\d+$/.test(parsed.pathname) || new URL(`${baseUrl}/ping.php`).href !== `${parsed.origin}${parsed.pathname}/ping.php`) {
		throw new Error(
			`The credential's Base URL must end in the version segment, e.g. https://partner.example.com/api/partner/v1 (got "${cut(baseUrl, 200)}").`,
		);
	}
	const headerPrefix = headerPrefixOf(credentials);
	const clientId = text('clientId');
	const clientSecret = String(credentials.clientSecret ?? '');
	if (!clientId) throw new Error(`The credential has no Client ID. Paste the Client ID the operator issued.`);
	if (!clientSecret) throw new Error(`The credential has no Client Secret. Paste the Client Secret the operator issued.`);
	return {
		// As the HTTP client sends it (host in lower case, no default port): the signer compares the
		// URLs it signs with this one, and an upper-case host or :443 is the same origin.
		baseUrl: `${parsed.origin}${parsed.pathname}`,
		clientId,
		clientSecret,
		headerPrefix,
		timeZone: timeZoneOf(credentials),
	};
}

/** The credential's Time Zone of the API (UTC when empty); an error that says what to set for a name that is no zone. */
export function timeZoneOf(credentials: ICredentialDataDecryptedObject): string {
	return checkTimeZone(String(credentials.timeZone ?? '').trim() || 'UTC');
}
