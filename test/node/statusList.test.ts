// Order › Get Many's Status list (version 3) over a list the API writes loosely: statuses that are
// blank or not text, written with underscores and hyphens, and spread over more pages than the list
// reads. n8n-core's load-options context against a scripted API over loopback that answers each page
// by its offset.
import type { IDataObject } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { credentialsFor, loadOptionsContext } from '../helpers/n8n';
import { ok, startScriptedApi, type ScriptedRequest } from '../helpers/scriptedApi';

const node = new MarketplacePartner();

/** The Status list's options over a list whose page at offset n is pages[n] (has_more while pages follow). */
async function statusOptions(pages: IDataObject[][]) {
	const starts = pages.map((_, p) => pages.slice(0, p).reduce((sum, page) => sum + page.length, 0));
	const api = await startScriptedApi((request: ScriptedRequest) => {
		const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
		const p = starts.indexOf(offset);
		return ok({ orders: p < 0 ? [] : pages[p], pagination: { has_more: p >= 0 && p < pages.length - 1 } });
	});
	try {
		const context = loadOptionsContext(credentialsFor(api.baseUrl, api.app));
		const options = await node.methods.loadOptions.getStatuses.call(context);
		return { options, offsets: api.requests.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('offset'))) };
	} finally {
		await api.close();
	}
}

test('statuses that are blank or not text are left out; words are shown capitalised, each sent as the API writes it', async () => {
	const { options } = await statusOptions([
		[
			{ order_item_id: 1, status: 'label_ready' },
			{ order_item_id: 2, status: '   ' },
			{ order_item_id: 3, status: 5 },
			{ order_item_id: 4, status: null },
			{ order_item_id: 5, status: 'in-transit' },
			{ order_item_id: 6, status: 'on__hold' },
			{ order_item_id: 7 },
		],
	]);
	expect(options.map((o) => [o.name, o.value])).toEqual([
		['Accepted', 'accepted'],
		['In Transit', 'in-transit'],
		['Label Ready', 'label_ready'],
		['On Hold', 'on__hold'],
	]);
});

test('the Status list reads the first three pages only: a status seen first on the fourth is not offered', async () => {
	const { options, offsets } = await statusOptions([
		[{ order_item_id: 1, status: 'packed' }],
		[{ order_item_id: 2, status: 'shipped' }],
		[{ order_item_id: 3, status: 'delivered' }],
		[{ order_item_id: 4, status: 'returned' }],
	]);
	expect(offsets).toEqual([0, 1, 2]);
	expect(options.map((o) => o.value)).toEqual(['accepted', 'delivered', 'packed', 'shipped']);
});
