// The run's shared policy on its own: how many requests it lets into flight as 429s and answers come.
import { RunPolicy } from '../../nodes/MarketplacePartner/transport/runPolicy';

/** Asks for `n` slots; `granted()` tells how many have been granted so far. */
function ask(policy: RunPolicy, n: number) {
	let granted = 0;
	for (let i = 0; i < n; i++) void policy.acquire(false).then((ok) => ok && granted++);
	return async () => {
		await new Promise((resolve) => setImmediate(resolve));
		return granted;
	};
}

async function grantedNow(policy: RunPolicy, n: number): Promise<number> {
	return await ask(policy, n)();
}

describe('RunPolicy', () => {
	test('a 429 halves the requests in flight once per round trip; answers bring them back up to Concurrency', async () => {
		const policy = new RunPolicy({ concurrency: 8 });
		const sentAt = Date.now();
		expect(await grantedNow(policy, 8)).toBe(8);
		// Two 429s for requests of the same round: one decrease (8 -> 4), not two.
		policy.rateLimited(sentAt, undefined);
		policy.rateLimited(sentAt, undefined);
		for (let i = 0; i < 8; i++) policy.release();
		const granted = ask(policy, 8);
		expect(await granted()).toBe(4);
		// One more in flight per window's worth of answers: four answers at window 4 make it 5.
		for (let i = 0; i < 3; i++) policy.answered();
		expect(await granted()).toBe(4);
		policy.answered();
		expect(await granted()).toBe(5);
		for (let i = 0; i < 40; i++) policy.answered();
		expect(await granted()).toBe(8);
		expect(await grantedNow(policy, 1)).toBe(0); // never past Concurrency
		policy.stop({ message: 'test' });
	});

	test('three 429s in a row pause every request for Retry-After; a 429 among successes does not', async () => {
		const policy = new RunPolicy({ concurrency: 8 });
		policy.rateLimited(Date.now(), 2_000);
		policy.answered();
		policy.rateLimited(Date.now(), 2_000);
		expect(await grantedNow(policy, 1)).toBe(1); // not paused: the streak was broken
		policy.release();
		policy.rateLimited(Date.now(), 2_000);
		policy.rateLimited(Date.now(), 2_000);
		expect(await grantedNow(policy, 1)).toBe(0); // three in a row: paused
		policy.stop({ message: 'test' });
	});

	test('a window of failures in a row holds back requests not yet sent; retries still go', async () => {
		const policy = new RunPolicy({ concurrency: 2 });
		policy.failed();
		policy.failed();
		expect(await grantedNow(policy, 1)).toBe(0);
		expect(await policy.acquire(true)).toBe(true);
		policy.release();
		policy.stop({ message: 'test' });
	});
});
