// Order › Get Many, version 3, filtered by Updated After alone and finding nothing: the run says why,
// without reading the list for statuses it does not need. n8n's engine against a scripted API over
// loopback. Without filters, an empty list is no finding.
import { credentialsFor, hintsOf, runNode } from '../helpers/n8n';
import { ok, startScriptedApi } from '../helpers/scriptedApi';

test('Updated After alone past every order item: one hint naming the moment and the time zone, and no read of the statuses', async () => {
	const api = await startScriptedApi([ok({ orders: [], pagination: { has_more: false } })]);
	try {
		const run = await runNode({
			parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: { updatedAfter: '2099-01-01T00:00:00+00:00' } },
			credentials: credentialsFor(api.baseUrl, api.app),
			typeVersion: 3,
		});
		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([]);
		expect(hintsOf(run)).toEqual([
			{
				type: 'info',
				message:
					"No order items were updated after 2099-01-01 00:00:00 (in the credential's Time Zone of the API). Choose an earlier Updated After, or check the credential's Time Zone of the API.",
				location: 'outputPane',
			},
		]);
		expect(api.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('updated_after'))).toEqual(['2099-01-01 00:00:00']);
	} finally {
		await api.close();
	}
});

test('an empty list read without filters: no hint, and no read of the statuses', async () => {
	const api = await startScriptedApi([ok({ orders: [], pagination: { has_more: false } })]);
	try {
		const run = await runNode({
			parameters: { resource: 'order', operation: 'getMany', returnAll: true, filters: {} },
			credentials: credentialsFor(api.baseUrl, api.app),
			typeVersion: 3,
		});
		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([]);
		expect(hintsOf(run)).toEqual([]);
		expect(api.requests).toHaveLength(1);
	} finally {
		await api.close();
	}
});
