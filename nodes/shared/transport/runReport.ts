// What a run met that its items do not show: waits on a busy API, a clock corrected, capped pages,
// failed or refused rows, a poll window read again. Collected where each happens, into the run's one
// report (RunPolicy.report), and told once at the end of the run: as execution hints on the node
// (the editor shows them over its output) where n8n has them, and always in n8n's log.
import type { NodeExecutionHint } from 'n8n-workflow';
import type { ApiContext } from './runPolicy';
import { cut, printable, trimEnd } from '../helpers/networkText';
import type { ListFilter } from './answerReading';

/** One fact for the user: a warning when something was not done, information otherwise. */
type Fact = Required<Pick<NodeExecutionHint, 'message' | 'type'>>;

/**
 * A clock offset worth telling: the Date header the offset is learnt from counts whole seconds, so
 * a correct clock reads up to a second or two off.
 */
const CLOCK_OFFSET_TOLD_SEC = 5;

export class RunReport {
	/** Answers the run retried: all passing failures, and the 429s among them. */
	private retried = 0;
	private rateLimited = 0;
	/** Time the run stood still (nothing in flight while requests waited to retry), and since when it does. */
	private stillMs = 0;
	private stillSince: number | undefined;
	/** Seconds the API's clock is ahead of n8n's, when the run signed with a corrected time. */
	clockOffsetSec = 0;
	/** The largest page size the API kept to while asked for more, and what was asked. */
	private cap: { asked: number; got: number } | undefined;
	/** A short page of the current walk: a cap if the walk goes on. */
	private shortPage: { asked: number; got: number } | undefined;
	private hasMoreAbsent = false;
	/** Order items a walk met again on a later page, and left out. */
	private repeats = 0;
	/** The largest page the API sent beyond the limit asked, and that limit. */
	private oversized: { asked: number; got: number } | undefined;
	/** Order items the API answered outside a filter of the request, by filter: the value asked and how many. */
	private outsideFilters: Partial<Record<ListFilter, { asked: string; count: number }>> = {};
	private rows: { total: number; failed: number; refused: number; maxStock?: number } | undefined;
	private window: { since: string; seconds: number; repeats: number } | undefined;
	private unsettled: string | undefined;
	/** Requests that still failed after being retried (a 500 that persisted), and why the run stopped, if it did. */
	private unrecovered = 0;
	private stopped: string | undefined;
	/** Facts an operation states itself, e.g. why a filtered list came back empty. */
	private told: Fact[] = [];

	/** A request failed for a passing reason (429, 5xx, no answer) and is retried. */
	failed(): void {
		this.retried++;
	}

	/** A request that was retried ended with an error all the same. */
	failedAfterRetries(): void {
		this.unrecovered++;
	}

	/** The run stopped sending (it gave up, or a row failed): requests still waiting were never sent. */
	stoppedBecause(reason: string): void {
		this.stopped ??= reason;
	}

	/** The failure was a 429. */
	limited(): void {
		this.rateLimited++;
	}

	/** Whether the run stands still now: nothing in flight, requests waiting out a retry. */
	standingStill(still: boolean, now = Date.now()): void {
		if (still && this.stillSince === undefined) this.stillSince = now;
		if (!still && this.stillSince !== undefined) {
			this.stillMs += now - this.stillSince;
			this.stillSince = undefined;
		}
	}

	/** One page of a walk over /orders.php: asked for `asked` at `offset`, got `got`, has_more as written. */
	page(offset: number, asked: number, got: number, hasMore: boolean | undefined): void {
		if (hasMore === undefined && got > 0) this.hasMoreAbsent = true;
		// A short page is a cap when the API says more follow, or when more do follow.
		if (offset > 0 && got > 0 && this.shortPage) this.capped(this.shortPage);
		this.shortPage = got > 0 && got < asked ? { asked, got } : undefined;
		if (hasMore === true && this.shortPage) this.capped(this.shortPage);
	}

	/** A page asked with `limit` held `got` entries: more than asked are left unread. */
	beyondLimit(limit: number, got: number): void {
		if (got > limit && (!this.oversized || got > this.oversized.got)) this.oversized = { asked: limit, got };
	}

	/** `count` order items of a page did not meet the request's `filter` (asked as `asked`), and were left out. */
	outside(filter: ListFilter, asked: string, count: number): void {
		const known = this.outsideFilters[filter];
		this.outsideFilters[filter] = { asked, count: (known?.count ?? 0) + count };
	}

	/** `count` order items of a page were read before in the same walk, and left out. */
	repeated(count: number): void {
		this.repeats += count;
	}

	/** Stock › Update under Continue On Fail: how many of the sheet's rows failed, and how many of them the guard refused. */
	stockRows(rows: NonNullable<RunReport['rows']>): void {
		this.rows = rows;
	}

	/** An Orders Trigger poll that read again, after a restart, the window a poll before it had read. */
	windowReread(since: string, seconds: number, repeats: number): void {
		this.window = { since, seconds, repeats };
	}

	/** An Orders Trigger poll whose list kept moving: its window is read again next poll. */
	windowUnsettled(since: string): void {
		this.unsettled = since;
	}

	/** A fact of the operation's own, told with the others at the end of the run. */
	tell(fact: Fact): void {
		// Once, however many input items met it.
		if (!this.told.some((told) => told.message === fact.message)) this.told.push(fact);
	}

