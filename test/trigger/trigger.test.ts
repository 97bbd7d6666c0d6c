/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: test secrets of the sandbox, never real ones; n8n-node lint applies its node rules to every .ts file */
// The trigger's webhook(), fed real deliveries from the sandbox's own webhook sender over loopback.
import { sleep, type IDataObject } from 'n8n-workflow';
import { request } from 'undici';
import { entriesIn, idDigest, recordOf } from '../../nodes/MarketplacePartnerTrigger/deliveryLog';
import { CREDENTIAL_REFRESH_MS } from '../../nodes/MarketplacePartnerTrigger/recentCredentials';
import { logsSince, mark } from '../helpers/logs';
import { outputSchemaFile, readSchema, schemaMismatches } from '../helpers/outputSchema';
import { credentialsFor } from '../helpers/n8n';
import { PartnerClient } from '../helpers/partnerClient';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { postSigned, startTriggerServer, type TriggerServer } from '../helpers/triggerServer';

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
	const post = (body: string, options: Omit<Parameters<typeof postSigned>[2], 'secret'> & { secret?: string } = {}) =>
		postSigned(server!.url, body, { secret: app().webhookSecret, ...options });

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

	test('its items fit the output schema n8n serves for the node (with Include Headers too)', async () => {
		const file = outputSchemaFile('nodes/MarketplacePartnerTrigger');
		expect(file).toMatch(/nodes\/MarketplacePartnerTrigger\/__schema__\/v1\.0\.0\.json$/);
		const s = await listen(creds(), { events: ['*'], options: { includeHeaders: true } });
		await sb.control('POST', '/orders', { clientId: app().clientId });
		expect(await delivered()).toEqual([200]);
		expect(s.runs[0][0].json.headers).toBeDefined();
		expect(schemaMismatches(s.runs[0][0].json, readSchema(file!))).toEqual([]);
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
		// Answered once, by the node, which tells n8n not to answer again.
		expect(s.answers.map((a) => a.status)).toEqual([401]);
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

	describe('the credential, read once for deliveries seconds apart (n8n 2.x builds an expression isolate for each read)', () => {
		/** The sandbox app's credential, counting n8n's reads of it (each read copies it, so reads its secret). */
		const counted = (extra: IDataObject = {}) => {
			const credentials = creds(extra);
			let secret = credentials.webhookSecret;
			let reads = 0;
			Object.defineProperty(credentials, 'webhookSecret', { enumerable: true, get: () => (reads++, secret), set: (value) => (secret = value) });
			return { credentials, reads: () => reads };
		};
		const order = (id: string) => `{"event":"order.created","data":{"order_ref":"${id}"}}`;

		test('three deliveries, one read; after the 5 s window, read again', async () => {
			const { credentials, reads } = counted();
			const s = await listen(credentials);
			for (const id of ['whd_reuse_1', 'whd_reuse_2', 'whd_reuse_3']) expect((await post(order(id), { id })).status).toBe(200);
			expect(reads()).toBe(1);
			await sleep(5100);
			expect((await post(order('whd_reuse_4'), { id: 'whd_reuse_4' })).status).toBe(200);
			expect(reads()).toBe(2);
			expect(s.runs).toHaveLength(4);
		}, 15_000);

		test('a secret or Header Prefix changed in the credential verifies from its first delivery; the replaced secret stops at once', async () => {
			const { credentials, reads } = counted();
			const s = await listen(credentials);
			expect((await post(order('whd_edit_1'), { id: 'whd_edit_1' })).status).toBe(200);
			credentials.webhookSecret = 'whs_edited_in_n8n';
			// The copy reused refuses it, a fresh read verifies it.
			expect((await post(order('whd_edit_2'), { id: 'whd_edit_2', secret: 'whs_edited_in_n8n' })).status).toBe(200);
			expect(reads()).toBe(2);
			expect(await post(order('whd_edit_3'), { id: 'whd_edit_3' })).toEqual({ status: 401, text: 'Unauthorized: invalid webhook signature' });
			await sleep(CREDENTIAL_REFRESH_MS); // whd_edit_3 asked for a fresh read too: they are granted once a second
			credentials.headerPrefix = 'X-ACME-';
			expect((await post(order('whd_edit_4'), { id: 'whd_edit_4', secret: 'whs_edited_in_n8n', prefix: 'x-acme-' })).status).toBe(200);
			expect(s.runs.map((run) => run[0].json.webhookId)).toEqual(['whd_edit_1', 'whd_edit_2', 'whd_edit_4']);
		});

		// Issue #43: each request a reused copy refused had the credential read afresh, so junk cost a read (and on n8n 2.x an expression isolate) each.
		test('100 requests without the webhook headers and 100 with a malformed timestamp read the credential once; an edit still verifies from its first delivery', async () => {
			const { credentials, reads } = counted();
			const s = await listen(credentials);
			for (let n = 0; n < 100; n++) {
				const res = await request(s.url, { method: 'POST', body: order(`junk_${n}`), headers: { 'content-type': 'application/json' } });
				expect({ status: res.statusCode, text: await res.body.text() }).toEqual({ status: 401, text: 'Unauthorized: missing webhook signature headers' });
			}
			expect(reads()).toBe(1);
			const now = String(Math.floor(Date.now() / 1000));
			const malformed = [`${now}\u00a0`, `\u00a0${now}`, `+${now}`, `${now}.5`, 'soon'];
			for (let n = 0; n < 100; n++) {
				const id = `whd_malformed_${n}`;
				expect(await post(order(id), { id, ts: now, sentTs: malformed[n % malformed.length] })).toEqual({ status: 401, text: 'Unauthorized: invalid webhook timestamp' });
			}
			expect(reads()).toBe(1);
			credentials.webhookSecret = 'whs_edited_in_n8n';
			expect((await post(order('whd_after_junk'), { id: 'whd_after_junk', secret: 'whs_edited_in_n8n' })).status).toBe(200);
			expect(reads()).toBe(2);
			expect(s.runs).toHaveLength(1);
		}, 15_000);

		test('100 requests that look signed but are not cost at most one fresh read a second', async () => {
			const { credentials, reads } = counted();
			const s = await listen(credentials);
			const started = Date.now();
			for (let n = 0; n < 100; n++) {
				const id = `whd_guessed_${n}`;
				expect((await post(order(id), { id, secret: 'whs_guessed' })).status).toBe(401);
			}
			// The first read, the first fresh one, then one a second.
			expect(reads()).toBeLessThanOrEqual(2 + Math.floor((Date.now() - started) / CREDENTIAL_REFRESH_MS));
			expect(s.runs).toHaveLength(0);
		}, 15_000);

		test('a previous secret taken out of the credential verifies for at most 5 s more', async () => {
			const { credentials } = counted({ webhookSecret: 'whs_after_rotation', previousWebhookSecret: app().webhookSecret });
			const s = await listen(credentials);
			expect((await post(order('whd_prev_1'), { id: 'whd_prev_1' })).status).toBe(200);
			delete credentials.previousWebhookSecret;
			expect((await post(order('whd_prev_2'), { id: 'whd_prev_2' })).status).toBe(200);
			await sleep(5100);
			expect((await post(order('whd_prev_3'), { id: 'whd_prev_3' })).status).toBe(401);
			expect((await post(order('whd_prev_4'), { id: 'whd_prev_4', secret: 'whs_after_rotation' })).status).toBe(200);
			expect(s.runs).toHaveLength(3);
		}, 15_000);
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

	test('a validly signed body that is JSON but not an object (null, an array, a string, a number) is answered 400 and starts nothing', async () => {
		const s = await listen();
		for (const [n, body] of ['null', '[{"event":"order.created"}]', '"order.created"', '5'].entries()) {
			expect(await post(body, { id: `whd_not_object_${n}` })).toEqual({ status: 400, text: 'Bad Request: the webhook body is not a JSON object' });
		}
		expect(s.runs).toHaveLength(0);
	});

	test('a multipart body (whose bytes n8n has parsed away) is refused 415 and starts nothing', async () => {
		const s = await listen();
		const res = await post('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n', { contentType: 'multipart/form-data; boundary=x' });
		expect(res).toEqual({ status: 415, text: 'Unsupported Media Type: a multipart body cannot be verified; the marketplace sends JSON' });
		expect(s.runs).toHaveLength(0);
	});

	test('a delivery that cannot be checked (no credential) is answered 500 by the node itself: n8n would start a run for a thrown error', async () => {
		const s = (server = await startTriggerServer(undefined as never));
		const before = mark();
		const res = await post('{"event":"order.created"}', { id: 'whd_no_credential' });
		expect(res).toEqual({ status: 500, text: 'Internal Server Error: the delivery could not be checked and was not accepted' });
		expect(s.runs).toHaveLength(0);
		// Answered once, by the node: n8n was told not to answer.
		expect(s.answers).toEqual([{ status: 500, body: 'Internal Server Error: the delivery could not be checked and was not accepted' }]);
		expect(logsSince(before)).toMatch(/Marketplace Partner Trigger: a delivery could not be checked: \S/);
	});

	test('a signed delivery without a Content-Type is read raw and verified; a type that only mentions multipart is not multipart', async () => {
		const s = await listen();
		expect((await post('{"event":"order.created","n":1}', { id: 'whd_no_type', contentType: null })).status).toBe(200);
		expect((await post('{"event":"order.created","n":2}', { id: 'whd_json_profile', contentType: 'application/json; profile="multipart/mixed"' })).status).toBe(200);
		expect(s.runs.map((r) => r[0].json.webhookId)).toEqual(['whd_no_type', 'whd_json_profile']);
	});

	test('a credential without the Webhook Secret fields (saved before they existed) refuses every delivery', async () => {
		const withoutSecret = creds();
		delete withoutSecret.webhookSecret;
		const s = await listen(withoutSecret);
		const res = await post('{"event":"order.created"}', { id: 'whd_no_secret_field' });
		expect(res.status).toBe(401);
		expect(res.text).toMatch(/Webhook Secret of the n8n credential is empty/);
		expect(s.runs).toHaveLength(0);
	});

	test('an accepted delivery is answered as n8n answers its own triggers', async () => {
		const s = await listen();
		expect(await post('{"event":"order.created"}', { id: 'whd_answer' })).toEqual({ status: 200, text: '{"message":"Workflow was started"}' });
		expect(s.runs).toHaveLength(1);
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

	// n8n 2.x answers after starting the run, which clears the static data's changed mark; 1.x before.
	test.each([2, 1] as const)('the record of seen deliveries lives in the static data n8n stores: shared by processes, kept across restarts (n8n %i.x)', async (n8nLine) => {
		const store = { json: '{}' };
		const workflowId = `wf-shared-${n8nLine}`;
		const first = await startTriggerServer(creds(), { events: ['*'] }, store, workflowId, n8nLine);
		const second = await startTriggerServer(creds(), { events: ['*'] }, store, workflowId, n8nLine);
		server = first;
		await post('{"n":3}', { id: 'whd_shared' });
		server = second; // the load balancer sends the retry to the other process
		expect(await post('{"n":3}', { id: 'whd_shared' })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		await first.close();
		await second.close();
		server = await startTriggerServer(creds(), { events: ['*'] }, store, workflowId, n8nLine); // a restart
		expect(await post('{"n":3}', { id: 'whd_shared' })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		expect((await post('{"n":4}', { id: 'whd_new' })).status).toBe(200);
		expect(first.runs.length + second.runs.length + server.runs.length).toBe(2);
		const stored = JSON.parse(store.json)['node:Marketplace Partner Trigger'].deliveries;
		expect(entriesIn(recordOf(stored)).map(([key]) => key)).toEqual([idDigest('whd_shared'), idDigest('whd_new')]);
	});

	test('a delivery whose run n8n failed to queue is not taken as seen: its retry runs, on this process and, after its next save, on another', async () => {
		const store = { json: '{}' };
		const workflowId = 'wf-queue-fails';
		const first = await startTriggerServer(creds(), { events: ['*'] }, store, workflowId);
		const second = await startTriggerServer(creds(), { events: ['*'] }, store, workflowId);
		server = first;
		first.failNextRuns = 1;
		expect((await post('{"n":"lost"}', { id: 'whd_not_queued' })).status).toBe(500);
		expect((await post('{"n":"next"}', { id: 'whd_next' })).status).toBe(200); // saves this process's record
		server = second;
		expect((await post('{"n":"lost"}', { id: 'whd_not_queued', ts: String(Math.floor(Date.now() / 1000) - 1) })).status).toBe(200);
		server = first;
		expect(await post('{"n":"lost"}', { id: 'whd_not_queued', ts: String(Math.floor(Date.now() / 1000) - 2) })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		expect([...first.runs, ...second.runs].map((r) => r[0].json.webhookId)).toEqual(['whd_next', 'whd_not_queued']);
		await second.close();
		server = first;
		first.failNextRuns = 1;
		expect((await post('{"n":"again"}', { id: 'whd_retried_here' })).status).toBe(500);
		expect((await post('{"n":"again"}', { id: 'whd_retried_here', ts: String(Math.floor(Date.now() / 1000) - 1) })).status).toBe(200);
		expect(first.runs.map((r) => r[0].json.webhookId)).toEqual(['whd_next', 'whd_retried_here']);
	});

	test('two different deliveries queued at the same time are both accepted: only copies of one are held back', async () => {
		const s = await listen();
		s.queueDelayMs = 300;
		const ts = String(Math.floor(Date.now() / 1000));
		const [a, b] = await Promise.all([post('{"event":"order.created","n":"a"}', { id: 'whd_a', ts }), post('{"event":"order.created","n":"b"}', { id: 'whd_b', ts })]);
		expect([a.status, b.status]).toEqual([200, 200]);
		expect(s.runs.map((r) => r[0].json.webhookId).sort()).toEqual(['whd_a', 'whd_b']);
	});

	test("another process's save can overwrite the stored record (last writer wins): this process still knows what it accepted", async () => {
		const store = { json: '{}' };
		const workflowId = 'wf-overwritten';
		const first = await startTriggerServer(creds(), { events: ['*'] }, store, workflowId);
		const second = await startTriggerServer(creds(), { events: ['*'] }, store, workflowId);
		// The second process reads the stored record, then takes its time to queue its run ...
		second.queueDelayMs = 400;
		server = second;
		const slow = post('{"event":"order.created","n":"b"}', { id: 'whd_b_slow' });
		await sleep(100);
		// ... while the first accepts a delivery and saves it; the second's save then overwrites it.
		server = first;
		expect((await post('{"event":"order.created","n":"a"}', { id: 'whd_a_saved' })).status).toBe(200);
		expect((await slow).status).toBe(200);
		expect(entriesIn(recordOf(JSON.parse(store.json)['node:Marketplace Partner Trigger'].deliveries)).map(([key]) => key)).not.toContain(idDigest('whd_a_saved'));
		// The marketplace's retry of the first delivery, to the first process: its memory has it.
		expect(await post('{"event":"order.created","n":"a"}', { id: 'whd_a_saved', ts: String(Math.floor(Date.now() / 1000) - 1) })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		expect([...first.runs, ...second.runs].map((r) => r[0].json.webhookId).sort()).toEqual(['whd_a_saved', 'whd_b_slow']);
		await second.close();
		server = first;
	});

	test('a copy arriving while this process still queues the first is told to come back (409), and is a duplicate then', async () => {
		const s = await listen();
		s.queueDelayMs = 300;
		const ts = String(Math.floor(Date.now() / 1000));
		const body = '{"event":"order.created","n":"twice"}';
		const [a, b] = await Promise.all([post(body, { id: 'whd_same_time', ts }), post(body, { id: 'whd_same_time', ts })]);
		expect([a.status, b.status].sort()).toEqual([200, 409]);
		expect([a, b].find((r) => r.status === 409)?.text).toBe('Conflict: this delivery is being accepted right now; send it again later');
		expect(await post(body, { id: 'whd_same_time', ts })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		expect(s.runs).toHaveLength(1);
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

	test('a correctly signed delivery outside the timestamp tolerance is answered 401 and starts nothing', async () => {
		const s = await listen();
		const now = Math.floor(Date.now() / 1000);
		for (const [id, ts] of [['whd_old', now - 600], ['whd_ahead', now + 600]] as const) {
			expect(await post('{"event":"order.created"}', { id, ts: String(ts) })).toEqual({
				status: 401,
				text: 'Unauthorized: webhook timestamp outside the tolerance',
			});
		}
		expect(s.runs).toHaveLength(0);
	});

	test('the Timestamp Tolerance option widens and narrows what is fresh', async () => {
		const now = Math.floor(Date.now() / 1000);
		const wide = await listen(creds(), { events: ['*'], options: { toleranceSeconds: 900 } });
		expect((await post('{"n":1}', { id: 'whd_wide', ts: String(now - 600) })).status).toBe(200);
		expect(wide.runs).toHaveLength(1);
		await wide.close();
		const narrow = await listen(creds(), { events: ['*'], options: { toleranceSeconds: 30 } });
		expect((await post('{"n":2}', { id: 'whd_narrow', ts: String(now - 60) })).status).toBe(401);
		expect((await post('{"n":3}', { id: 'whd_narrow_fresh', ts: String(now - 5) })).status).toBe(200);
		expect(narrow.runs).toHaveLength(1);
	});

	test('the item carries the delivery timestamp as sent, in seconds and ISO; a timestamp in milliseconds is read as such', async () => {
		const s = await listen();
		const seconds = Math.floor(Date.now() / 1000) - 7;
		await post('{"n":1}', { id: 'whd_s', ts: String(seconds) });
		await post('{"n":2}', { id: 'whd_ms', ts: String(seconds * 1000 + 123) });
		expect(s.runs.map((r) => [r[0].json.timestamp, r[0].json.timestampIso])).toEqual([
			[seconds, new Date(seconds * 1000).toISOString()],
			[seconds, new Date(seconds * 1000).toISOString()],
		]);
	});

	test('the current secret emptied with the previous one left in: nothing verifies, neither an empty key nor the previous secret (issue #51: the credential says none are accepted without a Webhook Secret)', async () => {
		const s = await listen(creds({ webhookSecret: '', previousWebhookSecret: app().webhookSecret }));
		const empty = 'Unauthorized: the Webhook Secret of the n8n credential is empty; set it to verify webhooks';
		expect(await post('{"n":1}', { id: 'whd_empty_key', secret: '' })).toEqual({ status: 401, text: empty });
		expect(await post('{"n":2}', { id: 'whd_previous' })).toEqual({ status: 401, text: empty });
		expect(s.runs).toEqual([]);
	});

	test('with no previous secret, a delivery signed with an empty key does not pass', async () => {
		const s = await listen(creds({ previousWebhookSecret: '' }));
		expect(await post('{"n":1}', { id: 'whd_empty_key_2', secret: '' })).toEqual({ status: 401, text: 'Unauthorized: invalid webhook signature' });
		expect(s.runs).toHaveLength(0);
	});

	test('the event is the signed payload\'s; a header that contradicts it is refused 400 and starts nothing; a payload without one takes the header', async () => {
		const s = await listen(creds(), { events: ['order.created'] });
		// The header is not signed: a signed order.updated relabelled order.created must not pass as one.
		expect(await post('{"event":"order.updated","n":1}', { id: 'whd_h', event: 'order.created' })).toEqual({
			status: 400,
			text: 'Bad Request: the webhook event header contradicts the event of the signed body',
		});
		expect(await post('{"event":"order.updated","n":2}', { id: 'whd_p1', event: 'order.updated' })).toEqual({ status: 200, text: 'OK: event not selected' });
		expect(await post('{"event":"order.updated","n":3}', { id: 'whd_p2', event: null })).toEqual({ status: 200, text: 'OK: event not selected' });
		expect((await post('{"event":"order.created","n":4}', { id: 'whd_p3', event: ' order.created ' })).status).toBe(200);
		expect((await post('{"n":5}', { id: 'whd_p4', event: 'order.created' })).status).toBe(200);
		expect(await post('{"event":7}', { id: 'whd_p5', event: null })).toEqual({ status: 200, text: 'OK: event not selected' });
		expect(s.runs.map((r) => [r[0].json.webhookId, r[0].json.event])).toEqual([
			['whd_p3', 'order.created'],
			['whd_p4', 'order.created'],
		]);
	});

	test('a captured delivery re-sent within the tolerance under fresh ids is a duplicate: one run, nothing recorded', async () => {
		const s = await listen();
		const ts = String(Math.floor(Date.now() / 1000));
		const body = '{"event":"order.created","data":{"order_item_id":1}}';
		expect((await post(body, { id: 'whd_genuine', ts })).status).toBe(200);
		const saves = s.staticDataSaves;
		for (const id of ['whd_forged_1', 'whd_forged_2', 'whd_forged_3']) {
			expect(await post(body, { id, ts })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		}
		expect(s.runs).toHaveLength(1);
		expect(s.staticDataSaves).toBe(saves);
		// The marketplace's own retry, signed afresh (another timestamp) under the same id, is one too.
		expect(await post(body, { id: 'whd_genuine', ts: String(Number(ts) - 1) })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		expect(s.runs).toHaveLength(1);
	});

	// Issue #43: the check trimmed U+00A0 and accepted, the keys took it as sent (new signed bytes), the
	// output's date was NaN: answered 500, with a key saved for every form.
	test('a captured delivery re-sent with byte 0xA0 around its timestamp or id is refused 401 and saves nothing; selected or not, its forms grow the record by it once', async () => {
		const store = { json: '{}' };
		const s = (server = await startTriggerServer(creds(), { events: ['order.created'] }, store));
		const ts = String(Math.floor(Date.now() / 1000));
		const sizes = () => {
			const stored = JSON.parse(store.json)['node:Marketplace Partner Trigger'] as IDataObject;
			return [stored.deliveries, stored.signed].map((log) => entriesIn(recordOf(log)).length);
		};
		const cases = [
			['whd_selected', '{"event":"order.created","n":1}', '{"message":"Workflow was started"}'],
			['whd_unselected', '{"event":"stock.updated","n":2}', 'OK: event not selected'],
		];
		for (const [[id, body, answer], recordedSoFar] of cases.map((c, i) => [c, i + 1] as const)) {
			expect(await post(body, { id, ts, event: null })).toEqual({ status: 200, text: answer });
			const saved = { saves: s.staticDataSaves, json: store.json };
			for (const [n, sentTs] of [`${ts}\u00a0`, `\u00a0${ts}`, `${ts}\u00a0\u00a0`, `${ts} \u00a0`].entries()) {
				expect(await post(body, { id: `${id}_form_${n}`, ts, sentTs, event: null })).toEqual({ status: 401, text: 'Unauthorized: invalid webhook timestamp' });
			}
			expect(await post(body, { id: `${id}\u00a0`, ts, event: null })).toEqual({ status: 401, text: 'Unauthorized: invalid webhook id' });
			for (let n = 0; n < 20; n++) expect(await post(body, { id: `${id}_copy_${n}`, ts, event: null })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
			expect({ saves: s.staticDataSaves, json: store.json }).toEqual(saved);
			expect(sizes()).toEqual([recordedSoFar, recordedSoFar]);
		}
		expect(s.runs.map((r) => r[0].json.webhookId)).toEqual(['whd_selected']);
	});

	test('a delivery that was not selected is recorded too: re-sent under a selected event header it starts nothing', async () => {
		const s = await listen(creds(), { events: ['order.created'] });
		const ts = String(Math.floor(Date.now() / 1000));
		const body = '{"data":{"product_id":1,"stock":0}}'; // a payload that names no event
		expect(await post(body, { id: 'whd_stock', event: 'stock.updated', ts })).toEqual({ status: 200, text: 'OK: event not selected' });
		expect(await post(body, { id: 'whd_relabelled', event: 'order.created', ts })).toEqual({ status: 200, text: 'OK: duplicate delivery' });
		expect(s.runs).toHaveLength(0);
	});

	test("the credential's Header Prefix names the webhook headers too; an empty one means X-SVC-", async () => {
		const shop = await listen(creds({ headerPrefix: 'X-Shop-' }));
		expect((await post('{"n":1}', { id: 'whd_shop', prefix: 'x-shop-' })).status).toBe(200);
		expect((await post('{"n":2}', { id: 'whd_svc' })).status).toBe(401);
		expect(shop.runs).toHaveLength(1);
		await shop.close();
		const fallback = await listen(creds({ headerPrefix: '' }));
		expect((await post('{"n":3}', { id: 'whd_default' })).status).toBe(200);
		expect(fallback.runs).toHaveLength(1);
	});

	test('verification is over the bytes received, not the JSON n8n parsed from them', async () => {
		const s = await listen();
		// Spaces, key order and an escaped character: re-serialising the parsed body changes all three.
		const body = '{ "b": 1,\n  "a": "\\u0130stanbul" }';
		expect((await post(body, { id: 'whd_raw' })).status).toBe(200);
		expect(s.runs[0][0].json.payload).toEqual({ b: 1, a: 'İstanbul' });
	});

	test('what a refused sender is told: not JSON, not selected', async () => {
		const s = await listen(creds(), { events: ['order.updated'] });
		expect(await post('not json', { id: 'whd_text' })).toEqual({ status: 400, text: 'Bad Request: the webhook body is not valid JSON' });
		expect(await post('{}', { id: 'whd_unselected', event: 'order.created' })).toEqual({ status: 200, text: 'OK: event not selected' });
		expect(s.runs).toHaveLength(0);
	});

	test('with All Events, a delivery that names no event runs with an empty event', async () => {
		const s = await listen();
		await post('{"data":{}}', { id: 'whd_no_event', event: null });
		await post('{"event":7}', { id: 'whd_number_event', event: null });
		expect(s.runs.map((r) => r[0].json.event)).toEqual(['', '']);
	});

	test('activation and deactivation need no call to the marketplace: n8n is told they succeeded', async () => {
		const { MarketplacePartnerTrigger } = await import('../../nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node');
		const hooks = new MarketplacePartnerTrigger().webhookMethods.default;
		const context = {} as never;
		expect([await hooks.checkExists.call(context), await hooks.create.call(context), await hooks.delete.call(context)]).toEqual([true, true, true]);
	});
});

// The webhook trigger's reads of its credential when a delivery is refused, and what Skip Stock
// Updates Made by Workflows leaves alone: deliveries signed here, posted over loopback to the
// trigger's webhook() run through n8n-core's WebhookContext (test/helpers/triggerServer.ts).
describe('Marketplace Partner Trigger: credential reads and skipped deliveries', () => {
	const WEBHOOK_SECRET = 'whs_test_credential_reads';

	/** A credential that counts n8n's reads of it (each read copies it, so reads its secret). */
	function countedCredential() {
		const credentials = credentialsFor('http://127.0.0.1:9/api/partner/v1', { clientId: 'cli_x', clientSecret: 'cs_x', webhookSecret: WEBHOOK_SECRET });
		let reads = 0;
		Object.defineProperty(credentials, 'webhookSecret', { enumerable: true, get: () => (reads++, WEBHOOK_SECRET) });
		return { credentials, reads: () => reads };
	}

	let server: TriggerServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	test('a delivery refused by a credential read just now is not read again for it: one read, answered 401', async () => {
		const { credentials, reads } = countedCredential();
		server = await startTriggerServer(credentials, { events: ['*'] });
		const refused = await postSigned(server.url, '{"event":"order.created","data":{"order_item_id":1}}', { secret: 'whs_guessed', id: 'whd_reads_1' });
		expect(refused).toEqual({ status: 401, text: 'Unauthorized: invalid webhook signature' });
		expect(reads()).toBe(1);
		// The copy held now is reused, and its refusal is what asks for one fresh read.
		expect((await postSigned(server.url, '{"event":"order.created","data":{"order_item_id":2}}', { secret: 'whs_guessed', id: 'whd_reads_2' })).status).toBe(401);
		expect(reads()).toBe(2);
		expect(server.runs).toHaveLength(0);
	});

	test('Skip Stock Updates Made by Workflows skips only stock.updated: an order event whose record carries the n8n mark still starts a run', async () => {
		const { credentials } = countedCredential();
		server = await startTriggerServer(credentials, { events: ['*'], options: { skipOwnStockUpdates: true } }, undefined, undefined, undefined, undefined, 2);
		const payload: IDataObject = { event: 'order.updated', data: { order_item_id: 7, status: 'shipped', external_ref: 'n8n:sheet-row-7' } };
		const answer = await postSigned(server.url, JSON.stringify(payload), { secret: WEBHOOK_SECRET, id: 'whd_marked_order', event: null });
		expect(answer.status).toBe(200);
		expect(answer.text).not.toBe('OK: a stock update made by n8n, skipped');
		expect(server.runs.map((run) => [run[0].json.event, run[0].json.order_item_id, run[0].json.external_ref])).toEqual([['order.updated', 7, 'n8n:sheet-row-7']]);
	});
});
