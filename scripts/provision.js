#!/usr/bin/env node
'use strict';
// `npm run provision [-- --n8n=<version>]`: installs that n8n (default: N8N_VERSION in the
// environment, else the pinned 2.x) into .state/runtime-<version>, once; 2.x gets a Node 24 beside it.
const flag = process.argv.slice(2).find((a) => a.startsWith('--n8n='));
if (flag) process.env.N8N_VERSION = flag.slice('--n8n='.length);
const { provision } = require('./lib');

try {
  provision();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
