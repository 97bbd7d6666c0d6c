// One retry and pacing policy per node run (an execute() call, or a poll), shared by every request
// of that run: retries follow the run's progress rather than a fixed count, and under a rate limit
// the whole run slows down together.
import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/** Where apiRequest may be called from: an action node's execute() or a polling trigger's poll(). */
export type ApiContext = IExecuteFunctions | IPollFunctions;

export const DEFAULT_GIVE_UP_AFTER_SEC = 300;
export const DEFAULT_CONCURRENCY = 8;

const BACKOFF_BASE_MS = 250;
const BACKOFF_MAX_MS = 10_000;
/**
 * 429s in a row, with no success between them, that mean the limit applies to the whole run rather
 * than to single requests. One 429 among successes (a server shedding load at random) only makes its
 * own request wait; a streak pauses everyone. Three in a row happen by chance about once in 300
 * requests when 15 % of answers are 429, so random 429s rarely stop the run.
 */
const RATE_LIMIT_STREAK = 3;

export interface RunOptions {
	/** Give up when no request of the run has succeeded for this long. */
	giveUpAfterMs?: number;
	/** The most requests in flight at once. */
	concurrency?: number;
}

/** Why the run stopped sending: it gave up (the API made no progress) or a row failed. */
export interface StopReason {
	message: string;
	/** The item whose request stopped the run, when one did. */
	itemIndex?: number;
}

export class RunPolicy {
	readonly giveUpAfterMs: number;
	readonly maxInFlight: number;
	/** Requests allowed in flight now: halved by a 429, grown by one per round of successes. */
	private window: number;
	private inFlight = 0;
	private readonly queue: Array<{ retry: boolean; grant: (granted: boolean) => void }> = [];
	private pausedUntil = 0;
	private lastDecreaseAt = 0;
	private rateLimitStreak = 0;
	/** Passing failures since the API last answered: a window's worth holds back rows not yet sent. */
	private failureStreak = 0;
	private lastProgressAt = Date.now();
	private stopReason?: StopReason;
	private readonly stopped: Promise<void>;
	private signalStopped!: () => void;

	constructor({ giveUpAfterMs = DEFAULT_GIVE_UP_AFTER_SEC * 1000, concurrency = DEFAULT_CONCURRENCY }: RunOptions = {}) {
		this.giveUpAfterMs = giveUpAfterMs;
		this.maxInFlight = Math.max(1, concurrency);
		this.window = this.maxInFlight;
		this.stopped = new Promise((resolve) => (this.signalStopped = resolve));
	}

	get stopReasonIfAny(): StopReason | undefined {
		return this.stopReason;
	}

	/** Until when the run may wait for progress before it gives up. */
	get deadline(): number {
		return this.lastProgressAt + this.giveUpAfterMs;
	}

	/**
	 * Waits for a request slot: none is free while the run is paused or its window is full. Retries
	 * go first, so a row that has waited is not queued again behind the rest of the sheet. False
	 * when the run stopped before this request could be sent.
	 */
	async acquire(retry: boolean): Promise<boolean> {
		if (this.stopReason) return false;
		return await new Promise<boolean>((grant) => {
			if (retry) this.queue.unshift({ retry, grant });
			else this.queue.push({ retry, grant });
			this.dispatch();
		});
	}

	/**
	 * Frees the slot of a request that got its answer. After a failure that ends the request, the
	 * next one starts only once the caller has seen it (a timer turn later): with Concurrency 1 a
	 * failed row stops the sheet before the next row is sent, as in a sequential run.
	 */
	release(final = false): void {
		this.inFlight--;
		if (final) void sleep(0).then(() => this.dispatch());
		else this.dispatch();
	}

	/** A request failed for a passing reason and will be retried. */
	failed(): void {
		this.failureStreak++;
	}

	/** The API processed a request (a result or a definitive refusal): the run is making progress. */
	answered(): void {
		this.lastProgressAt = Date.now();
		this.rateLimitStreak = 0;
		this.failureStreak = 0;
		if (this.window < this.maxInFlight) {
			// Additive increase: one more request in flight per window's worth of answers.
			this.window = Math.min(this.maxInFlight, this.window + 1 / Math.floor(this.window));
			this.dispatch();
		}
	}

