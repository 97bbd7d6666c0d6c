// A hostile marketplace, generated (issue 51, class 8): one fast-check arbitrary draws a seller's
// order items and a combination of what a careless or broken backend does where the spec says
// "not shown" (filters it drops, a limit it ignores, an offset it clamps, has_more always or never,
// pages shuffled or with an entry twice, unreadable dates, ids of kilobytes, 429s with a Retry-After
// of 0 or of days, text with line breaks and terminal escapes), and the scripted API plays it over
// loopback. Its filtering is its own (no code of the node's): what a correct answer would hold.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import type { Answer, ScriptedRequest } from './scriptedApi';

/** Text a log line must never carry raw: a forged line, a terminal escape, a bidirectional override, a bell. */
export const FORGED = ['\r\nFORGED', '\nFORGED', '\u001b[2J', '\u202e', '\u0007'];
const HOSTILE_TEXT = `accepted\r\nFORGED ${FORGED.slice(2).join('')} log line`;

export interface Hostility {
	ignoreStatus: boolean;
	ignoreUpdatedAfter: boolean;
	ignoreLimit: boolean;
	clampOffset: boolean;
	hasMore: 'honest' | 'always' | 'absent';
	shuffle: boolean;
	duplicate: boolean;
	/** The first `times` requests are answered 429, with this Retry-After (none when undefined). */
	throttle: { times: number; retryAfter: string | undefined };
}

export interface HostileMarketplace {
	hostility: Hostility;
	orders: IDataObject[];
}

const NOW_S = () => Math.floor(Date.now() / 1000);
/** A datetime as the API writes it, `seconds` from now (UTC). */
export const apiDate = (seconds: number) => new Date((NOW_S() + seconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');
/** The moment of an API datetime as this API reads it, or undefined. */
export function readDate(value: unknown): number | undefined {
	if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d$/.test(value)) return undefined;
	const ms = Date.parse(`${value.replace(' ', 'T')}Z`);
	return Number.isNaN(ms) ? undefined : ms; // 2026-13-45 99:99:99 has the form and is no date
}

const idArb = fc.oneof(
	{ weight: 6, arbitrary: fc.integer({ min: 1, max: 60 }) },
	{ weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }).map((n) => `${n}-${'x'.repeat(5_000)}`) },
	{ weight: 1, arbitrary: fc.constantFrom('', null, ' 7 ', '1e3') },
);
const statusArb = fc.constantFrom('accepted', 'accepted', 'shipped', 'Accepted ', HOSTILE_TEXT, '');
const updatedArb = fc.oneof(
	{ weight: 6, arbitrary: fc.integer({ min: -2 * 86_400, max: 120 }).map(apiDate) },
	{ weight: 1, arbitrary: fc.constantFrom('yesterday', 'x'.repeat(200), 1_780_000_000, null, '2026-13-45 99:99:99') },
);
const orderArb = fc.record({ order_item_id: idArb, status: statusArb, updated_at: updatedArb, title: fc.constantFrom('Mug', HOSTILE_TEXT, 'x'.repeat(3_000)) });

export const hostileMarketplace: fc.Arbitrary<HostileMarketplace> = fc.record({
	hostility: fc.record({
		ignoreStatus: fc.boolean(),
		ignoreUpdatedAfter: fc.boolean(),
		ignoreLimit: fc.boolean(),
		clampOffset: fc.boolean(),
		hasMore: fc.constantFrom('honest', 'always', 'absent'),
		shuffle: fc.boolean(),
		duplicate: fc.boolean(),
		throttle: fc.record({ times: fc.constantFrom(0, 0, 1, 2), retryAfter: fc.constantFrom(undefined, '0', '0.001', '-5', 'soon', '86400') }),
	}),
	orders: fc.array(orderArb, { maxLength: 250 }).map((orders) => orders.map((o, n) => ({ ...o, order_no: `ORD-${n}`, product: { product_id: 70_000 + n, sku: `SKU-${n}` } }))),
});

/** A deterministic shuffle of `list` (the same request, the same order). */
function shuffled<T>(list: T[], seed: number): T[] {
	const out = [...list];
	let state = seed + 1;
	for (let i = out.length - 1; i > 0; i--) {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		const j = state % (i + 1);
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

/** A list page as answered: what was asked (limit, status, updated_after) and the entries sent. */
export interface SentPage {
	limit: number;
	status: string | null;
	updatedAfter: string | null;
	orders: IDataObject[];
}

/**
 * The scripted API of a hostile marketplace; `orders` may be changed between requests (a live
 * list). Each list page it answers goes into `sent`.
 */
export function hostileAnswers(market: HostileMarketplace, sent: SentPage[] = []): (request: ScriptedRequest) => Answer {
	const { hostility } = market;
	let throttled = 0;
	return (request) => {
		if (throttled < hostility.throttle.times) {
			throttled++;
			const headers: Record<string, string> = hostility.throttle.retryAfter === undefined ? {} : { 'retry-after': hostility.throttle.retryAfter };
			return { status: 429, headers, body: { ok: false, error: { code: 'rate_limited', message: `Slow down${HOSTILE_TEXT}` } } };
		}
		const url = new URL(request.url, 'http://x');
		const q = url.searchParams;
		if (url.pathname.endsWith('/ping.php')) return { status: 200, body: { ok: true, data: { pong: true, seller_id: 1001 } } };
		if (url.pathname.endsWith('/stock_update.php')) {
			const body = JSON.parse(request.rawBody || '{}') as IDataObject;
			return { status: 200, body: { ok: true, data: { product_id: body.product_id, old_stock: HOSTILE_TEXT, new_stock: body.stock, updated: true, updated_at: apiDate(0) } } };
		}
		if (url.pathname.endsWith('/order_detail.php')) {
			const found = market.orders.find((o) => String(o.order_item_id) === q.get('order_item_id'));
			return found
				? { status: 200, body: { ok: true, data: { order: found, product: found.product, customer: { city: HOSTILE_TEXT } } } }
				: { status: 404, body: { ok: false, error: { code: 'order_not_found', message: HOSTILE_TEXT } } };
		}
		const limit = Math.max(1, Math.min(100, Number(q.get('limit') ?? 50) || 50));
		let offset = Math.max(0, Number(q.get('offset') ?? 0) || 0);
		const status = hostility.ignoreStatus ? null : q.get('status');
		const after = hostility.ignoreUpdatedAfter ? undefined : readDate(q.get('updated_after'));
		let list = market.orders.filter((o) => (status === null || o.status === status) && (after === undefined || (readDate(o.updated_at) ?? -Infinity) > after));
		if (hostility.shuffle) list = shuffled(list, offset);
		const size = hostility.ignoreLimit ? 400 : limit;
		if (hostility.clampOffset && offset >= list.length && list.length > 0) offset = Math.max(0, list.length - size);
		const page = list.slice(offset, offset + size);
		if (hostility.duplicate && page.length > 0) page.push(page[0]);
		sent.push({ limit, status: q.get('status'), updatedAfter: q.get('updated_after'), orders: page });
		const more = hostility.hasMore === 'always' ? true : hostility.hasMore === 'absent' ? undefined : offset + size < list.length;
		return { status: 200, body: { ok: true, data: { orders: page, pagination: { limit, offset, ...(more === undefined ? {} : { has_more: more }) } } } };
	};
}
