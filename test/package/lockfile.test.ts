/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm ci` refuses a lock file that names a dependency without an entry for it ("Missing: … from
// lock file"): every optional platform binary must have its entry, whether or not it fits this machine.
import { readFileSync } from 'node:fs';
import path from 'node:path';

type Entry = { version?: string; optionalDependencies?: Record<string, string>; dependencies?: Record<string, string> };

test('every dependency the lock file names has its own entry, so npm ci accepts it', () => {
	const lock = JSON.parse(readFileSync(path.join(__dirname, '../../package-lock.json'), 'utf8')) as { packages: Record<string, Entry> };
	const missing: string[] = [];
	for (const [at, entry] of Object.entries(lock.packages)) {
		for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
			// Node's resolution: the nearest node_modules up from the dependent package.
			let dir = at;
			let found = false;
			for (;;) {
				if (lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) {
					found = true;
					break;
				}
				if (!dir) break;
				const up = dir.lastIndexOf('/node_modules/');
				dir = up < 0 ? '' : dir.slice(0, up);
			}
			if (!found) missing.push(`${name} (needed by ${at || 'the project'})`);
		}
	}
	expect(missing).toEqual([]);
});
