// Issue 31's rows about answers built to stall or break the node, through n8n-core's engine and
// real HTTP to a scripted API: an error message of 200,000 spaces and a letter (37 s of one core,
// quadratic trimming), API codes that every object inherits ("constructor", "toString"), and
// answers larger than any the API gives (issue #43).
import { credentialsFor, runNode } from '../helpers/n8n';
import { startScriptedApi, type Answer, type ScriptedApi } from '../helpers/scriptedApi';
import { budgetMs } from '../helpers/budget';

const ping = { resource: 'connection', operation: 'ping' };
const spaces = ' '.repeat(200_000);
/** The n8n run around the error path (a workflow, a request over loopback): not what is measured. */
const RUN_ALLOWANCE_MS = 1000;

describe('hostile answers: the error path reads a bounded part of them, in linear time', () => {
	let api: ScriptedApi | undefined;
	afterEach(async () => {
		await api?.close();
		api = undefined;
	});

	async function pingWith(answer: Answer) {
		api = await startScriptedApi([answer]);
		const size = typeof answer.body === 'string' ? answer.body.length : JSON.stringify(answer.body).length;
		const started = Date.now();
		const run = await runNode({ parameters: ping, credentials: credentialsFor(api.baseUrl, api.app) });
		return { ...run, elapsed: Date.now() - started, budget: budgetMs(size) + RUN_ALLOWANCE_MS };
	}

	test.each([
		['200,000 spaces and a letter', `${spaces}a`, 'a'],
		['200,000 full stops and a letter', `${'.'.repeat(200_000)}a`, `${'.'.repeat(500)}…`],
		['a letter, 200,000 spaces and a full stop', `a${spaces}.`, 'a'],
		['words over 200 KB', 'ab '.repeat(70_000), `${'ab '.repeat(166)}ab…`],
	])('an API message of %s: a clear error within the budget, quoting at most 500 characters of it', async (_, message, quoted) => {
		const { error, elapsed, budget } = await pingWith({ status: 400, body: { ok: false, error: { code: 'invalid_parameter', message } } });
		expect(error?.message).toBe('The Partner API refused a parameter of the request');
		expect(error?.description).toBe(`API code: invalid_parameter. The API said: ${quoted}.`);
		expect(elapsed).toBeLessThan(budget);
	});

	test('a body of 200,000 spaces and a letter that is not JSON: its start, on one line, within the budget', async () => {
		const { error, elapsed, budget } = await pingWith({ status: 418, headers: { 'content-type': 'text/plain' }, body: `${spaces}a${spaces}b` });
		expect(error?.message).toBe('The Partner API answered HTTP 418 with a body it does not normally send');
		expect(error?.description).toBe("Check the credential's Base URL. Response started with: a b");
		expect(elapsed).toBeLessThan(budget);
	});

	test('a JSON body nested 100,000 deep: its start is shown, nothing overflows the stack', async () => {
		const body = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
		const { error, elapsed, budget } = await pingWith({ status: 418, body });
		expect(error?.message).toBe('The Partner API answered HTTP 418 with a body it does not normally send');
		expect(error?.description).toBe(`Check the credential's Base URL. Response started with: ${'['.repeat(300)}…`);
		expect(elapsed).toBeLessThan(budget);
	});

	test('an answer over 4 MB (a success of 10 MB): read no further than 4 MB, a clear error, sent once', async () => {
		const { items, error } = await pingWith({ status: 200, body: { ok: true, data: { pong: true, pad: 'x'.repeat(10 * 1024 * 1024) } } });
		expect(items).toEqual([]);
		expect(error?.message).toBe("The API's answer was larger than 4 MB, where the node stops reading");
		expect(error?.description).toMatch(/^No answer of the Partner API is near that size .* Check the credential's Base URL \(http:\/\/127\.0\.0\.1:\d+\/api\/partner\/v1\); if it is right, report this to the marketplace operator\.$/);
		expect(api!.requests).toHaveLength(1);
	});

	test('an answer just under 4 MB is read whole', async () => {
		const { items, error } = await pingWith({ status: 200, body: { ok: true, data: { pong: true, pad: 'x'.repeat(4 * 1024 * 1024 - 100) } } });
		expect(error).toBeUndefined();
		expect(items[0].json.pong).toBe(true);
	});

	test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('an API code %j is an unknown code, not something every object inherits', async (code) => {
		const refused = await pingWith({ status: 400, body: { ok: false, error: { code, message: 'No.' } } });
		expect(refused.error?.message).toBe(`The Partner API refused the request (HTTP 400, ${code})`);
		expect(refused.error?.description).toBe(`API code: ${code}. The API said: No.`);
		await api?.close();
		// Answered with HTTP 200 (some backends answer every error so): still a refusal, sent once.
		const as200 = await pingWith({ status: 200, body: { ok: false, error: { code, message: 'No.' } } });
		expect(as200.error?.message).toBe(`The Partner API refused the request (HTTP 200, ${code})`);
		expect(api!.requests).toHaveLength(1);
	});
});
