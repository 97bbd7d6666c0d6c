/** Queue mode: n8n main, worker and webhook processes on Redis and PostgreSQL (scripts/queue.js). */
/** @type {import('jest').Config} */
module.exports = { ...require('./test/jest.real-n8n')({ folder: 'queue', match: '**/*.queue.ts', testTimeout: 600000 }), rootDir: __dirname };