	/** A 429 for a request sent at `sentAt`: slow the whole run down, and pause it on a streak. */
	rateLimited(sentAt: number, retryAfterMs: number | undefined): void {
		const now = Date.now();
		// Multiplicative decrease, once per round trip: 429s for requests sent before the last
		// decrease were answered to the old window and are already accounted for.
		if (sentAt >= this.lastDecreaseAt) {
			this.window = Math.max(1, this.window / 2);
			this.lastDecreaseAt = now;
		}
		if (++this.rateLimitStreak >= RATE_LIMIT_STREAK) {
			this.pause(now + (retryAfterMs ?? this.backoffMs(this.rateLimitStreak - RATE_LIMIT_STREAK)));
		}
	}

	/** Exponential backoff with jitter, for failures that say nothing about when to come back. */
	backoffMs(retry: number): number {
		const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** retry);
		return ceiling / 2 + Math.random() * (ceiling / 2);
	}

	/**
	 * Sleeps `waitMs` before a retry, unless the run stops first. Returns false when the retry must
	 * not happen: the run was stopped, or nothing has succeeded for the give-up time (then the whole
	 * run gives up, and every request still waiting is released unsent).
	 */
	async waitToRetry(waitMs: number, cause: string, itemIndex?: number): Promise<boolean> {
		const readyAt = Date.now() + waitMs;
		for (;;) {
			if (this.stopReason) return false;
			const now = Date.now();
			if (now >= this.deadline) {
				this.giveUp(cause, itemIndex);
				return false;
			}
			if (now >= readyAt) return true;
			await Promise.race([sleep(Math.min(readyAt, this.deadline) - now), this.stopped]);
		}
	}

	/** Time-out for the next attempt: never much past the give-up time, so a silent API cannot hang the run. */
	timeoutMs(maxMs: number): number {
		return Math.max(1000, Math.min(maxMs, this.deadline - Date.now()));
	}

	giveUp(cause: string, itemIndex?: number): void {
		const seconds = Math.round(this.giveUpAfterMs / 1000);
		this.stop({
			itemIndex,
			message: `Nothing in this run succeeded for ${seconds} s (option Give Up After), so the node gave up; the last attempt got ${cause}.`,
		});
	}

	/** Stops the run: nothing further is sent; requests waiting for a slot or a retry are released. */
	stop(reason: StopReason): void {
		if (this.stopReason) return;
		this.stopReason = reason;
		this.signalStopped();
		for (const waiting of this.queue.splice(0)) waiting.grant(false);
	}

	private canStart(retry: boolean): boolean {
		if (Date.now() < this.pausedUntil || this.inFlight >= Math.floor(this.window)) return false;
		// While a whole window of requests in a row has failed, only retries go: a dead API is not
		// sent every row of the sheet, and rows held back come out as "not sent" if the run gives up.
		return retry || this.failureStreak < Math.floor(this.window);
	}

	private dispatch(): void {
		while (this.queue.length > 0 && this.canStart(this.queue[0].retry)) {
			this.inFlight++;
			this.queue.shift()!.grant(true);
		}
	}

	private pause(until: number): void {
		if (until <= this.pausedUntil) return;
		this.pausedUntil = until;
		this.wakeAt(until);
	}

	private wakeAt(at: number): void {
		void sleep(Math.max(0, Math.min(at, this.deadline) - Date.now())).then(() => {
			if (this.stopReason) return;
			// Everyone may be waiting for the pause: the give-up time is checked here too.
			if (Date.now() >= this.deadline) this.giveUp('HTTP 429 (rate_limited)');
			else if (Date.now() < this.pausedUntil) this.wakeAt(this.pausedUntil);
			else this.dispatch();
		});
	}
}

// Keyed by the node's context object: n8n creates a new one for every execute() call.
const policies = new WeakMap<ApiContext, RunPolicy>();

/**
 * Starts the policy of this run. Call it at the start of execute(), and at the start of every
 * poll(): n8n reuses one poll context for all polls of an activation.
 */
export function startRun(context: ApiContext, options: RunOptions = {}): RunPolicy {
	const policy = new RunPolicy(options);
	policies.set(context, policy);
	return policy;
}

/** The policy of this run; a request outside a started run gets a policy of its own. */
export function runPolicyOf(context: ApiContext): RunPolicy {
	return policies.get(context) ?? new RunPolicy();
}
