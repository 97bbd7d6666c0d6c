// One retry and pacing policy per node run (an execute() call, or a poll), shared by every request
// of that run: retries follow the run's progress rather than a fixed count, and under a rate limit
// the whole run slows down together.
import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { RunReport } from './runReport';

/**
 * Where apiRequest may be called from: an action node's execute(), a polling trigger's poll(), or
 * the editor's lists (order items, statuses).
 */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export const DEFAULT_GIVE_UP_AFTER_SEC = 300;
/** In flight at most, for a run that does not say (a poll: its detail requests have a bound of their own). */
const DEFAULT_MAX_IN_FLIGHT = 8;

const BACKOFF_BASE_MS = 250;
const BACKOFF_MAX_MS = 10_000;
/**
 * 429s in a row, with no success between them, that mean the limit applies to the whole run rather
 * than to single requests: a quarter of the requests in flight, at least three. One 429 among
 * successes (a server shedding load at random) only makes its own request wait; a streak pauses
 * everyone. Three in a row happen by chance about once in 300 requests when 15 % of answers are
 * 429, eight (a quarter of 32 in flight) about once in 4 million, so random 429s rarely stop the
 * run; a real limit refuses every request past it, so it makes a streak of any length at once.
 */
const RATE_LIMIT_STREAK_MIN = 3;
const RATE_LIMIT_STREAK_SHARE = 1 / 4;

/**
 * Pacing. A rate limit counts requests per second, so the run paces the requests it starts rather
 * than only bounding those in flight (on a fast network even one in flight outruns a limit of
 * 50/s). Unpaced until the API first limits it. The rate is judged once per window of answers:
 * when at least CUT_SHARE of them were 429, the run sends faster than the API accepts, and the rate
 * is set just above what the API accepted (HEADROOM): a limiter's bucket then never idles, while
 * the few extra requests it refuses only wait their turn. A window with a few 429s keeps the rate,
 * so random load shedding (429s whatever the rate) never slows the run down; a window without any
 * raises it (see `ceiling`). A streak of 429s pauses the run, and gives an unpaced run its first
 * rate; windows with fewer than CUT_SHARE 429s bring the rate back up to the ceiling. A cut takes
 * CUT_WINDOWS windows in a row at CUT_SHARE: random 429s at 15 % fill one window of 16 answers that
 * far about once in 42, so a 1,000-row sheet was cut about twice by chance and then crawled (a cut
 * is only undone by windows without any 429, rare under random ones); two in a row, about once in
 * 1,800, while a real limit refuses that share window after window.
 */
