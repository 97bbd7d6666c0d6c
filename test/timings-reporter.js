// Where a jest run's time goes, printed at its end: the slowest test files (wall time, as jest's
// workers ran them) and the slowest tests. `npm test` and CI print it; docs/testing.md reads it.
const SHOWN = 12;

class TimingsReporter {
	constructor() {
		this.files = [];
		this.tests = [];
	}

	onTestResult(test, result) {
		const file = test.path.slice(test.context.config.rootDir.length + 1);
		this.files.push({ file, ms: result.perfStats.end - result.perfStats.start, tests: result.testResults.length });
		for (const t of result.testResults) this.tests.push({ name: `${file} › ${t.fullName}`, ms: t.duration ?? 0 });
	}

	onRunComplete(_contexts, results) {
		if (this.files.length < 2) return; // one file: jest's own lines say it all
		const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`;
		const total = this.files.reduce((sum, f) => sum + f.ms, 0);
		const wall = Date.now() - results.startTime;
		const lines = [`\nTime per test file (${this.files.length} files, ${seconds(total).trim()} of file time in ${seconds(wall).trim()} of wall time):`];
		for (const f of [...this.files].sort((a, b) => b.ms - a.ms).slice(0, SHOWN)) lines.push(`${seconds(f.ms)}  ${f.file} (${f.tests} tests)`);
		lines.push(`Slowest tests:`);
		for (const t of [...this.tests].sort((a, b) => b.ms - a.ms).slice(0, SHOWN)) lines.push(`${seconds(t.ms)}  ${t.name.length > 150 ? `${t.name.slice(0, 149)}…` : t.name}`);
		process.stdout.write(`${lines.join('\n')}\n`);
	}
}

module.exports = TimingsReporter;
