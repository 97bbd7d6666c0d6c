// What a run tells the user besides its items: execution hints on the node, read back from the run
// data of n8n's real engine, for runs against the sandbox playing each fault.
import { credentialsFor, hintsOf, NODE_NAME, runNode } from '../helpers/n8n';
import { logsSince, mark } from '../helpers/logs';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { RunPolicy } from '../../nodes/shared/transport/runPolicy';
import { RunReport } from '../../nodes/shared/transport/runReport';

type Run = Awaited<ReturnType<typeof runNode>>;
const messages = (run: Run) => hintsOf(run).map((h) => h.message);

describe('the run tells the user what happened (execution hints)', () => {
	let sb: RunningSandbox;
	let products: number[];
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);
	const stock = (rows: Array<{ product_id: number; stock: number }>, extra: Record<string, unknown> = {}) =>
		runNode({ parameters: { resource: 'stock', operation: 'update', ...extra }, typeVersion: 2, items: rows, credentials: credentials(), continueOnFail: true });

	beforeAll(async () => {
		sb = await startSandbox({ orders: 260, products: 60 });
		const all: Array<{ product_id: number; variant_combination_ids: number[] }> = await sb.control('GET', '/products?sellerId=1001');
		products = all.filter((p) => p.variant_combination_ids.length === 0).map((p) => p.product_id);
	});
	beforeEach(async () => {
		await sb.control('POST', '/faults/reset');
		await sb.control('POST', '/style/reset');
	});
	afterAll(() => sb.close());

	test('rows failed, n of N, and where they are; rows refused by Maximum Stock; a clean run says nothing', async () => {
		const clean = await stock([{ product_id: products[0], stock: 3 }], { options: { maxStock: 1000 } });
		expect(clean.error).toBeUndefined();
		expect(hintsOf(clean)).toEqual([]);

		const rows = [
			{ product_id: products[0], stock: 5 },
			{ product_id: products[1], stock: -3 },
			{ product_id: products[2], stock: 5000 },
			{ product_id: 99999, stock: 1 },
			{ product_id: products[3], stock: 6 },
		];
		const logged = mark();
		const run = await stock(rows, { options: { maxStock: 1000 } });
		expect(run.items.filter((i) => i.json.error)).toHaveLength(3);
		expect(hintsOf(run)).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message:
					'3 of 5 rows failed and changed no stock: they are the items with an "error" field, each with its row in details.itemIndex (counted from 0). Fix those rows and run them again.',
			},
			{
				type: 'warning',
				location: 'outputPane',
				message: '1 row was refused before sending: stock above the Maximum Stock of 1000. If the values are right, raise Maximum Stock under Options.',
			},
		]);
		// The same facts in n8n's log, which n8n versions without hints (and failed runs) still have.
		for (const hint of hintsOf(run)) expect(logsSince(logged)).toContain(`${NODE_NAME}: ${hint.message}`);

		const toErrorOutput = await runNode({
			parameters: { resource: 'stock', operation: 'update', options: { maxStock: 5 } },
			typeVersion: 2,
			items: rows,
			credentials: credentials(),
			onError: 'continueErrorOutput',
		});
		expect(messages(toErrorOutput)).toEqual([
			expect.stringMatching(/^4 of 5 rows failed and changed no stock: they are the items with an "error" field, /),
			expect.stringMatching(/^2 rows were refused before sending: stock above the Maximum Stock of 5\. /),
		]);
	});

	test('waits on 429s and outages: how many, and how long the run stood still', async () => {
		await sb.control('POST', '/faults', { next429: 2, retryAfterSec: 1, next5xx: 1 });
		const run = await stock([{ product_id: products[4], stock: 7 }], { options: { concurrency: 1 } });
		expect(run.error).toBeUndefined();
		const [busy] = messages(run);
		expect(busy).toMatch(
			/^The API was busy: 2 answers were 429 \(rate limit\) and 1 5xx or no answer, each retried until it went through; the run waited (2|3) s with nothing sent\. Nothing was lost; if this happens often, ask the marketplace operator about your rate limit\.$/,
		);
	});

	test('a 500 that persists through its retries: the report says a request still failed, never "nothing was lost"', async () => {
		await sb.control('POST', '/faults', { next5xx: 4, status5xx: 500 });
		const run = await stock([{ product_id: products[6], stock: 9 }]);
		expect(run.items.map((i) => i.json.error === undefined)).toEqual([false]);
		const busy = messages(run).find((m) => m.startsWith('The API was busy'));
		// Three backoffs with jitter: 0.875 to 1.75 s in all, so either wording of the wait.
		expect(busy).toMatch(/^The API was busy: 0 answers were 429 \(rate limit\) and 3 5xx or no answer, retried; 1 request still failed after its retries; the run waited (less than a second|\d+ s) with nothing sent\. /);
	});

	test('a clock corrected: by how much, which way, what to do', async () => {
		await sb.control('POST', '/faults', { clockSkewSec: 400 });
		const run = await stock([{ product_id: products[5], stock: 8 }]);
		expect(run.error).toBeUndefined();
		expect(messages(run)).toEqual([
			expect.stringMatching(/^This n8n's clock is (399|400|401) s behind the API's, so the node signed with the API's time\. Set the clock of the n8n host right \(NTP\)\.$/),
		]);
	});

	test('pages capped by the API, and has_more left out', async () => {
		await sb.control('POST', '/style', { pageCap: 50 });
		const capped = await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true, simplify: false }, credentials: credentials() });
		expect(capped.items).toHaveLength(260);
		expect(messages(capped)).toEqual([
			'The API returned at most 50 order items per page although asked for 100; the node read on page by page, so nothing was missed.',
		]);

		await sb.control('POST', '/style', { pageCap: 0, hasMoreStyle: 'absent' });
		const absent = await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true, simplify: false }, credentials: credentials() });
		expect(absent.items).toHaveLength(260);
		expect(messages(absent)).toEqual(['The API left out pagination.has_more, so the node read one page more to see where the list ends.']);

		// A short last page is the end of the list, not a cap.
		await sb.control('POST', '/style/reset');
		const plain = await runNode({ parameters: { resource: 'order', operation: 'getMany', returnAll: true, simplify: false }, credentials: credentials() });
		expect(plain.items).toHaveLength(260);
		expect(messages(plain)).toEqual([]);
	});
});