	/** What to tell the user, in plain sentences, each saying what to do when something is. */
	facts(now = Date.now()): Fact[] {
		const facts: Fact[] = [...this.told];
		const { rows } = this;
		if (rows && rows.failed > 0) {
			// Not which output: n8n 2 sends them down the error output when the node has one, n8n 1 does not.
			facts.push({
				type: 'warning',
				message: `${rows.failed} of ${rows.total} rows failed and changed no stock: they are the items with an "error" field, each with its row in details.itemIndex (counted from 0). Fix those rows and run them again.`,
			});
		}
		if (rows && rows.refused > 0) {
			facts.push({
				type: 'warning',
				message: `${rows.refused} ${rows.refused === 1 ? 'row was' : 'rows were'} refused before sending: stock above the Maximum Stock of ${rows.maxStock}. If the values are right, raise Maximum Stock under Options.`,
			});
		}
		if (this.retried > 0) {
			const other = this.retried - this.rateLimited;
			const still = this.stillMs + (this.stillSince === undefined ? 0 : now - this.stillSince);
			const busy = `The API was busy: ${count(this.rateLimited, 'answer')} ${this.rateLimited === 1 ? 'was' : 'were'} 429 (rate limit) and ${other} 5xx or no answer`;
			const waited = `the run waited ${seconds(still)} with nothing sent`;
			// "Nothing was lost" only when it is true: every retried request went through and the run went to its end.
			const lost = [
				this.unrecovered > 0 ? `${count(this.unrecovered, 'request')} still failed after ${this.unrecovered === 1 ? 'its' : 'their'} retries` : undefined,
				this.stopped === undefined ? undefined : `the run stopped before every request went through (${trimEnd(this.stopped, /\./)})`,
			].filter(Boolean);
			facts.push(
				lost.length === 0
					? { type: 'info', message: `${busy}, each retried until it went through; ${waited}. Nothing was lost; if this happens often, ask the marketplace operator about your rate limit.` }
					: { type: 'warning', message: `${busy}, retried; ${lost.join(', and ')}; ${waited}. What did not go through is in the output or the error; run it again once the API answers.` },
			);
		}
		const off = Math.abs(this.clockOffsetSec);
		if (off >= CLOCK_OFFSET_TOLD_SEC) {
			facts.push({
				type: 'info',
				message: `This n8n's clock is ${off} s ${this.clockOffsetSec > 0 ? 'behind' : 'ahead of'} the API's, so the node signed with the API's time. Set the clock of the n8n host right (NTP).`,
			});
		}
		if (this.cap) {
			facts.push({
				type: 'info',
				message: `The API returned at most ${this.cap.got} order items per page although asked for ${this.cap.asked}; the node read on page by page, so nothing was missed.`,
			});
		}
		if (this.hasMoreAbsent) {
			facts.push({
				type: 'info',
				message: 'The API left out pagination.has_more, so the node read one page more to see where the list ends.',
			});
		}
		if (this.oversized) {
			facts.push({
				type: 'info',
				message: `The API sent up to ${this.oversized.got} order items on a page where ${this.oversized.asked} were asked (it ignores limit); the node read ${this.oversized.asked} a page and read on page by page, so nothing came out twice or beyond a limit.`,
			});
		}
		const { status, updatedAfter } = this.outsideFilters;
		if (status) {
			facts.push({
				type: 'warning',
				message: `The API answered ${count(status.count, 'order item')} whose status is not "${cut(status.asked, 50)}" although only that status was asked: it seems not to apply the status filter. The node left them out; report it to the marketplace operator.`,
			});
		}
		if (updatedAfter) {
			facts.push({
				type: 'warning',
				message: `The API answered ${count(updatedAfter.count, 'order item')} updated at or before ${cut(updatedAfter.asked, 50)} although only later changes were asked (updated_after): it seems not to apply that filter. The node left them out, so nothing old comes out as a change; report it to the marketplace operator.`,
			});
		}
		if (this.repeats > 0) {
			facts.push({
				type: 'info',
				message: `${count(this.repeats, 'order item')} came again on a later page (the list changed while it was read); each is in the output once.`,
			});
		}
		if (this.window) {
			facts.push({
				type: 'info',
				message: `First poll since n8n started or the workflow was published: read again the changes since ${this.window.since} (${this.window.seconds} s back), where the last poll stopped; ${this.window.repeats} already emitted before ${this.window.repeats === 1 ? 'was' : 'were'} dropped.`,
			});
		}
		if (this.unsettled !== undefined) {
			facts.push({
				type: 'info',
				message: `The orders list kept changing while it was read, so the next poll reads the changes since ${this.unsettled} again; repeats are dropped.`,
			});
		}
		return facts;
	}

	private capped(page: { asked: number; got: number }): void {
		if (!this.cap || page.got > this.cap.got) this.cap = page;
	}
}

function count(n: number, noun: string): string {
	return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function seconds(ms: number): string {
	return ms < 1000 ? 'less than a second' : `${Math.round(ms / 1000)} s`;
}

/**
 * Tells the user what the run met: hints on the node where n8n has them (not in a poll, nor in n8n
 * before it had hints), and the same in n8n's log, which also keeps them when the run failed.
 */
export function reportRun(context: ApiContext, report: RunReport): void {
	// Facts quote the API (statuses, its messages): a line break or an escape in them would forge a log line.
	const facts = report.facts().map(({ type, message }) => ({ type, message: printable(message) }));
	const hints = context as Partial<{ addExecutionHints(...hints: NodeExecutionHint[]): void }>;
	if (typeof hints.addExecutionHints === 'function') {
		hints.addExecutionHints(...facts.map((fact): NodeExecutionHint => ({ ...fact, location: 'outputPane' })));
	}
	const { name } = context.getNode();
	for (const { type, message } of facts) context.logger[type === 'warning' ? 'warn' : 'info'](`${name}: ${message}`);
}
