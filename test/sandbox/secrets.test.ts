/* eslint-disable @typescript-eslint/no-explicit-any, @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The sandbox's `secrets` and `allowRemote` options in-process: given secrets sign and verify both
// ways (requests and webhook deliveries) and survive a reset; a wrong option fails with what to fix.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PartnerClient } from '../helpers/partnerClient';
import { startReceiver } from '../helpers/receiver';
import { startSandbox } from '../helpers/sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../../sandbox/server');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generateSecrets, generateControlToken, readSecretsFile } = require('../../sandbox/secrets');

describe('sandbox secrets option', () => {
	test('the given secrets replace the seeded ones, sign webhook deliveries and stay through a reset', async () => {
		const secrets = generateSecrets();
		const seeded = createSandbox({ orders: 20 }).describe().apps;
		const sb = await startSandbox({ orders: 20, secrets });
		const receiver = await startReceiver();
		try {
			const app = sb.apps['seller-a-full'];
			expect(app).toMatchObject(secrets['seller-a-full']);
			expect(app.clientId).toBe(seeded[0].clientId);

			await sb.control('POST', '/reset', { seed: 9 });
			const after = (await sb.control('GET', '/state')).apps;
			expect(Object.fromEntries(after.map((a: any) => [a.name, { clientSecret: a.clientSecret, webhookSecret: a.webhookSecret }]))).toEqual(secrets);

			const client = new PartnerClient(sb.baseUrl, after[0].clientId, secrets['seller-a-full'].clientSecret);
			expect((await client.get('/ping.php')).status).toBe(200);
			expect((await client.get('/ping.php', { secret: seeded[0].clientSecret })).status).toBe(401);
			await client.close();

			await sb.control('POST', `/apps/${after[0].clientId}/test-event`, { url: receiver.url });
			const [delivery] = await receiver.waitFor(1);
			const ts = delivery.headers['x-svc-webhook-timestamp'] as string;
			const signed = (secret: string) => createHmac('sha256', secret).update(`${ts}.`).update(delivery.rawBody).digest('hex');
			expect(delivery.headers['x-svc-webhook-signature']).toBe(signed(secrets['seller-a-full'].webhookSecret));
		} finally {
			await receiver.close();
			await sb.close();
		}
	});

	test.each([
		[{ 'seller-a-full': generateSecrets()['seller-a-full'] }, 'secrets.seller-a-readonly.clientSecret must be a string of at least 16 characters without spaces.'],
		// Secrets it only inherits are not its own: nothing comes from a prototype.
		[Object.create(generateSecrets()), 'secrets.seller-a-full.clientSecret must be a string of at least 16 characters without spaces.'],
		[[], 'secrets must be an object naming each app (seller-a-full, seller-a-readonly, seller-b-full, seller-a-inactive) with its clientSecret and webhookSecret.'],
	])('secrets %p is refused: %s', (secrets, message) => {
		expect(() => createSandbox({ orders: 1, secrets })).toThrow(message);
	});

	test('a secret of 16 characters is taken, one of 15 is refused', () => {
		const secrets = generateSecrets();
		secrets['seller-a-readonly'].clientSecret = 'x'.repeat(16);
		expect(() => createSandbox({ orders: 1, secrets })).not.toThrow();
		secrets['seller-a-readonly'].clientSecret = 'x'.repeat(15);
		expect(() => createSandbox({ orders: 1, secrets })).toThrow('secrets.seller-a-readonly.clientSecret must be a string of at least 16 characters without spaces.');
	});

	test('a secret with a space, or not a string, is refused', () => {
		const secrets = generateSecrets();
		secrets['seller-b-full'].webhookSecret = 'whs_0123456789 abcdef';
		expect(() => createSandbox({ orders: 1, secrets })).toThrow('secrets.seller-b-full.webhookSecret must be a string of at least 16 characters without spaces.');
		// A number of 16 digits: long enough as a string, but not one.
		secrets['seller-b-full'].webhookSecret = Number.MAX_SAFE_INTEGER;
		expect(() => createSandbox({ orders: 1, secrets })).toThrow('secrets.seller-b-full.webhookSecret must be a string of at least 16 characters without spaces.');
	});

	test('generateSecrets: 48 random hex digits per secret, every app, never twice the same', () => {
		const [a, b] = [generateSecrets(), generateSecrets()];
		expect(Object.keys(a)).toEqual(['seller-a-full', 'seller-a-readonly', 'seller-b-full', 'seller-a-inactive']);
		const all = [a, b].flatMap((s) => Object.values(s).flatMap((app: any) => [app.clientSecret, app.webhookSecret]));
		expect(new Set(all).size).toBe(16);
		for (const app of Object.values(a) as any[]) {
			expect(app.clientSecret).toMatch(/^cs_[0-9a-f]{48}$/);
			expect(app.webhookSecret).toMatch(/^whs_[0-9a-f]{48}$/);
		}
	});
});

describe('a secrets file (--secrets-file)', () => {
	let dir: string;
	beforeAll(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'sandbox-secrets-'));
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	test('gives its "apps" and ignores the other keys', () => {
		const apps = generateSecrets();
		const file = path.join(dir, 'good.json');
		writeFileSync(file, JSON.stringify({ apps, ownerPassword: 'for npm start, not the sandbox' }));
		expect(readSecretsFile(file)).toEqual({ apps, controlToken: undefined });
		const controlToken = generateControlToken();
		writeFileSync(file, JSON.stringify({ apps, controlToken }));
		expect(readSecretsFile(file)).toEqual({ apps, controlToken });
	});

	const apps = () => generateSecrets();
	test.each([
		['missing.json', null, 'no such file'],
		['not-json.json', '{"apps":', 'Unexpected end of JSON input'],
		['null.json', 'null', '"apps": secrets must be an object naming each app (seller-a-full, seller-a-readonly, seller-b-full, seller-a-inactive) with its clientSecret and webhookSecret.'],
		['apps-text.json', '{"apps":"cs_0123456789abcdef"}', '"apps": secrets must be an object naming each app (seller-a-full, seller-a-readonly, seller-b-full, seller-a-inactive) with its clientSecret and webhookSecret.'],
		['apps-null.json', '{"apps":null}', '"apps": secrets must be an object naming each app (seller-a-full, seller-a-readonly, seller-b-full, seller-a-inactive) with its clientSecret and webhookSecret.'],
		['no-apps.json', '{}', '"apps": secrets must be an object naming each app (seller-a-full, seller-a-readonly, seller-b-full, seller-a-inactive) with its clientSecret and webhookSecret.'],
		['one-missing.json', JSON.stringify({ apps: { ...apps(), 'seller-a-inactive': undefined } }), '"apps": secrets.seller-a-inactive.clientSecret must be a string of at least 16 characters without spaces.'],
		['no-webhook-secret.json', JSON.stringify({ apps: { ...apps(), 'seller-a-full': { clientSecret: apps()['seller-a-full'].clientSecret } } }), '"apps": secrets.seller-a-full.webhookSecret must be a string of at least 16 characters without spaces.'],
		['unknown.json', JSON.stringify({ apps: { ...apps(), 'seller-c': {}, 'seller-d': {} } }), '"apps": secrets name apps the sandbox does not have: seller-c, seller-d (it has seller-a-full, seller-a-readonly, seller-b-full, seller-a-inactive).'],
		['short-token.json', JSON.stringify({ apps: apps(), controlToken: 'ct_0123456789abcdef' }), 'controlToken must be a string of at least 32 characters, without spaces or non-ASCII characters.'],
		['spaced-token.json', JSON.stringify({ apps: apps(), controlToken: 'ct 0123456789abcdef0123456789abcdef' }), 'controlToken must be a string of at least 32 characters, without spaces or non-ASCII characters.'],
		['inherited.json', '{"apps":{"__proto__":{"seller-a-full":1}}}', '"apps": secrets name apps the sandbox does not have: __proto__ (it has seller-a-full, seller-a-readonly, seller-b-full, seller-a-inactive).'],
	])('%s is refused with what is wrong', (name, content, message) => {
		const file = path.join(dir, name);
		if (content !== null) writeFileSync(file, content);
		expect(() => readSecretsFile(file)).toThrow(`--secrets-file ${file}: ${message}`);
	});
});

describe('sandbox allowRemote option', () => {
	test('a host other machines reach is refused unless allowRemote is set', () => {
		expect(() => createSandbox({ orders: 1, host: '0.0.0.0' })).toThrow(
			'host 0.0.0.0 is not a loopback address (127.0.0.0/8, ::1, localhost): other machines could reach the sandbox. Use a loopback address, or --allow-remote (option allowRemote) if you mean to expose it.',
		);
		expect(() => createSandbox({ orders: 1, host: '0.0.0.0', allowRemote: true })).not.toThrow();
		for (const host of ['127.0.0.1', '127.255.255.254', '::1', 'LOCALHOST']) expect(() => createSandbox({ orders: 1, host })).not.toThrow();
		for (const host of ['example.com', '', '::', '10.0.0.1', '128.0.0.1', '::2']) expect(() => createSandbox({ orders: 1, host })).toThrow(`host ${host} is not a loopback address`);
	});
});
