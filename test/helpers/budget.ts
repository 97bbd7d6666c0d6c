// The time budget of reading hostile input, per KB of it: generous (a busy 2-core machine must
// not flake), yet far below what a quadratic reader takes on ~200 KB (seconds to minutes).

export const budgetMs = (chars: number) => 50 + (5 * chars) / 1024;

/** How long `work` took, in milliseconds, and what it returned or threw. */
export function timed<T>(work: () => T): { ms: number; result?: T; error?: unknown } {
	const started = performance.now();
	try {
		const result = work();
		return { ms: performance.now() - started, result };
	} catch (error) {
		return { ms: performance.now() - started, error };
	}
}

const spaces = ' '.repeat(200_000);

/** Inputs that make a backtracking or recursive reader slow or throw: about 200 KB each. */
export const HOSTILE_TEXTS: string[] = [
	`${spaces}a`,
	`a${spaces}a`,
	`${'.'.repeat(200_000)}a`,
	`${'. '.repeat(100_000)}a`,
	`${'/'.repeat(200_000)}a`,
	'1'.repeat(200_000),
	`2026-01-31T14:00:00.${'1'.repeat(200_000)}x`,
	`2026-01-31 14:00:00${'0'.repeat(200_000)}`,
	`${'['.repeat(100_000)}${']'.repeat(100_000)}`,
	`${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}`,
	`${'['.repeat(200_000)}`,
	`"${'\\u0000'.repeat(30_000)}"`,
	'ab '.repeat(70_000),
	'-_-'.repeat(70_000),
];

/** A value nested `depth` deep: JSON.stringify overflows the stack on it. */
export function nested(depth: number): unknown {
	let value: unknown = 'a';
	for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { error: value };
	return value;
}

/**
 * Times each reading of a property test: one over ~8 KB must keep its own budget; the small ones
 * are summed, so that a single pause of the collector is not taken for slow reading.
 */
export class Budget {
	private spent = 0;
	private allowed = 0;
	private readonly over: string[] = [];

	check<T>(size: number, work: () => T): { ms: number; result?: T; error?: unknown } {
		const outcome = timed(work);
		if (size < 8192) {
			this.spent += outcome.ms;
			this.allowed += budgetMs(size);
		} else if (outcome.ms > budgetMs(size)) {
			this.over.push(`${Math.round(outcome.ms)} ms for ${Math.round(size / 1024)} KB (budget ${Math.round(budgetMs(size))} ms)`);
		}
		return outcome;
	}

	expectKept() {
		expect(this.over).toEqual([]);
		expect(this.spent).toBeLessThanOrEqual(this.allowed);
	}
}
