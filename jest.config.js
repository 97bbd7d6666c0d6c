// A larger young generation for the workers (and what the tests start), which inherit the
// environment: every test file loads n8n-workflow and most n8n-core afresh (0.6 s and 0.7 s each),
// and V8's scavenges of a 16 MB default took a fifth of the run's CPU (2026-12-06, 2 cores: 136 s
// user without, 101-130 s with).
if (!/--max-semi-space-size/.test(process.env.NODE_OPTIONS ?? '')) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=32`.trim();

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The published package's checks (build, pack, scanner, lock file) are `npm run test:package`
  // (jest.package.config.js), a CI step of their own: `npm test` is the loop for code changes.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/package/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // Real HTTP over loopback and the real n8n engine: give slow shared machines room.
  testTimeout: 30000,
  // Two workers more than there are cores (jest's default leaves one free): many files wait on
  // Retry-After, backoffs and Give Up After, and the other workers compute meanwhile. On 2 cores
  // (2026-12-06, the long checks at their small size): 112 s with three workers, 101 s with four,
  // 104 s with six.
  maxWorkers: require('node:os').availableParallelism() + 2,
  // A code cache per worker (test/jest-runtime.js).
  runtime: '<rootDir>/test/jest-runtime.js',
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  // The longest files first, also where jest has no timings cached (test/sequencer.js).
  testSequencer: '<rootDir>/test/sequencer.js',
  // Where the time goes, printed at the end (issue 44).
  reporters: ['default', '<rootDir>/test/timings-reporter.js'],
};
