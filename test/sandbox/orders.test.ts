// orders.php and order_detail.php of the sandbox, over real HTTP.
import { PartnerClient } from '../helpers/partnerClient';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

const API_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('sandbox orders', () => {
	let sb: RunningSandbox;
	let a: PartnerClient;
	let b: PartnerClient;

	beforeAll(async () => {
		sb = await startSandbox({ orders: 260 });
		const appA = sb.apps['seller-a-full'];
		const appB = sb.apps['seller-b-full'];
		a = new PartnerClient(sb.baseUrl, appA.clientId, appA.clientSecret);
		b = new PartnerClient(sb.baseUrl, appB.clientId, appB.clientSecret);
	});
	afterAll(async () => {
		await a.close();
		await b.close();
		await sb.close();
	});

	test('without limit a page has 50 entries of the spec shape', async () => {
		const res = await a.get('/orders.php');
		expect(res.status).toBe(200);
		const { orders, pagination } = res.json.data;
		expect(pagination).toEqual({ limit: 50, offset: 0, returned: 50, has_more: true });
		expect(orders).toHaveLength(50);
		const o = orders[0];
		expect(o).toEqual({
			order_item_id: expect.any(Number),
			order_no: expect.any(String),
			status: expect.any(String),
			payment_status: expect.any(String),
			currency: 'EUR',
			unit_price: expect.any(Number),
			quantity: expect.any(Number),
			created_at: expect.stringMatching(API_DATE),
			updated_at: expect.stringMatching(API_DATE),
			product: { product_id: expect.any(Number), title: expect.any(String), sku: expect.any(String) },
			customer: { city: expect.any(String), district: expect.any(String) },
		});
	});

	test.each(['0', '101', '-1', '5.5', 'abc'])('limit=%s is refused with invalid_parameter', async (limit) => {
		const res = await a.get(`/orders.php?limit=${limit}`);
		expect(res.status).toBe(400);
		expect(res.json.error).toMatchObject({ code: 'invalid_parameter', field: 'limit' });
	});

	test('walking every page at limit=100: no gap, no duplicate, returned and has_more right on each', async () => {
		const seen: number[] = [];
		let offset = 0;
		for (;;) {
			const res = await a.get(`/orders.php?limit=100&offset=${offset}`);
			const { orders, pagination } = res.json.data;
			expect(pagination.returned).toBe(orders.length);
			seen.push(...orders.map((o: { order_item_id: number }) => o.order_item_id));
			if (!pagination.has_more) break;
			expect(orders).toHaveLength(100);
			offset += 100;
		}
		expect(seen).toHaveLength(260);
		expect(new Set(seen).size).toBe(260);
		expect([...seen].sort((x, y) => x - y)).toEqual(seen); // stable ascending order
		const past = await a.get('/orders.php?limit=100&offset=1000');
		expect(past.json.data.pagination).toEqual({ limit: 100, offset: 1000, returned: 0, has_more: false });
	});

	test('a page ending exactly at the last item says has_more false', async () => {
		const res = await a.get('/orders.php?limit=60&offset=200');
		expect(res.json.data.pagination).toEqual({ limit: 60, offset: 200, returned: 60, has_more: false });
	});

	test('the status filter keeps only that status, across pages', async () => {
		const all = await a.get('/orders.php?limit=100&status=shipped');
		const shipped = all.json.data.orders;
		expect(shipped.length).toBeGreaterThan(0);
		expect(shipped.every((o: { status: string }) => o.status === 'shipped')).toBe(true);
		const none = await a.get('/orders.php?status=no_such_status');
		expect(none.json.data.orders).toEqual([]);
	});

	test('updated_after accepts the API form and ISO 8601, and means strictly after', async () => {
		const first = (await a.get('/orders.php?limit=100')).json.data.orders;
		const pivot: string = first[40].updated_at;
		const expected = sb.raw.state.ordersBySeller
			.get(1001)
			.filter((o: { updated_ms: number }) => o.updated_ms > Date.parse(`${pivot.replace(' ', 'T')}Z`)).length;
		const apiForm = await a.get(`/orders.php?limit=100&updated_after=${encodeURIComponent(pivot)}`);
		const isoForm = await a.get(`/orders.php?limit=100&updated_after=${encodeURIComponent(`${pivot.replace(' ', 'T')}Z`)}`);
		// The same moment written with a +02:00 offset.
		const shifted = new Date(Date.parse(`${pivot.replace(' ', 'T')}Z`) + 2 * 3600e3).toISOString().slice(0, 19);
		const offsetForm = await a.get(`/orders.php?limit=100&updated_after=${encodeURIComponent(`${shifted}+02:00`)}`);
		const ids = [apiForm, isoForm, offsetForm].map((r) => r.json.data.orders.map((o: { order_item_id: number }) => o.order_item_id));
		expect(ids[0].length).toBe(Math.min(expected, 100));
		expect(ids[1]).toEqual(ids[0]);
		expect(ids[2]).toEqual(ids[0]);
		for (const o of apiForm.json.data.orders) expect(o.updated_at > pivot).toBe(true);
	});

	test.each(['yesterday', '2026-13-01 00:00:00', '2026-02-30 10:00:00'])('updated_after=%s is refused', async (v) => {
		const res = await a.get(`/orders.php?updated_after=${encodeURIComponent(v)}`);
		expect(res.status).toBe(400);
		expect(res.json.error).toMatchObject({ code: 'invalid_parameter', field: 'updated_after' });
	});

	test('each seller sees only its own orders', async () => {
		const ids = (await b.get('/orders.php?limit=100')).json.data.orders.map((o: { order_no: string }) => o.order_no);
		expect(ids.length).toBeGreaterThan(0);
		expect(ids.every((n: string) => n.startsWith('ORD-B-'))).toBe(true);
	});

	test('order detail has the four blocks of the spec; tracking is null at label_ready', async () => {
		const list = (await a.get('/orders.php?limit=100&status=accepted')).json.data.orders;
		const res = await a.get(`/order_detail.php?order_item_id=${list[0].order_item_id}`);
		expect(res.status).toBe(200);
		const { order, product, customer, shipment } = res.json.data;
		expect(order).toMatchObject({ order_item_id: list[0].order_item_id, status: 'accepted', payment_status: 'paid' });
		expect(product).toMatchObject({ product_id: list[0].product.product_id, barcode: expect.stringMatching(/^\d{13}$/) });
		expect(customer).toEqual({ full_name: expect.any(String), city: expect.any(String), district: expect.any(String), address: expect.any(String) });
		expect(shipment).toEqual({ carrier_code: expect.any(String), shipment_ref: expect.any(String), tracking_number: null, status: 'label_ready' });
	});

	test('a variant product detail carries variant_combination_id and variant_summary', async () => {
		const order = [...sb.raw.state.orders.values()].find(
			(o: { seller_id: number; variant_combination_id: number | null }) => o.seller_id === 1001 && o.variant_combination_id,
		);
		const res = await a.get(`/order_detail.php?order_item_id=${order.order_item_id}`);
		expect(res.json.data.product).toMatchObject({
			variant_combination_id: order.variant_combination_id,
			variant_summary: expect.stringMatching(/^Size: /),
		});
	});

	test("another seller's order item is answered as order_not_found", async () => {
		const bItem = (await b.get('/orders.php?limit=1')).json.data.orders[0].order_item_id;
		const res = await a.get(`/order_detail.php?order_item_id=${bItem}`);
		expect(res.status).toBe(404);
		expect(res.json.error.code).toBe('order_not_found');
		expect((await a.get('/order_detail.php?order_item_id=999999999')).json.error.code).toBe('order_not_found');
	});

	test.each(['', '?order_item_id=', '?order_item_id=abc'])('order detail with %s is invalid_parameter', async (q) => {
		const res = await a.get(`/order_detail.php${q}`);
		expect(res.status).toBe(400);
		expect(res.json.error).toMatchObject({ code: 'invalid_parameter', field: 'order_item_id' });
	});
});

