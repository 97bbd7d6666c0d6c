// The longest test files first, on a fresh clone too. Jest orders by the durations it cached in
// earlier runs, and without them (CI's fresh clone, a new contributor) by file size: the short
// fault-mix file (20 runs of 1,000 rows, minutes of work) then started last, alone on one worker
// while the other sat idle, and `npm test` took the sum of both instead of the longer.
const Sequencer = require('@jest/test-sequencer').default;

// Measured (docs/testing.md, "Where npm test's time goes"), longest first.
const LONGEST = ['node/reliability.test.ts', 'node/transport.test.ts', 'node/rateLimit.test.ts', 'trigger/ordersTrigger.test.ts', 'trigger/trigger.test.ts', 'trigger/ordersTrigger.exactlyOnce.test.ts'];

class LongestFirst extends Sequencer {
	sort(tests) {
		const rank = (test) => {
			const at = LONGEST.findIndex((file) => test.path.endsWith(`/test/${file}`));
			return at === -1 ? LONGEST.length : at;
		};
		// Array sort is stable: the other files keep jest's order.
		return super.sort(tests).sort((a, b) => rank(a) - rank(b));
	}
}

module.exports = LongestFirst;
