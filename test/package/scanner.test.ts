/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// n8n's community-package scanner, run offline as `npx @n8n/scan-community-package` runs it after
// its provenance check: its rules over the source and over the packed tarball (scripts/scan.mjs).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildOnce } from '../helpers/build';

const root = path.join(__dirname, '../..');
const scan = (...args: string[]) => spawnSync('node', ['scripts/scan.mjs', ...args], { cwd: root, encoding: 'utf8' });

test('the source and the packed tarball pass the scanner', async () => {
	await buildOnce();
	const result = scan('--built');
	expect(result.stdout).toMatch(/^passed: source/m);
	expect(result.stdout).toMatch(/^passed: tarball n8n-nodes-marketplace-partner-/m);
	expect(result.status).toBe(0);
}, 180_000);

test('the scanner is not fooled by an eslint-disable comment: a planted helpers.request fails it', () => {
	const copy = mkdtempSync(path.join(tmpdir(), 'n8n-partner-scan-test-'));
	try {
		// The package's manifest and one planted file: the rest of the source is the first test's.
		cpSync(path.join(root, 'package.json'), path.join(copy, 'package.json'));
		const file = path.join(copy, 'nodes/shared/transport/planted.ts');
		mkdirSync(path.dirname(file), { recursive: true });
		writeFileSync(
			file,
			"import type { ICredentialTestFunctions } from 'n8n-workflow';\n" +
				'export async function planted(this: ICredentialTestFunctions) {\n' +
				'\t// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions\n' +
				"\treturn await this.helpers.request({ uri: 'https://example.com' });\n}\n",
		);
		expect(readFileSync(file, 'utf8')).toContain('eslint-disable');
		const result = scan(copy);
		expect(result.status).toBe(1);
		expect(result.stdout).toContain('planted.ts');
		expect(result.stdout).toContain('@n8n/community-nodes/no-deprecated-workflow-functions');
	} finally {
		rmSync(copy, { recursive: true, force: true });
	}
}, 120_000);
