// Runs after jest's environment in every test file of a Stryker run: notes which tests the file
// holds and how long they took, so that sequencer.js can later run only the files that hold a
// mutant's covering tests, fastest first.
// Written during Stryker's initial run, which runs every test; mutant runs only read it.
const fs = require('node:fs');
const path = require('node:path');
const { TESTS_BY_FILE } = require('./sequencer');

const names = [];
const started = Date.now();
afterEach(() => names.push(expect.getState().currentTestName));
afterAll(() => {
	if (process.env.__STRYKER_ACTIVE_MUTANT__ !== undefined) return;
	const { testPath } = expect.getState();
	const map = fs.existsSync(TESTS_BY_FILE) ? JSON.parse(fs.readFileSync(TESTS_BY_FILE, 'utf8')) : {};
	map[testPath] = { names, ms: Date.now() - started };
	fs.mkdirSync(path.dirname(TESTS_BY_FILE), { recursive: true });
	fs.writeFileSync(TESTS_BY_FILE, JSON.stringify(map));
});
