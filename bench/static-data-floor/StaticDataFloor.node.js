'use strict';
// Bench only (`npm run bench:webhooks`, scenario `floor`), never published: the least a record of
// deliveries kept in a trigger's static data can cost n8n per request. n8n loads the node's whole
// static data for every request and saves it when changed; this trigger reads its two logs and
// writes, per log, one new string of the same size (the oldest key out, a new one in), and does
// nothing else: no signature, no look-up, no process memory. Beside our trigger with its full
// record in the same run, it shows what of the memory is n8n's and what is the record's own work.
const KEY_CHARS = 8;

class StaticDataFloor {
	constructor() {
		this.description = {
			displayName: 'Bench Static Data Floor',
			name: 'staticDataFloor',
			group: ['trigger'],
			version: 1,
			description: 'Saves a record-sized string per request (bench only)',
			defaults: { name: 'Static Data Floor' },
			inputs: [],
			outputs: ['main'],
			webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'floor' }],
			properties: [],
		};
	}

	async webhook() {
		const req = this.getRequestObject();
		await req.readRawBody();
		const payload = JSON.parse((req.rawBody ?? Buffer.alloc(0)).toString('utf8'));
		const data = this.getWorkflowStaticData('node');
		const key = `${Math.random().toString(36).slice(2)}00000000`.slice(0, KEY_CHARS);
		const next = {};
		for (const log of ['deliveries', 'signed']) {
			const stored = typeof data[log] === 'string' ? data[log] : '';
			next[log] = [stored.slice(KEY_CHARS), key].join('');
		}
		return {
			workflowData: [this.helpers.returnJsonArray([{ payload }])],
			// Assigned as n8n answers, as our trigger does: starting the run cleared n8n's mark of a change.
			get webhookResponse() {
				Object.assign(data, next);
				return { message: 'Workflow was started' };
			},
		};
	}
}

module.exports = { StaticDataFloor };
