// A PHP backend that clamps offset at its last page, says has_more on every page and writes
// pagination.offset as text with spaces around it: Order › Get Many stops at the first page whose
// written offset is not the one asked for. n8n's engine against a scripted API over loopback.
import { credentialsFor, runNode } from '../helpers/n8n';
import { ok, startScriptedApi, type ScriptedRequest } from '../helpers/scriptedApi';

test('pagination.offset written as text (" 100 ") is read: the walk stops where the API answers another offset than asked', async () => {
	const total = 150;
	const api = await startScriptedApi((request: ScriptedRequest) => {
		const offset = Math.min(Number(new URL(request.url, 'http://x').searchParams.get('offset')), 100);
		const orders = Array.from({ length: Math.min(100, total - offset) }, (_, n) => ({ order_item_id: offset + n + 1 }));
		return ok({ orders, pagination: { offset: ` ${offset} `, has_more: true } });
	});
	try {
		const { error } = await runNode({
			parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: {} },
			credentials: credentialsFor(api.baseUrl, api.app),
			typeVersion: 3,
		});
		expect(error?.message).toBe('The API answered offset 150 with the page at offset 100 (its pagination.offset)');
		expect(api.requests).toHaveLength(3);
	} finally {
		await api.close();
	}
});

test('a pagination.offset that is not only digits ("x100", "150x") is not read as an offset: the walk reads on to the end', async () => {
	const written: Record<number, string> = { 0: '0', 50: '50', 100: 'x100', 150: '150x' };
	const api = await startScriptedApi((request: ScriptedRequest) => {
		const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
		const orders = offset < 200 ? Array.from({ length: 50 }, (_, n) => ({ order_item_id: offset + n + 1 })) : [];
		return ok({ orders, pagination: { offset: written[offset] ?? String(offset), has_more: orders.length > 0 } });
	});
	try {
		const { items, error } = await runNode({
			parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: {} },
			credentials: credentialsFor(api.baseUrl, api.app),
			typeVersion: 3,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(200);
	} finally {
		await api.close();
	}
});
