// Issue 51, the third round of the hostile network: every answer is held to the request it
// answers. Through n8n-core's engine and real HTTP to a scripted API over loopback: an API that
// ignores the filters or the limit, a Retry-After of 0, text with line breaks and terminal escapes,
// and the Test button against refusals spelled otherwise.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor, hintsOf, runNode } from '../helpers/n8n';
import { logsSince, mark } from '../helpers/logs';
import { testCredential } from '../helpers/credentialTest';
import fc from 'fast-check';
import { cut, textOf } from '../../nodes/shared/helpers/networkText';
import { ok, startScriptedApi, type Answer, type ScriptedApi, type ScriptedRequest } from '../helpers/scriptedApi';

const getMany = { resource: 'order', operation: 'getMany' };
const entry = (order_item_id: number, status: string, updated_at: string): IDataObject => ({
	order_item_id,
	order_no: `ORD-${order_item_id}`,
	status,
	created_at: '2026-05-01 08:00:00',
	updated_at,
});
const query = (request: ScriptedRequest) => new URL(request.url, 'http://x').searchParams;

/** An orders list that answers every request with all of `entries` from `offset` on, whatever `limit`, `status` or `updated_after` ask. */
const ignoringEverything = (entries: IDataObject[]) => (request: ScriptedRequest): Answer => {
	const offset = Number(query(request).get('offset') ?? 0);
	return ok({ orders: entries.slice(offset), pagination: { offset, has_more: false } });
};

