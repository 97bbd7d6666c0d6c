// The webhook trigger's version 2: the order item at the top of the item, where the Orders Trigger
// puts it, whatever envelope the marketplace uses, with the delivery's facts beside it; and the
// stock changes Stock › Update made skipped on request, so a two-way sync does not loop. Real
// deliveries from the sandbox over loopback, and deliveries signed here for envelopes it never sends.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { eventRecord, markedRef } from '../../nodes/shared/helpers/events';
import { credentialsFor, runNode } from '../helpers/n8n';
import { outputSchemaFile, readSchema, schemaMismatches } from '../helpers/outputSchema';
import { PollHarness } from '../helpers/poll';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { postSigned, startTriggerServer, type TriggerServer } from '../helpers/triggerServer';

/** What version 2 puts beside the event's record. */
const DELIVERY_FIELDS = ['deliveryId', 'deliveryKey', 'sentAt', 'payload'];
const withoutDelivery = (json: IDataObject) => Object.fromEntries(Object.entries(json).filter(([key]) => !DELIVERY_FIELDS.includes(key)));

describe('Marketplace Partner Trigger, version 2', () => {
	let sb: RunningSandbox;
	let server: TriggerServer | undefined;
	const app = () => sb.apps['seller-a-full'];
	const creds = () => credentialsFor(sb.baseUrl, app());

	async function listen(parameters: IDataObject = { events: ['*'] }) {
		server = await startTriggerServer(creds(), parameters, undefined, undefined, undefined, undefined, 2);
		await sb.control('POST', `/apps/${app().clientId}/webhook`, { url: server.url, encoding: 'hex' });
		return server;
	}

	async function delivered(): Promise<number[]> {
		return (await sb.control('POST', '/deliveries/wait')).map((a: { statusCode: number }) => a.statusCode);
	}

	/** A delivery signed here, for envelopes the sandbox does not send. */
	const post = (payload: unknown, id: string) => postSigned(server!.url, JSON.stringify(payload), { secret: app().webhookSecret, id, event: null });

	beforeAll(async () => (sb = await startSandbox({ webhookMaxAttempts: 1 })));
	afterEach(async () => {
		await server?.close();
		server = undefined;
		await sb.control('POST', `/apps/${app().clientId}/webhook`, { url: null, encoding: 'hex' });
		await sb.control('POST', '/reset');
	});
	afterAll(() => sb.close());

	test('an order event gives the same item as the Orders Trigger for that order item, with the delivery beside it', async () => {
		const poller = new PollHarness({ events: ['order.created'] }, creds());
		await poller.activate();
		const s = await listen();
		const { order } = await sb.control('POST', '/orders', { clientId: app().clientId });
		expect(await delivered()).toEqual([200]);
		const polled = await poller.poll();
		expect(polled.error).toBeUndefined();
		const [item] = s.runs[0];
		expect(withoutDelivery(item.json)).toEqual(polled.items![0]);
		expect(item.json).toMatchObject({ event: 'order.created', order_item_id: order.order_item_id, deliveryId: expect.stringMatching(/^whd_/), deliveryKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
		expect(Math.abs(Date.parse(item.json.sentAt as string) - Date.now())).toBeLessThan(10_000);
		// The signed payload, whole, for what lies outside the order item (the event's own id and time).
		expect(item.json.payload).toMatchObject({ event: 'order.created', id: expect.any(String), data: polled.items![0] && expect.objectContaining({ order_item_id: order.order_item_id }) });
	});

	test("a credential Time Zone that names no zone: the delivery still starts its run, its datetimes as the marketplace wrote them", async () => {
		server = await startTriggerServer({ ...creds(), timeZone: 'Mars/Olympus' }, { events: ['*'] }, undefined, undefined, undefined, undefined, 2);
		const order = { order_item_id: 7, created_at: '2026-05-01 10:00:00', updated_at: '2026-05-01 11:00:00' };
		expect((await post({ event: 'order.created', data: order }, 'whd_zone')).status).toBe(200);
		expect(withoutDelivery(server.runs[0][0].json)).toEqual({ event: 'order.created', ...order });
		await server.close();
		server = await startTriggerServer({ ...creds(), timeZone: 'Europe/Istanbul' }, { events: ['*'] }, undefined, undefined, undefined, undefined, 2);
		expect((await post({ event: 'order.created', data: order }, 'whd_zone')).status).toBe(200);
		expect(server.runs[0][0].json).toMatchObject({ created_at_iso: '2026-05-01T10:00:00+03:00', updated_at_iso: '2026-05-01T11:00:00+03:00' });
	});

	test('deliveryKey is the SHA-256 of the signed bytes: the same for a copy under another delivery id, another for the same event signed afresh', async () => {
		const s = await listen({ events: ['*'], options: { allowDuplicates: true } });
		const body = JSON.stringify({ event: 'order.created', data: { order_item_id: 77 } });
		const send = async (id: string, ts: string) => expect((await postSigned(server!.url, body, { secret: app().webhookSecret, id, ts, event: null })).status).toBe(200);
		const now = Math.floor(Date.now() / 1000);
		await send('whd_a', String(now));
		await send('whd_b', String(now)); // a replay under a fresh id
		await send('whd_a', String(now - 1)); // the marketplace's retry, signed afresh
		const keys = s.runs.map((run) => run[0].json.deliveryKey);
		expect(keys[0]).toBe(createHash('sha256').update(`${now}.${body}`).digest('hex'));
		expect(keys[1]).toBe(keys[0]);
		expect(keys[2]).toBe(createHash('sha256').update(`${now - 1}.${body}`).digest('hex'));
		expect(s.runs.map((run) => run[0].json.deliveryId)).toEqual(['whd_a', 'whd_b', 'whd_a']);
	});

	test("every event's item fits the output schema n8n serves for version 2", async () => {
		const file = outputSchemaFile('nodes/MarketplacePartnerTrigger', 2);
		expect(file).toMatch(/__schema__\/v2\.0\.0\.json$/);
		const s = await listen({ events: ['*'], options: { includeHeaders: true } });
		const { order } = await sb.control('POST', '/orders', { clientId: app().clientId });
		await sb.control('POST', `/orders/${order.order_item_id}/status`, { status: 'shipped' });
		await sb.control('POST', `/orders/${order.order_item_id}/return`, { reason: 'damaged' });
		await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'stock.updated' });
		expect(await delivered()).toEqual([200, 200, 200, 200]);
		const items = s.runs.map((run) => run[0].json);
		expect(items.map((json) => json.event)).toEqual(['order.created', 'order.updated', 'return.requested', 'stock.updated']);
		expect(items.slice(0, 3).map((json) => json.order_item_id)).toEqual([order.order_item_id, order.order_item_id, order.order_item_id]);
		expect(items[1]).toMatchObject({ status: 'shipped', previous_status: 'accepted' });
		expect(items[3]).toMatchObject({ product_id: expect.any(Number), new_stock: expect.any(Number), external_ref: 'operator-test' });
		for (const json of items) expect(schemaMismatches(json, readSchema(file!))).toEqual([]);
	});

	test('whatever the envelope (data, flat, an order or order_item block, as the detail nests it), the order item comes to the top and nothing is lost', async () => {
		const s = await listen();
		const entry = { order_item_id: 4242, order_no: 'ORD-X-1', status: 'accepted', product: { product_id: 7, sku: 'S-7' } };
		const detail = { order: { order_item_id: 4242, order_no: 'ORD-X-1', status: 'accepted' }, product: { product_id: 7, sku: 'S-7' } };
		const forms: Array<[unknown, IDataObject]> = [
			[{ event: 'order.created', data: entry }, entry],
			[{ event: 'order.created', ...entry }, { ...entry, event: 'order.created' }],
			[{ event: 'order.created', data: detail }, { ...detail.order, product: detail.product }],
			[{ event: 'order.created', data: { order_item: entry, seller_id: 9 } }, { ...entry, seller_id: 9 }],
		];
		for (const [i, [payload]] of forms.entries()) expect(await post(payload, `whd_form_${i}`)).toEqual({ status: 200, text: '{"message":"Workflow was started"}' });
		expect(s.runs.map((run) => withoutDelivery(run[0].json))).toEqual(forms.map(([, record]) => ({ event: 'order.created', ...record })));
		expect(s.runs.map((run) => run[0].json.payload)).toEqual(forms.map(([payload]) => payload));
	});

	test('the record of any envelope: a nested order item rises to the top with all its fields and its siblings; other payloads stay as they are', () => {
		const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !['order_item_id', 'order', 'order_item', 'data', '__proto__'].includes(k));
		const fields = fc.dictionary(key, fc.jsonValue(), { maxKeys: 5 });
		fc.assert(
			fc.property(fc.integer({ min: 1 }), fields, fields, fc.constantFrom('data', 'flat', 'order', 'order_item'), (id, own, siblings, form) => {
				const orderItem = { ...own, order_item_id: id };
				const payload: IDataObject =
					form === 'flat' ? orderItem : form === 'data' ? { event: 'x', data: orderItem } : { event: 'x', data: { ...siblings, [form]: orderItem } };
				const record = eventRecord(payload);
				expect(record.order_item_id).toBe(id);
				for (const [name, value] of Object.entries(own)) if (!(form !== 'flat' && form !== 'data' && name in siblings)) expect(record[name]).toEqual(value);
				if (form === 'order' || form === 'order_item') for (const [name, value] of Object.entries(siblings)) expect(record[name]).toEqual(value);
			}),
		);
		// No order item anywhere (a stock change): the data as it is.
		expect(eventRecord({ event: 'stock.updated', data: { product_id: 1, order: 'n/a' } })).toEqual({ product_id: 1, order: 'n/a' });
		expect(eventRecord({ event: 'stock.updated', data: [1, 2] })).toEqual({ event: 'stock.updated', data: [1, 2] });
	});

	describe('a two-way stock sync (Stock › Update version 3 marks its changes; the trigger can skip them)', () => {
		const product = () =>
			[...(sb.raw.state.products as Map<number, { product_id: number; seller_id: number; variant_ids: number[]; stock: number }>).values()].find((p) => p.seller_id === app().sellerId && p.variant_ids.length === 0)!;
		const updateStock = (stock: number, ref?: string, typeVersion = 3) =>
			runNode({
				parameters: { resource: 'stock', operation: 'update', columns: { mappingMode: 'autoMapInputData', value: null } },
				items: [{ product_id: product().product_id, stock, ...(ref === undefined ? {} : { external_ref: ref }) }],
				credentials: creds(),
				typeVersion,
			});

		test('Stock › Update marks each change "n8n:", its own reference after it, never twice; version 2 sends references as they are', async () => {
			const runs = [await updateStock(11, 'ERP-1'), await updateStock(12), await updateStock(13, 'n8n:ERP-2'), await updateStock(14, 'ERP-3', 2)];
			expect(runs.map((r) => r.error)).toEqual([undefined, undefined, undefined, undefined]);
			expect(runs.map((r) => r.items[0].json.external_ref)).toEqual(['n8n:ERP-1', 'n8n:', 'n8n:ERP-2', 'ERP-3']);
			expect(['x', '', 'n8n:', 'n8n:y', 'N8N:z'].map((ref) => markedRef(ref))).toEqual(['n8n:x', 'n8n:', 'n8n:', 'n8n:y', 'n8n:N8N:z']);
			const unmarked = await runNode({
				parameters: { resource: 'stock', operation: 'update', markAsN8n: false, columns: { mappingMode: 'autoMapInputData', value: null } },
				items: [{ product_id: product().product_id, stock: 15, external_ref: 'ERP-4' }],
				credentials: creds(),
				typeVersion: 3,
			});
			expect(unmarked.items[0].json.external_ref).toBe('ERP-4');
		});

		test("with Skip Stock Updates Made by Workflows, n8n's own changes start no run; the marketplace's own, and others' events, still do", async () => {
			const s = await listen({ events: ['*'], options: { skipOwnStockUpdates: true } });
			await updateStock(21, 'sheet-row-2');
			await sb.control('POST', `/apps/${app().clientId}/test-event`, { event: 'stock.updated' }); // external_ref "operator-test"
			await updateStock(22, 'ERP-9', 2); // not marked
			expect(await delivered()).toEqual([200, 200, 200]);
			expect(s.answers.map((a) => a.body)).toEqual(['OK: a stock update made by n8n, skipped', expect.stringContaining('Workflow was started'), expect.stringContaining('Workflow was started')]);
			expect(s.runs.map((run) => [run[0].json.event, run[0].json.external_ref])).toEqual([
				['stock.updated', 'operator-test'],
				['stock.updated', 'ERP-9'],
			]);
		});

		test('without the option every stock change starts a run, marked ones too', async () => {
			const s = await listen({ events: ['stock.updated'] });
			await updateStock(31, 'sheet-row-3');
			expect(await delivered()).toEqual([200]);
			expect(s.runs.map((run) => run[0].json.external_ref)).toEqual(['n8n:sheet-row-3']);
		});
	});
});

