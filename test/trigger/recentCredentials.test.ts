// The trigger's reuse of a credential it read a moment ago, over plain values and a clock given.
import { CREDENTIAL_REFRESH_MS, CREDENTIAL_REUSE_MS, RecentCredentials } from '../../nodes/MarketplacePartnerTrigger/recentCredentials';

describe('a credential read for a trigger is reused for a few seconds', () => {
	/** A read that counts itself and gives `read 1`, `read 2`, … */
	const counter = () => {
		let reads = 0;
		return { read: async () => `read ${++reads}`, reads: () => reads };
	};

	test('within the window the first read is reused; at its end, or when asked fresh, it is read again', async () => {
		const recent = new RecentCredentials<string>();
		const { read, reads } = counter();
		expect(CREDENTIAL_REUSE_MS).toBe(5000);
		expect(await recent.get('wf:node:cred', read, 1_000)).toEqual({ value: 'read 1', reused: false });
		expect(await recent.get('wf:node:cred', read, 1_000 + CREDENTIAL_REUSE_MS - 1)).toEqual({ value: 'read 1', reused: true });
		expect(await recent.get('wf:node:cred', read, 1_000 + CREDENTIAL_REUSE_MS)).toEqual({ value: 'read 2', reused: false });
		expect(await recent.get('wf:node:cred', read, 1_000 + CREDENTIAL_REUSE_MS + 1, true)).toEqual({ value: 'read 3', reused: false });
		// The fresh read starts the window again.
		expect(await recent.get('wf:node:cred', read, 1_000 + 2 * CREDENTIAL_REUSE_MS)).toEqual({ value: 'read 3', reused: true });
		expect(reads()).toBe(3);
	});

	test('each trigger has its own; a read that fails keeps nothing', async () => {
		const recent = new RecentCredentials<string>(100);
		expect(await recent.get('a', async () => 'secret of a', 0)).toEqual({ value: 'secret of a', reused: false });
		expect(await recent.get('b', async () => 'secret of b', 10)).toEqual({ value: 'secret of b', reused: false });
		expect(await recent.get('a', async () => 'not read', 20)).toEqual({ value: 'secret of a', reused: true });
		await expect(recent.get('c', async () => Promise.reject(new Error('no credential')), 30)).rejects.toThrow('no credential');
		expect(await recent.get('c', async () => 'secret of c', 40)).toEqual({ value: 'secret of c', reused: false });
	});

	test('a credential past its window leaves memory at the next read of any trigger', async () => {
		const recent = new RecentCredentials<string>(100);
		await recent.get('a', async () => 'secret of a', 0);
		await recent.get('b', async () => 'secret of b', 50);
		expect(recent.size).toBe(2);
		await recent.get('c', async () => 'secret of c', 99); // a is 99 ms old: kept
		expect(recent.size).toBe(3);
		await recent.get('c', async () => 'not read', 100); // a reuse reads nothing and sweeps nothing
		expect(recent.size).toBe(3);
		await recent.get('d', async () => 'secret of d', 100); // a is exactly 100 ms old: out
		expect(recent.size).toBe(3);
		await recent.get('b', async () => 'secret of b', 150, true); // b at exactly 100 ms is out, read again
		expect(recent.size).toBe(3);
	});

	test('a fresh read is granted at most once a second per trigger: a flood of refusals costs one read a second', async () => {
		const recent = new RecentCredentials<string>();
		const { read, reads } = counter();
		expect(CREDENTIAL_REFRESH_MS).toBe(1000);
		await recent.get('wf:node:cred', read, 0);
		// The first fresh read after a plain one is granted: an edit verifies from its first delivery.
		expect(await recent.get('wf:node:cred', read, 10, true)).toEqual({ value: 'read 2', reused: false });
		for (let ms = 11; ms < 1010; ms += 10) expect(await recent.get('wf:node:cred', read, ms, true)).toEqual({ value: 'read 2', reused: true });
		expect(await recent.get('wf:node:cred', read, 1010, true)).toEqual({ value: 'read 3', reused: false });
		// Each trigger has its own allowance.
		expect(await recent.get('other', read, 1011)).toEqual({ value: 'read 4', reused: false });
		expect(await recent.get('other', read, 1012, true)).toEqual({ value: 'read 5', reused: false });
		expect(reads()).toBe(5);
	});
});

// The trigger's reuse of a credential it read a moment ago: fresh reads asked for where nothing is
// held, and the once-per-window bound on fresh reads across a plain re-read. Over plain values and
// a clock given, as the tests above.
describe('fresh reads: where nothing is held, and at most one a window across a plain re-read', () => {
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
});
