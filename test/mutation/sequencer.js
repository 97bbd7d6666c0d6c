// Stryker's jest runner runs every test file for every mutant and picks the covering tests by name
// (--testNamePattern). Each of our test files loads n8n-core (seconds), so most of a mutant's time
// went to loading files none of whose tests run. This sequencer drops those files: a file runs
// when one of its tests (recorded by record-tests.js in the initial run) matches the pattern, or
// when nothing is known about it. Runs without a pattern (the initial run, static mutants) keep all.
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const TESTS_BY_FILE = path.join(__dirname, '..', '..', 'reports', 'mutation', 'tests-by-file.json');

class CoveringFilesOnly extends Sequencer {
	constructor(options) {
		super(options);
		this.pattern = options.globalConfig.testNamePattern;
	}

	sort(tests) {
		const sorted = super.sort(tests);
		if (!this.pattern || !fs.existsSync(TESTS_BY_FILE)) return sorted;
		const byFile = JSON.parse(fs.readFileSync(TESTS_BY_FILE, 'utf8'));
		// The pattern as jest applies it to a test's full name.
		const wanted = new RegExp(this.pattern, 'i');
		const known = (test) => byFile[test.path];
		return sorted
			.filter((test) => !known(test) || known(test).names.some((name) => wanted.test(name)))
			// Fastest first: a mutant's run stops at its first failing test (bail-environment.js).
			.sort((a, b) => (known(a)?.ms ?? Infinity) - (known(b)?.ms ?? Infinity));
	}
}

module.exports = CoveringFilesOnly;
module.exports.TESTS_BY_FILE = TESTS_BY_FILE;
