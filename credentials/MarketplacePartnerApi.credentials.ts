import type {
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { DEFAULT_HEADER_PREFIX } from '../nodes/shared/transport/credentials';
import { signRequestOptions } from '../nodes/shared/transport/requestSigner';
import { FALSE_FLAG_SPELLINGS } from '../nodes/shared/transport/answerReading';

export class MarketplacePartnerApi implements ICredentialType {
	name = 'marketplacePartnerApi';

	// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
	displayName = 'Marketplace Partner API';

	icon = { light: 'file:marketplacePartner.svg', dark: 'file:marketplacePartner.dark.svg' } as const;

	// The npm page shows the README; npm prefixes heading ids with user-content-. n8n opens this URL as it is.
	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-marketplace-partner#user-content-credentials';

	// Lets the HTTP Request node sign custom calls (e.g. the announced extension endpoints).
	httpRequestNode = {
		name: 'Marketplace Partner',
		docsUrl: 'https://www.npmjs.com/package/n8n-nodes-marketplace-partner#user-content-custom-api-calls',
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
				'The partner API address the marketplace operator gave you, ending in the version segment /v1. Must be https:// (http:// only for a test server on this machine, 127.0.0.1).',
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
			// Shown while the field is empty: the trigger answers every delivery 401 until then.
			displayName:
				'Without a Webhook Secret, the Marketplace Partner Trigger refuses every webhook delivery. Ask the marketplace operator for the webhook secret of your partner application and enter it above.',
			name: 'webhookVerificationNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { webhookSecret: [''] } },
		},
		{
			displayName: 'Previous Webhook Secret',
			name: 'previousWebhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'During a secret rotation, webhooks the marketplace still sends with this older secret are accepted too. Clear it once the rotation is done.',
		},
		{
			displayName: 'Header Prefix',
			name: 'headerPrefix',
			type: 'string',
			default: DEFAULT_HEADER_PREFIX,
			description:
				"Prefix of the authentication and webhook headers (CLIENT-ID, TIMESTAMP, SIGNATURE…). X-SVC- stands for your marketplace's own prefix: use the one the operator gives you.",
		},
		{
			displayName: 'Time Zone of the API',
			name: 'timeZone',
			type: 'string',
			default: 'UTC',
			placeholder: 'Europe/Istanbul',
			description:
				"The IANA zone the API writes created_at and updated_at in, often its server's local time. Connection › Check Setup tells you which.",
		},
	];
	// Stryker restore all

	/**
	 * The Test button: a signed GET /ping.php, judged by n8n's own tester. A declarative test, as
	 * n8n's verification wants (a credential-test function would need the deprecated
	 * `helpers.request`). Every answer is read, whatever its HTTP status (`ignoreHttpStatusErrors`):
	 * n8n shows a rule's message when the answer's body has that value at that key, and the API's
	 * error code says more than the status (a 401 is a wrong secret, a clock or a header prefix).
	 * n8n 1.x's tester also loses the status of a refused request, so rules by status would not
	 * reach 1.x users. The first rule that matches wins; none matching is "Connection successful!".
	 */
	test: ICredentialTestRequest = {
		request: {
			// Pasted with spaces or trailing slashes, the Base URL still works (as in the nodes). The
			// lookbehind starts a match only at the first character of a run: `[\s/]+$` alone is quadratic.
			baseURL: '={{ String($credentials.baseUrl).trim().replace(/(?<![\\s\\/])[\\s\\/]+$/, "") }}',
			url: '/ping.php',
			method: 'GET',
			ignoreHttpStatusErrors: true,
			timeout: 15000,
		},
		rules: [
			// The error code wherever the marketplace writes it: {"error": {"code"}} (the spec's shape),
			// {"error": "<code>"}, {"code"} (JSend) or {"errors": [{"code"}]}.
			...codeRules(['invalid_signature', 'replayed_signature'], 'The API could not verify the signature: the Client ID or Client Secret is wrong.'),
			...codeRules(['expired_timestamp', 'invalid_timestamp'], 'The API refused the timestamp: the clock of the machine running n8n is off. Synchronise it (NTP).'),
			...codeRules(['missing_auth_headers'], 'The API did not see the authentication headers: check the Header Prefix.'),
			...codeRules(['client_inactive'], 'This partner application is deactivated: ask the marketplace operator.'),
			...codeRules(['endpoint_not_found'], 'The Base URL has no Partner API /ping.php under it: check it is the partner API address ending in /v1.'),
			...codeRules(['rate_limited'], 'The API is rate limiting this partner application: try again in a minute.'),
			...codeRules(['service_unavailable'], 'The API is unavailable at the moment: try again later.'),
			// Any other refusal, with the ok flag as JSON or as PHP writes it: every form the nodes read as false.
			...FALSE_FLAG_SPELLINGS.map((value) => ({
				type: 'responseSuccessBody' as const,
				properties: {
					key: 'ok',
					value,
					message: 'The API refused the test request. Check Client ID, Client Secret and Header Prefix.',
				},
			})),
			// A web page, another API, an empty answer.
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'ok',
					value: undefined,
					message: 'The Base URL does not answer like the Partner API: check it is the partner API address ending in /v1.',
				},
			},
		],
	};

	// An own property, not a method: n8n copies a credential type with `{ ...type }` before it serves
	// it to the editor, which drops a prototype's method, and HTTP Request's Credential Type list
	// offers only types that have `authenticate` (it showed "No matching data").
	authenticate = async (credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> =>
		await signRequestOptions(credentials, requestOptions);
}

function codeRules(codes: string[], message: string): IAuthenticateRuleResponseSuccessBody[] {
	return codes.flatMap((value) => ['error.code', 'error', 'code', 'errors.0.code'].map((key) => ({ type: 'responseSuccessBody' as const, properties: { key, value, message } })));
}
