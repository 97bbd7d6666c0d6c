import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { DEFAULT_HEADER_PREFIX } from '../nodes/MarketplacePartner/transport/credentials';
import { signRequestOptions } from '../nodes/MarketplacePartner/transport/requestSigner';

export class MarketplacePartnerApi implements ICredentialType {
	name = 'marketplacePartnerApi';

	// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
	displayName = 'Marketplace Partner API';

	icon = { light: 'file:marketplacePartner.svg', dark: 'file:marketplacePartner.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-marketplace-partner/n8n-nodes-marketplace-partner/blob/main/README.md';

	// Lets the HTTP Request node sign custom calls (e.g. the announced extension endpoints).
	httpRequestNode = {
		name: 'Marketplace Partner',
		docsUrl: 'https://github.com/n8n-nodes-marketplace-partner/n8n-nodes-marketplace-partner/blob/main/README.md',
		apiBaseUrlPlaceholder: 'https://partner.example.com/api/partner/v1/ping.php',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://partner.example.com/api/partner/v1',
			description:
				'The partner API address the marketplace operator gave you, ending in the version segment /v1. Must be https:// (http:// only for a local sandbox on 127.0.0.1).',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description: 'Public identifier of your partner application, issued by the marketplace operator',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Signs every request (HMAC-SHA256). It is never sent, only used to sign.',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Verifies the webhooks the marketplace sends to the Marketplace Partner Trigger node',
		},
		{
			displayName: 'Previous Webhook Secret',
			name: 'previousWebhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'During a secret rotation, webhooks signed with this older secret are still accepted. Clear it once the rotation is done.',
		},
		{
			displayName: 'Header Prefix',
			name: 'headerPrefix',
			type: 'string',
			default: DEFAULT_HEADER_PREFIX,
			description:
				"Prefix of the authentication and webhook headers (CLIENT-ID, TIMESTAMP, SIGNATURE…). The spec writes X-SVC- for the service's own prefix; use the one the operator gives you.",
		},
		{
			displayName: 'Time Zone of the API',
			name: 'timeZone',
			type: 'string',
			default: 'UTC',
			placeholder: 'Europe/Istanbul',
			description:
				'The zone the API writes its datetimes (created_at, updated_at) in, as an IANA name. The spec does not say; many marketplaces write their server\'s local time. Used to turn Updated After, Start From and look-backs into the API\'s datetimes. Connection > Check Setup tells you which zone your marketplace uses.',
		},
	];
	// Stryker restore all

	/**
	 * The Test button: a signed GET /ping.php, judged by n8n's own tester. A declarative test, as
	 * n8n's verification wants (a credential-test function would need the deprecated
	 * `helpers.request`). n8n shows a rule's message when a failed answer has that HTTP status
	 * (`responseCode`), or when a 2xx answer has that value at that key (`responseSuccessBody`, for
	 * marketplaces that write errors as HTTP 200); the first rule that matches wins.
	 */
	test: ICredentialTestRequest = {
		request: {
			// Pasted with spaces or trailing slashes, the Base URL still works (as in the nodes).
			baseURL: '={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "") }}',
			url: '/ping.php',
			method: 'GET',
			timeout: 15000,
		},
		// n8n's type takes rules of one kind, its tester any mix (it checks each rule's type).
		rules: [
			...statusRule(401, 'The API refused the signature (HTTP 401): check the Client ID, the Client Secret and the Header Prefix, and that the clock of the machine running n8n is right.'),
			...statusRule(403, 'The API refused this partner application (HTTP 403): it may be deactivated or lack a permission. Ask the marketplace operator.'),
			...statusRule(404, 'The Base URL has no Partner API /ping.php under it (HTTP 404): check it is the partner API address ending in /v1.'),
			...statusRule(429, 'The API is rate limiting this partner application (HTTP 429): try again in a minute.'),
			...[500, 502, 503, 504].flatMap((status) =>
				statusRule(status, `The API answered with a server error (HTTP ${status}): try again later, or check the Base URL.`),
			),
			// Errors written as HTTP 200, nested ({"error": {"code"}}) or flat ({"code"}).
			...bodyRules('invalid_signature', 'The API could not verify the signature: the Client ID or Client Secret is wrong.'),
			...bodyRules('expired_timestamp', 'The API refused the timestamp: the clock of the machine running n8n is off. Synchronise it (NTP).'),
			...bodyRules('missing_auth_headers', 'The API did not see the authentication headers: check the Header Prefix.'),
			...bodyRules('client_inactive', 'This partner application is deactivated: ask the marketplace operator.'),
			...bodyRules('endpoint_not_found', 'The Base URL has no Partner API /ping.php under it: check it is the partner API address ending in /v1.'),
			...[false, 0, '0', 'false'].map((value) => ({
				type: 'responseSuccessBody' as const,
				properties: {
					key: 'ok',
					value,
					message: 'The API refused the credentials. Check Client ID, Client Secret and Header Prefix.',
				},
			})),
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'ok',
					value: undefined,
					message: 'The Base URL does not answer like the Partner API (no "ok" in its answer): check it is the partner API address ending in /v1.',
				},
			},
		] as Rule[] as IAuthenticateRuleResponseSuccessBody[],
	};

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return await signRequestOptions(credentials, requestOptions);
	}
}

type Rule = IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody;

function statusRule(value: number, message: string): Rule[] {
	return [{ type: 'responseCode', properties: { value, message } }];
}

function bodyRules(code: string, message: string): Rule[] {
	return ['error.code', 'code'].map((key) => ({ type: 'responseSuccessBody', properties: { key, value: code, message } }));
}
