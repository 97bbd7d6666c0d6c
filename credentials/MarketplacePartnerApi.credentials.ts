import type {
	ICredentialDataDecryptedObject,
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

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return await signRequestOptions(credentials, requestOptions);
	}
}
