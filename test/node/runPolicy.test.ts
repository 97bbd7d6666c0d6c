// The run's shared policy on its own, on a fake clock: how many requests it lets into flight and how
// fast it starts them as 429s and answers come. Every branch of the pacing has its case here.
import { RunPolicy } from '../../nodes/shared/transport/runPolicy';

/** Asks for `n` slots (retries when `retry`); `granted()` tells how many have been granted so far. */
function ask(policy: RunPolicy, n: number, retry = false) {
	let granted = 0;
	for (let i = 0; i < n; i++) void policy.acquire(retry).then((ok) => ok && granted++);
	return async () => {
		await jest.advanceTimersByTimeAsync(0);
		return granted;
	};
}

async function grantedNow(policy: RunPolicy, n: number): Promise<number> {
	return await ask(policy, n)();
}

/** `n` answers, every `every`-th of them a 429 (never two in a row, so no streak): a window's content. */
function answers(policy: RunPolicy, n: number, every = 0) {
	for (let i = 1; i <= n; i++) {
		if (every && i % every === 0) {
			policy.failed();
			policy.rateLimited(Date.now(), 1000);
		} else policy.answered();
	}
}

/** A streak: three 429s in a row for requests sent at `sentAt`. */
function streak(policy: RunPolicy, retryAfterMs: number | undefined, sentAt = Date.now()) {
	for (let i = 0; i < 3; i++) {
		policy.failed();
		policy.rateLimited(sentAt, retryAfterMs);
	}
}

/** `count` windows of `n` answers in `ms` each, every `every`-th answer a 429. */
function windows(policy: RunPolicy, count: number, ms: number, n: number, every = 0) {
	for (let i = 0; i < count; i++) {
		jest.advanceTimersByTime(ms);
		answers(policy, n, every);
	}
}

/**
 * A policy whose rate the API has set: two windows (a cut takes two in a row) of 8 of 16 answers
 * accepted in 1 s, so 1.1 × 8 = 8.8 requests/s.
 */
function pacedPolicy(concurrency = 8) {
	const policy = new RunPolicy({ concurrency });
	windows(policy, 2, 1000, 16, 2);
	policy.answered(); // no streak under way (a window of its own, not judged)
	return policy;
}

