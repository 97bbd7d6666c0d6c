// The jest configuration Stryker runs (stryker.config.mjs): the project's unit suites minus
// test/package, whose build and lock-file checks reach no mutated code, and minus the two soak
// suites (thousands of requests under faults, minutes each: faultMix 3.5 min, exactlyOnce 48 s),
// which would set every covered mutant's time-out to minutes (what they check, the focused suites
// reliability, rateLimit and ordersTrigger check on small inputs); and a sequencer that runs only
// the test files holding a mutant's covering tests, fastest first (sequencer.js), and stops a
// mutant's run at its first failing test (bail-environment.js).
const { mkdirSync } = require('node:fs');
const path = require('node:path');
const base = require('../../jest.config.js');

// n8n-core's user folder inside Stryker's copy of the project, which Stryker removes after the run:
// a test-runner process Stryker kills on a time-out never gets to global-teardown.js, whose folder
// in the system temp folder would stay behind.
process.env.N8N_USER_FOLDER ??= path.join(__dirname, '..', '..', '.n8n-user');
mkdirSync(process.env.N8N_USER_FOLDER, { recursive: true });

/** @type {import('jest').Config} */
module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test/node', '<rootDir>/test/trigger', '<rootDir>/test/sandbox'],
	testPathIgnorePatterns: ['/node_modules/', 'faultMix\\.test\\.ts$', 'exactlyOnce\\.test\\.ts$'],
	testSequencer: '<rootDir>/test/mutation/sequencer.js',
	// An absolute path: Stryker loads the environment itself, without resolving <rootDir>.
	testEnvironment: path.join(__dirname, 'bail-environment.js'),
	setupFilesAfterEnv: ['<rootDir>/test/mutation/record-tests.js'],
};
