/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm run sandbox`: the first stdout line, and a clean stop on SIGINT and SIGTERM.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { PartnerClient } from '../helpers/partnerClient';

function startCli(args: string[]) {
	const child = spawn(process.execPath, [path.join(__dirname, '../../sandbox/cli.js'), ...args], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const firstLine = new Promise<string>((resolve, reject) => {
		readline.createInterface({ input: child.stdout! }).once('line', resolve);
		child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
	});
	firstLine.catch(() => undefined); // a run that fails on purpose never prints it
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	return { child, firstLine, exited };
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
		const res = await fetch(`${info.controlUrl}/style`);
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
		const { child, exited } = startCli(['--port', '0', ...args]);
		let stderr = '';
		child.stderr!.on('data', (d) => (stderr += d));
		expect(await exited).toBe(2);
		expect(stderr).toBe(`${message}\nRun with --help for the flags.\n`);
	});

	test('a bad flag is refused with a message and exit code 2', async () => {
		const { child, exited } = startCli(['--orders', 'many']);
		let stderr = '';
		child.stderr!.on('data', (d) => (stderr += d));
		expect(await exited).toBe(2);
		expect(stderr).toMatch(/--orders needs a number/);
	});
});
