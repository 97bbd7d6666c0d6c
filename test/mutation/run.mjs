// `npm run test:mutation [-- stryker options]`: StrykerJS on the unpacked mutation cache, packed again
// after the run (cache.mjs), also after a run stopped by SIGINT (CI's time limit), as Stryker writes
// what it tested before it exits. With an --incrementalFile of one's own (a part, a resumed
// checkpoint) the cache is left alone.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { UNPACKED, pack, unpack } from './cache.mjs';

const args = process.argv.slice(2);
const ownFile = args.some((arg) => arg.startsWith('--incrementalFile'));
if (!ownFile) unpack();
// Stryker gets the signal too (CI's timeout signals the process group); this process waits for it.
process.on('SIGINT', () => {});
const stryker = path.join(path.dirname(createRequire(import.meta.url).resolve('@stryker-mutator/core/package.json')), 'bin', 'stryker.js');
const run = spawnSync(
	process.execPath,
	[stryker, 'run', 'test/mutation/stryker.config.mjs', ...(ownFile ? [] : ['--incrementalFile', UNPACKED]), ...args],
	// The test runners Stryker starts inherit this: the young generation jest.config.js gives npm
	// test's workers (scavenges were a fifth of the unit suites' CPU).
	{ stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=32`.trim() } },
);
if (!ownFile) pack();
process.exit(run.status ?? 130);
