/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm start`'s secrets (scripts/demo.js): made once per install with node:crypto, kept readable by
// the owner only, read back on later starts; and its banner, which says where they are but shows none.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports */
const { loadOrCreateDemoSecrets, demoBanner, ownerPassword } = require('../../scripts/demo');
const { generateSecrets, readSecretsFile } = require('../../sandbox/secrets');
/* eslint-enable @typescript-eslint/no-require-imports */

const mode = (p: string) => statSync(p).mode & 0o777;
/** Every secret in a secrets file's content. */
const allSecrets = (s: any): string[] => [s.ownerPassword, s.mcpToken, s.controlToken, ...Object.values(s.apps).flatMap((a: any) => [a.clientSecret, a.webhookSecret])];

describe('the demo secrets', () => {
	let tmp: string;
	beforeEach(() => {
		tmp = mkdtempSync(path.join(tmpdir(), 'demo-secrets-'));
	});
	afterEach(() => rmSync(tmp, { recursive: true, force: true }));

	test('are made in a 0700 folder and a 0600 file whatever the umask, and read back unchanged on the next start', () => {
		const folder = path.join(tmp, 'state', 'demo');
		const umask = process.umask(0);
		let first;
		try {
			first = loadOrCreateDemoSecrets(folder);
		} finally {
			process.umask(umask);
		}
		expect(first.created).toBe(true);
		expect(first.file).toBe(path.join(folder, 'secrets.json'));
		expect(mode(folder)).toBe(0o700);
		expect(mode(first.file)).toBe(0o600);
		expect(JSON.parse(readFileSync(first.file, 'utf8'))).toEqual(first.secrets);
		// What the sandbox CLI reads from the same file (--secrets-file).
		expect(readSecretsFile(first.file)).toEqual({ apps: first.secrets.apps, controlToken: first.secrets.controlToken });

		const second = loadOrCreateDemoSecrets(folder);
		expect(second).toEqual({ ...first, created: false });
	});

	test('a file from before the control token gets one, written back 0600; the rest is kept', () => {
		const folder = path.join(tmp, 'demo');
		const { file, secrets } = loadOrCreateDemoSecrets(folder);
		const { controlToken, ...older } = secrets;
		writeFileSync(file, JSON.stringify(older));
		const updated = loadOrCreateDemoSecrets(folder);
		expect(updated.created).toBe(false);
		expect(updated.secrets).toEqual({ ...older, controlToken: expect.stringMatching(/^ct_[0-9a-f]{64}$/) });
		expect(updated.secrets.controlToken).not.toBe(controlToken);
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(updated.secrets);
		expect(mode(file)).toBe(0o600);
		// What the sandbox CLI then takes as its control token.
		expect(readSecretsFile(file).controlToken).toBe(updated.secrets.controlToken);
		expect(loadOrCreateDemoSecrets(folder).secrets).toEqual(updated.secrets);
	});

	test('two installs share no secret', () => {
		const a = loadOrCreateDemoSecrets(path.join(tmp, 'a')).secrets;
		const b = loadOrCreateDemoSecrets(path.join(tmp, 'b')).secrets;
		expect(allSecrets(a)).toHaveLength(11);
		expect(new Set([...allSecrets(a), ...allSecrets(b)]).size).toBe(22);
	});

	test("an older demo's folder and a secrets file left readable by others are narrowed to 0700 and 0600", () => {
		const folder = path.join(tmp, 'demo');
		mkdirSync(folder, { mode: 0o755 });
		chmodSync(folder, 0o755);
		const { file, secrets } = loadOrCreateDemoSecrets(folder);
		chmodSync(file, 0o644);
		chmodSync(folder, 0o755);
		expect(loadOrCreateDemoSecrets(folder).secrets).toEqual(secrets);
		expect(mode(folder)).toBe(0o700);
		expect(mode(file)).toBe(0o600);
	});

	test.each([
		['{"apps":', /^.*secrets\.json: Unexpected end of JSON input\. Delete the file to have new secrets made\.$/],
		['{"ownerPassword":"short","mcpToken":"0123456789abcdefgh","apps":{}}', /secrets\.json: ownerPassword must be a string of at least 16 characters\. Delete the file to have new secrets made\.$/],
		['{"ownerPassword":"0123456789abcdefgh","apps":{}}', /secrets\.json: mcpToken must be a string of at least 16 characters\. Delete the file/],
		['{"ownerPassword":"0123456789abcdefgh","mcpToken":"0123456789abcdefgh","apps":{}}', /secrets\.json: secrets\.seller-a-full\.clientSecret must be a string of at least 16 characters without spaces\. Delete the file/],
		[
			`{"ownerPassword":"0123456789abcdefgh","mcpToken":"0123456789abcdefgh","apps":${JSON.stringify(generateSecrets())},"controlToken":"ct_short"}`,
			/secrets\.json: controlToken must be a string of at least 32 characters, without spaces or non-ASCII characters\. Delete the file/,
		],
	])('a damaged file %s is refused with what to do, and left as it was', (content, message) => {
		const folder = path.join(tmp, 'demo');
		mkdirSync(folder);
		const file = path.join(folder, 'secrets.json');
		writeFileSync(file, content);
		expect(() => loadOrCreateDemoSecrets(folder)).toThrow(message);
		expect(readFileSync(file, 'utf8')).toBe(content);
	});

	test("the owner password meets n8n's rules (8 to 64 characters, a digit, an upper-case letter) every time", () => {
		const passwords = Array.from({ length: 300 }, () => ownerPassword());
		for (const password of passwords) expect(password).toMatch(/^(?=.*\d)(?=.*[A-Z])[A-Za-z0-9_-]{24}$/);
		expect(new Set(passwords).size).toBe(300);
	});
});

describe("npm start's banner", () => {
	let tmp: string;
	beforeAll(() => {
		tmp = mkdtempSync(path.join(tmpdir(), 'demo-banner-'));
	});
	afterAll(() => rmSync(tmp, { recursive: true, force: true }));

	test.each([true, false])('names the secrets file and shows no secret (owner just created: %s)', (ownerCreated) => {
		const { secrets } = loadOrCreateDemoSecrets(tmp);
		const app = { clientId: 'cli_a_0123', ...secrets.apps['seller-a-full'] };
		const banner = demoBanner({
			editorUrl: 'http://127.0.0.1:5791',
			ownerEmail: 'demo@example.com',
			ownerCreated,
			secretsFile: path.join('.state', 'demo', 'secrets.json'),
			sandbox: { baseUrl: 'http://127.0.0.1:8791/api/partner/v1', controlUrl: 'http://127.0.0.1:8791/_sandbox' },
			app,
			webhookUrl: 'http://127.0.0.1:5791/webhook/x/webhook',
			mcpUrl: 'http://127.0.0.1:5791/mcp/marketplace',
		});
		for (const secret of allSecrets(secrets)) expect(banner).not.toContain(secret);
		expect(banner).toContain('Editor:   http://127.0.0.1:5791/   (sign in as demo@example.com; the password is');
		expect(banner).toContain('"ownerPassword" in .state/demo/secrets.json');
		expect(banner).toContain('Authorization: Bearer <"mcpToken" in .state/demo/secrets.json>');
		expect(banner).toContain('cli_a_0123');
		// The sandbox's test event page, at the address a person types.
		expect(banner).toContain('Trigger URL left empty (the event goes to the published workflow):\n       http://127.0.0.1:8791/\n');
		// The control API's curl lines read the token from the file.
		expect(banner).toContain(`AUTH="Authorization: Bearer $(node -p 'require("./.state/demo/secrets.json").controlToken')"`);
		expect(banner).toContain('curl -H "$AUTH" http://127.0.0.1:8791/_sandbox/state');
		expect(banner).toContain(`curl -X POST http://127.0.0.1:8791/_sandbox/orders -H "$AUTH" -H 'content-type: application/json'`);
	});
});
