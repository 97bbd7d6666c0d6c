// The sandbox's list order switch, change log and changes armed while a client pages, over real HTTP.
import { PartnerClient } from '../helpers/partnerClient';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

type Entry = { order_item_id: number; updated_at: string; status: string };

describe('sandbox: list order and order changes', () => {
	let sb: RunningSandbox;
	let a: PartnerClient;

	const list = async (query: string) => {
		const res = await a.get(`/orders.php?${query}`);
		expect(res.status).toBe(200);
		return res.json.data as { orders: Entry[]; pagination: { has_more: boolean } };
	};

	beforeAll(async () => {
		sb = await startSandbox({ orders: 120 });
		const app = sb.apps['seller-a-full'];
		a = new PartnerClient(sb.baseUrl, app.clientId, app.clientSecret);
	});
	afterEach(() => sb.control('POST', '/reset'));
	afterAll(async () => {
		await a.close();
		await sb.close();
	});

	test('the default order is ascending order_item_id; the switch sorts by updated_at either way', async () => {
		expect(await sb.control('GET', '/list-order')).toEqual({ order: 'order_item_id' });
		const ids = (await list('limit=100')).orders.map((o) => o.order_item_id);
		expect(ids).toEqual([...ids].sort((x, y) => x - y));

		await sb.control('POST', '/list-order', { order: 'updated_at_asc' });
		const asc = (await list('limit=100')).orders.map((o) => o.updated_at);
		expect(asc).toEqual([...asc].sort());
		expect(new Set(asc).size).toBeGreaterThan(50);

		await sb.control('POST', '/list-order', { order: 'updated_at_desc' });
		const desc = (await list('limit=100')).orders.map((o) => o.updated_at);
		expect(desc).toEqual([...desc].sort().reverse());
		expect(desc[0] >= asc[asc.length - 1]).toBe(true);

		await expect(sb.control('POST', '/list-order', { order: 'random' })).rejects.toThrow(/order must be one of/);
		await sb.control('POST', '/reset');
		expect(await sb.control('GET', '/list-order')).toEqual({ order: 'order_item_id' });
	});

	test('every change is logged with the state it left; sameSecond changes carry the newest updated_at', async () => {
		const created = await sb.control('POST', '/orders', { clientId: sb.apps['seller-a-full'].clientId });
		await sb.control('POST', `/orders/${created.order.order_item_id}/status`, { status: 'shipped' });
		const made = await sb.control('POST', '/changes', { changes: { statusChanges: 2, newOrders: 1, sameSecond: 2 } });
		expect(made.orderItemIds).toHaveLength(5);
		const log = await sb.control('GET', '/changes');
		expect(log).toHaveLength(7);
		expect(log.map((c: { seq: number }) => c.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		expect(log[1]).toMatchObject({ order_item_id: created.order.order_item_id, entry: { status: 'shipped' } });
		// Each logged entry is what the list said at that moment.
		const newest = log.slice(0, 5).reduce((m: string, c: Entry) => (c.updated_at > m ? c.updated_at : m), '');
		for (const c of log.slice(5)) expect(c.updated_at).toBe(newest);
		expect(await sb.control('GET', '/changes?since=6')).toHaveLength(1);
		await expect(sb.control('POST', '/changes', { changes: { deletes: 1 } })).rejects.toThrow(/Unknown change/);
	});

	test('changes armed per page happen between the pages a client reads', async () => {
		await sb.control('POST', '/list-order', { order: 'updated_at_asc' });
		await sb.control('POST', '/churn', { pages: [{ statusChanges: 3 }, {}, { newOrders: 2, deactivateApp: true }] });
		const first = await list('limit=50&offset=0');
		expect(await sb.control('GET', '/changes')).toHaveLength(3); // after page 1 was built
		// The changed items moved to the end of the list: every later entry moved up a place or more.
		const second = await list('limit=50&offset=50');
		expect(first.orders.length + second.orders.length).toBe(100);
		const last = await list('limit=50&offset=100');
		const changed = [...new Set((await sb.control('GET', '/changes')).slice(0, 3).map((c: Entry) => c.order_item_id))].sort();
		expect(last.orders.slice(-changed.length).map((o) => o.order_item_id).sort()).toEqual(changed);
		expect((await sb.control('GET', '/changes')).length).toBe(5);
		const refused = await a.get('/orders.php?limit=1');
		expect(refused.json.error.code).toBe('client_inactive');
	});

	test('the shipment and payment follow the order status through its life', async () => {
		const id = (await list('limit=1&status=accepted')).orders[0].order_item_id;
		const detail = async (status: string) => {
			await sb.control('POST', `/orders/${id}/status`, { status });
			const res = await a.get(`/order_detail.php?order_item_id=${id}`);
			return res.json.data as { order: { status: string; payment_status: string }; shipment: Record<string, unknown> };
		};
		const shipped = await detail('shipped');
		expect(shipped.order).toMatchObject({ status: 'shipped', payment_status: 'paid' });
		expect(shipped.shipment).toMatchObject({ status: 'in_transit', tracking_number: expect.stringMatching(/^TRK\d{9}$/) });
		const delivered = await detail('delivered');
		// The same parcel: carrier, reference and tracking number are kept.
		expect(delivered.shipment).toEqual({ ...shipped.shipment, status: 'delivered' });
		const returned = await detail('returned');
		expect(returned.shipment).toEqual({ ...shipped.shipment, status: 'returned' });
		expect(returned.order.payment_status).toBe('paid');
		const cancelled = await detail('cancelled');
		expect(cancelled.shipment).toEqual({ ...shipped.shipment, status: 'cancelled' });
		expect(cancelled.order.payment_status).toBe('refunded');
	});
});
