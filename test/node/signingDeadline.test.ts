/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The time-out signal the credential signer gives each request (transport/requestSigner.ts) is held
// while the request may run, and let go once its deadline passes. A file of its own: what is still
// reachable shows only after a full collection, V8's gc, exposed here.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { signRequestOptions } from '../../nodes/shared/transport/requestSigner';

const BASE = 'https://partner.example.com/api/partner/v1';
const creds = { baseUrl: BASE, clientId: 'cli_test', clientSecret: 'a-secret-of-this-file', headerPrefix: 'X-SVC-' };

describe('the credential signer holds each request time-out signal until its deadline, and no longer', () => {
	// Node holds timeout and composite abort signals weakly, so the signer holds each one while its
	// request may run; a run of 100,000 requests must not keep them all afterwards.
	setFlagsFromString('--expose-gc');
	const gc = runInNewContext('gc') as () => void;
	const collected = async (ref: WeakRef<AbortSignal>) => {
		await new Promise((resolve) => setImmediate(resolve)); // a WeakRef keeps its target to the end of the job that read it
		gc();
		return ref.deref() === undefined;
	};

	test.each([
		['alone', false],
		["beside n8n's own signal (a cancelled execution)", true],
	])('a deadline %s', async (_, withCaller) => {
		const caller = new AbortController();
		const signal = async () => {
			const signed = await signRequestOptions(creds, { method: 'GET', url: `${BASE}/ping.php`, timeout: 400, ...(withCaller ? { abortSignal: caller.signal } : {}) });
			return new WeakRef(signed.abortSignal as AbortSignal);
		};
		const ref = await signal();
		expect(await collected(ref)).toBe(false); // nobody else holds it here: the request may still be on its way
		await new Promise((resolve) => setTimeout(resolve, 800));
		expect(await collected(ref)).toBe(true);
	});
});
