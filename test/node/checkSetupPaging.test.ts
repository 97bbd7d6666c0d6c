// Connection › Check Setup's look past a short first page, and its clock finding at the edge of what
// the node corrects: run by n8n's engine against a scripted API over loopback, which answers each
// list request by its offset and writes the Date header the test wants.
import type { IDataObject } from 'n8n-workflow';
import { MAX_CLOCK_OFFSET_SEC } from '../../nodes/MarketplacePartner/transport';
import { checkSetupAgainst } from '../helpers/checkSetupRun';
import { ok, type Answer, type ScriptedRequest } from '../helpers/scriptedApi';

const order = (id: number) => ({ order_item_id: id, order_no: `ORD-${id}`, updated_at: '2026-05-01 10:00:00', created_at: '2026-05-01 10:00:00' });

/** A list that answers each offset with the given order item ids (has_more as given), and an empty last page elsewhere. */
function listByOffset(pages: Record<number, { ids: number[]; more: boolean }>) {
	return (request: ScriptedRequest): Answer => {
		if (request.url.includes('/ping.php')) return ok({ pong: true });
		if (request.url.includes('/order_detail.php')) return { status: 404, body: { error: { code: 'order_not_found' } } };
		const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
		const page = pages[offset] ?? { ids: [], more: false };
		return ok({ orders: page.ids.map(order), pagination: { has_more: page.more } });
	};
}

async function checkSetup(answers: Parameters<typeof checkSetupAgainst>[0]) {
	const { report, requests } = await checkSetupAgainst(answers);
	const listOffsets = requests.filter((r) => r.url.includes('/orders.php')).map((r) => Number(new URL(r.url, 'http://x').searchParams.get('offset')));
	return { report, listOffsets };
}

describe('Check Setup reads past a short first page only as far as it needs', () => {
	test('an empty first page that says more follow is not read again', async () => {
		const { report, listOffsets } = await checkSetup(listByOffset({ 0: { ids: [], more: true } }));
		expect(listOffsets).toEqual([0]);
		expect(report['List paging']).toMatchObject({ result: 'ok', details: { returned: 0, pageCap: null } });
	});

	test('a short page followed by new order items: the cap is named after one page more, and no third page is read', async () => {
		const { report, listOffsets } = await checkSetup(
			listByOffset({ 0: { ids: [1, 2], more: true }, 2: { ids: [3, 4], more: true }, 4: { ids: [5, 6], more: true } }),
		);
		expect(listOffsets).toEqual([0, 2]);
		expect(report['List paging']).toMatchObject({
			result: 'ok',
			finding: 'Pages hold at most 2 order items though 100 were asked for; the node pages on. has_more is written as boolean true.',
			details: { returned: 2, pageCap: 2 },
		});
	});

	test('a short page whose next page is the last: reading stops there', async () => {
		const { report, listOffsets } = await checkSetup(listByOffset({ 0: { ids: [1, 2], more: true }, 2: { ids: [2], more: false }, 3: { ids: [1, 2], more: true } }));
		expect(listOffsets).toEqual([0, 2]);
		expect(report['List paging'].details).toMatchObject({ returned: 2, pageCap: null });
	});

	test('pages that only repeat order items already read, each in another arrangement: two pages more are read, then no more', async () => {
		// No page repeats another whole, so nothing says the list pages in a circle; no page brings anything new.
		const { report, listOffsets } = await checkSetup(
			listByOffset({ 0: { ids: [1, 2], more: true }, 2: { ids: [1], more: true }, 3: { ids: [2], more: true }, 4: { ids: [2, 1], more: true } }),
		);
		expect(listOffsets).toEqual([0, 2, 3]);
		expect(report['List paging']).toMatchObject({ result: 'ok', details: { returned: 2, pageCap: null } });
	});

	test('a next page the API refuses ends the look with no finding against the paging', async () => {
		const { report, listOffsets } = await checkSetup((request) => {
			if (request.url.includes('offset=2')) return { status: 400, body: { error: { code: 'invalid_parameter', message: 'offset too large' } } };
			return listByOffset({ 0: { ids: [1, 2], more: true } })(request);
		});
		expect(listOffsets).toEqual([0, 2]);
		expect(report['List paging']).toEqual({
			check: 'List paging',
			result: 'ok',
			finding: 'The first page held 2 order items (100 asked for). has_more is written as boolean true.',
			setting: 'None needed',
			details: { returned: 2, pageCap: null, hasMoreWrittenAs: 'boolean true' },
		});
	});
});

describe('Check Setup on a clock at the edge of what the node corrects', () => {
	/**
	 * Check Setup's clock finding for an API whose Date header is `aheadSeconds` ahead: the header is
	 * written to the second, so a run can land a second off; it is run again until it lands.
	 */
	async function clockAhead(aheadSeconds: number) {
		for (let attempt = 0; attempt < 4; attempt++) {
			const { report } = await checkSetup((request) => {
				const answer = listByOffset({})(request);
				if (!request.url.includes('/ping.php')) return answer;
				// The whole second nearest to the moment `aheadSeconds` from now.
				return { ...answer, headers: { date: new Date(Math.round(Date.now() / 1000 + aheadSeconds) * 1000).toUTCString() } };
			});
			if ((report.Clock.details as IDataObject).apiAheadSeconds === aheadSeconds) return report.Clock;
		}
		throw new Error(`the clock never read ${aheadSeconds} s ahead`);
	}

	test(`${MAX_CLOCK_OFFSET_SEC} s ahead, the most the node corrects: a warning that the node corrects it`, async () => {
		expect(MAX_CLOCK_OFFSET_SEC).toBe(900);
		const clock = await clockAhead(MAX_CLOCK_OFFSET_SEC);
		expect(clock).toMatchObject({
			result: 'warning',
			finding: expect.stringMatching(/^The API's clock is 900 s ahead of this machine's \(Date header\)\. The node corrects its timestamps after an expired_timestamp answer/),
		});
	});

	test('a second more: an error, the node cannot correct it', async () => {
		const clock = await clockAhead(MAX_CLOCK_OFFSET_SEC + 1);
		expect(clock).toMatchObject({ result: 'error', finding: expect.stringMatching(/^The API's clock is 901 s ahead of this machine's \(Date header\)\. The node corrects at most 15 minutes/) });
	});
});
