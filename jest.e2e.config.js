/** End-to-end: the real n8n (provisioned by scripts/provision.js) with our package installed. */
// The 2.x run is hardened n8n (scripts/lib.js HARDENED_ENV; docs/production.md, "Hardened n8n"):
// SSRF protection on, env access blocked, file access restricted, n8n 3.0's announced defaults. The
// 1.x run, the UI and the queue suites keep n8n's plain defaults, so both are covered on every CI run
// at no extra time. `PARTNER_N8N_PROFILE=plain npm run test:e2e` runs 2.x with the defaults.
process.env.PARTNER_N8N_PROFILE ??= require('./scripts/lib').N8N_MAJOR >= 2 ? 'hardened' : 'plain';
/** @type {import('jest').Config} */
module.exports = { ...require('./test/jest.real-n8n')({ folder: 'e2e', match: '**/*.e2e.ts', testTimeout: 300000 }), rootDir: __dirname };
