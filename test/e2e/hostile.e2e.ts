/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The real n8n (N8N_VERSION) with this package installed, against a hostile network: a Base URL
// that redirects signed requests to another origin, and an HTTP-level fuzz of the published
// webhook trigger (malformed, duplicate and oversized headers, bodies that are not JSON, wrong
// content types, compressed bodies, replays). Nothing but a correctly signed fresh delivery may
// start a workflow, n8n must stay up, and every rejection gets its documented status
// (docs/security.md).
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { n8nRest, output } from '../helpers/n8nRest';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { startScriptedApi, ok, type ScriptedApi } from '../helpers/scriptedApi';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort, importWorkflows, n8nCommand, n8nProfile, parseRawOutput, startN8n } = require('../../scripts/lib');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareWorkspace, TRIGGER_WORKFLOW_ID } = require('../../scripts/workspace');

const PACKAGE = 'n8n-nodes-marketplace-partner';
const REDIRECT_CREDENTIAL = { id: 'mpRedirectCred1', name: 'Marketplace Partner (redirecting)' };
/** A Base URL on 127.0.0.2: loopback, which SSRF protection blocks, outside the one address the hardened profile allows (127.0.0.1/32). */
const SSRF_CREDENTIAL = { id: 'mpSsrfCred1', name: 'Marketplace Partner (blocked address)' };

