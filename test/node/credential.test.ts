/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-unused-vars -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The credential's Test button: its declarative test run as n8n's tester runs it (n8n-core's
// RoutingNode, the credential's real signing, n8n's verdict from the rules), against the sandbox.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeHelpers } from 'n8n-workflow';
import { MarketplacePartnerApi } from '../../credentials/MarketplacePartnerApi.credentials';
import { nodeTypesUsingCredential, testCredential } from '../helpers/credentialTest';
import { credentialsFor, runNode } from '../helpers/n8n';
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

	test('the credential carries the test (declarative, as verification wants) and no node names a test function of its own', () => {
		const { name, test } = new MarketplacePartnerApi();
		expect(test.request).toMatchObject({ method: 'GET', url: '/ping.php' });
		// n8n finds a node's credential by the credential type's name; a `testedBy` would need
		// `methods.credentialTest`, whose only HTTP helper (helpers.request) the scanner refuses.
		for (const nodeType of nodeTypesUsingCredential()) {
			expect(nodeType.description.credentials).toEqual([{ name, required: true }]);
			expect((nodeType.methods as { credentialTest?: unknown } | undefined)?.credentialTest).toBeUndefined();
		}
	});

	test('a notice in the form says the trigger refuses every delivery, only while the Webhook Secret is empty', () => {
		const { properties } = new MarketplacePartnerApi();
		const notice = properties.find((p) => p.name === 'webhookVerificationNotice')!;
		expect(notice).toMatchObject({ type: 'notice', displayName: expect.stringMatching(/refuses every webhook delivery\. Ask the marketplace operator/) });
		// As n8n's credential form decides, from the values in the form (a saved secret comes back masked).
		const shown = (webhookSecret: string) => NodeHelpers.displayParameter({ webhookSecret }, notice, null, null);
		expect([shown(''), shown('whsec_1'), shown('__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6')]).toEqual([true, false, false]);
		expect(properties.findIndex((p) => p.name === 'webhookVerificationNotice')).toBe(properties.findIndex((p) => p.name === 'webhookSecret') + 1);
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
		expect(result).toEqual({ status: 'Error', message: 'The API could not verify the signature: the Client ID or Client Secret is wrong.' });
		expect(result.message).not.toContain('cs_wrong_secret_value');
	});

	test('a skewed clock says to fix the clock', async () => {
		await sb.control('POST', '/faults', { clockSkewSec: -900 });
		try {
			const result = await testCredential(credentialsFor(sb.baseUrl, sb.apps['seller-a-full']));
			expect(result).toEqual({ status: 'Error', message: 'The API refused the timestamp: the clock of the machine running n8n is off. Synchronise it (NTP).' });
		} finally {
			await sb.control('POST', '/faults/reset');
		}
	});

	test('a wrong header prefix says to check the prefix', async () => {
		const result = await testCredential(credentialsFor(sb.baseUrl, sb.apps['seller-a-full'], { headerPrefix: 'X-OTHER-' }));
		expect(result).toEqual({ status: 'Error', message: 'The API did not see the authentication headers: check the Header Prefix.' });
	});

	test('an inactive app says so', async () => {
		const result = await testCredential(credentialsFor(sb.baseUrl, sb.apps['seller-a-inactive']));
		expect(result).toEqual({ status: 'Error', message: 'This partner application is deactivated: ask the marketplace operator.' });
	});

	test.each([
		[200, 'text/html', '<html>hello</html>'],
		[200, 'application/json', JSON.stringify({ status: 'up' })],
		[404, 'text/html', '<html>Not Found</html>'],
		[502, 'text/html', '<html>Bad Gateway</html>'],
	])('a Base URL answering HTTP %i (%s) %s is not the Partner API: check the URL', async (status, contentType, body) => {
		expect(await testAgainstAnswer(status, contentType, body)).toEqual({ status: 'Error', message: 'The Base URL does not answer like the Partner API: check it is the partner API address ending in /v1.' });
	});

	test.each([300, 503])('a limit: an answer of HTTP %i with {"ok":true} passes, as n8n\'s rules read only the body', async (status) => {
		// The test reads every answer (ignoreHttpStatusErrors) so that refusals are named by the API's
		// code on n8n 1.x too; the Partner API writes ok:true only on success.
		expect(await testAgainstAnswer(status, 'application/json', JSON.stringify({ ok: true, data: { pong: true } }))).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	});

	test('Base URL (trailing slashes too), Client ID and Header Prefix pasted with spaces or a line break around them work as typed without', async () => {
		// (Secrets are keys: their bytes are used as given.)
		const app = sb.apps['seller-a-full'];
		const padded = { ...app, clientId: ` ${app.clientId}\n` };
		expect(await testCredential(credentialsFor(`  ${sb.baseUrl}/ / `, padded, { headerPrefix: ' X-SVC- ' }))).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	});

	test('a Base URL with plain http to a public host is refused before sending', async () => {
		const result = await testCredential(credentialsFor('http://partner.example.com/api/partner/v1', sb.apps['seller-a-full']));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/must use https/);
	});

	test('a Base URL with a user name or password is refused before sending, the Test button and the node alike, naming neither in any form', async () => {
		await sb.control('POST', '/stats/reset');
		const user = 'ops.alice@corp';
		const password = 'pw s3cret/ü';
		const encoded = (text: string) => encodeURIComponent(text);
		const userInfo = `${encoded(user)}:${encoded(password)}@`;
		const baseUrls = [
			sb.baseUrl.replace('//', `//${userInfo}`),
			sb.baseUrl.replace('//', `//${encoded(user)}@`),
			sb.baseUrl.replace('//', `//:${encoded(password)}@`),
			// Not a URL at all (a space in the port), with the user name and password in it.
			sb.baseUrl.replace('//', `//${user}:${password}@`).replace(/:(\d+)\//, ': $1/'),
		];
		const forms = [user, password, encoded(user), encoded(password), 'ops.alice', 's3cret', 'ops.alice%40corp', encodeURI(password)];
		for (const baseUrl of baseUrls) {
			const tested = await testCredential(credentialsFor(baseUrl, sb.apps['seller-a-full']));
			const ran = await runNode({ parameters: { resource: 'connection', operation: 'ping' }, credentials: credentialsFor(baseUrl, sb.apps['seller-a-full']) });
			expect(tested.status).toBe('Error');
			expect(tested.message).toMatch(/Base URL/);
			expect(ran.error?.message).toMatch(/Base URL/);
			const shown = JSON.stringify([tested, ran.error?.message, ran.error?.description]);
			for (const form of forms) expect(shown).not.toContain(form);
		}
		expect(baseUrls.slice(0, 3).every((url) => URL.canParse(url))).toBe(true);
		expect((await sb.control('GET', '/stats')).requests).toBe(0);
	});

	test('an upper-case host or the default port written out is the same origin: the Test button and the node sign and send', async () => {
		const upper = sb.baseUrl.replace('127.0.0.1', 'LOCALHOST');
		expect(await testCredential(credentialsFor(upper, sb.apps['seller-a-full']))).toEqual({ status: 'OK', message: 'Connection successful!' });
		const ran = await runNode({ parameters: { resource: 'connection', operation: 'ping' }, credentials: credentialsFor(upper, sb.apps['seller-a-full']) });
		expect(ran.error).toBeUndefined();
		// No server answers on 443 or 80 here: the signer's own answer is what is checked.
		const signer = new MarketplacePartnerApi();
		for (const [baseUrl, sent] of [
			['https://Partner.EXAMPLE.com:443/api/partner/v1', 'https://partner.example.com/api/partner/v1/ping.php'],
			['http://LocalHost:80/api/partner/v1', 'http://localhost/api/partner/v1/ping.php'],
		]) {
			const signed = await signer.authenticate(credentialsFor(baseUrl, sb.apps['seller-a-full']), { url: `${baseUrl}/ping.php`, method: 'GET' });
			expect(signed.url).toBe(sent);
		}
	});

	test('nothing listening at the Base URL: n8n shows the bare code, ECONNREFUSED', async () => {
		const server = createServer().listen(0, '127.0.0.1');
		await new Promise((r) => server.once('listening', r));
		const { port } = server.address() as AddressInfo;
		await new Promise((r) => server.close(r));
		const result = await testCredential(credentialsFor(`http://127.0.0.1:${port}/api/partner/v1`, sb.apps['seller-a-full']));
		// n8n's tester shows a network failure of a declarative test as the bare code.
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	test('a host name that does not resolve: n8n shows the bare code', async () => {
		const result = await testCredential(credentialsFor('https://partner.no-such-host.invalid/api/partner/v1', sb.apps['seller-a-full']));
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^(ENOTFOUND|EAI_AGAIN)$/) });
	});

	test('a Base URL with the wrong version path says the Base URL has no /ping.php', async () => {
		const result = await testCredential(credentialsFor(sb.baseUrl.replace(/\/v1$/, '/v9'), sb.apps['seller-a-full']));
		expect(result).toEqual({ status: 'Error', message: 'The Base URL has no Partner API /ping.php under it: check it is the partner API address ending in /v1.' });
	});

	test('another refusal says the API refused the test request', async () => {
		const result = await testAgainstAnswer(403, 'application/json', JSON.stringify({ ok: false, error: { code: 'ip_not_allowed', message: 'no' } }));
		expect(result).toEqual({ status: 'Error', message: 'The API refused the test request. Check Client ID, Client Secret and Header Prefix.' });
	});

	test.each([
		[{ ok: false, error: { code: 'ip_not_allowed' } }, 'The API refused the test request. Check Client ID, Client Secret and Header Prefix.'],
		[{ ok: 0, code: 'expired_timestamp' }, 'The API refused the timestamp: the clock of the machine running n8n is off. Synchronise it (NTP).'],
		[{ ok: '0', error: { code: 'client_inactive' } }, 'This partner application is deactivated: ask the marketplace operator.'],
		[{ ok: false, error: { code: 'missing_auth_headers' } }, 'The API did not see the authentication headers: check the Header Prefix.'],
		[{ ok: false, error: { code: 'replayed_signature' } }, 'The API could not verify the signature: the Client ID or Client Secret is wrong.'],
		[{ ok: false, error: { code: 'invalid_timestamp' } }, 'The API refused the timestamp: the clock of the machine running n8n is off. Synchronise it (NTP).'],
		[{ ok: false, error: { code: 'rate_limited' } }, 'The API is rate limiting this partner application: try again in a minute.'],
		[{ ok: false, error: { code: 'service_unavailable' } }, 'The API is unavailable at the moment: try again later.'],
	])('a refusal written as HTTP 200 (%j) is named by its code, or as a refusal', async (body, message) => {
		expect(await testAgainstAnswer(200, 'application/json', JSON.stringify(body))).toEqual({ status: 'Error', message });
	});

	test('a refusal without an API code says the API refused the test request', async () => {
		const result = await testAgainstAnswer(401, 'application/json', JSON.stringify({ ok: false }));
		expect(result).toEqual({
			status: 'Error',
			message: 'The API refused the test request. Check Client ID, Client Secret and Header Prefix.',
		});
	});

	test.each([
		['PHP types (ok as 1) and errors as HTTP 200', { answerStyle: 'php', errorStyle: 'http200' }],
		['flat errors ({"ok":false,"error":"<code>"})', { errorStyle: 'flat' }],
		['JSend errors ({"status":"error","code"})', { errorStyle: 'jsend' }],
		['a list of errors ({"errors":[{"code"}]})', { errorStyle: 'errors' }],
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