describe('RunPolicy', () => {
	beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
	afterEach(() => jest.useRealTimers());

	test('unpaced until the API says 429: Concurrency requests go at once', async () => {
		const policy = new RunPolicy({ concurrency: 8 });
		expect(policy.requestRate).toBe(Infinity);
		expect(await grantedNow(policy, 10)).toBe(8);
		policy.stop({ message: 'test' });
	});

	test('a streak of 429s halves the requests in flight once per round trip; answers bring them back up to Concurrency', async () => {
		const policy = new RunPolicy({ concurrency: 8 });
		expect(await grantedNow(policy, 8)).toBe(8);
		const sentAt = Date.now();
		jest.advanceTimersByTime(5);
		streak(policy, 100, sentAt);
		// More 429s of the same round: no second decrease.
		streak(policy, 100, sentAt);
		for (let i = 0; i < 8; i++) policy.release();
		await jest.advanceTimersByTimeAsync(100);
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

	test('a streak pauses every request for Retry-After; 429s among successes do not', async () => {
		const policy = new RunPolicy({ concurrency: 8 });
		policy.rateLimited(Date.now(), 2_000);
		policy.answered();
		policy.rateLimited(Date.now(), 2_000);
		policy.rateLimited(Date.now(), 2_000);
		expect(await grantedNow(policy, 1)).toBe(1); // not paused: the streak was broken
		policy.release();
		policy.rateLimited(Date.now(), 2_000);
		const granted = ask(policy, 1);
		expect(await granted()).toBe(0); // three in a row: paused
		await jest.advanceTimersByTimeAsync(1_999);
		expect(await granted()).toBe(0);
		await jest.advanceTimersByTimeAsync(1);
		expect(await granted()).toBe(1);
		policy.stop({ message: 'test' });
	});

	test('with 32 in flight a streak is 8 429s in a row (a quarter): random 429s almost never make one', async () => {
		const policy = new RunPolicy({ concurrency: 32 });
		for (let i = 0; i < 7; i++) policy.rateLimited(Date.now(), 2_000);
		expect(await grantedNow(policy, 1)).toBe(1); // seven: not paused
		policy.release();
		policy.rateLimited(Date.now(), 2_000);
		const waiting = ask(policy, 1);
		expect(await waiting()).toBe(0); // eight: paused
		await jest.advanceTimersByTimeAsync(2_000);
		expect(await waiting()).toBe(1);
		policy.stop({ message: 'test' });
	});

	test('the first streak sets the rate to half of 1.1 times what the API accepted in the window', async () => {
		const policy = new RunPolicy({ concurrency: 8 });
		jest.advanceTimersByTime(100);
		answers(policy, 5); // 5 accepted in 100 ms: 50/s, so the API allows about 55/s
		streak(policy, 1000);
		expect(policy.requestRate).toBeCloseTo(27.5, 6);
		policy.stop({ message: 'test' });
	});

	test('a streak with nothing accepted in the window pauses without guessing a rate', async () => {
		const policy = new RunPolicy({ concurrency: 8 });
		streak(policy, 1000);
		expect(policy.requestRate).toBe(Infinity);
		expect(await grantedNow(policy, 1)).toBe(0);
		policy.stop({ message: 'test' });
	});

	test('without Retry-After, each round of a streak pauses longer; an answer starts over', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0.999);
		try {
			const policy = new RunPolicy({ concurrency: 8 });
			streak(policy, undefined); // first round: up to 250 ms
			const first = ask(policy, 1);
			await jest.advanceTimersByTimeAsync(249);
			expect(await first()).toBe(0);
			await jest.advanceTimersByTimeAsync(1);
			expect(await first()).toBe(1);
			policy.release();
			policy.failed();
			policy.rateLimited(Date.now(), undefined); // second round: up to 500 ms
			const second = ask(policy, 1);
			await jest.advanceTimersByTimeAsync(499);
			expect(await second()).toBe(0);
			await jest.advanceTimersByTimeAsync(1);
			expect(await second()).toBe(1);
			policy.release();
			policy.answered();
			streak(policy, undefined); // after an answer: the first round's wait again
			const third = ask(policy, 1);
			await jest.advanceTimersByTimeAsync(250);
			expect(await third()).toBe(1);
			policy.stop({ message: 'test' });
		} finally {
			jest.restoreAllMocks();
		}
	});

	test('a window where over a third of the answers are 429 sets the rate to 1.1 times what the API accepted', async () => {
		const policy = pacedPolicy();
		expect(policy.requestRate).toBeCloseTo(8.8, 6);
		policy.stop({ message: 'test' });
	});

	test('one window with over a third 429s does not cut the rate, two in a row do; a window below starts the count again', async () => {
		const policy = new RunPolicy();
		windows(policy, 1, 1000, 16, 2);
		expect(policy.requestRate).toBe(Infinity); // random 429s fill one window that far about once in 42
		windows(policy, 1, 1000, 16, 8); // 2 in 16
		windows(policy, 1, 1000, 16, 2);
		expect(policy.requestRate).toBe(Infinity);
		windows(policy, 1, 1000, 16, 2);
		expect(policy.requestRate).toBeCloseTo(8.8, 6);
		policy.stop({ message: 'test' });
	});

	test('a window is judged only after 250 ms and 16 answers', async () => {
		// Each after a window over the share, so that the next judged one would cut.
		const early = new RunPolicy();
		windows(early, 1, 1000, 16, 2);
		windows(early, 1, 249, 20, 2); // half of them 429, but too soon
		expect(early.requestRate).toBe(Infinity);
		const few = new RunPolicy();
		windows(few, 1, 1000, 16, 2);
		windows(few, 1, 1000, 7, 2); // too few
		expect(few.requestRate).toBe(Infinity);
		early.stop({ message: 'test' });
		few.stop({ message: 'test' });
	});

	test('a window with fewer than a third 429s keeps the rate: random load shedding does not slow the run', async () => {
		const unpaced = new RunPolicy();
		jest.advanceTimersByTime(300);
		answers(unpaced, 9, 5); // 1 in 9
		expect(unpaced.requestRate).toBe(Infinity);
		const policy = pacedPolicy();
		jest.advanceTimersByTime(300);
		answers(policy, 9, 5);
		expect(policy.requestRate).toBeCloseTo(8.8, 6);
		unpaced.stop({ message: 'test' });
		policy.stop({ message: 'test' });
	});

	test('a cut only ever lowers the rate', async () => {
		const policy = pacedPolicy();
		jest.advanceTimersByTime(250);
		answers(policy, 8, 4); // 6 accepted in 250 ms would allow 26.4/s: not a reason to go faster
		expect(policy.requestRate).toBeCloseTo(8.8, 6);
		policy.stop({ message: 'test' });
	});

	test('windows without 429s raise the rate by half up to where the API last limited, then by a tenth of that', async () => {
		const policy = new RunPolicy({ concurrency: 8 });
		jest.advanceTimersByTime(100);
		answers(policy, 5);
		streak(policy, 0); // 27.5/s, the API's limit about 55/s
		const cleanWindow = (limitedEvery = 0) => {
			jest.advanceTimersByTime(250);
			answers(policy, 16, limitedEvery);
		};
		cleanWindow(8); // a few (random) 429s below the ceiling: still back up
		expect(policy.requestRate).toBeCloseTo(41.25, 6);
		cleanWindow();
		expect(policy.requestRate).toBeCloseTo(55, 6); // not 61.875: capped at the ceiling
		cleanWindow(8);
		expect(policy.requestRate).toBeCloseTo(55, 6); // at the ceiling, a few 429s keep it
		cleanWindow();
		expect(policy.requestRate).toBeCloseTo(60.5, 6);
		policy.stop({ message: 'test' });
	});
	test('the rate is dropped once it is twice what the run sends: pacing no longer limits it', async () => {
		const policy = pacedPolicy(); // 8.8/s
		jest.advanceTimersByTime(2000);
		answers(policy, 16); // 8/s sent: 8.8 is under twice that, so it grows
		expect(policy.requestRate).toBeCloseTo(9.68, 6);
		jest.advanceTimersByTime(5000);
		answers(policy, 16); // 3.2/s sent: 9.68 is more than twice that
		expect(policy.requestRate).toBe(Infinity);
		policy.stop({ message: 'test' });
	});
	test('a judged cut never goes below 1 request per second', async () => {
		const policy = new RunPolicy();
		windows(policy, 2, 60_000, 16, 2); // 8 accepted in a minute, twice
		expect(policy.requestRate).toBe(1);
		policy.stop({ message: 'test' });
	});

	test('paced requests start evenly spaced at the rate', async () => {
		const policy = pacedPolicy(); // 8.8/s: one every 113.6 ms
		const granted = ask(policy, 5);
		expect(await granted()).toBe(2); // the one due now and one a late timer may make up
		await jest.advanceTimersByTimeAsync(113);
		expect(await granted()).toBe(2);
		await jest.advanceTimersByTimeAsync(1);
		expect(await granted()).toBe(3); // at 114 ms, due at 113.6
		await jest.advanceTimersByTimeAsync(113);
		expect(await granted()).toBe(3);
		await jest.advanceTimersByTimeAsync(1);
		expect(await granted()).toBe(4); // at 228 ms, due at 227.3
		await jest.advanceTimersByTimeAsync(112);
		expect(await granted()).toBe(4);
		await jest.advanceTimersByTimeAsync(1);
		expect(await granted()).toBe(5); // at 341 ms, due at 340.9
		policy.stop({ message: 'test' });
	});
	test('after a quiet time at most two paced requests start at once (a late timer makes up one, no more)', async () => {
		const policy = pacedPolicy();
		await jest.advanceTimersByTimeAsync(5000);
		expect(await grantedNow(policy, 5)).toBe(2);
		policy.stop({ message: 'test' });
	});

	test('answers that come during a pause do not count towards the window after it', async () => {
		const policy = new RunPolicy({ concurrency: 8 });
		jest.advanceTimersByTime(100);
		answers(policy, 5);
		streak(policy, 1000); // 27.5/s, paused for 1 s
		answers(policy, 16, 2); // late answers of the old round, half 429: no judgement from them
		expect(policy.requestRate).toBeCloseTo(27.5, 6);
		jest.advanceTimersByTime(1500);
		answers(policy, 16, 2); // a real window after the pause: 8 accepted in 500 ms
		expect(policy.requestRate).toBeCloseTo(27.5, 6); // one window does not cut
		windows(policy, 1, 500, 16, 2); // and another: the cut, by this window alone
		expect(policy.requestRate).toBeCloseTo(17.6, 6);
		policy.stop({ message: 'test' });
	});

	test("Concurrency's worth of failures in a row holds back requests not yet sent; retries still go", async () => {
		const policy = new RunPolicy({ concurrency: 2 });
		policy.failed();
		expect(await grantedNow(policy, 1)).toBe(1);
		policy.release();
		policy.failed();
		expect(await grantedNow(policy, 1)).toBe(0);
		expect(await ask(policy, 1, true)()).toBe(1);
		policy.stop({ message: 'test' });
	});

	test('the hold-back counts against Concurrency, not against a window halved by a streak', async () => {
		const policy = new RunPolicy({ concurrency: 8 });
		streak(policy, 0); // window 4, three failures in a row
		policy.failed(); // four
		await jest.advanceTimersByTimeAsync(1);
		expect(await grantedNow(policy, 1)).toBe(1);
		policy.stop({ message: 'test' });
	});

	test('a stopped run grants nothing, also to requests waiting for the pacing', async () => {
		const policy = pacedPolicy();
		const granted = ask(policy, 3);
		expect(await granted()).toBe(2);
		policy.stop({ message: 'test' });
		await jest.advanceTimersByTimeAsync(1000);
		expect(await granted()).toBe(2);
		expect(await policy.acquire(false)).toBe(false);
	});
});