describe('sandbox seeding', () => {
	// Its own sandbox: seeding inside the test, so that the mutation run links the barcode code to it.
	test('every product in an order detail carries a valid EAN-13 barcode', async () => {
		const sb = await startSandbox({ seed: 11, orders: 40 });
		const a = sb.apps['seller-a-full'];
		const client = new PartnerClient(sb.baseUrl, a.clientId, a.clientSecret);
		try {
			const { orders } = (await client.get('/orders.php?limit=20')).json.data as { orders: Array<{ order_item_id: number }> };
			const barcodes = new Set<string>();
			for (const { order_item_id } of orders) {
				const { product } = (await client.get(`/order_detail.php?order_item_id=${order_item_id}`)).json.data;
				expect(product.barcode).toMatch(/^\d{13}$/);
				const digits = [...product.barcode].map(Number);
				// GS1: weights 1 and 3 from the left over the first 12 digits; the 13th makes the sum a multiple of 10.
				const sum = digits.slice(0, 12).reduce((acc, d, i) => acc + d * (i % 2 ? 3 : 1), 0);
				expect((sum + digits[12]) % 10).toBe(0);
				barcodes.add(product.barcode);
			}
			expect(barcodes.size).toBeGreaterThan(1);
		} finally {
			await client.close();
			await sb.close();
		}
	});

	test('seedUntilNow: the seeded order items span the 90 days up to now, so "since yesterday" finds some; by default they end on 1 June 2026', async () => {
		const now = await startSandbox({ seed: 5, orders: 1000, seedUntilNow: true });
		const fixed = await startSandbox({ seed: 5, orders: 1000 });
		try {
			const span = (sb: RunningSandbox) => {
				const orders: Array<{ created_ms: number; updated_ms: number }> = sb.raw.state.ordersBySeller.get(sb.apps['seller-a-full'].sellerId);
				return { first: Math.min(...orders.map((o) => o.created_ms)), last: Math.max(...orders.map((o) => o.updated_ms)), orders };
			};
			const started = Date.now();
			const { first, last, orders } = span(now);
			expect(last).toBeLessThanOrEqual(started);
			expect(started - last).toBeLessThan(3 * 86_400_000);
			expect(started - first).toBeGreaterThan(85 * 86_400_000);
			const yesterday = orders.filter((o) => o.updated_ms > started - 86_400_000).length;
			expect(yesterday).toBeGreaterThan(3);
			expect(span(fixed).last).toBeLessThanOrEqual(Date.UTC(2026, 5, 1));
			// Only the dates move: the same seed gives the same order items.
			expect(orders.length).toBe(span(fixed).orders.length);
		} finally {
			await Promise.all([now.close(), fixed.close()]);
		}
	});

	test('the same seed gives the same data and secrets; another seed does not', async () => {
		// secrets: undefined, the seeded ones (the test helper gives each sandbox its own otherwise).
		const one = await startSandbox({ seed: 42, orders: 30, secrets: undefined });
		const two = await startSandbox({ seed: 42, orders: 30, secrets: undefined });
		const three = await startSandbox({ seed: 43, orders: 30, secrets: undefined });
		try {
			const page = async (sb: RunningSandbox) => {
				const app = sb.apps['seller-a-full'];
				const c = new PartnerClient(sb.baseUrl, app.clientId, app.clientSecret);
				const res = await c.get('/orders.php?limit=100');
				await c.close();
				return res.json.data.orders;
			};
			expect(one.apps).toEqual(two.apps);
			expect(await page(one)).toEqual(await page(two));
			expect(one.apps['seller-a-full'].clientSecret).not.toBe(three.apps['seller-a-full'].clientSecret);
			expect(await page(one)).not.toEqual(await page(three));
		} finally {
			await Promise.all([one.close(), two.close(), three.close()]);
		}
	});

	test('100,000 order items of seller A are seeded and paged to the end', async () => {
		const sb = await startSandbox({ orders: 100_000 });
		const app = sb.apps['seller-a-full'];
		const c = new PartnerClient(sb.baseUrl, app.clientId, app.clientSecret);
		try {
			const last = await c.get('/orders.php?limit=100&offset=99950');
			expect(last.json.data.pagination).toEqual({ limit: 100, offset: 99950, returned: 50, has_more: false });
			const state = await sb.control('GET', '/state');
			expect(state.counts.ordersBySeller['1001']).toBe(100_000);
		} finally {
			await c.close();
			await sb.close();
		}
	});

	test('seeded orders: 70 % accepted, 15 % shipped, 10 % delivered, 5 % cancelled, each with its shipment and payment', async () => {
		const sb = await startSandbox({ seed: 7, orders: 2000 });
		const app = sb.apps['seller-a-full'];
		const c = new PartnerClient(sb.baseUrl, app.clientId, app.clientSecret);
		try {
			const share: Record<string, number> = {};
			const ids: Record<string, number> = {};
			for (let offset = 0; offset < 2000; offset += 100) {
				const { orders } = (await c.get(`/orders.php?limit=100&offset=${offset}`)).json.data as { orders: Array<{ order_item_id: number; status: string }> };
				for (const o of orders) {
					share[o.status] = (share[o.status] ?? 0) + 1 / 2000;
					ids[o.status] ??= o.order_item_id;
				}
			}
			expect(Object.keys(share).sort()).toEqual(['accepted', 'cancelled', 'delivered', 'shipped']);
			for (const [status, expected] of Object.entries({ accepted: 0.7, shipped: 0.15, delivered: 0.1, cancelled: 0.05 })) {
				expect(Math.abs(share[status] - expected)).toBeLessThan(0.03);
			}
			const detail = async (status: string) => (await c.get(`/order_detail.php?order_item_id=${ids[status]}`)).json.data;
			const shipment = { carrier_code: expect.stringMatching(/^(acme_express|swift_cargo|parcel_plus)$/), shipment_ref: expect.stringMatching(/^SHP-[0-9A-F]{8}$/) };
			const tracking = expect.stringMatching(/^TRK\d{9}$/);
			expect(await detail('accepted')).toMatchObject({ order: { payment_status: 'paid' }, shipment: { ...shipment, status: 'label_ready', tracking_number: null } });
			expect(await detail('shipped')).toMatchObject({ order: { payment_status: 'paid' }, shipment: { ...shipment, status: 'in_transit', tracking_number: tracking } });
			expect(await detail('delivered')).toMatchObject({ order: { payment_status: 'paid' }, shipment: { ...shipment, status: 'delivered', tracking_number: tracking } });
			expect(await detail('cancelled')).toMatchObject({ order: { payment_status: 'refunded' }, shipment: { ...shipment, status: 'cancelled', tracking_number: null } });
		} finally {
			await c.close();
			await sb.close();
		}
	});

	test('seeded as documented: seller B gets a tenth (at least 10), ids interleaved, 90 days before 2026-06-01, products with 2 to 4 variants', async () => {
		const sb = await startSandbox({ seed: 3, orders: 600, products: 300 });
		try {
			const ordersA: Array<{ order_item_id: number; created_ms: number }> = sb.raw.state.ordersBySeller.get(1001);
			const ordersB: Array<{ order_item_id: number; created_ms: number }> = sb.raw.state.ordersBySeller.get(1002);
			expect([ordersA.length, ordersB.length]).toEqual([600, 60]);
			const ids = [...ordersA, ...ordersB].map((o) => o.order_item_id).sort((x, y) => x - y);
			expect(ids).toEqual(Array.from({ length: 660 }, (_, i) => 500001 + i));
			// Interleaved: B's orders are spread over the whole id range, not bunched at one end.
			const bIds = ordersB.map((o) => o.order_item_id).sort((x, y) => x - y);
			expect(bIds[0]).toBeLessThan(500001 + 660 / 4);
			expect(bIds.at(-1)).toBeGreaterThan(500001 + (660 * 3) / 4);
			const anchor = Date.UTC(2026, 5, 1);
			const created = [...ordersA, ...ordersB].map((o) => sb.raw.state.orders.get(o.order_item_id).created_ms as number);
			expect(Math.min(...created)).toBeGreaterThanOrEqual(anchor - 90 * 86_400_000);
			expect(Math.min(...created)).toBeLessThan(anchor - 89 * 86_400_000);
			expect(Math.max(...created)).toBeLessThanOrEqual(anchor);
			expect(Math.max(...created)).toBeGreaterThan(anchor - 86_400_000);
			const products: Array<{ product_id: number; variant_combination_ids: number[]; sku: string }> = await sb.control('GET', '/products?sellerId=1001');
			const withVariants = products.filter((p) => p.variant_combination_ids.length > 0);
			expect(withVariants.length / products.length).toBeGreaterThan(0.15);
			expect(withVariants.length / products.length).toBeLessThan(0.45);
			for (const p of withVariants) expect(p.variant_combination_ids.length).toBeGreaterThanOrEqual(2);
			for (const p of withVariants) expect(p.variant_combination_ids.length).toBeLessThanOrEqual(4);
			const detail = await sb.control('GET', `/products/${withVariants[0].product_id}`);
			for (const v of detail.variants) expect(v.variant_summary).toMatch(/^Size: \S+, Colour: \S+$/);
			expect(new Set(withVariants.flatMap((p) => p.variant_combination_ids)).size).toBe(withVariants.flatMap((p) => p.variant_combination_ids).length);
			expect(await sb.control('GET', `/products?sku=${products[5].sku}`)).toEqual([expect.objectContaining({ product_id: products[5].product_id })]);
		} finally {
			await sb.close();
		}
	});
});
