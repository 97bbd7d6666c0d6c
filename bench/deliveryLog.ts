/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm run bench:dedupe`: what the trigger's record of seen deliveries costs per delivery, empty
// and full (a full window: MAX_DELIVERY_IDS ids). n8n reads the workflow's static data from its
// database for every webhook request and writes it back when a new id was recorded: the bytes
// below are what crosses to the database each way; the time is this process's share (parse,
// check against both records and record in both, serialise), measured side by side. The database
// round trip comes on top.
import { randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { MAX_DELIVERY_IDS, seenBefore } from '../nodes/MarketplacePartner/helpers/deliveryLog';

const NODE_KEY = 'node:Order Created';
const newId = () => `whd_${randomBytes(12).toString('hex')}`;
/** A verified delivery of `id`: its signed bytes differ per id, as a real delivery's do. */
const delivery = (id: string) => ({ id, timestamp: String(Math.floor(Date.now() / 1000)), rawBody: Buffer.from(`{"id":"${id}"}`) });
const TOLERANCE_SECONDS = 300;

function stored(ids: number): string {
	const state: IDataObject = {};
	const now = Date.now();
	for (let i = 0; i < ids; i++) seenBefore([state], delivery(newId()), now - (ids - i) * 1000, TOLERANCE_SECONDS);
	return JSON.stringify({ [NODE_KEY]: state });
}

/** Median microseconds of one request's work on `json`: load, check a new id, save. */
function perDelivery(json: string, reps: number): number {
	const { deliveries: window, signed } = (JSON.parse(json) as Record<string, IDataObject>)[NODE_KEY];
	const times: number[] = [];
	for (let i = 0; i < reps; i++) {
		const memory: IDataObject = { deliveries: window, signed };
		const started = performance.now();
		const data = JSON.parse(json) as Record<string, IDataObject>;
		// The process's memory holds the same window (the node checks and writes both).
		seenBefore([data[NODE_KEY], memory], delivery(newId()), Date.now(), TOLERANCE_SECONDS);
		JSON.stringify(data);
		times.push((performance.now() - started) * 1000);
	}
	return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const rows = [1, MAX_DELIVERY_IDS / 10, MAX_DELIVERY_IDS].map((ids) => {
	const json = stored(ids);
	perDelivery(json, 20); // warm-up
	return { ids, bytes: Buffer.byteLength(json), micros: perDelivery(json, 200) };
});
const base = rows[0];
process.stdout.write('ids in window | static data bytes | per delivery (µs) | vs 1 id\n');
for (const r of rows) {
	process.stdout.write(`${String(r.ids).padStart(13)} | ${String(r.bytes).padStart(17)} | ${r.micros.toFixed(0).padStart(17)} | ${(r.micros / base.micros).toFixed(1)}x\n`);
}
process.stdout.write(`bytes per id: ${((rows[2].bytes - base.bytes) / (MAX_DELIVERY_IDS - 1)).toFixed(1)}\n`);
