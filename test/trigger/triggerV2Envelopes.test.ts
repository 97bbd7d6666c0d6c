// The webhook trigger's version 2 on envelopes the sandbox never sends: `data` that is null or text, and an
// order item at the top that also carries a nested `order`. Deliveries signed here, posted over
// loopback to the trigger's webhook() run through n8n-core's WebhookContext.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor } from '../helpers/n8n';
import { postSigned, startTriggerServer, type TriggerServer } from '../helpers/triggerServer';

const SECRET = 'whs_test_envelopes';
const credentials = credentialsFor('http://127.0.0.1:9/api/partner/v1', { clientId: 'cli_x', clientSecret: 'cs_x', webhookSecret: SECRET });

describe('Marketplace Partner Trigger, version 2, on unusual envelopes', () => {
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
