// Issue 31's row: a list entry whose updated_at is "constructor" or "__proto__" made every poll
// from then on throw (`next[updatedAt].push is not a function`). Through n8n-core's poll executor,
// against a scripted API over loopback, across polls and a restart (static data saved as JSON).
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor } from '../helpers/n8n';
import { PollHarness } from '../helpers/poll';
import { clampingList, ok, startScriptedApi, type ScriptedApi } from '../helpers/scriptedApi';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

const entry = (order_item_id: unknown, updated_at: unknown, status = 'new'): IDataObject =>
	({ order_item_id, created_at: '2026-05-01 10:00:00', updated_at, status }) as IDataObject;
const page = (orders: IDataObject[]) => ok({ orders, pagination: { has_more: false } });

describe('Orders Trigger: entries whose updated_at or id is a name every object inherits', () => {
	let api: ScriptedApi | undefined;
	afterEach(async () => {
		await api?.close();
		api = undefined;
	});

	test('each is emitted once, later polls and a restart keep working, and a change of one is emitted as an update', async () => {
		const first = [
			...NAMES.map((name, i) => entry(1000 + i, name)),
			...NAMES.map((name) => entry(name, '2026-05-01 10:00:01')),
			entry(7, '2026-05-01 10:00:02'),
		];
		const changed = first.map((e) => (e.updated_at === 'constructor' || e.order_item_id === '__proto__' ? { ...e, status: 'accepted' } : e));
		// Activation, a poll, a restart's activation, then the list with two changes, twice.
		api = await startScriptedApi([page(first), page(first), page(first), page(changed), page(changed)]);
		const h = new PollHarness({ events: ['order.created', 'order.updated'], options: { startFrom: '2026-01-01T00:00:00Z' } }, credentialsFor(api.baseUrl, api.app));

		const activation = await h.activate();
		expect(activation.error).toBeUndefined();
		expect(activation.items!.map((i) => [i.order_item_id, i.updated_at])).toEqual(expect.arrayContaining(first.map((e) => [e.order_item_id, e.updated_at])));
		expect(activation.items).toHaveLength(first.length);
		// Unreadable as datetimes: kept under when they were first seen (for a day), not under their text.
		expect(Object.keys(h.state.seen as IDataObject).sort()).toEqual(['2026-05-01 10:00:01', '2026-05-01 10:00:02', expect.stringMatching(/^\?\d{10}$/)]);

		expect(await h.poll()).toEqual({ items: null, error: undefined });
		expect(await h.restart()).toEqual({ items: null, error: undefined });

		const update = await h.poll(); // in updated_at order, as the API's text sorts
		expect(update.error).toBeUndefined();
		expect(update.items!.map((i) => [i.event, i.order_item_id, i.updated_at, i.status])).toEqual([
			['order.updated', '__proto__', '2026-05-01 10:00:01', 'accepted'],
			['order.updated', 1000, 'constructor', 'accepted'],
		]);
		expect(await h.poll()).toEqual({ items: null, error: undefined });
		expect(api.requests).toHaveLength(5);
	});

	test('ids and datetimes that String() cannot write, and a field nested 100,000 deep: emitted once, later polls keep working', async () => {
		let deep: unknown = 'end';
		for (let i = 0; i < 100_000; i++) deep = [deep];
		const odd = [
			entry({ toString: 1 }, '2026-05-01 10:00:01'),
			entry(8, { valueOf: 1, toString: 'x' }),
			{ ...entry(9, '2026-05-01 10:00:02'), note: deep },
		];
		// The scripted API writes the body with JSON.stringify, which cannot write 100,000 levels: written here.
		const text = JSON.stringify(ok({ orders: odd.slice(0, 2), pagination: { has_more: false } }).body).replace(']', `,${JSON.stringify({ ...odd[2], note: 'DEEP' }).replace('"DEEP"', `${'['.repeat(100_000)}"end"${']'.repeat(100_000)}`)}]`);
		api = await startScriptedApi([{ status: 200, body: text }]);
		const h = new PollHarness({ events: ['order.created', 'order.updated'], options: { startFrom: '2026-01-01T00:00:00Z' } }, credentialsFor(api.baseUrl, api.app));
		const activation = await h.activate();
		expect(activation.error).toBeUndefined();
		expect(activation.items!.map((i) => i.order_item_id)).toEqual([8, { toString: 1 }, 9]); // in updated_at order, an object as its JSON
		expect(await h.poll()).toEqual({ items: null, error: undefined });
		expect(await h.restart()).toEqual({ items: null, error: undefined });
	});
});

