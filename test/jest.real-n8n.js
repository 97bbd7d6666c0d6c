// The jest settings every suite against the real n8n shares (e2e, ui, queue); each config names its folder.
module.exports = ({ folder, match, testTimeout }) => ({
  testEnvironment: 'node',
  roots: [`<rootDir>/test/${folder}`],
  testMatch: [match],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  // Temp files left behind are reported, not failed: n8n and the npm it runs write their own.
  globals: { partnerTempCheck: 'report' },
  testTimeout,
});
