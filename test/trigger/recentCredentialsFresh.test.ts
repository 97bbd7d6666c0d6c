// The trigger's reuse of a credential it read a moment ago: fresh reads asked for where nothing is
// held, and the once-per-window bound on fresh reads across a plain re-read. Over plain values and
// a clock given, as test/trigger/recentCredentials.test.ts.
import { RecentCredentials } from '../../nodes/MarketplacePartner/helpers/recentCredentials';

/** A read that counts itself and gives `read 1`, `read 2`, … */
function counter() {
	let reads = 0;
	return async () => `read ${++reads}`;
}

test('a fresh read asked for a trigger that holds nothing reads the credential', async () => {
	const recent = new RecentCredentials<string>();
	expect(await recent.get('wf:node:cred', counter(), 1_000, true)).toEqual({ value: 'read 1', reused: false });
});

test('a re-read when the reuse window ends keeps the time of the last fresh read: the next fresh read waits out its own window', async () => {
	// A reuse window shorter than the fresh-read window, so that a plain re-read falls inside the latter.
	const recent = new RecentCredentials<string>(100, 1_000);
	const read = counter();
	expect(await recent.get('k', read, 0)).toEqual({ value: 'read 1', reused: false });
	expect(await recent.get('k', read, 10, true)).toEqual({ value: 'read 2', reused: false });
	expect(await recent.get('k', read, 200)).toEqual({ value: 'read 3', reused: false });
	expect(await recent.get('k', read, 250, true)).toEqual({ value: 'read 3', reused: true });
	expect(await recent.get('k', read, 1_010, true)).toEqual({ value: 'read 4', reused: false });
});
