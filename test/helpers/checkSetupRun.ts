// Connection › Check Setup run by n8n's engine against a scripted API over loopback: its findings by
// check, and the requests the API received.
import type { IDataObject } from 'n8n-workflow';
import { credentialsFor, runNode } from './n8n';
import { startScriptedApi, type ScriptedRequest } from './scriptedApi';

export async function checkSetupAgainst(answers: Parameters<typeof startScriptedApi>[0], testProduct: IDataObject = {}): Promise<{ report: Record<string, IDataObject>; requests: ScriptedRequest[] }> {
	const api = await startScriptedApi(answers);
	try {
		const { items, error } = await runNode({
			parameters: { resource: 'connection', operation: 'checkSetup', testProduct },
			credentials: credentialsFor(api.baseUrl, api.app),
		});
		expect(error).toBeUndefined();
		return { report: Object.fromEntries(items.map((i) => [i.json.check, i.json])) as Record<string, IDataObject>, requests: api.requests };
	} finally {
		await api.close();
	}
}
