// Merges Stryker incremental reports of runs over parts of the mutate set into one, so that a set
// too large for one sitting (hours on 2 cores) can be run part by part (`--mutate` with its own
// `--incrementalFile`), each part kept as soon as it ends:
//   node test/mutation/merge-incremental.mjs OUT IN1 IN2 ...
// A source file's mutants come from the last report that has the file. Test and mutant ids are only
// unique within one report, so tests are matched by file and name (and line) and every id is
// renumbered; a test file's text comes from the last report that has it, as Stryker diffs against it.
// A name ending in .gz is read and written gzipped (the committed cache, test/mutation/incremental.json.gz).
import { readReport, writeReport } from './cache.mjs';

const [out, ...inputs] = process.argv.slice(2);
if (!out || inputs.length === 0) {
	console.error('usage: node test/mutation/merge-incremental.mjs OUT IN1 [IN2 ...]');
	process.exit(2);
}

const reports = inputs.map(readReport);
const testKey = (file, test) => `${file}\u0000${test.name}\u0000${test.location?.start?.line ?? ''}`;

/** Merged test files: the last report's text and tests for each file, with new ids. */
const testFiles = {};
const newTestId = new Map(); // testKey -> new id
for (const report of reports) for (const [file, testFile] of Object.entries(report.testFiles ?? {})) testFiles[file] = testFile;
let nextTestId = 0;
for (const [file, testFile] of Object.entries(testFiles)) {
	testFiles[file] = {
		...testFile,
		tests: testFile.tests.map((test) => {
			const key = testKey(file, test);
			if (!newTestId.has(key)) newTestId.set(key, String(nextTestId++));
			return { ...test, id: newTestId.get(key) };
		}),
	};
}

const files = {};
let nextMutantId = 0;
for (const report of reports) {
	// This report's test ids, as new ids; tests no longer in the merged files are dropped.
	const ids = new Map();
	for (const [file, testFile] of Object.entries(report.testFiles ?? {})) {
		for (const test of testFile.tests) {
			const id = newTestId.get(testKey(file, test));
			if (id !== undefined) ids.set(test.id, id);
		}
	}
	const renumber = (list) => list?.map((id) => ids.get(id)).filter((id) => id !== undefined);
	for (const [file, result] of Object.entries(report.files)) {
		files[file] = {
			...result,
			mutants: result.mutants.map((mutant) => ({
				...mutant,
				id: String(nextMutantId++),
				coveredBy: renumber(mutant.coveredBy),
				killedBy: renumber(mutant.killedBy),
			})),
		};
	}
}

const last = reports.at(-1);
writeReport(out, { ...last, files, testFiles });
const mutants = Object.values(files).reduce((n, f) => n + f.mutants.length, 0);
console.log(`${out}: ${Object.keys(files).length} source files, ${mutants} mutants, ${nextTestId} tests`);
