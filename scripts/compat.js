#!/usr/bin/env node
'use strict';
// `npm run test:compat [-- 1.88.0 2.20.12 …] [--clean]`: the example workflows end to end
// (test/e2e/examples.e2e.ts) and the installer (test/e2e/installer.e2e.ts) on one release of each
// n8n minor line the package claims, one after the other, each in its own runtime folder
// (.state/runtime-<version>; --clean removes it afterwards, except the two CI runs on every change).
// Prints a table and writes it to reports/compat/table.md (docs/compatibility.md shows it).
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
// The newest release of each line, from the stated minimum to the pinned 2.x (1.88.0 runs on request:
// its installer cannot install the package, docs/compatibility.md). The 2.10 line has one release,
// 2.10.0, which cannot be installed from the registry (it asks for @n8n/ai-utilities 0.4.0, never
// published there): 2.11.4 stands for it.
const LINES = ['1.94.1', '1.100.1', '1.110.1', '1.119.2', '1.123.81', '2.0.3', '2.11.4', '2.20.12', '2.30.8', '2.41.1'];
const KEPT = new Set(['1.123.81', '2.41.1']);
const SUITES = ['test/e2e/examples.e2e.ts', 'test/e2e/installer.e2e.ts'];
const OUT = path.join(ROOT, 'reports', 'compat');

const args = process.argv.slice(2);
const clean = args.includes('--clean');
const versions = args.filter((a) => !a.startsWith('--'));
const unknown = versions.filter((v) => !/^\d+\.\d+\.\d+$/.test(v));
if (unknown.length > 0) {
  process.stderr.write(`Not an exact n8n version: ${unknown.join(', ')} (e.g. 1.94.1)\n`);
  process.exit(2);
}

fs.mkdirSync(OUT, { recursive: true });

/** Runs one command with N8N_VERSION set, its output shown; returns its exit code and seconds. */
function step(version, command, commandArgs) {
  const started = Date.now();
  // n8n's defaults on every line: the hardened settings (n8n 3.0's announced defaults) exist only in
  // recent 2.x lines (2.11.4 has neither SSRF protection of the credential test nor the unverified-
  // packages switch's listing); CI's e2e runs them on the pinned 2.41.1.
  const env = { ...process.env, N8N_VERSION: version, PARTNER_N8N_PROFILE: process.env.PARTNER_N8N_PROFILE ?? 'plain' };
  const run = spawnSync(command, commandArgs, { cwd: ROOT, stdio: 'inherit', env });
  return { status: run.status ?? 1, seconds: Math.round((Date.now() - started) / 1000) };
}

function runLine(version) {
  process.stderr.write(`\n[compat] n8n ${version}\n`);
  const provision = step(version, process.execPath, ['scripts/provision.js']);
  const row = { version, installSeconds: provision.seconds, passed: 0, failed: 0, failures: [], testSeconds: 0 };
  if (provision.status !== 0) return { ...row, failures: ['n8n could not be installed here'] };
  const results = path.join(OUT, `${version}.json`);
  fs.rmSync(results, { force: true });
  const jest = step(version, process.execPath, [require.resolve('jest/bin/jest'), '-c', 'jest.e2e.config.js', '--runInBand', '--ci', '--json', `--outputFile=${results}`, ...SUITES]);
  row.testSeconds = jest.seconds;
  if (!fs.existsSync(results)) return { ...row, failures: ['the test run ended without results'] };
  const report = JSON.parse(fs.readFileSync(results, 'utf8'));
  for (const file of report.testResults) {
    for (const t of file.assertionResults) {
      if (t.status === 'passed') row.passed++;
      else if (t.status === 'failed') {
        row.failed++;
        row.failures.push(`${path.basename(file.name)}: ${t.title} (${String(t.failureMessages[0] ?? '').split('\n')[0].slice(0, 160)})`);
      }
    }
    if (file.assertionResults.length === 0 && file.status === 'failed') row.failures.push(`${path.basename(file.name)}: ${String(file.message).split('\n').find((l) => l.trim()) ?? 'failed to run'}`);
  }
  if (clean && !KEPT.has(version)) fs.rmSync(path.join(ROOT, '.state', `runtime-${version}`), { recursive: true, force: true });
  return row;
}

// Rows of earlier runs are kept (a line run again replaces its row), so lines can be run one at a time.
const ROWS = path.join(OUT, 'rows.json');
const earlier = fs.existsSync(ROWS) ? JSON.parse(fs.readFileSync(ROWS, 'utf8')) : [];
const byVersion = new Map(earlier.map((r) => [r.version, r]));
const order = (a, b) => a.version.split('.').map(Number).reduce((d, n, i) => d || n - Number(b.version.split('.')[i]), 0);
for (const version of versions.length > 0 ? versions : LINES) {
  byVersion.set(version, { ...runLine(version), at: new Date().toISOString().slice(0, 10) });
  fs.writeFileSync(ROWS, `${JSON.stringify([...byVersion.values()].sort(order), null, 2)}\n`);
}
const rows = [...byVersion.values()].sort(order);

const escape = (text) => text.replace(/\|/g, '\\|');
const table = [
  `\`npm run test:compat\` (${SUITES.join(', ')}), on this machine:`,
  '',
  '| n8n | Node.js | run on | passed | failed | what failed |',
  '|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.version} | ${Number(r.version.split('.')[0]) >= 2 ? '24' : process.versions.node.split('.')[0]} | ${r.at} | ${r.passed} | ${r.failed} | ${r.failures.map(escape).join('<br>') || '—'} |`),
  '',
].join('\n');
fs.writeFileSync(path.join(OUT, 'table.md'), table);
process.stdout.write(`\n${table}`);
process.exit(rows.every((r) => r.failed === 0 && r.failures.length === 0) ? 0 : 1);
