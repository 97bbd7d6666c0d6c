/* eslint-disable @typescript-eslint/no-explicit-any, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Webhook deliveries of the sandbox, received and verified by a plain test server with bare crypto.
import { createHmac } from 'node:crypto';
import { PartnerClient } from '../helpers/partnerClient';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

const expected = (secret: string, ts: string, body: Buffer, enc: 'hex' | 'base64' = 'hex') =>
	createHmac('sha256', secret).update(`${ts}.`).update(body).digest(enc);

describe('sandbox webhooks', () => {
	let sb: RunningSandbox;
	let receiver: Receiver;
	let a: PartnerClient;
	const app = () => sb.apps['seller-a-full'];

	beforeAll(async () => {
		sb = await startSandbox({ webhookRetryBaseMs: 20, webhookMaxAttempts: 3 });
		a = new PartnerClient(sb.baseUrl, app().clientId, app().clientSecret);
	});
	beforeEach(async () => {
		receiver = await startReceiver();
		await sb.control('POST', `/apps/${app().clientId}/webhook`, { url: receiver.url, encoding: 'hex' });
	});
	afterEach(() => receiver.close());
	afterAll(async () => {
		await a.close();
		await sb.close();
	});

	function verify(r: { headers: Record<string, any>; rawBody: Buffer }, enc: 'hex' | 'base64' = 'hex') {
		const ts = r.headers['x-svc-webhook-timestamp'];
		expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(10);
		expect(r.headers['x-svc-webhook-signature']).toBe(expected(app().webhookSecret, ts, r.rawBody, enc));
		expect(r.headers['x-svc-webhook-id']).toMatch(/^whd_[0-9a-f]{24}$/);
		return JSON.parse(r.rawBody.toString('utf8'));
	}

	test('creating an order delivers a signed order.created with the order item', async () => {
		const created = await sb.control('POST', '/orders', { clientId: app().clientId, quantity: 2 });
		const [r] = await receiver.waitFor(1);
		expect(r.headers['x-svc-webhook-event']).toBe('order.created');
		expect(r.headers['content-type']).toBe('application/json');
		const payload = verify(r);
		expect(payload).toMatchObject({
			id: expect.stringMatching(/^evt_/),
			event: 'order.created',
			test: false,
			data: { order_item_id: created.order.order_item_id, quantity: 2, status: 'accepted' },
		});
	});

	test('a status change delivers order.updated with previous_status', async () => {
		const created = await sb.control('POST', '/orders', { clientId: app().clientId });
		await sb.control('POST', `/orders/${created.order.order_item_id}/status`, { status: 'shipped' });
		const received = await receiver.waitFor(2);
		const updated = received.find((x) => x.headers['x-svc-webhook-event'] === 'order.updated')!;
		expect(verify(updated).data).toMatchObject({ order_item_id: created.order.order_item_id, status: 'shipped', previous_status: 'accepted' });
	});

	test('every successful stock update delivers stock.updated; a refused one does not', async () => {
		const product = (await sb.control('GET', '/products?sellerId=1001')).find(
			(p: { variant_combination_ids: number[] }) => !p.variant_combination_ids.length,
		);
		await a.post('/stock_update.php', { product_id: product.product_id, stock: 33, external_ref: 'r-1' });
		await a.post('/stock_update.php', { product_id: product.product_id, stock: -3 });
		const [r] = await receiver.waitFor(1);
		await sb.raw.webhooks.idle();
		expect(receiver.received).toHaveLength(1);
		expect(verify(r).data).toMatchObject({ product_id: product.product_id, new_stock: 33, external_ref: 'r-1' });
	});

	test('a return request delivers return.requested', async () => {
		const created = await sb.control('POST', '/orders', { clientId: app().clientId });
		await sb.control('POST', `/orders/${created.order.order_item_id}/return`, { reason: 'damaged' });
		const received = await receiver.waitFor(2);
		const ret = received.find((x) => x.headers['x-svc-webhook-event'] === 'return.requested')!;
		expect(verify(ret).data).toMatchObject({ order_item_id: created.order.order_item_id, reason: 'damaged' });
	});

	test('the operator test event is marked test: true; base64 encoding is selectable', async () => {
		await sb.control('POST', `/apps/${app().clientId}/webhook`, { encoding: 'base64' });
		await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'stock.updated' });
		const [r] = await receiver.waitFor(1);
		expect(verify(r, 'base64')).toMatchObject({ event: 'stock.updated', test: true });
	});

	test('a test event can go to another URL than the registered one (the trigger\'s test URL), signed the same way', async () => {
		const other = await startReceiver();
		try {
			await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'order.created', url: other.url });
			const [r] = await other.waitFor(1);
			expect(verify(r)).toMatchObject({ event: 'order.created', test: true });
			await sb.raw.webhooks.idle();
			expect(receiver.received).toHaveLength(0);
			await expect(sb.control('POST', `/apps/${app().clientId}/test-event`, { url: 'not-a-url' })).rejects.toThrow('url must be an http(s) URL');
		} finally {
			await other.close();
		}
	});

	test('failed deliveries are retried with backoff, keep their id, and every attempt is listed', async () => {
		receiver.respond = () => 500;
		const { deliveryId } = await sb.control('POST', `/apps/${app().clientId}/test-event`, {});
		await receiver.waitFor(3);
		await sb.control('POST', '/deliveries/wait');
		const attempts = await sb.control('GET', `/deliveries?deliveryId=${deliveryId}`);
		expect(attempts.map((x: { attempt: number; statusCode: number }) => [x.attempt, x.statusCode])).toEqual([
			[1, 500],
			[2, 500],
			[3, 500],
		]);
		expect(new Set(receiver.received.map((x) => x.headers['x-svc-webhook-id']))).toEqual(new Set([deliveryId]));
		// Each attempt is signed afresh and still verifies.
		for (const x of receiver.received) verify(x);
	});

	test('a resend repeats the delivery (same id and body, signed afresh) to the URL given', async () => {
		const { deliveryId } = await sb.control('POST', `/apps/${app().clientId}/test-event`, {});
		const [first] = await receiver.waitFor(1);
		const other = await startReceiver();
		await sb.control('POST', `/deliveries/${deliveryId}/resend`, { url: other.url });
		const [again] = await other.waitFor(1);
		expect(again.headers['x-svc-webhook-id']).toBe(deliveryId);
		expect(again.rawBody.equals(first.rawBody)).toBe(true);
		verify(again);
		await sb.control('POST', '/deliveries/wait');
		const attempts = await sb.control('GET', `/deliveries?deliveryId=${deliveryId}`);
		expect(attempts.map((x: { url: string; resend: boolean }) => [x.url, x.resend])).toEqual([
			[receiver.url, false],
			[other.url, true],
		]);
		await other.close();
		await expect(sb.control('POST', '/deliveries/whd_unknown/resend', {})).rejects.toThrow(/404 No delivery whd_unknown/);
	});

	test.each([
		[2, 2],
		[Infinity, 6],
	])('with concurrency %s, at most %i attempts are in flight at once; the others wait, retries included, and all arrive', async (concurrency, most) => {
		const sender = sb.raw.webhooks;
		const before = sender.concurrency;
		sender.concurrency = concurrency;
		let inFlight = 0;
		let peak = 0;
		let calls = 0;
		const slow = await startReceiver((_req, res) => {
			inFlight++;
			peak = Math.max(peak, inFlight);
			const status = ++calls === 1 ? 503 : 200; // the first is retried, and waits its turn again
			setTimeout(() => {
				inFlight--;
				res.writeHead(status).end();
			}, 60);
		});
		try {
			for (let i = 0; i < 6; i++) sender.send(app(), 'order.created', { n: i }, { url: slow.url });
			await sender.idle();
			expect(peak).toBe(most);
			expect(slow.received).toHaveLength(7);
			expect(sender.inFlight).toBe(0);
			// Signed when sent: a waiting attempt's timestamp is not older than its turn.
			for (const x of slow.received) verify(x);
		} finally {
			sender.concurrency = before;
			await slow.close();
		}
	});

	test('a delivery that succeeds on a retry stops retrying', async () => {
		let calls = 0;
		receiver.respond = () => (++calls === 1 ? 503 : 204);
		const { deliveryId } = await sb.control('POST', `/apps/${app().clientId}/test-event`, {});
		await sb.control('POST', '/deliveries/wait');
		const attempts = await sb.control('GET', `/deliveries?deliveryId=${deliveryId}`);
		expect(attempts.map((x: { statusCode: number }) => x.statusCode)).toEqual([503, 204]);
	});

	test.each(['body', 'signature', 'timestamp'])('a delivery tampered in its %s fails verification and is sent once', async (tamper) => {
		receiver.respond = () => 401;
		await sb.control('POST', `/apps/${app().clientId}/test-event`, { tamper });
		const [r] = await receiver.waitFor(1);
		await sb.control('POST', '/deliveries/wait');
		const ts = String(r.headers['x-svc-webhook-timestamp']);
		const valid = r.headers['x-svc-webhook-signature'] === expected(app().webhookSecret, ts, r.rawBody);
		const fresh = Math.abs(Number(ts) - Date.now() / 1000) <= 300;
		expect(valid && fresh).toBe(false);
		expect(receiver.received).toHaveLength(1);
	});

	test('apps of the other seller, or without a webhook URL, receive nothing', async () => {
		const b = sb.apps['seller-b-full'];
		const other = await startReceiver();
		await sb.control('POST', `/apps/${b.clientId}/webhook`, { url: other.url });
		await sb.control('POST', '/orders', { clientId: app().clientId });
		await receiver.waitFor(1);
		await sb.raw.webhooks.idle();
		expect(other.received).toHaveLength(0);
		await sb.control('POST', `/apps/${b.clientId}/webhook`, { url: null });
		await other.close();
	});

	test('a reset forgets recorded deliveries', async () => {
		await sb.control('POST', `/apps/${app().clientId}/test-event`, {});
		await sb.control('POST', '/deliveries/wait');
		expect((await sb.control('GET', '/deliveries')).length).toBeGreaterThan(0);
		await sb.control('POST', '/reset');
		expect(await sb.control('GET', '/deliveries')).toEqual([]);
	});
});
