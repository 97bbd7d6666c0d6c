// The Orders Trigger's order.created against order.updated when a datetime cannot be read: an entry
// whose created_at is missing or unreadable, and a saved window start that is not a datetime (static
// data edited by hand, or written by something else). Through n8n-core's poll executor, against a
// scripted API over loopback.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor } from '../helpers/n8n';
import { PollHarness } from '../helpers/poll';
import { ok, startScriptedApi, type ScriptedApi } from '../helpers/scriptedApi';

const page = (orders: IDataObject[]) => ok({ orders, pagination: { has_more: false } });
const events = (items: IDataObject[] | null) => (items ?? []).map((item) => [item.order_item_id, item.event]);

describe('Orders Trigger: created or updated, when a datetime cannot be read', () => {
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
