/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The check of test/global-teardown.js: a jest run whose tests leave a file in the temp folder
// fails, naming it, and removes it all the same; a run whose tests remove their files passes; the
// suites against the real n8n only report it.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { tempDir, type TempDir } from '../helpers/tempDir';

const root = path.join(__dirname, '../..');
let temp: TempDir;
beforeEach(() => (temp = tempDir('n8n-partner-temp-check-')));
afterEach(() => temp.remove());

/** Runs jest, with this project's global setup and teardown, on one file of test/fixtures/temp-check. */
function jest(file: string, extra: object = {}) {
	const config = {
		...extra,
		testEnvironment: 'node',
		roots: ['<rootDir>/test/fixtures/temp-check'],
		testMatch: [`**/${file}`],
		transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
		globalSetup: '<rootDir>/test/global-setup.js',
		globalTeardown: '<rootDir>/test/global-teardown.js',
	};
	// A run of its own: not this run's user folder (its global setup would keep that and check nothing).
	const env = Object.fromEntries(Object.entries(temp.env).filter(([k]) => !['N8N_USER_FOLDER', 'PARTNER_TEST_TEMP'].includes(k)));
	const result = spawnSync(process.execPath, [path.join(root, 'node_modules/.bin/jest'), '--rootDir', root, '--config', JSON.stringify(config)], { cwd: root, env, encoding: 'utf8' });
	// What the run left in its temp folder, besides jest's own cache.
	const left = readdirSync(temp.path).filter((name) => !name.startsWith('jest_'));
	return { status: result.status, output: result.stdout + result.stderr, left };
}

test('a test that leaves a file in the temp folder fails the run, which names it and still leaves nothing', () => {
	const run = jest('leaves.ts');
	expect(run.output).toContain('Tests:       1 passed, 1 total');
	expect(run.output).toContain('The tests left 1 file(s) in the temp folder: tmp-left-behind.');
	expect(run.status).toBe(1);
	expect(run.left).toEqual([]);
}, 60_000);

test('a run whose tests remove their files passes and leaves nothing', () => {
	const run = jest('cleans.ts');
	expect(run.output).toContain('Tests:       1 passed, 1 total');
	expect(run.status).toBe(0);
	expect(run.left).toEqual([]);
}, 60_000);

test("a suite against the real n8n (globals.partnerTempCheck 'report') names what its tests left, removes it, and passes", () => {
	const run = jest('leaves.ts', { globals: { partnerTempCheck: 'report' } });
	expect(run.output).toContain('The tests left 1 file(s) in the temp folder: tmp-left-behind.');
	expect(run.output).toContain('(Removed.)');
	expect(run.status).toBe(0);
	expect(run.left).toEqual([]);
}, 60_000);
