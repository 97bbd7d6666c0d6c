/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports -- benchmark code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Shared by the benchmark and its memory child process.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signRequest } from '../nodes/shared/transport/signing';

// n8n-core needs its user folder before it loads.
process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-partner-bench-'));
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

export interface SandboxInfo {
	baseUrl: string;
	controlUrl: string;
	controlToken: string;
	headerPrefix: string;
	apps: Array<{ name: string; clientId: string; clientSecret: string; webhookSecret: string }>;
}

const { control: sandboxControl } = require('../sandbox/client');

export function control(sandbox: SandboxInfo, method: 'GET' | 'POST', route: string, body?: unknown): Promise<any> {
	return sandboxControl(sandbox, method, route, body);
}

/** The headers of one signed request, signed now: the references sign the way the node does. */
export function signedHeaders(clientId: string, clientSecret: string, method: 'GET' | 'POST', path: string, body = ''): Record<string, string> {
	const ts = Math.floor(Date.now() / 1000);
	return {
		accept: 'application/json',
		...(body ? { 'content-type': 'application/json' } : {}),
		'X-SVC-CLIENT-ID': clientId,
		'X-SVC-TIMESTAMP': String(ts),
		'X-SVC-SIGNATURE': signRequest(clientSecret, method, path, ts, body),
	};
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs a trial's steps, each side of a comparison one, starting with a different one each trial
 * (trial r starts with step r mod n): no side always runs first, on a heap the other left behind.
 */
export async function inTurns(trial: number, steps: Array<() => Promise<unknown>>): Promise<void> {
	for (let k = 0; k < steps.length; k++) await steps[(trial + k) % steps.length]();
}

/** A ratio of trials run in pairs, alternately (ours, then the reference): each pair's ratio, their median and spread. */
export interface PairedRatio {
	ratio: number;
	low: number;
	high: number;
	trials: number;
}

export function pairedRatio(ours: number[], reference: number[]): PairedRatio {
	const ratios = ours.map((value, i) => value / reference[i]);
	return { ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios), trials: ratios.length };
}

/** "1.03x (0.98-1.07 over 7 trials)": the median ratio and the spread of the trials behind it. */
export function ratioText({ ratio, low, high, trials }: PairedRatio, unit = 'x'): string {
	const two = (n: number) => n.toFixed(2);
	return `${two(ratio)}${unit} (${two(low)}-${two(high)} over ${trials} trials)`;
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

/** One row of the benchmark table. `met`: whether the target was reached (absent: no target). */
export interface TableRow {
	scenario: string;
	ours: string;
	reference: string;
	ratio: string;
	target?: string;
	met?: boolean;
}

export const TABLE_HEAD = ['| Scenario | Ours | Reference | Ratio | Target | Met |', '|---|---|---|---|---|---|'];

export function tableLine({ scenario, ours, reference, ratio, target = '', met }: TableRow): string {
	return `| ${scenario} | ${ours} | ${reference} | ${ratio} | ${target} | ${met === undefined ? '' : met ? 'met' : '**missed**'} |`;
}
