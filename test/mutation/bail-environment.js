// jest's own bail cannot be used through Stryker (it exits the process), so a mutant that one test
// has killed would still run every other covering test: minutes for code every test reaches. This
// environment stops a mutant's run at its first failing test: every later test and hook is
// skipped. A failed test's own retries (jest.retryTimes, deferred to the end of its block) still run:
// skipped, it would be reported skipped, its failure lost, and Stryker would count the mutant as
// survived. A retry that passes (a flaky wall-clock bound, not the mutant) lifts the bail. So do the
// tests under a failed beforeAll, which jest reports failed only if they are not skipped.
// Outside Stryker it is the plain node environment.
const { TestEnvironment } = require('jest-environment-node');

const ACTIVE = '__STRYKER_ACTIVE_MUTANT__';
/** The mutant a test has failed for, in this test-runner process, and that test. */
let killed;
let failedTest;

class BailEnvironment extends TestEnvironment {
	async handleTestEvent(event, state) {
		const mutant = process.env[ACTIVE];
		if (mutant !== undefined) {
			if (event.name === 'test_fn_failure' || event.name === 'hook_failure') {
				killed = mutant;
				failedTest = event.test;
			}
			// Skipped, not failed: a file that fails to run would make Stryker report an error, not a kill.
			else if (event.name === 'run_start' && killed === mutant) skipAll(state.rootDescribeBlock);
			// A test that carries an error already (its block's beforeAll failed) is left to be reported failed.
			else if (event.name === 'test_start' && killed === mutant && event.test !== failedTest && event.test.errors.length === 0) event.test.mode = 'skip';
			else if (event.name === 'test_done' && event.test === failedTest && event.test.errors.length === 0) killed = failedTest = undefined;
		}
		await super.handleTestEvent?.(event, state);
	}
}

/** Marks every block and test skipped, so that no hook (sandboxes, servers) runs either. */
function skipAll(block) {
	for (const child of block.children) {
		child.mode = 'skip';
		if (child.type === 'describeBlock') skipAll(child);
	}
}

module.exports = BailEnvironment;
