/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: test tokens of the sandbox, never real ones; n8n-node lint applies its node rules to every .ts file */
// The control API's token, over real HTTP: every route of its table (a new one included) refuses a
// request without this sandbox's control token, or with another, and never says the token; a body
// not declared JSON is refused even with it.
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

interface Route {
	method: string;
	pattern: RegExp;
	page: boolean;
}

/** A path the route's pattern matches: its only parameters are ids, (\d+), and names, ([^/]+). */
function samplePath({ pattern }: Route): string {
	const path = pattern.source.replace(/^\^|\$$/g, '').replaceAll('\\/', '/').replaceAll('(\\d+)', '500001').replaceAll('([^/]+)', 'x');
	expect(pattern.test(path)).toBe(true);
	return path;
}

const NO_TOKEN =
	"The control API needs this sandbox's control token: send Authorization: Bearer <controlToken>. The token is " +
	'"controlToken" on the first line the sandbox CLI prints, or in the --secrets-file it was started with ' +
	'(npm start: .state/demo/secrets.json); in-process, describe().controlToken.';

describe('the control token', () => {
	let sb: RunningSandbox;
	let routes: Route[];
	const call = (route: Route, headers: Record<string, string>) =>
		fetch(`${sb.origin}/_sandbox${samplePath(route)}`, {
			method: route.method,
			headers: { 'content-type': 'application/json', ...headers },
			body: route.method === 'GET' ? undefined : '{}',
		});

	beforeAll(async () => {
		sb = await startSandbox({ orders: 20 });
		routes = sb.raw.controlRoutes;
	});
	afterAll(() => sb.close());

	test('is made per sandbox from node:crypto (256 bits), or taken as an option, and described', async () => {
		expect(sb.controlToken).toMatch(/^ct_[0-9a-f]{64}$/);
		const other = await startSandbox({ orders: 1 });
		const chosen = await startSandbox({ orders: 1, controlToken: 'ct_chosen_0123456789abcdef0123456789' });
		try {
			expect(other.controlToken).not.toBe(sb.controlToken);
			expect(chosen.raw.describe().controlToken).toBe('ct_chosen_0123456789abcdef0123456789');
			expect((await chosen.control('GET', '/faults')).rate429).toBe(0);
		} finally {
			await Promise.all([other.close(), chosen.close()]);
		}
		await expect(startSandbox({ controlToken: 'short' })).rejects.toThrow(
			'controlToken must be a string of at least 32 characters, without spaces or non-ASCII characters.',
		);
	});

	test('every route refuses a request without it, or with a wrong one, 401 with where the token is (never the token)', async () => {
		expect(routes.length).toBeGreaterThan(30);
		const state = JSON.stringify(sb.raw.describe().apps);
		const wrong = `${sb.controlToken.slice(0, -1)}${sb.controlToken.endsWith('0') ? '1' : '0'}`;
		for (const route of routes) {
			for (const headers of [{} as Record<string, string>, { authorization: `Bearer ${wrong}` }, { authorization: sb.controlToken }, { authorization: `Basic ${sb.controlToken}` }]) {
				const res = await call(route, headers);
				const text = await res.text();
				expect([route.method, samplePath(route), res.status]).toEqual([route.method, samplePath(route), 401]);
				expect(res.headers.get('www-authenticate')).toBe('Bearer realm="sandbox control API"');
				if (!route.page) expect(JSON.parse(text).error.message).toBe(NO_TOKEN);
				expect(text).not.toContain(sb.controlToken);
			}
		}
		// Nothing was changed: no reset, no order, no fault.
		expect(JSON.stringify(sb.raw.describe().apps)).toBe(state);
		expect(sb.raw.state.ordersBySeller.get(1001)).toHaveLength(20);
	});

	test('with it, routes answer as before', async () => {
		const auth = { authorization: `Bearer ${sb.controlToken}` };
		const state = (await (await call({ method: 'GET', pattern: /^\/state$/, page: false }, auth)).json()) as { data: { apps: Array<{ clientSecret: string }> } };
		expect(state.data.apps[0].clientSecret).toBe(sb.apps['seller-a-full'].clientSecret);
		const faults = await call({ method: 'POST', pattern: /^\/faults$/, page: false }, { ...auth, 'content-type': 'application/json; charset=utf-8' });
		expect(faults.status).toBe(200);
		// The scheme's case is free (RFC 9110); the token's is not.
		expect((await call({ method: 'GET', pattern: /^\/faults$/, page: false }, { authorization: `bearer ${sb.controlToken}` })).status).toBe(200);
		expect((await call({ method: 'GET', pattern: /^\/faults$/, page: false }, { authorization: `Bearer ${sb.controlToken.toUpperCase()}` })).status).toBe(401);
	});

	test('every route that is not a GET refuses a body not declared JSON, 415, even with the token', async () => {
		const posts = routes.filter((r) => r.method !== 'GET');
		expect(posts.length).toBeGreaterThan(10);
		for (const route of posts) {
			for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
				const res = await call(route, { authorization: `Bearer ${sb.controlToken}`, 'content-type': type });
				expect([samplePath(route), type, res.status]).toEqual([samplePath(route), type, 415]);
				expect(((await res.json()) as { error: { message: string } }).error.message).toBe('Send the body as JSON, with Content-Type: application/json.');
			}
		}
		expect(sb.raw.state.ordersBySeller.get(1001)).toHaveLength(20);
	});

	test('the client takes the description, so the token cannot be left out', async () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { control } = require('../../sandbox/client');
		await expect(control(`${sb.origin}/_sandbox`, 'GET', '/state')).rejects.toThrow(
			"control() takes the sandbox's description ({ controlUrl, controlToken }), not a URL.",
		);
		expect((await control(sb.raw.describe(), 'GET', '/faults')).rate429).toBe(0);
	});
});
