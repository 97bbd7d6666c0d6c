#!/usr/bin/env node
'use strict';
// `npm run provision`: installs Node 24 and the pinned n8n into .state/runtime, once.
const { provision } = require('./lib');

try {
  provision();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
