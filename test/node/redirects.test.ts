// A Base URL that answers with a redirect: n8n follows redirects by default and would send the
// signature headers (and a stock update's body) on to wherever the server points, then read that
// answer as the API's. Every signed request of the package is refused to follow, in n8n's real
// request helpers, over loopback: the other origin must receive nothing.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor, runNode } from '../helpers/n8n';
import { testCredential } from '../helpers/credentialTest';
import { PollHarness } from '../helpers/poll';
import { ok, startScriptedApi, type ScriptedApi } from '../helpers/scriptedApi';

describe('a Base URL that redirects: nothing signed leaves its origin', () => {
	let elsewhere: ScriptedApi; // another origin (another port), answering like the API
	let redirector: ScriptedApi;
	const app = { clientId: 'ci_redirect', clientSecret: 'cs_redirect_secret', webhookSecret: 'wh_redirect' };
	const credentials = () => credentialsFor(redirector.baseUrl, app);
	const target = () => `${elsewhere.baseUrl}/orders.php`;

	beforeEach(async () => {
		elsewhere = await startScriptedApi([ok({ orders: [], pagination: { has_more: false } })]);
		redirector = await startScriptedApi([{ status: 307, headers: { location: target() }, body: '' }]);
	});
	afterEach(async () => {
		await redirector.close();
		await elsewhere.close();
	});

	const expectNotFollowed = (error: { message?: string; description?: string | null } | undefined, status = 307) => {
		expect(redirector.requests.length).toBeGreaterThan(0);
		expect(elsewhere.requests).toHaveLength(0);
		expect(error?.message).toBe(`The Partner API answered with a redirect (HTTP ${status}) to ${target()}, which is not followed`);
		// Stock › Update adds what happened to the sheet's other rows after this.
		const expected = `A signed request is never sent to another address. Correct the credential's Base URL (${redirector.baseUrl}) to the address the Partner API answers at, e.g. the one it redirected to, if you trust it.`;
		expect(error?.description?.slice(0, expected.length)).toBe(expected);
	};

	test.each<[string, IDataObject, IDataObject[]]>([
		['Order › Get Many', { resource: 'order', operation: 'getMany', returnAll: true }, [{}]],
		['Order › Get', { resource: 'order', operation: 'get', orderItemId: '500001' }, [{}]],
		['Stock › Update', { resource: 'stock', operation: 'update', productId: '70001', stock: '5' }, [{}]],
		['Connection › Ping', { resource: 'connection', operation: 'ping' }, [{}]],
	])('%s: a 307 to another origin is an error that names it, tried once, never followed', async (_name, parameters, items) => {
		const { error } = await runNode({ parameters, credentials: credentials(), items });
		expectNotFollowed(error);
		expect(redirector.requests).toHaveLength(1);
	});

	test.each([301, 302, 303, 308])('every redirect status (%i) is refused alike, the stock update with its body', async (status) => {
		await redirector.close();
		redirector = await startScriptedApi([{ status, headers: { location: target() } }]);
		const { error } = await runNode({ parameters: { resource: 'stock', operation: 'update', productId: '70001', stock: '5' }, credentials: credentials() });
		expectNotFollowed(error, status);
		expect(redirector.requests[0].rawBody).toBe('{"product_id":70001,"stock":5}');
	});

	test('with Continue On Fail, every row comes out as an error naming the redirect', async () => {
		const { items } = await runNode({
			parameters: { resource: 'stock', operation: 'update', productId: '={{ $json.id }}', stock: '1' },
			credentials: credentials(),
			items: [{ id: 70001 }, { id: 70002 }],
			continueOnFail: true,
		});
		expect(items.map((i) => i.json.error)).toEqual([0, 1].map(() => `The Partner API answered with a redirect (HTTP 307) to ${target()}, which is not followed`));
		expect(elsewhere.requests).toHaveLength(0);
	});

	test('a sheet stops at its first redirect: with Concurrency 1 the rows after it are never sent', async () => {
		const { error } = await runNode({
			parameters: { resource: 'stock', operation: 'update', productId: '={{ $json.id }}', stock: '1', options: { concurrency: 1 } },
			credentials: credentials(),
			items: [{ id: 70001 }, { id: 70002 }, { id: 70003 }],
		});
		expectNotFollowed(error);
		expect(redirector.requests).toHaveLength(1);
	});

	test('a redirect without a Location, or with an unprintable one, is refused and says so within bounds', async () => {
		await redirector.close();
		redirector = await startScriptedApi([{ status: 302 }, { status: 302, headers: { location: `http://x.example/${'é'.repeat(300)}` } }]);
		const ping = { resource: 'connection', operation: 'ping' };
		expect((await runNode({ parameters: ping, credentials: credentials() })).error?.message).toBe('The Partner API answered with a redirect (HTTP 302), which is not followed');
		const long = (await runNode({ parameters: ping, credentials: credentials() })).error?.message ?? '';
		// Node's HTTP parser hands non-ASCII header bytes over as latin1: two characters per é.
		expect(long).toBe(`The Partner API answered with a redirect (HTTP 302) to http://x.example/${'?'.repeat(200 - 'http://x.example/'.length)}, which is not followed`);
	});

	test('Check Setup reports the redirect and follows nothing', async () => {
		const { items, error } = await runNode({ parameters: { resource: 'connection', operation: 'checkSetup' }, credentials: credentials() });
		const said = JSON.stringify(error ?? items.map((i) => i.json));
		expect(said).toContain(`redirect (HTTP 307) to ${target()}`);
		expect(elsewhere.requests).toHaveLength(0);
	});

	test('the Orders Trigger: its activation poll fails with the redirect, nothing is read from the other origin', async () => {
		const harness = new PollHarness({}, credentials());
		const outcome = await harness.activate();
		expect(outcome.error?.message).toBe(`The Partner API answered with a redirect (HTTP 307) to ${target()}, which is not followed`);
		expect(elsewhere.requests).toHaveLength(0);
	});

	test("the credential's Test: the redirect is not followed, and the test fails", async () => {
		const result = await testCredential(credentials());
		expect(result.status).toBe('Error');
		expect(redirector.requests).toHaveLength(1);
		expect(elsewhere.requests).toHaveLength(0);
	});
});
