/** `npm run test:package`: the published package (build, what `npm pack` ships, the scanner, the lock file). */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = { ...base, roots: ['<rootDir>/test/package'], testPathIgnorePatterns: ['/node_modules/'] };
