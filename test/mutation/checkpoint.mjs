// A Stryker reporter that keeps a run's results as it goes: every minute (and at the end) it writes
// the mutants tested so far to reports/mutation/checkpoint.json, in the incremental file's format.
// Stryker itself writes its incremental file only when a run ends, so a run of hours on 2 cores
// that has to stop (the end of a working session, a reboot) would lose everything. Resume with
//   npm run test:mutation -- --mutate "<the same files>" --incrementalFile reports/mutation/checkpoint.json
// (copy it first: the run rewrites that file), or merge it into the committed file with
// merge-incremental.mjs. Mutants not yet tested are simply absent, so the next run tests them.
import fs from 'node:fs';
import path from 'node:path';
import { PluginKind, declareClassPlugin } from '@stryker-mutator/api/plugin';

const FILE = path.resolve('reports', 'mutation', 'checkpoint.json');
const EVERY_MS = 60_000;

const relative = (fileName) => path.relative(process.cwd(), fileName).split(path.sep).join('/');
const languageOf = (fileName) => (/\.tsx?$/i.test(fileName) ? 'typescript' : 'javascript');
// Stryker's test positions count from 0; the report's from 1 (as Stryker's own report helper does).
const schemaPosition = ({ line, column }) => ({ line: line + 1, column: column + 1 });

class Checkpoint {
	tests = [];
	results = [];
	lastWrite = 0;

	onDryRunCompleted({ result }) {
		this.tests = result.tests ?? [];
	}

	onMutantTested(result) {
		this.results.push(result);
		if (Date.now() - this.lastWrite >= EVERY_MS) this.write();
	}

	onMutationTestReportReady() {
		this.write();
	}

	write() {
		this.lastWrite = Date.now();
		const ids = new Map(this.tests.map((test, index) => [test.id, String(index)]));
		const remap = (list) => list?.map((id) => ids.get(id) ?? id);
		const sources = new Map();
		const source = (fileName) => {
			if (!sources.has(fileName)) sources.set(fileName, fs.readFileSync(fileName, 'utf8'));
			return sources.get(fileName);
		};
		const files = {};
		for (const { fileName, killedBy, coveredBy, ...mutant } of this.results) {
			const file = (files[relative(fileName)] ??= { language: languageOf(fileName), mutants: [], source: source(fileName) });
			file.mutants.push({ ...mutant, killedBy: remap(killedBy), coveredBy: remap(coveredBy) });
		}
		const testFiles = {};
		for (const test of this.tests) {
			if (!test.fileName) continue;
			const file = (testFiles[relative(test.fileName)] ??= { tests: [], source: source(test.fileName) });
			file.tests.push({
				id: ids.get(test.id),
				name: test.name,
				location: test.startPosition ? { start: schemaPosition(test.startPosition) } : undefined,
			});
		}
		const report = { files, schemaVersion: '1.0', thresholds: {}, testFiles, projectRoot: process.cwd() };
		fs.mkdirSync(path.dirname(FILE), { recursive: true });
		// Written whole, then renamed: a run stopped mid-write leaves the previous checkpoint intact.
		fs.writeFileSync(`${FILE}.tmp`, JSON.stringify(report));
		fs.renameSync(`${FILE}.tmp`, FILE);
	}
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'checkpoint', Checkpoint)];