describe('the report of a run, fact by fact', () => {
	const told = (report: RunReport, now?: number) => report.facts(now).map((f) => f.message);

	test('a page shorter than asked is a cap when the walk goes on or has_more says more; the largest cap is told', () => {
		const walk = (pages: Array<[offset: number, got: number, hasMore?: boolean]>, asked = 100) => {
			const report = new RunReport();
			for (const [offset, got, hasMore] of pages) report.page(offset, asked, got, hasMore);
			return told(report);
		};
		const cap = (got: number, asked = 100) =>
			`The API returned at most ${got} order items per page although asked for ${asked}; the node read on page by page, so nothing was missed.`;
		expect(walk([[0, 100, true], [100, 100, true], [200, 30, false]])).toEqual([]);
		expect(walk([[0, 50, false]])).toEqual([]);
		expect(walk([[0, 50, true]])).toEqual([cap(50)]);
		expect(walk([[0, 40, true], [40, 50, true], [90, 10, false]])).toEqual([cap(50)]);
		expect(walk([[0, 50, true], [50, 40, true], [90, 10, false]])).toEqual([cap(50)]);
		expect(walk([[0, 50, false], [50, 50, false]])).toEqual([cap(50)]);
		// A short last page, then the next walk (another item's) from offset 0: no cap.
		expect(walk([[0, 100, true], [100, 7, false], [0, 100, false]])).toEqual([]);
		expect(walk([[0, 100, true], [100, 0, true]])).toEqual([]);
		expect(walk([[0, 100, true], [100, 100, true]], 100)).toEqual([]);
		const absent = 'The API left out pagination.has_more, so the node read one page more to see where the list ends.';
		expect(walk([[0, 3, undefined], [3, 0, undefined]])).toEqual([absent]);
		expect(walk([[0, 0, undefined]])).toEqual([]);
	});

	test('a clock off by 5 s or more, either way; less is the Date header\'s own rounding', () => {
		const clock = (seconds: number) => {
			const report = new RunReport();
			report.clockOffsetSec = seconds;
			return told(report);
		};
		expect(clock(4)).toEqual([]);
		expect(clock(-4)).toEqual([]);
		expect(clock(5)).toEqual(["This n8n's clock is 5 s behind the API's, so the node signed with the API's time. Set the clock of the n8n host right (NTP)."]);
		expect(clock(-120)).toEqual(["This n8n's clock is 120 s ahead of the API's, so the node signed with the API's time. Set the clock of the n8n host right (NTP)."]);
	});

	test('order items a walk met again on a later page: counted, and said to be in the output once', () => {
		const report = new RunReport();
		report.repeated(0);
		expect(told(report)).toEqual([]);
		report.repeated(2);
		report.repeated(1);
		expect(told(report)).toEqual(['3 order items came again on a later page (the list changed while it was read); each is in the output once.']);
		expect(report.facts().map((f) => f.type)).toEqual(['info']);
	});

	test('waits: answers retried, and only the time the run stood still', () => {
		const report = new RunReport();
		report.failed();
		report.failed();
		report.limited();
		report.standingStill(false, 1000);
		report.standingStill(true, 2000);
		report.standingStill(true, 2500); // still standing: counted from the first
		report.standingStill(false, 2900);
		const busy = (limited: string, other: number, waited: string) =>
			`The API was busy: ${limited} (rate limit) and ${other} 5xx or no answer, each retried until it went through; the run waited ${waited} with nothing sent. Nothing was lost; if this happens often, ask the marketplace operator about your rate limit.`;
		expect(told(report)).toEqual([busy('1 answer was 429', 1, 'less than a second')]);
		report.standingStill(true, 3000);
		report.standingStill(false, 3100); // 1 s in all, to the millisecond
		expect(told(report)).toEqual([busy('1 answer was 429', 1, '1 s')]);
		report.standingStill(true, 5000);
		// A run told while it stands still counts up to then.
		expect(told(report, 5600)).toEqual([busy('1 answer was 429', 1, '2 s')]);
		report.standingStill(false, 5600);
		report.limited();
		report.failed();
		expect(told(report, 9000)).toEqual([busy('2 answers were 429', 1, '2 s')]);
	});

	test('failed and refused rows are warnings, everything else information', () => {
		const report = new RunReport();
		report.stockRows({ total: 2, failed: 1, refused: 1, maxStock: 10 });
		report.failed();
		report.clockOffsetSec = 60;
		report.page(0, 100, 50, true);
		report.page(50, 100, 3, undefined);
		report.windowReread('2026-06-01 10:00:00', 300, 2);
		report.windowUnsettled('2026-06-01 10:00:00');
		expect(report.facts().map((f) => f.type)).toEqual(['warning', 'warning', 'info', 'info', 'info', 'info', 'info', 'info']);
	});

	test('rows and windows, in the singular and the plural', () => {
		const report = new RunReport();
		report.stockRows({ total: 3, failed: 0, refused: 0 });
		report.windowReread('2026-06-01 10:00:00', 300, 1);
		expect(told(report)).toEqual([
			'First poll since n8n started or the workflow was published: read again the changes since 2026-06-01 10:00:00 (300 s back), where the last poll stopped; 1 already emitted before was dropped.',
		]);
		report.stockRows({ total: 1, failed: 1, refused: 1, maxStock: 10 });
		report.windowReread('2026-06-01 10:00:00', 300, 2);
		expect(told(report)).toEqual([
			'1 of 1 rows failed and changed no stock: they are the items with an "error" field, each with its row in details.itemIndex (counted from 0). Fix those rows and run them again.',
			'1 row was refused before sending: stock above the Maximum Stock of 10. If the values are right, raise Maximum Stock under Options.',
			'First poll since n8n started or the workflow was published: read again the changes since 2026-06-01 10:00:00 (300 s back), where the last poll stopped; 2 already emitted before were dropped.',
		]);
	});

	test('an API that ignores limit: the largest page beyond it is told, as information', () => {
		const report = new RunReport();
		report.beyondLimit(50, 50);
		expect(told(report)).toEqual([]);
		for (const got of [80, 120, 60]) report.beyondLimit(50, got);
		expect(report.facts()).toEqual([
			{
				type: 'info',
				message:
					'The API sent up to 120 order items on a page where 50 were asked (it ignores limit); the node read 50 a page and read on page by page, so nothing came out twice or beyond a limit.',
			},
		]);
	});

	test('requests still failed after their retries and a run that stopped: one warning naming both', () => {
		const report = new RunReport();
		for (let i = 0; i < 3; i++) report.failed();
		report.failedAfterRetries();
		report.failedAfterRetries();
		report.stoppedBecause('Give Up After (300 s) passed.');
		report.stoppedBecause('a later reason is not the one told');
		expect(report.facts(0)).toEqual([
			{
				type: 'warning',
				message:
					'The API was busy: 0 answers were 429 (rate limit) and 3 5xx or no answer, retried; 2 requests still failed after their retries, and the run stopped before every request went through (Give Up After (300 s) passed); the run waited less than a second with nothing sent. What did not go through is in the output or the error; run it again once the API answers.',
			},
		]);
	});
});

