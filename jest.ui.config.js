/** The editor in a real browser: Debian's chromium (scripts/ensure-chromium.js) against the real n8n. */
/** @type {import('jest').Config} */
module.exports = { ...require('./test/jest.real-n8n')({ folder: 'ui', match: '**/*.ui.ts', testTimeout: 120000 }), rootDir: __dirname };
