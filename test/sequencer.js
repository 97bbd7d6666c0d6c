// Which test file starts when. Most files compute; a few mostly wait on clocks (backoffs, Retry-After,
// Give Up After, child processes starting) and take a worker for 15-45 s while using little CPU. Jest
// starts the files longest first (by its cached timings, or by size on a fresh clone), which put
// four waiting files on the four workers at once and left the two cores half idle for the first
// 15-20 s. This order starts the longest two waiting files first and then one more waiting file
// after every two others, so two workers wait while two compute; on a fresh clone too.
const Sequencer = require('@jest/test-sequencer').default;

// Mostly waiting, longest first (docs/testing.md, "Where npm test's time goes").
const WAITING = ['node/reliability.test.ts', 'node/transport.test.ts', 'trigger/ordersTrigger.test.ts', 'trigger/trigger.test.ts', 'node/rateLimit.test.ts', 'sandbox/cli.test.ts'];
// The files that compute longest, first among the others: started late, one of them is the last to end.
const COMPUTING = ['trigger/ordersTrigger.exactlyOnce.test.ts', 'node/orders.test.ts', 'node/heldToRequest.test.ts', 'node/faultMix.test.ts'];

class WaitingBesideComputing extends Sequencer {
	sort(tests) {
		const at = (list, test) => list.findIndex((file) => test.path.endsWith(`/test/${file}`));
		const rank = (list) => (test) => {
			const i = at(list, test);
			return i === -1 ? list.length : i;
		};
		const byRank = (list) => (a, b) => rank(list)(a) - rank(list)(b);
		// Array sort is stable: the other files keep jest's order.
		const sorted = super.sort(tests);
		const waiting = sorted.filter((test) => at(WAITING, test) !== -1).sort(byRank(WAITING));
		const computing = sorted.filter((test) => at(WAITING, test) === -1).sort(byRank(COMPUTING));
		const order = waiting.splice(0, 2);
		while (waiting.length > 0 || computing.length > 0) order.push(...computing.splice(0, 2), ...waiting.splice(0, 1));
		return order;
	}
}

module.exports = WaitingBesideComputing;
