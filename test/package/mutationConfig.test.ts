/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// What a mutation run leaves in the project when it is stopped half-way: nothing that the next
// command reads. Stryker copies the project into its temp folder and removes it only when it ends.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');

/** The Stryker configuration as Stryker loads it (an ES module). */
function strykerOptions(): { tempDirName: string } {
	const script = `import('./test/mutation/stryker.config.mjs').then((m) => process.stdout.write(JSON.stringify(m.default)))`;
	const result = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
	expect(result.stderr).toBe('');
	return JSON.parse(result.stdout);
}

test("Stryker's copy of the project is made outside it, so that lint, scan and the tests never read a copy a stopped run left", () => {
	const temp = path.resolve(root, strykerOptions().tempDirName);
	const relative = path.relative(root, temp);
	expect(relative.startsWith('..') || path.isAbsolute(relative)).toBe(true);
});

test('no file in the repository is over 10 MB: the mutation cache is committed gzipped and still holds a result for every mutant of the mutated files', () => {
	const listed = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
	expect(listed.status).toBe(0);
	const files = listed.stdout.split('\0').filter(Boolean);
	const sizes = files.map((file) => [file, statSync(path.join(root, file), { throwIfNoEntry: false })?.size ?? 0] as const);
	expect(sizes.filter(([, size]) => size > 10 * 1024 * 1024)).toEqual([]);
	const script = `import('./test/mutation/cache.mjs').then((m) => { const r = m.readReport(m.PACKED); process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(r.files).map(([f, x]) => [f, x.mutants.length])))); })`;
	const result = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	expect(result.stderr).toBe('');
	const mutantsPerFile: Record<string, number> = JSON.parse(result.stdout);
	expect(Object.keys(mutantsPerFile)).toEqual(expect.arrayContaining(['credentials/MarketplacePartnerApi.credentials.ts', 'nodes/shared/transport/index.ts', 'sandbox/auth.js']));
	for (const count of Object.values(mutantsPerFile)) expect(count).toBeGreaterThan(0);
});
