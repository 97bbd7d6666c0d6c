/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm run sandbox`: the first stdout line, a clean stop on SIGINT and SIGTERM, loopback unless
// --allow-remote, and fresh app secrets and control token each run unless --secrets-file names them.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { PartnerClient } from '../helpers/partnerClient';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../../sandbox/server');

type App = { name: string; clientId: string; clientSecret: string; webhookSecret: string };

// Every sandbox a test started; one a failed test left running is stopped after it.
const children = new Set<ReturnType<typeof spawn>>();
afterEach(() => {
	for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
	children.clear();
});

function startCli(args: string[]) {
	const child = spawn(process.execPath, [path.join(__dirname, '../../sandbox/cli.js'), ...args], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	children.add(child);
	const firstLine = new Promise<string>((resolve, reject) => {
		readline.createInterface({ input: child.stdout! }).once('line', resolve);
		child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
	});
	firstLine.catch(() => undefined); // a run that fails on purpose never prints it
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	let stderr = '';
	child.stderr!.on('data', (d) => (stderr += d));
	return { child, firstLine, exited, stderr: () => stderr };
}

/** Whether `app` of the sandbox at `baseUrl` authenticates with `secret`: 200, or 401 invalid_signature. */
async function pingStatus(baseUrl: string, app: App, secret: string) {
	const client = new PartnerClient(baseUrl, app.clientId, secret);
	const res = await client.get('/ping.php');
	await client.close();
	return res.status;
}

/** The status of GET /_sandbox/state of the sandbox `info` describes, with `token` (none: no header). */
async function stateStatus(info: { controlUrl: string }, token?: string) {
	const res = await fetch(`${info.controlUrl}/state`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
	return res.status;
}

/** Runs the CLI with `args`, returns its first line, and stops it. */
async function firstLineOfARun(args: string[]) {
	const { child, firstLine, exited } = startCli(['--port', '0', '--orders', '5', '--quiet', ...args]);
	const info = JSON.parse(await firstLine);
	const statuses = [await stateStatus(info), await stateStatus(info, info.controlToken)];
	child.kill('SIGTERM');
	expect(await exited).toBe(0);
	return { info, statuses };
}

/** Runs the CLI with `args`, returns its apps by name, and stops it. */
async function appsOfARun(args: string[]) {
	const { child, firstLine, exited } = startCli(['--port', '0', '--orders', '5', '--quiet', ...args]);
	const info = JSON.parse(await firstLine);
	child.kill('SIGTERM');
	expect(await exited).toBe(0);
	return Object.fromEntries(info.apps.map((a: App) => [a.name, a])) as Record<string, App>;
}

describe('sandbox CLI', () => {
	test.each(['SIGTERM', 'SIGINT'] as const)('prints its connection JSON first, serves, and stops on %s', async (signal) => {
		const { child, firstLine, exited } = startCli(['--port', '0', '--seed', '7', '--orders', '20']);
		const info = JSON.parse(await firstLine);
		expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/partner\/v1$/);
		const byName = Object.fromEntries(info.apps.map((x: { name: string }) => [x.name, x]));
		expect(byName['seller-a-full']).toMatchObject({
			sellerId: 1001,
			permissions: ['orders:read', 'orders:detail', 'stock:write', 'webhooks'],
			clientId: expect.any(String),
			clientSecret: expect.any(String),
			webhookSecret: expect.any(String),
		});
		expect(byName['seller-a-readonly']).toMatchObject({ sellerId: 1001, permissions: ['orders:read'] });
		expect(byName['seller-b-full']).toMatchObject({ sellerId: 1002 });

		const app = byName['seller-a-full'];
		const client = new PartnerClient(info.baseUrl, app.clientId, app.clientSecret);
		const res = await client.get('/orders.php?limit=100');
		await client.close();
		expect(res.json.data.orders).toHaveLength(20);

		child.kill(signal);
		expect(await exited).toBe(0);
	});

	test('--no-sku plays a marketplace without updates by sku', async () => {
		const { child, firstLine, exited } = startCli(['--port', '0', '--orders', '5', '--no-sku', '--quiet']);
		const info = JSON.parse(await firstLine);
		const app = info.apps.find((x: { name: string }) => x.name === 'seller-a-full');
		const client = new PartnerClient(info.baseUrl, app.clientId, app.clientSecret);
		const res = await client.post('/stock_update.php', { sku: 'SKU-A-70001', stock: 1 });
		await client.close();
		expect(res.json.error).toMatchObject({ code: 'missing_field', message: 'product_id is required.' });
		child.kill('SIGTERM');
		expect(await exited).toBe(0);
	});

	test('--rate-php-fatal answers that share of requests with a PHP fatal-error page', async () => {
		const { child, firstLine, exited } = startCli(['--port', '0', '--orders', '5', '--rate-php-fatal', '1', '--quiet']);
		const info = JSON.parse(await firstLine);
		const res = await fetch(`${info.baseUrl}/ping.php`);
		expect(res.status).toBe(500);
		expect(await res.text()).toMatch(/^<br \/>\n<b>Fatal error<\/b>: {2}Uncaught /);
		child.kill('SIGTERM');
		expect(await exited).toBe(0);
	});

	test('the style flags set the initial answer style', async () => {
		const { child, firstLine, exited } = startCli([
			'--port', '0', '--orders', '5', '--quiet',
			'--time-zone', 'America/New_York', '--answer-style', 'php', '--has-more-style', 'string',
			'--page-cap', '2', '--error-style', 'flat', '--foreign-order-status', '403',
		]);
		const info = JSON.parse(await firstLine);
		const res = await fetch(`${info.controlUrl}/style`, { headers: { authorization: `Bearer ${info.controlToken}` } });
		expect(((await res.json()) as { data: unknown }).data).toEqual({
			timeZone: 'America/New_York', answerStyle: 'php', hasMoreStyle: 'string', pageCap: 2, errorStyle: 'flat', foreignOrderStatus: 403,
		});
		const app = info.apps.find((x: { name: string }) => x.name === 'seller-a-full');
		const client = new PartnerClient(info.baseUrl, app.clientId, app.clientSecret);
		const list = await client.get('/orders.php?limit=5');
		const missing = await client.get('/order_detail.php?order_item_id=1');
		await client.close();
		expect(list.json.data.pagination).toEqual({ limit: '5', offset: '0', returned: '2', has_more: 'true' });
		expect(list.json.data.orders[0]).toMatchObject({ order_item_id: '500001', created_at: '2026-03-02 19:00:00' });
		expect(missing.status).toBe(404);
		expect(missing.json).toEqual({ ok: 0, error: 'order_not_found', message: 'Order item 1 was not found.' });
		child.kill('SIGTERM');
		expect(await exited).toBe(0);
	});

	test.each([
		[['--time-zone', 'Atlantis/Capital'], 'Style switch "timeZone" must be an IANA time zone such as America/New_York; "Atlantis/Capital" is not one.'],
		[['--answer-style', 'xml'], 'Style switch "answerStyle" must be one of json, php.'],
		[['--page-cap=-1'], 'Style switch "pageCap" must be a whole number from 0 (no cap) to 1000.'],
		[['--foreign-order-status', '410'], 'Style switch "foreignOrderStatus" must be one of 404, 403.'],
	])('a wrong style flag %j is refused with its message and exit code 2', async (args, message) => {
		const { exited, stderr } = startCli(['--port', '0', ...args]);
		expect(await exited).toBe(2);
		expect(stderr()).toBe(`${message}\nRun with --help for the flags.\n`);
	});

	test('a bad flag is refused with a message and exit code 2', async () => {
		const { exited, stderr } = startCli(['--orders', 'many']);
		expect(await exited).toBe(2);
		expect(stderr()).toMatch(/--orders needs a number/);
	});

	test.each([['0.0.0.0'], ['10.1.2.3'], ['::'], ['128.0.0.1'], ['example.com']])(
		'--host %s (not loopback) is refused with exit code 2 and what to do',
		async (host) => {
			const { exited, stderr } = startCli(['--port', '0', '--host', host]);
			expect(await exited).toBe(2);
			expect(stderr()).toBe(
				`host ${host} is not a loopback address (127.0.0.0/8, ::1, localhost): other machines could reach the sandbox. ` +
					'Use a loopback address, or --allow-remote (option allowRemote) if you mean to expose it.\nRun with --help for the flags.\n',
			);
		},
	);

	test.each([
		['127.0.0.2', /^http:\/\/127\.0\.0\.2:\d+\/_sandbox$/],
		['::1', /^http:\/\/\[::1\]:\d+\/_sandbox$/],
		['localhost', /^http:\/\/localhost:\d+\/_sandbox$/],
	])('--host %s (loopback) serves without a warning', async (host, controlUrl) => {
		const { child, firstLine, exited, stderr } = startCli(['--port', '0', '--orders', '5', '--quiet', '--host', host]);
		const info = JSON.parse(await firstLine);
		expect(info.controlUrl).toMatch(controlUrl);
		const app = info.apps.find((x: App) => x.name === 'seller-a-full');
		expect(await pingStatus(info.baseUrl, app, app.clientSecret)).toBe(200);
		child.kill('SIGTERM');
		expect(await exited).toBe(0);
		expect(stderr()).toBe('');
	});

	test('--allow-remote lets it listen on 0.0.0.0 and says on stderr what that exposes, even with --quiet', async () => {
		const { child, firstLine, exited, stderr } = startCli(['--port', '0', '--orders', '5', '--quiet', '--host', '0.0.0.0', '--allow-remote']);
		const info = JSON.parse(await firstLine);
		const port = /:(\d+)\/_sandbox$/.exec(info.controlUrl)![1];
		const app = info.apps.find((x: App) => x.name === 'seller-a-full');
		// Reached over loopback: the test's traffic stays on this machine.
		expect(await pingStatus(`http://127.0.0.1:${port}/api/partner/v1`, app, app.clientSecret)).toBe(200);
		child.kill('SIGTERM');
		expect(await exited).toBe(0);
		expect(stderr()).toBe(
			`[sandbox] WARNING: listening on http://0.0.0.0:${port}, which other machines may reach: they can call the Partner API ` +
				"(signed requests only, so with an app's secret). The control API (/_sandbox/: every app's secrets, orders, " +
				'webhooks) still answers loopback clients only, but a proxy on this machine in front of the sandbox exposes it too.\n',
		);
	});

	test('prints a fresh control token each run (256 bits), without which the control API answers 401', async () => {
		const [first, second] = [await firstLineOfARun([]), await firstLineOfARun([])];
		expect(first.info.controlToken).toMatch(/^ct_[0-9a-f]{64}$/);
		expect(second.info.controlToken).not.toBe(first.info.controlToken);
		expect(first.statuses).toEqual([401, 200]);
	});

	test('each run has fresh secrets for every app, none of them the seeded ones every install shares', async () => {
		const [first, second] = [await appsOfARun(['--seed', '3']), await appsOfARun(['--seed', '3'])];
		const seeded = Object.fromEntries(createSandbox({ seed: 3, orders: 5 }).describe().apps.map((a: App) => [a.name, a]));
		expect(Object.keys(first).sort()).toEqual(['seller-a-full', 'seller-a-inactive', 'seller-a-readonly', 'seller-b-full']);
		for (const name of Object.keys(first)) {
			for (const field of ['clientSecret', 'webhookSecret'] as const) {
				expect(first[name][field]).toMatch(field === 'clientSecret' ? /^cs_[0-9a-f]{48}$/ : /^whs_[0-9a-f]{48}$/);
				expect(second[name][field]).not.toBe(first[name][field]);
				expect(first[name][field]).not.toBe(seeded[name][field]);
			}
			// The client id is not a secret: it stays the seed's, so data and ids remain repeatable.
			expect(first[name].clientId).toBe(seeded[name].clientId);
		}
	});

	describe('--secrets-file', () => {
		let dir: string;
		beforeAll(() => {
			dir = mkdtempSync(path.join(tmpdir(), 'sandbox-secrets-'));
		});
		afterAll(() => rmSync(dir, { recursive: true, force: true }));

		const secretsFor = (tag: string) =>
			Object.fromEntries(
				['seller-a-full', 'seller-a-readonly', 'seller-b-full', 'seller-a-inactive'].map((name) => [
					name,
					{ clientSecret: `cs_${tag}_${name}_0123456789`, webhookSecret: `whs_${tag}_${name}_0123456789` },
				]),
			);

		test("gives every app the file's secrets: requests signed with them pass, with the seeded one they fail", async () => {
			const file = path.join(dir, 'secrets.json');
			writeFileSync(file, JSON.stringify({ apps: secretsFor('file'), ownerPassword: 'not read by the sandbox' }));
			const { child, firstLine, exited } = startCli(['--port', '0', '--orders', '5', '--quiet', '--secrets-file', file]);
			const info = JSON.parse(await firstLine);
			const seeded = Object.fromEntries(createSandbox({ orders: 5 }).describe().apps.map((a: App) => [a.name, a]));
			for (const app of info.apps as App[]) {
				expect({ clientSecret: app.clientSecret, webhookSecret: app.webhookSecret }).toEqual(secretsFor('file')[app.name]);
			}
			const full = info.apps.find((x: App) => x.name === 'seller-a-full');
			expect(await pingStatus(info.baseUrl, full, full.clientSecret)).toBe(200);
			expect(await pingStatus(info.baseUrl, full, seeded['seller-a-full'].clientSecret)).toBe(401);
			child.kill('SIGTERM');
			expect(await exited).toBe(0);
		});

		test('gives the control API the file\'s "controlToken"; a file without one, a fresh one', async () => {
			const controlToken = 'ct_from_the_file_0123456789abcdef0123';
			const withToken = path.join(dir, 'with-token.json');
			writeFileSync(withToken, JSON.stringify({ apps: secretsFor('file'), controlToken }));
			const kept = await firstLineOfARun(['--secrets-file', withToken]);
			expect(kept.info.controlToken).toBe(controlToken);
			expect(kept.statuses).toEqual([401, 200]);

			const without = path.join(dir, 'without-token.json');
			writeFileSync(without, JSON.stringify({ apps: secretsFor('file') }));
			const fresh = await firstLineOfARun(['--secrets-file', without]);
			expect(fresh.info.controlToken).toMatch(/^ct_[0-9a-f]{64}$/);
			expect(fresh.statuses).toEqual([401, 200]);
		});

		test('a control token too short to keep secret is refused with exit code 2', async () => {
			const file = path.join(dir, 'short-token.json');
			writeFileSync(file, JSON.stringify({ apps: secretsFor('x'), controlToken: 'ct_short' }));
			const { exited, stderr } = startCli(['--port', '0', '--secrets-file', file]);
			expect(await exited).toBe(2);
			expect(stderr()).toBe(
				`--secrets-file ${file}: controlToken must be a string of at least 32 characters, without spaces or non-ASCII characters.\nRun with --help for the flags.\n`,
			);
		});

		test('a file that cannot be used is refused with exit code 2 and what is wrong (the cases: secrets.test.ts)', async () => {
			const file = path.join(dir, 'one-short.json');
			writeFileSync(file, JSON.stringify({ apps: { ...secretsFor('x'), 'seller-b-full': { ...secretsFor('x')['seller-b-full'], clientSecret: 'cs_short' } } }));
			const { exited, stderr } = startCli(['--port', '0', '--secrets-file', file]);
			expect(await exited).toBe(2);
			expect(stderr()).toBe(
				`--secrets-file ${file}: "apps": secrets.seller-b-full.clientSecret must be a string of at least 16 characters without spaces.\nRun with --help for the flags.\n`,
			);
		});
	});
});
