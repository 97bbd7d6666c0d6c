/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// What an Orders Trigger poll tells the user besides its items. n8n has no execution hints for
// polls, so it goes to n8n's log (n8n-core's logger, recorded by test/setup-env.ts): a window read
// again after a restart, a list that kept moving, capped pages. Polls through n8n-core's poll
// executor against the sandbox.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor } from '../helpers/n8n';
import { logsSince, mark } from '../helpers/logs';
import { PollHarness } from '../helpers/poll';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

const NODE = 'Marketplace Partner Orders Trigger';

describe('the Orders Trigger tells what a poll met, in n8n\'s log', () => {
	let sb: RunningSandbox;
	const app = () => sb.apps['seller-a-full'];
	const harness = () =>
		new PollHarness({ events: ['order.created', 'order.updated'], options: { overlapSeconds: 1, skewSeconds: 0 } }, credentialsFor(sb.baseUrl, app()));
	const change = (changes: IDataObject) => sb.control('POST', '/changes', { clientId: app().clientId, changes });
	/**
	 * What the poll logged under the trigger's name. The recorder keeps a console line twice (the
	 * console call, and its write to the stream), so a line repeated right after itself counts once.
	 */
	const told = (since: number) =>
		logsSince(since)
			.split('\n')
			.filter((line) => line.includes(`${NODE}: `))
			.map((line) => line.slice(line.indexOf(`${NODE}: `) + NODE.length + 2))
			.filter((line, i, lines) => line !== lines[i - 1]);

	beforeAll(async () => {
		sb = await startSandbox({ orders: 300 });
	});
	afterEach(() => sb.control('POST', '/reset'));
	afterAll(() => sb.close());

	test('after a restart, the first poll says which window it read again and how many repeats it dropped; other polls say nothing', async () => {
		const h = harness();
		let logged = mark();
		await h.activate();
		await change({ newOrders: 2 });
		expect((await h.poll()).items).toHaveLength(2); // saved here
		expect((await h.poll()).items).toBeNull();
		expect(told(logged)).toEqual([]);

		await change({ statusChanges: 1 });
		// Where the saved state says the last poll stopped.
		const since = (h.saved[`node:${NODE}`] as IDataObject).since as string;
		const before = h.emitted.filter((e) => String(e.updated_at) > since);
		logged = mark();
		const restarted = await h.restart(); // static data back to the last save; the activation polls at once
		expect(restarted.items).toHaveLength(1);
		// The repeats: states emitted before, read again unchanged (an item the change moved on is new).
		const repeats = before.filter((e) => e.order_item_id !== restarted.items![0].order_item_id).length;
		expect(repeats).toBeGreaterThan(0);
		const [line, ...rest] = told(logged);
		expect(rest).toEqual([]);
		const said = new RegExp(
			`^First poll since n8n started or the workflow was published: read again the changes since ${since} \\((\\d+) s back\\), where the last poll stopped; ${repeats} already emitted before (${repeats === 1 ? 'was' : 'were'}) dropped\\.$`,
		).exec(line);
		expect(said).not.toBeNull();
		// How far back: from the saved start (the sandbox's datetimes are UTC) to now, give or take a second.
		const back = (Date.now() - Date.parse(`${since.replace(' ', 'T')}Z`)) / 1000;
		expect(Math.abs(Number(said![1]) - back)).toBeLessThanOrEqual(2);

		logged = mark();
		expect((await h.poll()).items).toBeNull();
		expect(told(logged)).toEqual([]);
	});

	test('pages the API capped are told', async () => {
		const h = harness();
		await h.activate();
		await sb.control('POST', '/style', { pageCap: 40 });
		await change({ newOrders: 90 });
		const logged = mark();
		expect((await h.poll()).items).toHaveLength(90);
		expect(told(logged)).toEqual([
			'The API returned at most 40 order items per page although asked for 100; the node read on page by page, so nothing was missed.',
		]);
	});

	test('a list that kept moving: the next poll reads the window again, and says so', async () => {
		await sb.control('POST', '/list-order', { order: 'updated_at_desc' });
		const h = harness();
		await h.activate();
		const since = h.state.since as string;
		await new Promise((r) => setTimeout(r, 2100)); // past the overlap: a settled read would move the window
		await change({ newOrders: 150 });
		await new Promise((r) => setTimeout(r, 1100)); // the next orders are a second newer: first in the list
		await sb.control('POST', '/churn', { clientId: app().clientId, pages: Array(8).fill({ newOrders: 1 }) });
		const logged = mark();
		expect((await h.poll()).error).toBeUndefined();
		expect(told(logged)).toEqual([
			`The orders list kept changing while it was read, so the next poll reads the changes since ${since} again; repeats are dropped.`,
		]);
	});
});
