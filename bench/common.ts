// Shared by the benchmark and its memory child process.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// n8n-core needs its user folder before it loads.
process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-partner-bench-'));
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

export interface SandboxInfo {
	baseUrl: string;
	controlUrl: string;
	headerPrefix: string;
	apps: Array<{ name: string; clientId: string; clientSecret: string; webhookSecret: string }>;
}

export async function control(sandbox: SandboxInfo, method: 'GET' | 'POST', route: string, body?: unknown) {
	const res = await fetch(`${sandbox.controlUrl}${route}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = (await res.json()) as { ok: boolean; data: any; error?: { message: string } };
	if (!json.ok) throw new Error(json.error?.message);
	return json.data;
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The in-process n8n engine of the tests, running the BUILT package (dist/), i.e. what users
 * install, not the TypeScript sources.
 */
export async function loadHarness() {
	const harness = await import('../test/helpers/n8n');
	const root = path.join(__dirname, '..');
	const { MarketplacePartner } = require(path.join(root, 'dist/nodes/MarketplacePartner/MarketplacePartner.node.js'));
	const { MarketplacePartnerApi } = require(path.join(root, 'dist/credentials/MarketplacePartnerApi.credentials.js'));
	harness.registerNodeType(harness.NODE_TYPE, new MarketplacePartner());
	harness.registerCredentialType('marketplacePartnerApi', new MarketplacePartnerApi());
	return harness;
}
