/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm run bench:dedupe`: what the trigger's record of seen deliveries costs per delivery, empty
// and full (a full window: MAX_DELIVERY_IDS ids). n8n reads the workflow's static data from its
// database for every webhook request and writes it back when a new id was recorded: the bytes
// below are what crosses to the database each way; the time is this process's share (parse,
// check against both records and record in both, serialise), measured side by side, with the
// records alike and, as under load, apart by a few recent keys (merged). The database
// round trip comes on top.
import { randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { MAX_DELIVERY_IDS, seenBefore } from '../nodes/MarketplacePartner/helpers/deliveryLog';

const NODE_KEY = 'node:Order Created';
const newId = () => `whd_${randomBytes(12).toString('hex')}`;
/** A verified delivery of `id`: its signed bytes differ per id, as a real delivery's do. */
const delivery = (id: string) => ({ id, timestamp: String(Math.floor(Date.now() / 1000)), rawBody: Buffer.from(`{"id":"${id}"}`) });
const TOLERANCE_SECONDS = 300;

/** The keys of recent deliveries in a record, by how many. */
const LOAD_GAP = 20;

/**
 * The stored static data with `ids` in its window, and this process's memory: the same window, or
 * (`differ`) each also holding LOAD_GAP recent keys the other lacks, as under load, when the stored
 * record was loaded before concurrent saves and the memory hears of a delivery once it is answered.
 */
function records(ids: number, differ: boolean): { json: string; memory: IDataObject } {
	const state: IDataObject = {};
	const now = Date.now();
	for (let i = 0; i < ids; i++) seenBefore([state], delivery(newId()), now - (ids - i) * 1000, TOLERANCE_SECONDS);
	const memory: IDataObject = { deliveries: state.deliveries, signed: state.signed };
	for (let i = 0; differ && i < LOAD_GAP; i++) {
		seenBefore([state], delivery(newId()), now, TOLERANCE_SECONDS);
		seenBefore([memory], delivery(newId()), now, TOLERANCE_SECONDS);
	}
	return { json: JSON.stringify({ [NODE_KEY]: state }), memory };
}

/** Median microseconds of one request's work: load the stored record, check a new id against both records and record it, save. */
function perDelivery({ json, memory }: { json: string; memory: IDataObject }, reps: number): number {
	const times: number[] = [];
	for (let i = 0; i < reps; i++) {
		const ownMemory = { ...memory };
		const started = performance.now();
		const data = JSON.parse(json) as Record<string, IDataObject>;
		seenBefore([data[NODE_KEY], ownMemory], delivery(newId()), Date.now(), TOLERANCE_SECONDS, [data[NODE_KEY]]);
		JSON.stringify(data);
		times.push((performance.now() - started) * 1000);
	}
	return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const rows = [1, MAX_DELIVERY_IDS / 10, MAX_DELIVERY_IDS].map((ids) => {
	const [alike, differing] = [records(ids, false), records(ids, true)];
	perDelivery(alike, 20); // warm-up
	perDelivery(differing, 20);
	return { ids, bytes: Buffer.byteLength(alike.json), micros: perDelivery(alike, 200), differing: perDelivery(differing, 200) };
});
const base = rows[0];
process.stdout.write(`ids in window | static data bytes | per delivery (µs), records alike | vs 1 id | records ${LOAD_GAP} keys apart (µs)\n`);
for (const r of rows) {
	process.stdout.write(
		`${String(r.ids).padStart(13)} | ${String(r.bytes).padStart(17)} | ${r.micros.toFixed(0).padStart(32)} | ${(r.micros / base.micros).toFixed(1).padStart(7)} | ${r.differing.toFixed(0).padStart(31)}\n`,
	);
}
process.stdout.write(`bytes per id: ${((rows[2].bytes - base.bytes) / (MAX_DELIVERY_IDS - 1)).toFixed(1)}\n`);
