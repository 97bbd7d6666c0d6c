/** End-to-end: the real n8n (provisioned by scripts/provision.js) with our package installed. */
/** @type {import('jest').Config} */
module.exports = { ...require('./test/jest.real-n8n')({ folder: 'e2e', match: '**/*.e2e.ts', testTimeout: 300000 }), rootDir: __dirname };
