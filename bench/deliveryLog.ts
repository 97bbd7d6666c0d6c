/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm run bench:dedupe`: what the trigger's record of seen deliveries costs per delivery, empty
// and full (a full window: MAX_DELIVERY_IDS ids). n8n reads the workflow's static data from its
// database for every webhook request and writes it back when a new id was recorded: the bytes
// below are what crosses to the database each way; the time is this process's share (parse,
// check against the stored record and this process's memory and record, serialise), measured side
// by side, with the two alike and, as under load, apart by a few recent keys (merged), and the
// bytes this work allocates (garbage that the webhook process carries until V8 collects it). The
// database round trip comes on top.
import { randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { keysOf, MAX_DELIVERY_IDS, ProcessRecord, seenBefore } from '../nodes/MarketplacePartnerTrigger/deliveryLog';

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
function records(ids: number, differ: boolean, everyMs = 1000): { json: string; memory: ProcessRecord } {
	const state: IDataObject = {};
	const memory = new ProcessRecord();
	const none = new ProcessRecord();
	const now = Date.now();
	for (let i = 0; i < ids; i++) {
		const answered = delivery(newId());
		seenBefore(state, none, answered, now - (ids - i) * everyMs, TOLERANCE_SECONDS);
		memory.remember(keysOf(answered), now - (ids - i) * everyMs, TOLERANCE_SECONDS);
	}
	for (let i = 0; differ && i < LOAD_GAP; i++) {
		seenBefore(state, none, delivery(newId()), now, TOLERANCE_SECONDS);
		memory.remember(keysOf(delivery(newId())), now, TOLERANCE_SECONDS);
	}
	return { json: JSON.stringify({ [NODE_KEY]: state }), memory };
}

/**
 * One request's work: load the stored record, check a new delivery against it and the memory and
 * record it, save. (The memory's taking it once answered, a number pushed to an array, is left out
 * so that the records stay as far apart as set.)
 */
function request({ json, memory }: { json: string; memory: ProcessRecord }): void {
	const data = JSON.parse(json) as Record<string, IDataObject>;
	seenBefore(data[NODE_KEY], memory, delivery(newId()), Date.now(), TOLERANCE_SECONDS);
	JSON.stringify(data);
}

/** Median microseconds of one request's work. */
function perDelivery(records: { json: string; memory: ProcessRecord }, reps: number): number {
	const times: number[] = [];
	for (let i = 0; i < reps; i++) {
		const started = performance.now();
		request(records);
		times.push((performance.now() - started) * 1000);
	}
	return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

// Run with --expose-gc and a young generation larger than the batch allocates (package.json), so
// that no collection runs inside a batch: the heap's growth over it is what the batch allocated.
const collect = (globalThis as { gc?: () => void }).gc;
const BATCH = 20;

/** Kilobytes of V8 heap (and ArrayBuffers) allocated by one request, the median of five batches. */
function allocatedPerDelivery(records: { json: string; memory: ProcessRecord }): number | undefined {
	if (!collect) return undefined;
	const used = () => {
		const { heapUsed, arrayBuffers } = process.memoryUsage();
		return heapUsed + arrayBuffers;
	};
	const sizes: number[] = [];
	for (let batch = 0; batch < 5; batch++) {
		collect();
		const before = used();
		for (let i = 0; i < BATCH; i++) request(records);
		sizes.push((used() - before) / BATCH / 1024);
	}
	return sizes.sort((a, b) => a - b)[2];
}

// The last row: a burst, every id also in the signed log (10,000 within twice the tolerance), the
// record full by both bounds, so that each new delivery is refused 503 and nothing is written.
const BURST_EVERY_MS = 55;
const rows = [[1], [MAX_DELIVERY_IDS / 10], [MAX_DELIVERY_IDS], [MAX_DELIVERY_IDS, BURST_EVERY_MS]].map(([ids, everyMs]) => {
	const [alike, differing] = [records(ids, false, everyMs), records(ids, true, everyMs)];
	perDelivery(alike, 20); // warm-up
	perDelivery(differing, 20);
	return {
		ids: everyMs ? `${ids} in ${((ids * everyMs) / 60_000).toFixed(1)} min` : String(ids),
		bytes: Buffer.byteLength(alike.json),
		micros: perDelivery(alike, 200),
		differing: perDelivery(differing, 200),
		allocated: allocatedPerDelivery(differing),
	};
});
const base = rows[0];
process.stdout.write(`ids in window         | static data bytes | per delivery (µs), records alike | vs 1 id | records ${LOAD_GAP} keys apart (µs) | allocated per delivery, apart (KB)\n`);
for (const r of rows) {
	process.stdout.write(
		`${r.ids.padStart(21)} | ${String(r.bytes).padStart(17)} | ${r.micros.toFixed(0).padStart(32)} | ${(r.micros / base.micros).toFixed(1).padStart(7)} | ${r.differing.toFixed(0).padStart(31)} | ${(r.allocated === undefined ? 'run with --expose-gc' : r.allocated.toFixed(0)).padStart(34)}\n`,
	);
}
process.stdout.write(`bytes per id: ${((rows[2].bytes - base.bytes) / (MAX_DELIVERY_IDS - 1)).toFixed(1)}; the last row's deliveries are refused (503), each writing nothing\n`);
