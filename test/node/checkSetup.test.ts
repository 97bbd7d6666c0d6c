// Connection › Check Setup, run by n8n's engine against the sandbox over HTTP.
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

describe('Check Setup against the sandbox as it is by default', () => {
	let sb: RunningSandbox;
	beforeAll(async () => (sb = await startSandbox({ orders: 260 })));
	afterAll(() => sb.close());

	test('reads only and reports each point', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'connection', operation: 'checkSetup' },
			credentials: credentialsFor(sb.baseUrl, sb.apps['seller-a-full']),
		});
		expect(error).toBeUndefined();
		console.log(JSON.stringify(items.map((i) => i.json), null, 1));
	});
});