/** A workflow run by `n8n execute`: our node's reads and writes and the HTTP Request node's signed custom call, each continuing on error. */
function redirectWorkflow(baseUrl: string, { id = 'mpRedirectTest', name = 'Redirect test', credential = REDIRECT_CREDENTIAL } = {}) {
	const credentials = { marketplacePartnerApi: credential };
	const node = (name: string, y: number, extra: Record<string, unknown>) => ({ id: `mp-redirect-${y}`, name, position: [220, y], credentials, onError: 'continueRegularOutput', ...extra });
	return {
		id,
		name,
		nodes: [
			{ id: 'mp-redirect-start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			node('Get Many', 0, { type: `${PACKAGE}.marketplacePartner`, typeVersion: 2, parameters: { resource: 'order', operation: 'getMany', returnAll: true } }),
			node('Update Stock', 200, { type: `${PACKAGE}.marketplacePartner`, typeVersion: 1, parameters: { resource: 'stock', operation: 'update', productId: '70001', stock: '5' } }),
			node('Custom Call', 400, {
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: { method: 'POST', url: `${baseUrl}/stock_update.php`, authentication: 'predefinedCredentialType', nodeCredentialType: 'marketplacePartnerApi', sendBody: true, specifyBody: 'json', jsonBody: '{"product_id":70001,"stock":5}', options: {} },
			}),
		],
		connections: { Start: { main: [['Get Many', 'Update Stock', 'Custom Call'].map((n) => ({ node: n, type: 'main', index: 0 }))] } },
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

/** Sends raw bytes on a new connection (every request says Connection: close); the answer's status, null when none came. */
function rawRequest(port: number, bytes: Buffer | string): Promise<{ status: number | null; text: string }> {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		const chunks: Buffer[] = [];
		const done = () => {
			const text = Buffer.concat(chunks).toString('latin1');
			const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
			resolve({ status: status ? Number(status[1]) : null, text });
		};
		socket.setTimeout(30_000, () => socket.destroy());
		socket.on('data', (c) => chunks.push(c));
		socket.on('close', done);
		socket.on('error', () => undefined);
		// Written, not ended: a client that half-closes may be hung up on before it is answered.
		socket.write(bytes);
	});
}

describe('a hostile network, in the real n8n', () => {
	let sb: RunningSandbox;
	let userFolder: string;
	let n8nPort: number;
	let webhookUrl: string;
	let webhookSecret: string;
	let elsewhere: ScriptedApi;
	let redirector: ScriptedApi;
	/** Connections that reached 127.0.0.2, where the blocked Base URL points (none may). */
	let blockedListener: net.Server;
	let blockedConnections = 0;

	beforeAll(async () => {
		sb = await startSandbox();
		elsewhere = await startScriptedApi([ok({ orders: [], pagination: { has_more: false } })]);
		redirector = await startScriptedApi([{ status: 307, headers: { location: `${elsewhere.baseUrl}/orders.php` } }]);
		userFolder = mkdtempSync(path.join(tmpdir(), 'n8n-partner-hostile-'));
		n8nPort = await freePort();
		const prepared = await prepareWorkspace({ userFolder, sandbox: sb.raw.describe(), n8nPort, publish: [TRIGGER_WORKFLOW_ID] });
		webhookUrl = prepared.webhookUrl;
		webhookSecret = prepared.app.webhookSecret;
		// The sandbox must not send its own deliveries into the fuzz's count.
		await sb.control('POST', `/apps/${prepared.app.clientId}/webhook`, { url: null });

		const importDir = path.join(userFolder, 'import-redirect');
		mkdirSync(importDir, { recursive: true });
		const app = prepared.app;
		blockedListener = net.createServer((socket) => {
			blockedConnections++;
			socket.destroy();
		});
		await new Promise<void>((resolve) => blockedListener.listen(0, '127.0.0.2', resolve));
		const blockedBaseUrl = `https://127.0.0.2:${(blockedListener.address() as net.AddressInfo).port}/api/partner/v1`;
		const data = (baseUrl: string) => ({ baseUrl, clientId: app.clientId, clientSecret: app.clientSecret, headerPrefix: 'X-SVC-' });
		writeFileSync(
			path.join(importDir, 'credentials.json'),
			JSON.stringify([
				{ ...REDIRECT_CREDENTIAL, type: 'marketplacePartnerApi', data: data(redirector.baseUrl) },
				{ ...SSRF_CREDENTIAL, type: 'marketplacePartnerApi', data: data(blockedBaseUrl) },
			]),
		);
		writeFileSync(
			path.join(importDir, 'workflow.json'),
			JSON.stringify([redirectWorkflow(redirector.baseUrl), redirectWorkflow(blockedBaseUrl, { id: 'mpSsrfTest', name: 'SSRF test', credential: SSRF_CREDENTIAL })]),
		);
		await n8nCommand(userFolder, ['import:credentials', `--input=${path.join(importDir, 'credentials.json')}`]);
		await importWorkflows(userFolder, path.join(importDir, 'workflow.json'));
	}, 600_000);

	afterAll(async () => {
		await sb?.close();
		await redirector?.close();
		await elsewhere?.close();
		await new Promise((resolve) => (blockedListener ? blockedListener.close(resolve) : resolve(undefined)));
		if (userFolder) rmSync(userFolder, { recursive: true, force: true });
	});

	test('a Base URL answering 307 to another origin: our node and the HTTP Request node follow nothing, and each says where it pointed', async () => {
		const run = parseRawOutput(await n8nCommand(userFolder, ['execute', '--id=mpRedirectTest', '--rawOutput']));
		const runData = run.data.resultData.runData;
		const said = (node: string) => output(runData, node)[0]?.error;
		const redirect = `The Partner API answered with a redirect (HTTP 307) to ${elsewhere.baseUrl}/orders.php, which is not followed`;
		expect(said('Get Many')).toBe(redirect);
		expect(said('Update Stock')).toBe(redirect);
		// n8n's own node reports the status as n8n words it; what matters is that nothing went on.
		expect(JSON.stringify(output(runData, 'Custom Call'))).toMatch(/307/);
		expect(redirector.requests.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
			'GET /api/partner/v1/orders.php?limit=100&offset=0',
			'POST /api/partner/v1/stock_update.php',
			'POST /api/partner/v1/stock_update.php',
		]);
		expect(redirector.requests.every((r) => typeof r.headers['x-svc-signature'] === 'string')).toBe(true);
		expect(elsewhere.requests).toHaveLength(0);
	});

	// Hardened n8n (the 2.x e2e run): SSRF protection refuses the Base URL's address before connecting.
	// Our node says so and names the one setting that allows it, instead of "fix the value in your data".
	(n8nProfile() === 'hardened' ? test : test.skip)('SSRF protection on, a Base URL on an address it blocks: nothing is sent, our node names the setting that allows it', async () => {
		const run = parseRawOutput(await n8nCommand(userFolder, ['execute', '--id=mpSsrfTest', '--rawOutput']));
		const runData = run.data.resultData.runData;
		const said = (node: string) => output(runData, node)[0];
		for (const node of ['Get Many', 'Update Stock']) {
			expect(said(node)).toMatchObject({
				error: "n8n's SSRF protection blocked the request to the Base URL",
				details: { description: expect.stringContaining('the n8n administrator allows exactly it with N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.2/32') },
			});
			expect((said(node).details as Record<string, unknown>).code).toBeUndefined(); // not the row's values: no invalid_value
		}
		// n8n's own HTTP Request node, the same credential: n8n's words.
		expect(JSON.stringify(said('Custom Call'))).toMatch(/restricted IP address/);
		expect(blockedConnections).toBe(0);
	});

	describe('the published webhook trigger, fuzzed at the HTTP level', () => {
		let n8n: { url: string; stop(): Promise<void>; output(): string };
		const { rest } = n8nRest(() => n8n.url);
		const executions = async () =>
			(await rest('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: TRIGGER_WORKFLOW_ID }))}`)).json.data.results as Array<{ id: string }>;
		const webhookPath = () => new URL(webhookUrl).pathname;
		const now = () => String(Math.floor(Date.now() / 1000));
		const sign = (ts: string, body: Buffer | string, secret = webhookSecret) => createHmac('sha256', secret).update(`${ts}.`).update(body).digest('hex');
		let orderNo = 0;
		/** A genuine body: an order.created of its own (so each is other signed bytes). */
		const genuineBody = () => JSON.stringify({ event: 'order.created', data: { order_item_id: 500001, fuzz: ++orderNo } });

		/** A request as raw bytes: the webhook path, these headers (in order, repeats allowed), this body. */
		const http = (headers: Array<[string, string]>, body: Buffer | string = '') => {
			const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
			const head = [`POST ${webhookPath()} HTTP/1.1`, `Host: 127.0.0.1:${n8nPort}`, 'Connection: close', `Content-Length: ${bytes.length}`, ...headers.map(([k, v]) => `${k}: ${v}`)].join('\r\n');
			return rawRequest(n8nPort, Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), bytes]));
		};
		/** The four webhook headers of a delivery signed for `body` (or for `signedBytes`, when they differ from what is sent). */
		const signedHeaders = (body: Buffer | string, { id = `whd_fuzz_${randomBytes(6).toString('hex')}`, ts = now(), signedBytes = body, event = 'order.created' } = {}): Array<[string, string]> => [
			['X-SVC-WEBHOOK-ID', id],
			['X-SVC-WEBHOOK-TIMESTAMP', ts],
			['X-SVC-WEBHOOK-SIGNATURE', sign(ts, signedBytes)],
			['X-SVC-WEBHOOK-EVENT', event],
		];
		const json: [string, string] = ['Content-Type', 'application/json'];

		beforeAll(async () => {
			n8n = await startN8n(userFolder, { port: n8nPort });
			// n8n answers readiness before it has registered the published webhooks (404 until then),
			// and n8n 1.x its REST API too.
			for (let tries = 0; (await fetch(webhookUrl, { method: 'POST' })).status === 404; tries++) {
				if (tries > 120) throw new Error(`the trigger's production URL stayed 404: ${webhookUrl}`);
				await new Promise((r) => setTimeout(r, 500));
			}
			const owner = await rest('POST', '/owner/setup', { email: 'hostile@example.com', firstName: 'H', lastName: 'E', password: 'Hostile-Partner-2026' });
			expect(owner.status).toBe(200);
		}, 300_000);

		afterAll(() => n8n?.stop());

		test('only correctly signed fresh deliveries start a run; every other request gets its documented status and n8n stays up', async () => {
			const body = genuineBody();
			const replayHeaders = signedHeaders(body);
			const gzipped = genuineBody();
			const plain = genuineBody();
			const genuine = {
				'a genuine delivery': await http([json, ...replayHeaders], body),
				'a genuine delivery sent gzip-compressed (signed over the bytes n8n inflates)': await http([json, ['Content-Encoding', 'gzip'], ...signedHeaders(gzipped)], gzipSync(gzipped)),
				'a genuine delivery sent as text/plain': await http([['Content-Type', 'text/plain'], ...signedHeaders(plain)], plain),
			};
			expect(Object.values(genuine).map((answer) => answer.status)).toEqual([200, 200, 200]);

			const cases: Array<[string, () => Promise<{ status: number | null; text: string }>, number | null]> = [
				['no signature headers', () => http([json], genuineBody()), 401],
				['signed with another secret', () => http([json, ...signedHeaders(genuineBody()).map(([k, v]): [string, string] => [k, k.endsWith('SIGNATURE') ? sign(now(), 'x', 'another-secret') : v])], genuineBody()), 401],
				['two signature headers, both wrong', () => http([json, ...signedHeaders('{}').slice(0, 2), ['X-SVC-WEBHOOK-SIGNATURE', 'a'.repeat(64)], ['X-SVC-WEBHOOK-SIGNATURE', 'b'.repeat(64)]], genuineBody()), 401],
				['two timestamp headers', () => { const b = genuineBody(); const h = signedHeaders(b); return http([json, ...h, ['X-SVC-WEBHOOK-TIMESTAMP', now()]], b); }, 401],
				['a replay of the genuine delivery under a fresh id', () => http([json, ['X-SVC-WEBHOOK-ID', 'whd_forged'], ...replayHeaders.slice(1)], body), 200],
				['the genuine delivery relabelled by its event header', () => http([json, ['X-SVC-WEBHOOK-ID', 'whd_relabelled'], ...replayHeaders.slice(1, 3), ['X-SVC-WEBHOOK-EVENT', 'order.updated']], body), 400],
				['a timestamp an hour old, correctly signed', () => { const b = genuineBody(); return http([json, ...signedHeaders(b, { ts: String(Number(now()) - 3600) })], b); }, 401],
				['a timestamp that is not a number', () => { const b = genuineBody(); return http([json, ...signedHeaders(b, { ts: '17e8' })], b); }, 401],
				['a signed body that is not JSON, as text/plain', () => http([['Content-Type', 'text/plain'], ...signedHeaders('not json')], 'not json'), 400],
				['a signed body that is not JSON, as application/json (n8n refuses to parse it)', () => http([json, ...signedHeaders('{"event":')], '{"event":'), 422],
				['a signed empty body', () => http([['Content-Type', 'text/plain'], ...signedHeaders('')], ''), 400],
				['gzip whose signature is over the compressed bytes', () => { const z = gzipSync(genuineBody()); return http([json, ['Content-Encoding', 'gzip'], ...signedHeaders(z)], z); }, 401],
				['an unknown content encoding', () => { const b = genuineBody(); return http([json, ['Content-Encoding', 'br'], ...signedHeaders(b, { signedBytes: 'x' })], b); }, 401],
				['multipart form data (its bytes are parsed away by n8n, so never verifiable)', () => http([['Content-Type', 'multipart/form-data; boundary=x'], ...signedHeaders('x')], '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'), 415],
				['an XML body, wrongly signed', () => http([['Content-Type', 'application/xml'], ...signedHeaders('x')], '<a>1</a>'), 401],
				['a 20 KB signature header', () => http([json, ...signedHeaders('{}').slice(0, 2), ['X-SVC-WEBHOOK-SIGNATURE', 'f'.repeat(20_000)]], '{}'), 431],
				['a signature header of 200 comma-separated candidates', () => http([json, ...signedHeaders('{}').slice(0, 2), ['X-SVC-WEBHOOK-SIGNATURE', Array.from({ length: 200 }, () => 'v1=' + 'c'.repeat(64)).join(',')]], '{}'), 401],
				['a control byte in a header value', () => http([json, ['X-SVC-WEBHOOK-ID', 'a\u0001b'], ...signedHeaders('{}').slice(1)], '{}'), 400],
				// Over n8n's body limit (N8N_PAYLOAD_SIZE_MAX, 16 MB): n8n's body parser refuses it before any
				// node runs, and answers 500 itself. Declared, not sent (sent, n8n hangs up mid-upload).
				['a body larger than n8n accepts (17 MB declared)', () => rawRequest(n8nPort, `POST ${webhookPath()} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${17 * 1024 * 1024}\r\n\r\n`), 500],
				['a gzip bomb (17 MB inflated)', () => http([json, ['Content-Encoding', 'gzip'], ...signedHeaders('{}')], gzipSync(Buffer.alloc(17 * 1024 * 1024, 0x20))), 500],
				['a request line that is not HTTP', () => rawRequest(n8nPort, 'GARBAGE\r\n\r\n'), 400],
			];
			const answered: Record<string, number | null> = {};
			for (const [name, send] of cases) answered[name] = (await send()).status;
			expect(answered).toEqual(Object.fromEntries(cases.map(([name, , status]) => [name, status])));

			// Random requests: random headers (names, duplicates, the webhook headers with random values), random bodies and types.
			const statuses = new Set<number | null>();
			for (let i = 0; i < 60; i++) {
				const headers: Array<[string, string]> = [];
				const names = ['X-SVC-WEBHOOK-ID', 'X-SVC-WEBHOOK-TIMESTAMP', 'X-SVC-WEBHOOK-SIGNATURE', 'X-SVC-WEBHOOK-EVENT', 'Content-Type', 'X-Other'];
				for (let h = 0; h < 1 + (i % 7); h++) {
					const name = names[randomBytes(1)[0] % names.length];
					const value = [now(), randomBytes(32).toString('hex'), randomBytes(32).toString('base64'), 'application/json', 'sha256=' + randomBytes(32).toString('hex'), randomBytes(12).toString('base64url')][randomBytes(1)[0] % 6];
					headers.push([name, value]);
				}
				const randomBody = i % 3 === 0 ? randomBytes(i * 37) : i % 3 === 1 ? genuineBody() : JSON.stringify({ event: 'order.created', n: randomBytes(4).toString('hex') });
				statuses.add((await http(headers, randomBody)).status);
			}
			expect([...statuses].every((s) => s !== null && s >= 400 && s < 500)).toBe(true);

			// n8n is up, and the runs are exactly the genuine deliveries.
			expect((await fetch(`${n8n.url}/healthz`)).status).toBe(200);
			let runs: Array<{ id: string }> = [];
			for (let i = 0; i < 40 && runs.length < Object.keys(genuine).length; i++) {
				await new Promise((r) => setTimeout(r, 500));
				runs = await executions();
			}
			await new Promise((r) => setTimeout(r, 2000));
			expect(await executions()).toHaveLength(Object.keys(genuine).length);
		}, 300_000);
	});
});
