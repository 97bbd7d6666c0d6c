// The webhook trigger's reads of its credential when a delivery is refused, and what Skip Stock
// Updates Made by Workflows leaves alone: deliveries signed here, posted over loopback to the
// trigger's webhook() run through n8n-core's WebhookContext (test/helpers/triggerServer.ts).
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor } from '../helpers/n8n';
import { postSigned, startTriggerServer, type TriggerServer } from '../helpers/triggerServer';

const WEBHOOK_SECRET = 'whs_test_credential_reads';

/** A credential that counts n8n's reads of it (each read copies it, so reads its secret). */
function countedCredential() {
	const credentials = credentialsFor('http://127.0.0.1:9/api/partner/v1', { clientId: 'cli_x', clientSecret: 'cs_x', webhookSecret: WEBHOOK_SECRET });
	let reads = 0;
	Object.defineProperty(credentials, 'webhookSecret', { enumerable: true, get: () => (reads++, WEBHOOK_SECRET) });
	return { credentials, reads: () => reads };
}

describe('Marketplace Partner Trigger: credential reads and skipped deliveries', () => {
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
