// The credential's Test button, through n8n-core's CredentialTestContext and the real HTTP path.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MarketplacePartnerApi } from '../../credentials/MarketplacePartnerApi.credentials';
import { credentialTestsOf, nodeTypesUsingCredential, testCredential } from '../helpers/credentialTest';
import { credentialsFor } from '../helpers/n8n';
import { startReceiver } from '../helpers/receiver';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

describe('credential test (/ping.php)', () => {
	let sb: RunningSandbox;
	beforeAll(async () => (sb = await startSandbox()));
	afterAll(() => sb.close());

	/** The Test button against a server that answers every request with this status and body. */
	async function testAgainstAnswer(status: number, contentType: string, body: string) {
		const other = await startReceiver((_, res) => {
			res.writeHead(status, { 'content-type': contentType }).end(body);
		});
		try {
			return await testCredential(credentialsFor(other.url.replace('/hook', '/api/partner/v1'), sb.apps['seller-a-full']));
		} finally {
			await other.close();
		}
	}

	test('every node names this credential and the same test, and the credential has no declarative test that n8n would run instead', () => {
		// n8n's tester prefers a credential's own `test` over any node's `testedBy`.
		expect((new MarketplacePartnerApi() as { test?: unknown }).test).toBeUndefined();
		// n8n finds a node's credential by the credential type's name.
		const { name } = new MarketplacePartnerApi();
		for (const nodeType of nodeTypesUsingCredential()) expect(nodeType.description.credentials?.map((c) => c.name)).toEqual([name]);
		const tests = nodeTypesUsingCredential().map((nodeType) => credentialTestsOf(nodeType));
		for (const { test } of tests) expect(test).toBe(tests[0].test);
		expect(typeof tests[0].test).toBe('function');
	});

	test('the right credential is OK', async () => {
		expect(await testCredential(credentialsFor(sb.baseUrl, sb.apps['seller-a-full']))).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	});

	test('a wrong secret says the Client ID or Secret is wrong, without the secret', async () => {
		const app = { ...sb.apps['seller-a-full'], clientSecret: 'cs_wrong_secret_value' };
		const result = await testCredential(credentialsFor(sb.baseUrl, app));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Client ID or Client Secret is wrong/);
		expect(result.message).not.toContain('cs_wrong_secret_value');
	});

	test('a skewed clock says to fix the clock', async () => {
		await sb.control('POST', '/faults', { clockSkewSec: -900 });
		try {
			const result = await testCredential(credentialsFor(sb.baseUrl, sb.apps['seller-a-full']));
			expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/clock/) });
		} finally {
			await sb.control('POST', '/faults/reset');
		}
	});

	test('a wrong header prefix says to check the prefix', async () => {
		const result = await testCredential(credentialsFor(sb.baseUrl, sb.apps['seller-a-full'], { headerPrefix: 'X-OTHER-' }));
		expect(result.message).toMatch(/Header Prefix/);
	});

	test('an inactive app says so', async () => {
		const result = await testCredential(credentialsFor(sb.baseUrl, sb.apps['seller-a-inactive']));
		expect(result.message).toMatch(/deactivated/);
	});

	test.each([
		[200, 'text/html', '<html>hello</html>'],
		// Not a success even with {"ok":true}: only a 2xx answer is.
		[300, 'application/json', JSON.stringify({ ok: true, data: { pong: true } })],
		[503, 'application/json', JSON.stringify({ ok: true, data: { pong: true } })],
	])('a Base URL answering HTTP %i (%s) %s is not the Partner API: check the URL', async (status, contentType, body) => {
		expect(await testAgainstAnswer(status, contentType, body)).toEqual({
			status: 'Error',
			message: `The Base URL does not answer like the Partner API (HTTP ${status}): check it is the partner API address ending in /v1.`,
		});
	});

	test('Base URL (trailing slashes too), Client ID and Header Prefix pasted with spaces or a line break around them work as typed without', async () => {
		// (Secrets are keys: their bytes are used as given.)
		const app = sb.apps['seller-a-full'];
		const padded = { ...app, clientId: ` ${app.clientId}\n` };
		expect(await testCredential(credentialsFor(`  ${sb.baseUrl}// `, padded, { headerPrefix: ' X-SVC- ' }))).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	});

	test('a Base URL with plain http to a public host is refused before sending', async () => {
		const result = await testCredential(credentialsFor('http://partner.example.com/api/partner/v1', sb.apps['seller-a-full']));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/must use https/);
	});

	test('nothing listening at the Base URL says the connection was refused and to check the Base URL', async () => {
		const server = createServer().listen(0, '127.0.0.1');
		await new Promise((r) => server.once('listening', r));
		const { port } = server.address() as AddressInfo;
		await new Promise((r) => server.close(r));
		const result = await testCredential(credentialsFor(`http://127.0.0.1:${port}/api/partner/v1`, sb.apps['seller-a-full']));
		expect(result).toEqual({
			status: 'Error',
			message: `Could not reach http://127.0.0.1:${port}: the connection was refused (ECONNREFUSED). Check the Base URL (host, port, https), and that the API is reachable from this n8n.`,
		});
	});

	test('a host name that does not resolve says so and names the code', async () => {
		const result = await testCredential(credentialsFor('https://partner.no-such-host.invalid/api/partner/v1', sb.apps['seller-a-full']));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Could not reach https:\/\/partner\.no-such-host\.invalid: the host name could not be resolved \((ENOTFOUND|EAI_AGAIN)\)\. Check the Base URL/,
		);
	});

	test('a Base URL with the wrong version path says the Base URL has no /ping.php', async () => {
		const result = await testCredential(credentialsFor(sb.baseUrl.replace(/\/v1$/, '/v9'), sb.apps['seller-a-full']));
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^The Base URL has no Partner API \/ping\.php under it/) });
	});

	test('another refusal names the HTTP status and the API code', async () => {
		const result = await testAgainstAnswer(403, 'application/json', JSON.stringify({ ok: false, error: { code: 'ip_not_allowed', message: 'no' } }));
		expect(result).toEqual({
			status: 'Error',
			message: 'The API refused the credentials (HTTP 403, ip_not_allowed). Check Client ID, Client Secret and Header Prefix.',
		});
	});

	test('a refusal without an API code names the HTTP status alone', async () => {
		const result = await testAgainstAnswer(401, 'application/json', JSON.stringify({ ok: false }));
		expect(result).toEqual({
			status: 'Error',
			message: 'The API refused the credentials (HTTP 401). Check Client ID, Client Secret and Header Prefix.',
		});
	});

	test.each([
		['PHP types (ok as 1) and errors as HTTP 200', { answerStyle: 'php', errorStyle: 'http200' }],
		['flat errors', { errorStyle: 'flat' }],
	])('against a marketplace answering with %s: OK, and a wrong secret still named', async (_, style) => {
		await sb.control('POST', '/style', style);
		try {
			expect(await testCredential(credentialsFor(sb.baseUrl, sb.apps['seller-a-full']))).toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(await testCredential(credentialsFor(sb.baseUrl, { ...sb.apps['seller-a-full'], clientSecret: 'cs_wrong' }))).toEqual({
				status: 'Error',
				message: 'The API could not verify the signature: the Client ID or Client Secret is wrong.',
			});
		} finally {
			await sb.control('POST', '/style/reset');
		}
	});

	test('a time zone that is no zone name is refused before sending, with what to set', async () => {
		expect(await testCredential(credentialsFor(sb.baseUrl, sb.apps['seller-a-full'], { timeZone: 'EST+3' }))).toEqual({
			status: 'Error',
			message: 'The credential\'s Time Zone "EST+3" is not a time zone name. Use an IANA name such as UTC, Europe/Istanbul or America/New_York.',
		});
	});

	test('a credential saved before Header Prefix existed (no such field) signs with X-SVC-', async () => {
		const { headerPrefix, ...saved } = credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
		expect(headerPrefix).toBe('X-SVC-');
		expect(await testCredential(saved)).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	test.each([
		['clientId', 'The credential has no Client ID. Paste the Client ID the operator issued.'],
		['clientSecret', 'The credential has no Client Secret. Paste the Client Secret the operator issued.'],
	])('a credential without %s says which field to fill, before sending anything', async (field, message) => {
		await sb.control('POST', '/stats/reset');
		const { [field]: _missing, ...saved } = credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
		expect(await testCredential(saved)).toEqual({ status: 'Error', message });
		expect((await sb.control('GET', '/stats')).requests).toBe(0);
	});
});