const RATE_WINDOW_MS = 250;
const RATE_WINDOW_MIN_ANSWERS = 16;
const CUT_SHARE = 0.35;
const CUT_WINDOWS = 2;
const HEADROOM = 1.1;
/** The rate never goes below this, in requests per second: pauses, not pacing, handle slower limits. */
const MIN_RATE = 1;

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
	/** What this run met that its items do not show, told to the user at its end. */
	readonly report = new RunReport();
	/** Requests allowed in flight now: halved when 429s come in a row, grown by one per round of answers. */
	private window: number;
	/** Requests per second the run may start; Infinity until the API first says it is too many. */
	private rate = Infinity;
	/**
	 * The rate the API was last found to allow (Infinity: not found yet). Below it a window without
	 * 429s raises the rate by half, to come back quickly after a pause; above it by a tenth of it.
	 */
	private ceiling = Infinity;
	/** When the next request may start, at `rate`. */
	private nextStartAt = 0;
	private pacingTimer = false;
	/** The window of answers the rate is judged by: since when, how many, how many of them 429. */
	private windowStart = Date.now();
	private windowAnswers = 0;
	private windowLimited = 0;
	/** Judged windows in a row with CUT_SHARE of 429s or more. */
	private limitedWindows = 0;
	private inFlight = 0;
	/** Requests waiting out a retry: with none in flight, the run stands still. */
	private retrying = 0;
	private readonly queue: Array<{ retry: boolean; grant: (granted: boolean) => void }> = [];
	private pausedUntil = 0;
	private lastDecreaseAt = 0;
	private rateLimitStreak = 0;
	/** Rounds of a 429 streak since the last answer: each pauses longer when 429s say no Retry-After. */
	private limitedRounds = 0;
	/** Passing failures since the API last answered: Concurrency's worth holds back rows not yet sent. */
	private failureStreak = 0;
	private lastProgressAt = Date.now();
	private stopReason?: StopReason;
	private readonly stopped: Promise<void>;
	private signalStopped!: () => void;

	constructor({ giveUpAfterMs = DEFAULT_GIVE_UP_AFTER_SEC * 1000, concurrency = DEFAULT_MAX_IN_FLIGHT }: RunOptions = {}) {
		this.giveUpAfterMs = giveUpAfterMs;
		this.maxInFlight = Math.max(1, concurrency);
		this.window = this.maxInFlight;
		this.stopped = new Promise((resolve) => (this.signalStopped = resolve));
	}

	get stopReasonIfAny(): StopReason | undefined {
		return this.stopReason;
	}

	/** Requests per second the run may start now (Infinity: not paced). */
	get requestRate(): number {
		return this.rate;
	}

	/** Until when the run may wait for progress before it gives up. */
	get deadline(): number {
		return this.lastProgressAt + this.giveUpAfterMs;
	}

	/**
	 * Waits for a request slot: none is free while the run is paused, its window is full, or its
	 * rate does not allow another request yet. Retries go first, so a row that has waited is not
	 * queued again behind the rest of the sheet. False when the run stopped before this request
	 * could be sent.
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
		this.noteStandingStill();
		if (final) void sleep(0).then(() => this.dispatch());
		else this.dispatch();
	}

	/** A request failed for a passing reason and will be retried. */
	failed(): void {
		this.report.failed();
		this.failureStreak++;
		if (this.inWindow()) this.windowAnswers++;
	}

	/** The API processed a request (a result or a definitive refusal): the run is making progress. */
	answered(): void {
		this.lastProgressAt = Date.now();
		this.rateLimitStreak = 0;
		this.limitedRounds = 0;
		this.failureStreak = 0;
		if (this.inWindow()) this.windowAnswers++;
		this.judgeRate();
		if (this.window < this.maxInFlight) {
			// Additive increase: one more request in flight per window's worth of answers.
			this.window = Math.min(this.maxInFlight, this.window + 1 / Math.floor(this.window));
			this.dispatch();
		}
	}

	/**
	 * A 429 for a request sent at `sentAt` (already counted by failed()). Enough of them in a window
	 * slow the run's rate down; a streak of them pauses the whole run for `retryAfterMs` and halves
	 * what it keeps in flight, once per round trip.
	 */
	rateLimited(sentAt: number, retryAfterMs: number | undefined): void {
		const now = Date.now();
		this.report.limited();
		if (this.inWindow()) this.windowLimited++;
		if (++this.rateLimitStreak >= Math.max(RATE_LIMIT_STREAK_MIN, Math.ceil(this.window * RATE_LIMIT_STREAK_SHARE))) {
			// Multiplicative decrease and pause, once per round trip: 429s for requests sent before
			// the last decrease were answered to the old window and rate and are already accounted for.
			if (sentAt > this.lastDecreaseAt) {
				this.limitedRounds++;
				this.window = Math.max(1, this.window / 2);
				// Not paced yet: half what the API let through in this window. A paced run keeps its
				// rate: streaks also come by chance from random 429s, and the windows judge the rate.
				const passed = this.windowAnswers - this.windowLimited;
				if (this.rate === Infinity && passed > 0) {
					this.ceiling = HEADROOM * this.windowRate();
					this.rate = Math.max(MIN_RATE, this.ceiling / 2);
				}
				this.lastDecreaseAt = now;
				// The run's pause follows the API's hint; each request's own retry still waits at least its backoff (retryWaitMs).
				this.pause(now + (retryAfterMs ?? this.backoffMs(this.limitedRounds - 1)));
			}
		} else {
			this.judgeRate();
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
		this.retrying++;
		this.noteStandingStill();
		try {
			return await this.sleepToRetry(waitMs, cause, itemIndex);
		} finally {
			this.retrying--;
			this.noteStandingStill();
		}
	}

	private async sleepToRetry(waitMs: number, cause: string, itemIndex?: number): Promise<boolean> {
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
		this.report.stoppedBecause(reason.message);
		this.signalStopped();
		for (const waiting of this.queue.splice(0)) waiting.grant(false);
	}

	private noteStandingStill(): void {
		this.report.standingStill(this.inFlight === 0 && this.retrying > 0);
	}

	/** Answers of requests sent before a pause come in during it: the window after it starts empty. */
	private inWindow(): boolean {
		return Date.now() >= this.windowStart;
	}

	/** Requests per second the API let through in the current window (429s excluded). */
	private windowRate(): number {
		const elapsed = Math.max(1, Date.now() - this.windowStart);
		return ((this.windowAnswers - this.windowLimited) * 1000) / elapsed;
	}

	/** Once a window of answers is complete, cuts, keeps or raises the rate by its share of 429s. */
	private judgeRate(): void {
		const elapsed = Date.now() - this.windowStart;
		if (elapsed < RATE_WINDOW_MS || this.windowAnswers < RATE_WINDOW_MIN_ANSWERS) return;
		const limited = this.windowLimited >= CUT_SHARE * this.windowAnswers;
		this.limitedWindows = limited ? this.limitedWindows + 1 : 0;
		if (limited) {
			const accepted = HEADROOM * this.windowRate();
			if (this.limitedWindows >= CUT_WINDOWS && accepted < this.rate) this.rate = this.ceiling = Math.max(MIN_RATE, accepted);
		} else if (this.rate !== Infinity) {
			// Once the rate is twice what the run manages to send, pacing no longer limits it
			// (Concurrency or the API's speed does): stop pacing. Below the ceiling (after a streak
			// of random 429s, say) come back quickly; beyond it, only while no request is refused.
			const sentRate = (this.windowAnswers * 1000) / elapsed;
			if (this.rate >= 2 * sentRate) this.rate = Infinity;
			else if (this.rate < this.ceiling) this.rate = Math.min(this.ceiling, this.rate * 1.5);
			else if (this.windowLimited === 0) this.rate += this.ceiling / 10;
		}
		this.startWindow(Date.now());
	}

	private startWindow(at: number): void {
		this.windowStart = at;
		this.windowAnswers = 0;
		this.windowLimited = 0;
	}

	private canStart(retry: boolean): boolean {
		if (Date.now() < this.pausedUntil || this.inFlight >= Math.floor(this.window)) return false;
		// While Concurrency's worth of requests in a row has failed, only retries go: a dead API is
		// not sent every row of the sheet, and rows held back come out as "not sent" if the run gives up.
		return retry || this.failureStreak < this.maxInFlight;
	}

	private dispatch(): void {
		while (this.queue.length > 0 && this.canStart(this.queue[0].retry)) {
			if (this.rate !== Infinity) {
				const now = Date.now();
				if (now < this.nextStartAt) {
					this.dispatchAt(this.nextStartAt);
					return;
				}
				// Even spacing; a timer that fires late may start one request early, never more.
				const interval = 1000 / this.rate;
				this.nextStartAt = Math.max(this.nextStartAt, now - interval) + interval;
			}
			this.inFlight++;
			this.noteStandingStill();
			this.queue.shift()!.grant(true);
		}
	}

	/** One timer at a time wakes the queue when the rate allows the next request. */
	private dispatchAt(at: number): void {
		if (this.pacingTimer) return;
		this.pacingTimer = true;
		void sleep(Math.max(0, at - Date.now())).then(() => {
			this.pacingTimer = false;
			if (!this.stopReason) this.dispatch();
		});
	}

	private pause(until: number): void {
		if (until <= this.pausedUntil) return;
		this.pausedUntil = until;
		// The rate is judged afresh after the pause: a window holding it would read as a slow API.
		this.startWindow(until);
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

/**
 * How long to wait before a retry the API answered with a Retry-After of `askedMs` (undefined: none):
 * what it asks, but never less than the node's own backoff, so a Retry-After of 0 or a few ms (a
 * server bug, or one that wants to be hammered) cannot turn retries into a flood. The upper bound is
 * Give Up After (a longer Retry-After stops the run: transport/index.ts).
 */
export function retryWaitMs(askedMs: number | undefined, backoffMs: number): number {
	return Math.max(askedMs ?? 0, backoffMs);
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
