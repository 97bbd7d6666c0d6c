/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The official MCP SDK client (the one the provisioned n8n ships) against an n8n MCP Server Trigger.
import path from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports */
const { N8N_DIR } = require('../../scripts/lib');
const { Client } = require(path.join(N8N_DIR, 'node_modules/@modelcontextprotocol/sdk/dist/cjs/client/index.js'));
const { StreamableHTTPClientTransport } = require(path.join(N8N_DIR, 'node_modules/@modelcontextprotocol/sdk/dist/cjs/client/streamableHttp.js'));
/* eslint-enable @typescript-eslint/no-require-imports */

export type ToolResult = { isError?: boolean; content: Array<{ type: string; text: string }> };

/** A connected MCP client of the server at `url`, with the bearer token when one is given. */
export async function connectMcp(url: string, name: string, bearer?: string): Promise<any> {
	const client = new Client({ name, version: '1.0.0' });
	const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
	await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
	return client;
}

/**
 * Until the published MCP server at `url` listens: n8n answers readiness before it has registered
 * published webhooks (404 until then); an unauthenticated probe is refused (403) once it listens.
 */
export async function untilMcpServerListens(url: string): Promise<void> {
	for (let tries = 0; (await fetch(url, { method: 'POST' })).status === 404; tries++) {
		if (tries > 240) throw new Error(`the MCP server's URL stayed 404: ${url}`);
		await new Promise((r) => setTimeout(r, 500));
	}
}
