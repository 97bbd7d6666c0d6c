/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-unused-vars -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Hundreds of polls, through n8n-core's poll executor, against a sandbox whose orders change between
// polls and while a poll pages, under each list order, with 429s, 5xx, dropped connections, polls
// failing midway and n8n restarts (static data back to the last emit). The sandbox's change log is
// the witness: every state delivered once, none made up, none missed that a poll could see.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor } from '../helpers/n8n';
import { PollHarness } from '../helpers/poll';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { soakSize } from '../helpers/soak';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createRandom } = require('../../sandbox/random');

type Change = { seq: number; order_item_id: number; entry: IDataObject };

/** The same text for the same state, whatever the key order. */
function stateText(entry: IDataObject): string {
	const sorted = (v: unknown): unknown =>
		v && typeof v === 'object' && !Array.isArray(v)
			? Object.fromEntries(Object.keys(v as IDataObject).sort().map((k) => [k, sorted((v as IDataObject)[k])]))
			: v;
	return JSON.stringify(sorted(entry));
}

// The list orders in the sandbox's default style, then the marketplace as it may really be (sandbox
// answer styles): zones behind and ahead of UTC with the credential's Time Zone right and left at
// UTC, PHP types, has_more in other forms or absent, capped pages, errors with HTTP 200 or flat.
const RUNS: Array<[string, { listOrder: string; style?: Record<string, unknown>; credentialZone?: string; polls?: number }]> = [
	['order_item_id', { listOrder: 'order_item_id' }],
	['updated_at_asc', { listOrder: 'updated_at_asc' }],
	['updated_at_desc', { listOrder: 'updated_at_desc' }],
	[
		'updated_at_desc, PHP types, pages of 50, UTC-5 with the zone left at UTC',
		{ listOrder: 'updated_at_desc', style: { answerStyle: 'php', pageCap: 50, timeZone: 'America/New_York' }, credentialZone: 'UTC', polls: 60 },
	],
	[
		'order_item_id, has_more absent, UTC-5 with the zone set',
		{ listOrder: 'order_item_id', style: { hasMoreStyle: 'absent', timeZone: 'America/New_York' }, credentialZone: 'America/New_York', polls: 60 },
	],
	[
		'updated_at_asc, has_more as text, errors as HTTP 200, UTC+3 with the zone left at UTC',
		{ listOrder: 'updated_at_asc', style: { hasMoreStyle: 'string', errorStyle: 'http200', timeZone: 'Europe/Istanbul' }, credentialZone: 'UTC', polls: 60 },
	],
	[
		'updated_at_desc, PHP types, flat errors, pages of 30, UTC+9 with the zone set',
		{ listOrder: 'updated_at_desc', style: { answerStyle: 'php', errorStyle: 'flat', pageCap: 30, timeZone: 'Asia/Tokyo' }, credentialZone: 'Asia/Tokyo', polls: 60 },
	],
];

// The runs go at once, each against its own sandbox: one run's waits (a burst ageing, retries) are
// another's time to compute, and the file takes about its CPU time rather than the sum of its waits.
describe('Orders Trigger, exactly once', () => {
	test.concurrent.each(RUNS)('list ordered by %s: polls with changes between and during them, faults and restarts', async (_, { listOrder, style = {}, credentialZone = 'UTC', polls = 150 }) => {
		const sb = await startSandbox({ orders: 300, listOrder, seed: 11, ...style });
		try {
			// Every run in `npm test` too, with 25 polls (690 in all at full size, 175 here): each run still
			// holds a burst (poll 10), two deactivations mid-read (7, 22) and a restart (19).
			await exactlyOnce(sb, listOrder, credentialZone, soakSize(25, polls));
		} finally {
			await sb.close();
		}
	}, 120_000);
});

