// The credential's Test button, through n8n-core's RoutingNode and the real HTTP path.
import { testCredential } from '../helpers/credentialTest';
import { credentialsFor } from '../helpers/n8n';
import { startReceiver } from '../helpers/receiver';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

describe('credential test (/ping.php)', () => {
	let sb: RunningSandbox;
	beforeAll(async () => (sb = await startSandbox()));
	afterAll(() => sb.close());

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

	test('a Base URL that is not the Partner API says to check the URL', async () => {
		const other = await startReceiver((_, res) => {
			res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
		});
		const base = other.url.replace('/hook', '/api/partner/v1');
		const result = await testCredential(credentialsFor(base, sb.apps['seller-a-full']));
		await other.close();
		expect(result.message).toMatch(/Base URL does not answer like the Partner API/);
	});

	test('a Base URL with plain http to a public host is refused before sending', async () => {
		const result = await testCredential(credentialsFor('http://partner.example.com/api/partner/v1', sb.apps['seller-a-full']));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/must use https/);
	});
});