describe('Orders Trigger: an API that clamps offset at its last page and says has_more forever', () => {
	test.each([
		['writing the clamped offset', true, 'The API answered offset 149 with the page at offset 100 (its pagination.offset)', [0, 99, 149]],
		['without pagination.offset', false, 'The API answered offset 247 with the same order items as offset 149', [0, 99, 149, 198, 247]],
	])('%s: the poll ends with an error naming the cause, at most three pages past the end, and emits nothing', async (_, writesOffset, message, offsets) => {
		const api = await startScriptedApi(clampingList(150, { writesOffset }));
		try {
			const h = new PollHarness({ events: ['order.created', 'order.updated'], options: { startFrom: '2026-01-01T00:00:00Z' } }, credentialsFor(api.baseUrl, api.app));
			const activation = await h.activate();
			expect(activation.items).toBeNull();
			expect(activation.error?.message).toBe(message);
			expect(api.requests.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('offset')))).toEqual(offsets);
			expect(h.emitted).toEqual([]);
		} finally {
			await api.close();
		}
	});
});

// The Orders Trigger's order.created against order.updated when a datetime cannot be read: an entry
// whose created_at is missing or unreadable, and a saved window start that is not a datetime (static
// data edited by hand, or written by something else). Through n8n-core's poll executor, against a
// scripted API over loopback.
describe('Orders Trigger: created or updated, when a datetime cannot be read', () => {
	const events = (items: IDataObject[] | null) => (items ?? []).map((item) => [item.order_item_id, item.event]);

	let api: ScriptedApi | undefined;
	afterEach(async () => {
		await api?.close();
		api = undefined;
	});

	test('an order item new to the trigger whose created_at is missing or unreadable is an update, not a creation', async () => {
		api = await startScriptedApi([
			page([
				{ order_item_id: 1, created_at: '2026-05-01 10:00:00', updated_at: '2026-05-01 10:00:00' },
				{ order_item_id: 2, updated_at: '2026-05-01 10:00:01' },
				{ order_item_id: 3, created_at: 'yesterday-ish', updated_at: '2026-05-01 10:00:02' },
				{ order_item_id: 4, created_at: null, updated_at: '2026-05-01 10:00:03' },
			]),
		]);
		const h = new PollHarness({ events: ['order.created', 'order.updated'], options: { startFrom: '2026-01-01T00:00:00Z' } }, credentialsFor(api.baseUrl, api.app));
		const { items, error } = await h.activate();
		expect(error).toBeUndefined();
		expect(events(items)).toEqual([
			[1, 'order.created'],
			[2, 'order.updated'],
			[3, 'order.updated'],
			[4, 'order.updated'],
		]);
	});

	test('a saved window start that is not a datetime: the poll still runs, and an order item created at a readable time is a creation', async () => {
		api = await startScriptedApi([page([{ order_item_id: 9, created_at: '2026-05-01 10:00:00', updated_at: '2026-05-01 10:00:00' }])]);
		const h = new PollHarness({ events: ['order.created', 'order.updated'], options: {} }, credentialsFor(api.baseUrl, api.app));
		// n8n keeps a node's static data under `node:<its name>`.
		h.saved = { [`node:${h.node.name}`]: { version: 1, since: 'not a datetime', seen: {} } };
		const { items, error } = await h.restart();
		expect(error).toBeUndefined();
		expect(events(items)).toEqual([[9, 'order.created']]);
		expect(new URL(api.requests[0].url, 'http://x').searchParams.get('updated_after')).toBe('not a datetime');
		// The window moves on from what the poll read: the next poll asks with a datetime again.
		expect(h.state.since).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
	});
});
