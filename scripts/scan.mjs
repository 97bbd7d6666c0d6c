#!/usr/bin/env node
// `npm run scan [-- <dir> | --built]`: n8n's community-package scanner (@n8n/scan-community-package), offline.
// `npx @n8n/scan-community-package <name>` needs the published package, its npm provenance and the
// attested GitHub commit; the two legs it then runs are run here the same way: its ESLint rules
// (inline eslint-disable comments ignored) over the source's nodes/, credentials/ and package.json,
// and over the compiled .js and package.json of the packed tarball. With a directory, only the
// source leg runs over that directory (the tests use it on a copy with a planted violation). With
// --built, dist/ is packed as it is (the tests build it once for every file that reads it).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// eslint-plugin-n8n-nodes-base reads file names differently when NODE_ENV is "test" (its own tests);
// under jest it would report every node file as misnamed. The scanner runs without it.
delete process.env.NODE_ENV;
// The scanner makes a temp folder as it loads (tmp.dirSync) and leaves it (tmp-<pid>-*), and the build
// leaves gulp's cache: the scan, and what it starts, get a temp folder removed at the end.
const work = mkdtempSync(path.join(tmpdir(), 'n8n-partner-scan-'));
process.env.TMPDIR = work;
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

function report(label, result) {
  process.stdout.write(`${result.passed ? 'passed' : 'FAILED'}: ${label}${result.message ? ` (${result.message})` : ''}\n`);
  if (result.details) process.stdout.write(`${result.details}\n`);
  return result.passed;
}

async function scan() {
  const built = process.argv[2] === '--built';
  const only = built ? undefined : process.argv[2];
  if (only) return report(`source ${only}`, await analyzePackage(path.resolve(only), SOURCE_FILE_PATTERNS));

  const sourceOk = report('source (nodes/, credentials/, package.json)', await analyzePackage(ROOT, SOURCE_FILE_PATTERNS));
  if (!built) execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }));
  const unpacked = path.join(work, 'package');
  mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', path.join(work, packed[0].filename), '-C', unpacked, '--strip-components=1']);
  const tarballOk = report(`tarball ${packed[0].filename} (compiled .js, package.json)`, await analyzePackage(unpacked, ['**/*.js', 'package.json']));
  return sourceOk && tarballOk;
}

async function main() {
  try {
    return await scan();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
