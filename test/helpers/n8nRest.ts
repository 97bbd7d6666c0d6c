/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// n8n's REST API as its editor calls it: JSON bodies, and the session cookie set at sign-in kept
// for the calls after it.
import path from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports */
const { N8N_DIR } = require('../../scripts/lib');
// n8n's execution data is "flatted" JSON; the parser comes with the provisioned n8n.
const flatted = require(path.join(N8N_DIR, 'node_modules/flatted'));
/* eslint-enable @typescript-eslint/no-require-imports */

export type RunData = Record<string, Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>>;

/** A REST client for the n8n whose address `baseUrl()` gives when called (it may restart on a new port). */
export function n8nRest(baseUrl: () => string) {
	let cookie = '';
	const rest = async (method: string, route: string, body?: unknown) => {
		const res = await fetch(`${baseUrl()}/rest${route}`, {
			method,
			headers: { 'content-type': 'application/json', cookie },
			body: body === undefined ? undefined : JSON.stringify(body),
			// Never wait forever on an n8n that stopped answering: the caller gets an error to report.
			signal: AbortSignal.timeout(120_000),
		});
		const setCookie = res.headers.get('set-cookie');
		if (setCookie) cookie = setCookie.split(';')[0];
		// eslint-disable-next-line @typescript-eslint/no-explicit-any
		return { status: res.status, json: (await res.json().catch(() => null)) as any };
	};
	/** One execution's data (undefined while n8n has none for it, e.g. a crashed one). */
	const executionData = async (id: string): Promise<{ resultData: { runData: RunData; error?: { message?: string } } } | undefined> => {
		const stored = (await rest('GET', `/executions/${id}`)).json?.data?.data;
		return stored ? flatted.parse(stored) : undefined;
	};
	/** A signed-in GET outside /rest (the editor's /types/nodes.json), as JSON. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	const page = async (route: string): Promise<any> => (await fetch(`${baseUrl()}${route}`, { headers: { cookie }, signal: AbortSignal.timeout(120_000) })).json();
	/** The run data of one execution, by node name. */
	const runData = async (id: string): Promise<RunData> => (await executionData(id))!.resultData.runData;
	return { rest, executionData, runData, page };
}

/** The items a node put out on one of its outputs, in an execution's run data. */
export const output = (data: RunData, node: string, index = 0) => (data[node]?.[0]?.data.main[index] ?? []).map((i) => i.json);
