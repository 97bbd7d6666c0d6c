#!/usr/bin/env node
'use strict';
// `npm run test:ui` drives Debian's chromium; on a fresh machine (CI runs as root) it installs it.
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');

const CHROMIUM = '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    process.stderr.write(`${CHROMIUM} is missing: install it with "sudo apt-get install -y chromium".\n`);
    process.exit(1);
  }
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'chromium']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
