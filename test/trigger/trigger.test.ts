// The trigger's webhook(), fed real deliveries from the sandbox's own webhook sender over loopback.
import { createHmac } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';
import { credentialsFor } from '../helpers/n8n';
import { PartnerClient } from '../helpers/partnerClient';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { startTriggerServer, type TriggerServer } from '../helpers/triggerServer';

describe('Marketplace Partner Trigger', () => {
	let sb: RunningSandbox;
	let server: TriggerServer | undefined;
	const app = () => sb.apps['seller-a-full'];
	const creds = (extra = {}) => credentialsFor(sb.baseUrl, app(), extra);

	async function listen(credentials = creds(), parameters: IDataObject = { events: ['*'] }) {
		server = await startTriggerServer(credentials, parameters);
		await sb.control('POST', `/apps/${app().clientId}/webhook`, { url: server.url, encoding: 'hex' });
		return server;
	}

	/** Waits until the sandbox has finished delivering, then returns the attempts' statuses. */
	async function delivered(): Promise<number[]> {
		const attempts = await sb.control('POST', '/deliveries/wait');
		return attempts.map((a: { statusCode: number }) => a.statusCode);
	}

	/** Posts a delivery signed here with bare crypto, to shape cases the sandbox does not send. */
	async function post(
		body: string,
		{ secret = app().webhookSecret, id = 'whd_manual_1', event = 'order.created', contentType = 'application/json', omit = '' } = {},
	) {
		const ts = String(Math.floor(Date.now() / 1000));
		const signature = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
		const headers: Record<string, string> = {
			'content-type': contentType,
			'x-svc-webhook-id': id,
			'x-svc-webhook-timestamp': ts,
			'x-svc-webhook-signature': signature,
			'x-svc-webhook-event': event,
		};
		delete headers[omit];
		const res = await request(server!.url, { method: 'POST', body, headers });
		return { status: res.statusCode, text: await res.body.text() };
	}

	beforeAll(async () => {
		sb = await startSandbox({ webhookMaxAttempts: 1 });
	});
	afterEach(async () => {
		await server?.close();
		server = undefined;
		await sb.control('POST', `/apps/${app().clientId}/webhook`, { url: null, encoding: 'hex' });
		await sb.control('POST', '/reset');
	});
	afterAll(() => sb.close());

	test('order.created: one item with the event, delivery id, timestamps and the parsed payload', async () => {
		const s = await listen();
		const created = await sb.control('POST', '/orders', { clientId: app().clientId, quantity: 3 });
		expect(await delivered()).toEqual([200]);
		expect(s.runs).toHaveLength(1);
		const [item] = s.runs[0];
		const [attempt] = await sb.control('GET', '/deliveries');
		expect(item.json).toEqual({
			event: 'order.created',
			webhookId: attempt.deliveryId,
			timestamp: expect.any(Number),
			timestampIso: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
			payload: expect.objectContaining({ event: 'order.created', data: expect.objectContaining({ order_item_id: created.order.order_item_id, quantity: 3 }) }),
		});
		expect(Math.abs((item.json.timestamp as number) - Date.now() / 1000)).toBeLessThan(10);
	});

	test('order.updated, stock.updated and return.requested each produce their item', async () => {
		const s = await listen();
		const created = await sb.control('POST', '/orders', { clientId: app().clientId });
		await sb.control('POST', `/orders/${created.order.order_item_id}/status`, { status: 'shipped' });
		await sb.control('POST', `/orders/${created.order.order_item_id}/return`, { reason: 'damaged' });
		const product = (await sb.control('GET', '/products?sellerId=1001')).find((p: { variant_combination_ids: number[] }) => !p.variant_combination_ids.length);
		const client = new PartnerClient(sb.baseUrl, app().clientId, app().clientSecret);
		await client.post('/stock_update.php', { product_id: product.product_id, stock: 5 });
		await client.close();
		expect(await delivered()).toEqual([200, 200, 200, 200]);
		const events = s.runs.map((run) => run[0].json.event).sort();
		expect(events).toEqual(['order.created', 'order.updated', 'return.requested', 'stock.updated']);
		const stock = s.runs.find((run) => run[0].json.event === 'stock.updated')![0].json.payload as { data: { new_stock: number } };
		expect(stock.data.new_stock).toBe(5);
	});

	test("the operator's test event, signed in base64, is accepted", async () => {
		const s = await listen();
		await sb.control('POST', `/apps/${app().clientId}/webhook`, { encoding: 'base64' });
		await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'return.requested' });
		expect(await delivered()).toEqual([200]);
		expect(s.runs[0][0].json).toMatchObject({ event: 'return.requested', payload: { test: true } });
	});

	test.each(['body', 'signature', 'timestamp'])('a delivery tampered in its %s is answered 401 and starts nothing', async (tamper) => {
		const s = await listen();
		await sb.control('POST', `/apps/${app().clientId}/test-event`, { tamper });
		expect(await delivered()).toEqual([401]);
		expect(s.runs).toHaveLength(0);
		expect(s.answers[0].body).toMatch(/^Unauthorized: /);
	});

	test('a wrong Webhook Secret in the credential refuses genuine deliveries', async () => {
		const s = await listen(creds({ webhookSecret: 'whs_not_the_right_one' }));
		await sb.control('POST', `/apps/${app().clientId}/test-event`, {});
		expect(await delivered()).toEqual([401]);
		expect(s.runs).toHaveLength(0);
	});

	test('an empty Webhook Secret refuses everything and says the secret must be set', async () => {
		const s = await listen(creds({ webhookSecret: '' }));
		const res = await post('{"event":"order.created"}', { secret: '' });
		expect(res.status).toBe(401);
		expect(res.text).toMatch(/Webhook Secret of the n8n credential is empty/);
		expect(s.runs).toHaveLength(0);
	});

	test('during a rotation the previous secret is still accepted', async () => {
		const s = await listen(creds({ webhookSecret: 'whs_the_new_secret', previousWebhookSecret: app().webhookSecret }));
		await sb.control('POST', `/apps/${app().clientId}/test-event`, {});
		expect(await delivered()).toEqual([200]);
		expect(s.runs).toHaveLength(1);
	});

	test('each signature header alone is required: a signed delivery without it is answered 401', async () => {
		const s = await listen();
		for (const header of ['x-svc-webhook-id', 'x-svc-webhook-timestamp', 'x-svc-webhook-signature']) {
			expect(await post('{"event":"order.created"}', { id: `whd_without_${header}`, omit: header })).toEqual({
				status: 401,
				text: 'Unauthorized: missing webhook signature headers',
			});
		}
		expect(s.runs).toHaveLength(0);
		// The same delivery with every header passes: only the missing header was wrong.
		expect((await post('{"event":"order.created"}', { id: 'whd_complete' })).status).toBe(200);
		expect(s.runs).toHaveLength(1);
	});

	test('an event that is not selected is acknowledged with 200 and starts nothing', async () => {
		const s = await listen(creds(), { events: ['order.created'] });
		await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'stock.updated' });
		await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'order.created' });
		expect(await delivered()).toEqual([200, 200]);
		expect(s.runs.map((r) => r[0].json.event)).toEqual(['order.created']);
	});

	test('a validly signed body that is not JSON is answered 400', async () => {
		const s = await listen();
		const res = await post('this is not json');
		expect(res.status).toBe(400);
		expect(s.runs).toHaveLength(0);
	});

	test('a body of another content type is read raw and verified all the same', async () => {
		const s = await listen();
		const res = await post('{"event":"order.created","data":{}}', { contentType: 'application/octet-stream' });
		expect(res.status).toBe(200);
		expect(s.runs).toHaveLength(1);
	});

	test('a re-sent delivery (same webhook id) is dropped by default, let through when allowed', async () => {
		const s = await listen();
		expect((await post('{"n":1}', { id: 'whd_same' })).status).toBe(200);
		const again = await post('{"n":1}', { id: 'whd_same' });
		expect(again).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		expect(s.runs).toHaveLength(1);
		await s.close();

		const allowing = await listen(creds(), { events: ['*'], options: { allowDuplicates: true } });
		await post('{"n":1}', { id: 'whd_same_2' });
		await post('{"n":1}', { id: 'whd_same_2' });
		expect(allowing.runs).toHaveLength(2);
	});

	test('the record of seen deliveries lives in the static data n8n stores: shared by processes, kept across restarts', async () => {
		const store = { json: '{}' };
		const workflowId = 'wf-shared';
		const first = await startTriggerServer(creds(), { events: ['*'] }, store, workflowId);
		const second = await startTriggerServer(creds(), { events: ['*'] }, store, workflowId);
		server = first;
		await post('{"n":3}', { id: 'whd_shared' });
		server = second; // the load balancer sends the retry to the other process
		expect(await post('{"n":3}', { id: 'whd_shared' })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		await first.close();
		await second.close();
		server = await startTriggerServer(creds(), { events: ['*'] }, store, workflowId); // a restart
		expect(await post('{"n":3}', { id: 'whd_shared' })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		expect((await post('{"n":4}', { id: 'whd_new' })).status).toBe(200);
		expect(first.runs.length + second.runs.length + server.runs.length).toBe(2);
		expect(JSON.parse(store.json)['node:Marketplace Partner Trigger'].deliveries.map(([id]: [string]) => id)).toEqual(['whd_shared', 'whd_new']);
	});

	test('only a new delivery changes the static data: n8n writes nothing back for a dropped one', async () => {
		const s = await listen();
		await post('{"n":5}', { id: 'whd_once' });
		await post('{"n":5}', { id: 'whd_once' });
		expect(s.staticDataSaves).toBe(1);
		await s.close();
		const allowing = await startTriggerServer(creds(), { events: ['*'], options: { allowDuplicates: true } }, { json: '{}' });
		server = allowing;
		await post('{"n":5}', { id: 'whd_allowed' });
		expect(allowing.staticDataSaves).toBe(0);
		expect(allowing.runs).toHaveLength(1);
	});

	test('headers are added on request, without the signature', async () => {
		const s = await listen(creds(), { events: ['*'], options: { includeHeaders: true } });
		await post('{"n":2}');
		const headers = s.runs[0][0].json.headers as Record<string, string>;
		expect(headers['x-svc-webhook-id']).toBe('whd_manual_1');
		expect(headers['x-svc-webhook-signature']).toBeUndefined();
	});
});
