// Stock › Update's message for an item without a required column (Map Automatically): which of the
// item's columns it offers, and when. Run by n8n's engine; a scripted API over loopback shows that
// nothing is sent for such an item.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor, runNode } from '../helpers/n8n';
import { ok, startScriptedApi } from '../helpers/scriptedApi';

const auto = { resource: 'stock', operation: 'update', columns: { mappingMode: 'autoMapInputData', value: null } };

async function refusal(row: IDataObject, columnNames: IDataObject = {}) {
	const api = await startScriptedApi([ok({})]);
	try {
		const { error } = await runNode({ parameters: { ...auto, columnNames }, items: [row], credentials: credentialsFor(api.baseUrl, api.app), typeVersion: 3 });
		expect(api.requests).toEqual([]);
		return error?.message;
	} finally {
		await api.close();
	}
}

test('with the Product ID found, an item lacking only Stock is offered its one spare column, even one that reads as SKU (no switch is proposed)', async () => {
	expect(await refusal({ product_id: 5, SKU: 'SKU-5' })).toBe(
		'This item has no Stock column. If "SKU" is your Stock column, name it under Column Names › Stock Column. The item\'s columns: "product_id", "SKU".',
	);
});

test('two columns missing and one spare: the spare is not offered for either, as it cannot be both', async () => {
	expect(await refusal({ Qty: 3 })).toBe(
		'This item has no Product ID column and no Stock column. Looked for "product_id" or a header such as "Product ID"; name your Product ID column under Column Names › Product ID Column. ' +
			'Looked for "stock" or a header such as "Stock"; name your Stock column under Column Names › Stock Column. The item\'s columns: "Qty".',
	);
});

test('a Product ID column named under Column Names but absent: no switch to SKU is proposed, and the item\'s SKU column is offered as the spare one', async () => {
	expect(await refusal({ SKU: 'SKU-5' }, { productId: 'Artikel' })).toBe(
		'This item has no Product ID column and no Stock column. The column "Artikel" named under Column Names › Product ID Column is not in this item. ' +
			'If "SKU" is your Stock column, name it under Column Names › Stock Column. The item\'s columns: "SKU".',
	);
});
