// Connection › Check Setup's findings about the test product: what they wait for when none is
// given, and the details they rest on when the API leaves out the Date header or refuses the
// update by SKU. Run by n8n's engine against a scripted API over loopback, answering in the order
// Check Setup asks: ping, the list, a missing item, the test product by id, by SKU.
import type { IDataObject } from 'n8n-workflow';
import { checkSetupAgainst } from '../helpers/checkSetupRun';
import { ok, type Answer } from '../helpers/scriptedApi';

async function checkSetup(answers: Answer[], testProduct: IDataObject = {}) {
	return (await checkSetupAgainst(answers, testProduct)).report;
}

const readsOnly: Answer[] = [ok({ pong: true }), ok({ orders: [], pagination: { has_more: false } }), { status: 404, body: { error: { code: 'order_not_found' } } }];

test('without a test product, the stock permission check says it waits for one', async () => {
	const report = await checkSetup(readsOnly);
	expect(report['Permission stock:write']).toEqual({
		check: 'Permission stock:write',
		result: 'skipped',
		finding: 'Not checked: fill in Test Product (a product set aside for tests) to check it with one stock update.',
		setting: 'Test Product, to check it',
		details: { waitingFor: 'Test Product' },
	});
});

test("an update by SKU refused with a code: the finding's details keep the API's code; a stock answer without a Date header is said to lack it", async () => {
	const report = await checkSetup(
		[
			...readsOnly,
			ok({ product_id: 4, new_stock: 3, updated_at: '2026-05-01 10:00:00' }),
			{ status: 400, body: { error: { code: 'invalid_parameter', message: 'sku is not accepted' } } },
		],
		{ productId: 4, stock: 3, sku: 'SKU-4' },
	);
	expect(report['Updates by SKU']).toMatchObject({ result: 'warning', setting: 'Identify Product By: Product ID', details: { httpStatus: 400, code: 'invalid_parameter' } });
	expect(report['Time zone']).toMatchObject({ result: 'skipped', details: { updatedAtWrittenAs: 'string "2026-05-01 10:00:00"', dateHeader: 'absent' } });
});
