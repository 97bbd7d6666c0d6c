// A Stryker reporter that writes each mutant no test noticed (Survived, NoCoverage) to
// reports/mutation/survivors.jsonl the moment it is known, so that tests for them can be written
// while a run of an hour or more goes on; the HTML and JSON reports only come at the end.
import fs from 'node:fs';
import path from 'node:path';
import { PluginKind, declareClassPlugin } from '@stryker-mutator/api/plugin';

const FILE = path.resolve('reports', 'mutation', 'survivors.jsonl');

class LiveSurvivors {
	onDryRunCompleted() {
		fs.mkdirSync(path.dirname(FILE), { recursive: true });
		fs.writeFileSync(FILE, '');
	}

	onMutantTested(result) {
		if (result.status !== 'Survived' && result.status !== 'NoCoverage') return;
		const { fileName, location, mutatorName, replacement, status, testsCompleted } = result;
		const line = { file: path.relative(process.cwd(), fileName), line: location.start.line, column: location.start.column, mutatorName, replacement, status, testsCompleted };
		fs.appendFileSync(FILE, `${JSON.stringify(line)}\n`);
	}
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'live-survivors', LiveSurvivors)];
