/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// A test's own temporary folder, also the temp folder (TMPDIR) of the processes it starts: the tools
// behind `npm run build`, `npm pack` and `n8n-node` leave caches there (gulp's v8flags, tsx's
// compile cache), and the test removes the folder with everything in them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TempDir {
	path: string;
	/** This process's environment with TMPDIR in the folder, for a child process. */
	env: NodeJS.ProcessEnv;
	remove(): void;
}

export function tempDir(prefix: string): TempDir {
	const dir = mkdtempSync(path.join(tmpdir(), prefix));
	return { path: dir, env: { ...process.env, TMPDIR: dir }, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