/** POLLS polls with changes between and during them, faults and restarts: every state delivered once. */
async function exactlyOnce(sb: RunningSandbox, listOrder: string, credentialZone: string, POLLS: number) {
	const app = sb.apps['seller-a-full'];
	const random = createRandom(listOrder.length * 7919 + POLLS);
	const control = sb.control;
	// The log's newest seq, reading only what was logged since the last look: the whole log on every
	// look is thousands of entries written out twice a poll.
	let lastSeq = 0;
	const seq = async () => {
		lastSeq = ((await control('GET', `/changes?since=${lastSeq}`)) as Change[]).at(-1)?.seq ?? lastSeq;
		return lastSeq;
	};
	const h = new PollHarness(
		{ events: ['order.created', 'order.updated'], options: { overlapSeconds: 0, skewSeconds: 0 } },
		credentialsFor(sb.baseUrl, app, { timeZone: credentialZone }),
	);
	await control('POST', '/faults', { retryAfterSec: 0 });
	await control('POST', '/changes', { clientId: app.clientId, changes: { statusChanges: 5 } }); // history
	const beforeActivation = await seq();
	expect((await h.activate()).error).toBeUndefined();
	const activated = await seq();

	const polls: Array<{ from: number; to: number; ok: boolean }> = [];
	let failures = 0;
	let restarts = 0;
	for (let i = 0; i < POLLS; i++) {
		// A window of more than a page, read once its changes are older than the next window's start
		// would be (no overlap here): an entry skipped by a move between pages is then lost for good
		// unless the poll notices the move.
		const burst = i % 50 === 10;
		await control('POST', '/changes', {
			clientId: app.clientId,
			changes: { statusChanges: random.int(0, 3), newOrders: burst ? 160 : random.int(0, 2), sameSecond: random.int(0, 1) },
		});
		if (burst) await new Promise((r) => setTimeout(r, 2100));
		const failMidway = i % 15 === 7;
		const pages = burst
			? [{ statusChanges: 10 }, { statusChanges: 10 }]
			: [
					{ statusChanges: random.int(0, 2), newOrders: random.int(0, 1), sameSecond: random.int(0, 1), ...(failMidway ? { deactivateApp: true } : {}) },
					{ statusChanges: random.int(0, 2), sameSecond: random.int(0, 1) },
				];
		await control('POST', '/churn', { clientId: app.clientId, pages });
		const fault = random.int(0, 9);
		if (fault === 0) await control('POST', '/faults', { next429: 1 });
		if (fault === 1) await control('POST', '/faults', { next5xx: 1 });
		if (fault === 2) await control('POST', '/faults', { nextDrop: 1 });

		const from = await seq();
		const outcome = i % 20 === 19 && Object.keys(h.saved).length ? (restarts++, await h.restart()) : await h.poll();
		polls.push({ from, to: await seq(), ok: !outcome.error });
		if (outcome.error) {
			failures++;
			expect(outcome.error.message).toMatch(/deactivated/);
			await control('POST', `/apps/${app.clientId}`, { active: true });
		}
	}
	// Quiet: what is still in flight comes out.
	await control('POST', '/churn', { clientId: app.clientId, pages: [] });
	await control('POST', '/faults/reset');
	for (let i = 0; i < 2; i++) expect((await h.poll()).error).toBeUndefined();

	const log: Change[] = await control('GET', '/changes');
	const delivered = h.emitted.map(({ event, created_at_iso, updated_at_iso, ...entry }) => stateText(entry));
	// The ISO form is the moment the API's datetime names in the credential's zone: read back in that
	// zone (by Intl, not by the node's code), it is the API's datetime again.
	const wall = new Intl.DateTimeFormat('sv-SE', { timeZone: credentialZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
	for (const item of h.emitted) {
		for (const field of ['created_at', 'updated_at']) {
			expect({ field, iso: item[`${field}_iso`], back: wall.format(Date.parse(item[`${field}_iso`] as string)) }).toEqual({ field, iso: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/), back: item[field] });
		}
	}
	const logged = new Map(log.map((c) => [stateText(c.entry), c.seq]));

	// Nothing repeated.
	expect(delivered.length - new Set(delivered).size).toBe(0);
	// Nothing made up, nothing from before the activation.
	for (const text of delivered) expect(logged.get(text)).toBeGreaterThan(beforeActivation);

	// Nothing missed: every state that was current for the whole of some successful poll after the
	// activation (a poll can see it), including every order item's final state.
	const deliveredSet = new Set(delivered);
	const nextChange = new Map<number, number>(); // seq -> seq of the same item's next change
	const lastOf = new Map<number, Change>();
	for (const c of log) {
		const previous = lastOf.get(c.order_item_id);
		if (previous) nextChange.set(previous.seq, c.seq);
		lastOf.set(c.order_item_id, c);
	}
	// A state identical to one from before the activation, in the same second (A -> B -> A), is that
	// state again to anyone reading the list: history, not a change.
	const history = new Set(log.filter((c) => c.seq <= activated).map((c) => stateText(c.entry)));
	const missed = log.filter((c) => {
		if (c.seq <= activated || deliveredSet.has(stateText(c.entry)) || history.has(stateText(c.entry))) return false;
		const until = nextChange.get(c.seq) ?? Infinity;
		return polls.some((p) => p.ok && c.seq <= p.from && until > p.to);
	});
	expect(missed).toEqual([]);
	for (const c of lastOf.values()) {
		if (c.seq > activated && !history.has(stateText(c.entry))) expect(deliveredSet.has(stateText(c.entry))).toBe(true);
	}

	// The test did what it says.
	expect(polls).toHaveLength(POLLS);
	expect(failures).toBe(Math.floor((POLLS + 7) / 15));
	expect(restarts).toBe(Math.floor(POLLS / 20));
	expect(log.length - activated).toBeGreaterThan(POLLS * 6);
	const stats = await control('GET', '/stats');
	expect(stats.byCode).toMatchObject({ rate_limited: expect.any(Number), service_unavailable: expect.any(Number), dropped: expect.any(Number) });
	// Intermediate states overwritten between two polls cannot be seen by any poller; the rest were.
	expect(delivered.length).toBeGreaterThan((log.length - activated) * 0.5);
}
