/** Queue mode: n8n main, worker and webhook processes on Redis and PostgreSQL (scripts/queue.js). */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/queue'],
  testMatch: ['**/*.queue.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  testTimeout: 600000,
};
