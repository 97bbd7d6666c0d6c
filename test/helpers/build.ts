/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm run build` once per jest run, for every test file that reads dist/ (build.test.ts and
// scanner.test.ts). tsup empties dist/ before it writes: two builds at once, in two jest workers,
// could leave one file reading a dist/ the other is rebuilding. One build is also half the CPU.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './tempDir';

const root = path.join(__dirname, '../..');

function build(): void {
	// npm and the tools it runs get a temp folder removed afterwards (gulp's cache).
	const temp = tempDir('n8n-partner-build-');
	try {
		execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: temp.env });
	} catch (error) {
		throw new Error(`npm run build failed:\n${(error as { stderr?: string }).stderr ?? error}`);
	} finally {
		temp.remove();
	}
}

/** Builds dist/ unless another file of this jest run has built it (then waits for that build and shares its outcome). */
export async function buildOnce(): Promise<void> {
	// The run's own folder (test/global-setup.js); without one (a caller with its own setup), build.
	const run = process.env.PARTNER_TEST_TEMP;
	if (!run) return build();
	const claim = path.join(run, 'build');
	const outcome = path.join(claim, 'outcome');
	try {
		mkdirSync(claim); // atomic: the first file to get here builds
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		for (const until = Date.now() + 180_000; !existsSync(outcome); ) {
			if (Date.now() > until) throw new Error('Waited 3 minutes for another test file\'s npm run build.');
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		const failure = readFileSync(outcome, 'utf8');
		if (failure) throw new Error(failure);
		return;
	}
	try {
		build();
		writeFileSync(outcome, '');
	} catch (error) {
		writeFileSync(outcome, (error as Error).message);
		throw error;
	}
}
