/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // Real HTTP over loopback and the real n8n engine: give slow shared machines room.
  testTimeout: 30000,
  // One worker more than there are cores (jest's default leaves one free): many files wait on
  // Retry-After, backoffs and Give Up After, and a third worker computes meanwhile. On 2 cores:
  // 197 s with two workers, 147 s with three, 146 s with four (the fault mix then stretches to 128 s).
  maxWorkers: require('node:os').availableParallelism() + 1,
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  // The longest files first, also where jest has no timings cached (test/sequencer.js).
  testSequencer: '<rootDir>/test/sequencer.js',
  // Where the time goes, printed at the end (issue 44).
  reporters: ['default', '<rootDir>/test/timings-reporter.js'],
};