describe('the run stands still only while nothing is in flight and a request waits to retry', () => {
	beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
	afterEach(() => jest.useRealTimers());
	/** A request in flight fails and waits 3 s to retry. */
	const failAndWait = async (policy: RunPolicy) => {
		policy.failed();
		policy.release();
		const retry = policy.waitToRetry(3000, 'HTTP 503');
		await jest.advanceTimersByTimeAsync(3000);
		expect(await retry).toBe(true);
	};
	const waited = (policy: RunPolicy) => /the run waited (.+) with nothing sent/.exec(policy.report.facts().map((f) => f.message).join(' '))?.[1];

	test('alone: the whole wait counts', async () => {
		const policy = new RunPolicy({ concurrency: 2 });
		await policy.acquire(false);
		await failAndWait(policy);
		await policy.acquire(true);
		await jest.advanceTimersByTimeAsync(5000); // in flight again: not standing still
		policy.answered();
		policy.release();
		await jest.advanceTimersByTimeAsync(5000); // done waiting, nothing in flight: idle, not standing still
		expect(waited(policy)).toBe('3 s');
	});

	test('while another request is in flight, or before anything waits, nothing counts', async () => {
		const policy = new RunPolicy({ concurrency: 2 });
		await policy.acquire(false);
		policy.release();
		await jest.advanceTimersByTimeAsync(5000); // idle, nothing waiting
		await policy.acquire(false);
		await policy.acquire(false);
		await failAndWait(policy);
		expect(waited(policy)).toBe('less than a second');
	});
});