describe('Order › Get Many holds every answer to its request', () => {
	let api: ScriptedApi | undefined;
	afterEach(async () => {
		await api?.close();
		api = undefined;
	});

	test('an API that ignores Status and Updated After: only the order items that meet both come out, and a warning names each filter with its count', async () => {
		const entries = [
			entry(1, 'accepted', '2026-05-01 09:00:00'), // too old
			entry(2, 'shipped', '2026-05-01 11:00:00'), // other status
			entry(3, 'accepted', '2026-05-01 11:00:00'),
			entry(4, 'Accepted', '2026-05-01 12:00:00'), // the status in another case: the API's match may ignore case
			entry(5, 'shipped', '2026-05-01 09:00:00'), // both: counted as the first it fails
			entry(6, 'accepted', '2026-05-01 10:00:00'), // at the moment asked: updated_after is strict
		];
		api = await startScriptedApi(ignoringEverything(entries));
		const { items, error, run } = await runNode({
			parameters: { ...getMany, returnAll: true, filters: { status: 'accepted', updatedAfter: '2026-05-01 10:00:00' } },
			credentials: credentialsFor(api.baseUrl, api.app),
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.order_item_id)).toEqual([3, 4]);
		expect(hintsOf({ run }).map((h) => [h.type, h.message])).toEqual([
			['warning', 'The API answered 2 order items whose status is not "accepted" although only that status was asked: it seems not to apply the status filter. The node left them out; report it to the marketplace operator.'],
			[
				'warning',
				'The API answered 2 order items updated at or before 2026-05-01 10:00:00 although only later changes were asked (updated_after): it seems not to apply that filter. The node left them out, so nothing old comes out as a change; report it to the marketplace operator.',
			],
		]);
		expect(query(api.requests[0]).get('status')).toBe('accepted');
		expect(query(api.requests[0]).get('updated_after')).toBe('2026-05-01 10:00:00');
	});

	test('an API that ignores limit: at most the limit asked is taken from each page, Return All reads every order item once, and the run says so', async () => {
		const entries = Array.from({ length: 250 }, (_, n) => entry(n + 1, 'accepted', '2026-05-01 11:00:00'));
		api = await startScriptedApi(ignoringEverything(entries));
		const limited = await runNode({ parameters: { ...getMany, returnAll: false, limit: 7 }, credentials: credentialsFor(api.baseUrl, api.app) });
		expect(limited.items.map((i) => i.json.order_item_id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		expect(api.requests).toHaveLength(1);

		const all = await runNode({ parameters: { ...getMany, returnAll: true }, credentials: credentialsFor(api.baseUrl, api.app) });
		expect(all.items.map((i) => i.json.order_item_id)).toEqual(entries.map((e) => e.order_item_id));
		// Pages of 100 at offsets 0, 100, 200: the last one holds 50 and says no more.
		expect(api.requests.slice(1).map((r) => [query(r).get('offset'), query(r).get('limit')])).toEqual([
			['0', '100'],
			['100', '100'],
			['200', '100'],
		]);
		expect(hintsOf(all).map((h) => h.message)).toEqual([
			'The API sent up to 250 order items on a page where 100 were asked (it ignores limit); the node read 100 a page and read on page by page, so nothing came out twice or beyond a limit.',
		]);
	});

	test('one page of 300,000 empty entries when 100 were asked: the walk stops with an error after three pages, nothing beyond the limit is read', async () => {
		const body = `{"ok":true,"data":{"orders":[${Array(300_000).fill('{}').join(',')}],"pagination":{"has_more":true}}}`;
		api = await startScriptedApi([{ status: 200, body }]);
		const { items, error } = await runNode({ parameters: { ...getMany, returnAll: true }, credentials: credentialsFor(api.baseUrl, api.app) });
		expect(items).toEqual([]);
		expect(error?.message).toBe('The API answered offset 200 with the same order items as offset 0');
		expect(api.requests).toHaveLength(3);
	});
});

describe('a server hint never removes the client floor: Retry-After of 0', () => {
	test('Ping against 429s with Retry-After: 0 for 4 s waits its own backoff between attempts, and the report says the run gave up', async () => {
		const api = await startScriptedApi([{ status: 429, headers: { 'retry-after': '0' }, body: { ok: false, error: { code: 'rate_limited', message: 'Slow down.' } } }]);
		try {
			const logged = mark();
			const { error } = await runNode({
				parameters: { resource: 'connection', operation: 'ping', options: { giveUpAfter: 4 } },
				credentials: credentialsFor(api.baseUrl, api.app),
			});
			expect(error?.message).toBe('The Partner API is rate limiting this app');
			// Backoff from 250 ms doubling (jittered by half): at most 6 attempts in 4 s. Before: 65 in 5 s.
			expect(api.requests.length).toBeGreaterThanOrEqual(3);
			expect(api.requests.length).toBeLessThanOrEqual(6);
			const gaps = api.requests.slice(1).map((r, n) => r.at - api.requests[n].at);
			expect(Math.min(...gaps)).toBeGreaterThanOrEqual(100);
			const log = logsSince(logged);
			expect(log).not.toMatch(/Nothing was lost/);
			expect(log).toMatch(/The API was busy: \d+ answers were 429 \(rate limit\) and 0 5xx or no answer, retried; the run stopped before every request went through \(Nothing in this run succeeded for 4 s \(option Give Up After\), so the node gave up; the last attempt got HTTP 429 \(rate_limited\)\); the run waited \d+ s with nothing sent\. What did not go through is in the output or the error; run it again once the API answers\./);
		} finally {
			await api.close();
		}
	});
});

describe('text from the network is neutralised before it reaches the log, errors and hints', () => {
	test('a status with a line break and a terminal escape forges no log line through the empty-result warning, and no error message carries one', async () => {
		const forged = 'ok\n1 info forged \u001b[31m\u2028';
		const api = await startScriptedApi((request) =>
			query(request).get('status') === 'paid'
				? ok({ orders: [], pagination: { has_more: false } })
				: ok({ orders: [entry(1, forged, '2026-05-01 11:00:00')], pagination: { has_more: false } }),
		);
		try {
			const logged = mark();
			const { items, run } = await runNode({ parameters: { ...getMany, returnAll: true, filters: { status: 'paid' } }, credentials: credentialsFor(api.baseUrl, api.app), typeVersion: 3 });
			expect(items).toEqual([]);
			const [hint] = hintsOf({ run });
			expect(hint.message).toContain('"ok\\u000a1 info forged \\u001b[31m\\u2028"');
			const log = logsSince(logged);
			expect(log).toContain('info forged');
			// The console recorder keeps each call's text whole: a line break in it would start a new log line.
			const lines = log.split('\n').filter((line) => line.includes('info forged'));
			expect(lines.length).toBeGreaterThan(0);
			for (const line of lines) expect(line).toContain('"ok\\u000a1 info forged \\u001b[31m\\u2028"');
			expect(log).not.toMatch(/\p{Cf}|\u2028/u);

			const refused = await startScriptedApi([{ status: 400, body: { ok: false, error: { code: 'invalid_parameter\r\nX-Forged: 1', message: 'bad\r\nline\u001b]0;title\u0007' } } }]);
			try {
				const { error } = await runNode({ parameters: { resource: 'connection', operation: 'ping' }, credentials: credentialsFor(refused.baseUrl, refused.app) });
				expect(`${error?.message} ${error?.description}`).not.toMatch(/\p{Cc}/u);
				expect(error?.description).toContain('invalid_parameter\\u000d\\u000aX-Forged: 1');
			} finally {
				await refused.close();
			}
		} finally {
			await api.close();
		}
	});
});

describe('the Test button reads ok as the nodes read it', () => {
	test.each([
		['401 {"ok":"False"}', 401, { ok: 'False' }],
		['200 {"ok":"FALSE"}', 200, { ok: 'FALSE' }],
		['200 {"ok":"False","data":{"pong":true}}', 200, { ok: 'False', data: { pong: true } }],
	])('%s is a refusal, as the node reads it, not "Connection successful!"', async (_, status, body) => {
		const api = await startScriptedApi([{ status, body }]);
		try {
			expect(await testCredential(credentialsFor(api.baseUrl, api.app))).toEqual({
				status: 'Error',
				message: 'The API refused the test request. Check Client ID, Client Secret and Header Prefix.',
			});
			const { error } = await runNode({ parameters: { resource: 'connection', operation: 'ping' }, credentials: credentialsFor(api.baseUrl, api.app) });
			expect(error).toBeDefined();
		} finally {
			await api.close();
		}
	});
});

describe('cut, the one quoting of network text: printable and bounded', () => {
	test('any text, cut to any limit: no control, format or separator character is left, the length stays within the limit and "…", and printable text is unchanged', () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('\n', '\r', '\u001b', '\u0000', '\u0085', '\u202e', '\u2028', '\u2029', '\ufeff', '\u200d', 'a', ' '), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }), fc.integer({ min: 1, max: 60 }), (text, limit) => {
				const shown = cut(text, limit);
				expect(shown).not.toMatch(/(?![\u200c\u200d])[\p{Cc}\p{Cf}\u2028\u2029]/u);
				expect(shown.length).toBeLessThanOrEqual(limit + 1);
				if (!/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(text)) expect(shown).toBe(text.length > limit ? `${text.slice(0, limit)}…` : text);
				// A code is never cut in two.
				expect(shown).not.toMatch(/\\u[0-9a-f]{0,3}…$/);
			}),
			{ numRuns: 2000 },
		);
		expect(cut('a\u001b[2Jb\r\nc', 100)).toBe('a\\u001b[2Jb\\u000d\\u000ac');		// Printable text keeps as much as the limit holds: only a code the limit would cut in two goes whole.
		expect(cut(`\u0001${'a'.repeat(20)}`, 10)).toBe('\\u0001aaaa…');
		expect(cut(`aaaaaa\u0001${'a'.repeat(20)}`, 10)).toBe('aaaaaa…');
	});
});

describe('textOf, the one reading of a network value as text', () => {
	test('text, numbers and flags as String() writes them; an array or object as its JSON, bounded at 200 characters and "…"', () => {
		expect([textOf('a b'), textOf(12), textOf(true), textOf(undefined)]).toEqual(['a b', '12', 'true', 'undefined']);
		expect(textOf({ id: 7 })).toBe('{"id":7}');
		const exactly = [`${'x'.repeat(196)}`];
		expect(textOf(exactly)).toBe(`["${'x'.repeat(196)}"]`); // 200 characters: whole
		expect(textOf([`${'x'.repeat(197)}`])).toBe(`["${'x'.repeat(197)}"`.slice(0, 200) + '…');
		fc.assert(
			fc.property(fc.oneof(fc.array(fc.string({ maxLength: 300 }), { maxLength: 20 }), fc.dictionary(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }))), (value) => {
				const text = textOf(value);
				const whole = JSON.stringify(value);
				expect(text).toBe(whole.length > 200 ? `${whole.slice(0, 200)}…` : whole);
			}),
		);
	});
});