// The webhook trigger's version 2 on envelopes the sandbox never sends: `data` that is null or text, and an
// order item at the top that also carries a nested `order`. Deliveries signed here, posted over
// loopback to the trigger's webhook() run through n8n-core's WebhookContext.
describe('Marketplace Partner Trigger, version 2, on unusual envelopes', () => {
	const SECRET = 'whs_test_envelopes';
	const credentials = credentialsFor('http://127.0.0.1:9/api/partner/v1', { clientId: 'cli_x', clientSecret: 'cs_x', webhookSecret: SECRET });

	let server: TriggerServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	/** The item of the run the delivery started, without the delivery's own fields. */
	async function itemOf(payload: IDataObject, id: string): Promise<IDataObject> {
		server = await startTriggerServer(credentials, { events: ['*'] }, undefined, undefined, undefined, undefined, 2);
		const answer = await postSigned(server.url, JSON.stringify(payload), { secret: SECRET, id, event: null });
		expect(answer.status).toBe(200);
		expect(server.runs).toHaveLength(1);
		const { deliveryId, deliveryKey, sentAt, payload: kept, ...record } = server.runs[0][0].json;
		expect({ deliveryId, kept }).toEqual({ deliveryId: id, kept: payload });
		expect([typeof deliveryKey, typeof sentAt]).toEqual(['string', 'string']);
		return record;
	}

	test('data that is null: the payload itself is the record, and the delivery starts its run', async () => {
		expect(await itemOf({ event: 'order.created', data: null, order: null }, 'whd_null_data')).toEqual({ event: 'order.created', data: null, order: null });
	});

	test('an order item at the top with a nested order of its own: the top one is the record, its nested order kept as it is', async () => {
		const data = { order_item_id: 1, status: 'accepted', order: { order_item_id: 2, status: 'shipped' } };
		expect(await itemOf({ event: 'order.updated', data }, 'whd_top_item')).toEqual({ event: 'order.updated', ...data });
	});

	test('data that is text: the payload itself is the record', async () => {
		expect(await itemOf({ event: 'order.created', data: 'order 5 created' }, 'whd_text_data')).toEqual({ event: 'order.created', data: 'order 5 created' });
	});

	test('an order item nested under order comes up with its siblings beside it, and the nesting key is gone', async () => {
		const payload = { event: 'order.updated', data: { order: { order_item_id: 3, status: 'shipped' }, note: 'from the sender' } };
		expect(await itemOf(payload, 'whd_nested_item')).toEqual({ event: 'order.updated', order_item_id: 3, status: 'shipped', note: 'from the sender' });
	});
});
