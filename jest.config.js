/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // Real HTTP over loopback and the real n8n engine: give slow shared machines room.
  testTimeout: 30000,
  // Every core (jest's default leaves one free): the suites wait on loopback HTTP as much as they compute.
  maxWorkers: '100%',
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  // The longest files first, also where jest has no timings cached (test/sequencer.js).
  testSequencer: '<rootDir>/test/sequencer.js',
  // Where the time goes, printed at the end (issue 44).
  reporters: ['default', '<rootDir>/test/timings-reporter.js'],
};
