// What Connection › Check Setup reads off the API's answers: pure functions over plain values, so
// each verdict is tested on its own. The spec leaves these points "not shown"; the node copes with
// every answer here, and the findings tell the user which settings their marketplace needs.
import type { IDataObject } from 'n8n-workflow';
import { readFlag } from '../../shared/transport/answerReading';
import { jsonPreview } from '../../shared/helpers/networkText';
import { parseApiDate, wallClockMs } from '../../shared/helpers/orderChanges';

export type Result = 'ok' | 'warning' | 'error' | 'skipped';

// n8n's table view makes a column of every key any finding has and shows a red `undefined` where
// one lacks it: every finding fills every column.
export interface Finding {
	check: string;
	result: Result;
	finding: string;
	/** The setting the finding implies, or None needed. */
	setting: string;
	/** What the finding rests on: the API's answer, or what the check waits for. */
	details: IDataObject;
}

/** How a value is written: `number 1`, `string "1"`, `boolean true`, `absent`. */
export function writtenAs(value: unknown): string {
	if (value === undefined) return 'absent';
	if (value === null) return 'null';
	return `${Array.isArray(value) ? 'list' : typeof value} ${jsonPreview(value, 100)}`;
}

/** The shape of an error body, in words, with the JSON type of its parts. */
export function errorShape(body: unknown): string {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return typeof body === 'string' && body ? 'a body that is not JSON' : 'no body';
	const top = body as IDataObject;
	if (top.error && typeof top.error === 'object') return '{"ok":false,"error":{"code","message"}} (the code inside an error object)';
	if (typeof top.error === 'string') return '{"error":"code","message"} (a flat error code)';
	if (Array.isArray(top.errors)) return '{"errors":[{"code","message"}]} (a list of errors)';
	if (typeof top.code === 'string') return `{"code","message"}${top.status !== undefined ? ' beside a status field' : ''} (code at the top)`;
	return 'a JSON body without an error code';
}

/** Whether `values` only rise, only fall, or neither (equal neighbours fit either). */
function direction(values: number[]): 'ascending' | 'descending' | undefined {
	let up = true;
	let down = true;
	for (let i = 1; i < values.length; i++) {
		if (values[i] < values[i - 1]) up = false;
		if (values[i] > values[i - 1]) down = false;
	}
	if (up && !down) return 'ascending';
	if (down && !up) return 'descending';
	return undefined;
}

/** The order the list seems to follow on one page, or undefined when no field explains it. */
export function listOrdering(orders: IDataObject[]): string | undefined {
	if (orders.length < 2) return undefined;
	const fields: Array<[string, (o: IDataObject) => number]> = [
		['order_item_id', (o) => Number(o.order_item_id)],
		['updated_at', (o) => parseApiDate(o.updated_at) ?? NaN],
		['created_at', (o) => parseApiDate(o.created_at) ?? NaN],
	];
	for (const [name, read] of fields) {
		const values = orders.map(read);
		if (values.some(Number.isNaN)) continue;
		const found = direction(values);
		if (found) return `${name} ${found}`;
	}
	return undefined;
}

/** The kinds of the fields an order item carries as numbers in the spec: `number` or `string`. */
export function numberKinds(order: IDataObject): string {
	const product = (order.product ?? {}) as IDataObject;
	const kinds = new Set([order.order_item_id, order.quantity, order.unit_price, product.product_id].filter((v) => v !== undefined).map((v) => typeof v));
	return [...kinds].sort().join(' and ') || 'absent';
}

/** The has_more of a page, read as the node reads it. */
export function hasMoreFinding(pagination: unknown): { writtenAs: string; more: boolean | undefined } {
	const value = ((pagination ?? {}) as IDataObject).has_more;
	return { writtenAs: writtenAs(value), more: readFlag(value) };
}

/**
 * The API's UTC offset in minutes from a datetime it wrote at `atMs` (its Date header), to the
 * quarter hour (zones differ by 15 minutes at least), or undefined when `written` is not a datetime.
 */
export function offsetMinutes(written: unknown, atMs: number): number | undefined {
	const wallMs = parseApiDate(written);
	if (wallMs === undefined || !Number.isFinite(atMs)) return undefined;
	return Math.round((wallMs - atMs) / 900_000) * 15;
}

/** `UTC+03:00`, `UTC-05:00`, `UTC+05:45`. */
export function formatOffset(minutes: number): string {
	const abs = Math.abs(minutes);
	return `UTC${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The zone's UTC offset at `atMs`, in minutes. */
export function zoneOffsetMinutes(timeZone: string, atMs: number): number {
	const at = Math.floor(atMs / 1000) * 1000;
	return Math.round((wallClockMs(at, timeZone) - at) / 60_000);
}

/** Up to `max` IANA zones at `minutes` from UTC at `atMs`, the credential's own first if it fits. */
export function zonesAtOffset(minutes: number, atMs: number, preferred: string, max = 6): string[] {
	const all = ['UTC', ...Intl.supportedValuesOf('timeZone')];
	const fits = all.filter((zone) => zoneOffsetMinutes(zone, atMs) === minutes);
	const ordered = fits.includes(preferred) ? [preferred, ...fits.filter((z) => z !== preferred)] : fits;
	return ordered.slice(0, max);
}

/** The time zone the API writes, from a stock answer's updated_at against its Date header, and the setting it implies. */
export function timeZoneFinding(updatedAt: unknown, atMs: number, timeZone: string): Finding {
	const minutes = offsetMinutes(updatedAt, atMs);
	if (minutes === undefined) {
		return {
			check: 'Time zone',
			result: 'skipped',
			finding: `Not known: the stock answer's updated_at is ${writtenAs(updatedAt)} and its Date header ${Number.isNaN(atMs) ? 'is missing' : 'is there'}.`,
			setting: 'Time Zone of the API: the marketplace\'s zone (ask the operator)',
			details: { updatedAtWrittenAs: writtenAs(updatedAt), dateHeader: Number.isNaN(atMs) ? 'absent' : 'present' },
		};
	}
	const setting = zoneOffsetMinutes(timeZone, atMs);
	const offset = formatOffset(minutes);
	if (setting === minutes) {
		return {
			check: 'Time zone',
			result: 'ok',
			finding: `The API writes datetimes at ${offset}, as the credential's Time Zone of the API (${timeZone}) says.`,
			setting: `Time Zone of the API: ${timeZone}`,
			details: { apiOffset: offset, credentialOffset: offset },
		};
	}
	const zones = zonesAtOffset(minutes, atMs, timeZone);
	return {
		check: 'Time zone',
		result: 'warning',
		finding: `The API writes datetimes at ${offset} (its updated_at ${String(updatedAt)} against its Date header), but the credential's Time Zone of the API is ${timeZone} (${formatOffset(setting)}). Set it to the marketplace's zone${zones.length ? `, e.g. ${zones.join(', ')}` : ''}.`,
		setting: `Time Zone of the API: ${zones[0] ?? offset}`,
		details: { apiOffset: offset, credentialOffset: formatOffset(setting) },
	};
}
