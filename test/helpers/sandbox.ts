/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Starts the real sandbox in-process on a free loopback port, and talks to its control API.

// The sandbox is dev-only JavaScript; it has no type declarations of its own.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../../sandbox/server');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { control } = require('../../sandbox/client');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generateSecrets } = require('../../sandbox/secrets');

export interface SandboxApp {
	name: string;
	clientId: string;
	clientSecret: string;
	webhookSecret: string;
	sellerId: number;
	permissions: string[];
	active: boolean;
}

export interface RunningSandbox {
	baseUrl: string;
	origin: string;
	// The control API's bearer token, for tests that call it without `control`.
	controlToken: string;
	apps: Record<string, SandboxApp>;
	// The sandbox object itself, for in-process assertions on its state.
	raw: any;
	control<T = any>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
	close(): Promise<void>;
}

/**
 * Each sandbox has its own apps' secrets (through a reset too). The node signs a request identical to
 * one it signed in the same second for an earlier second (requestSigner.ts), up to a minute back,
 * then waits a second per request: sandboxes sharing the seeded secrets made tests wait on each
 * other's identical requests.
 */
export async function startSandbox(options: Record<string, unknown> = {}): Promise<RunningSandbox> {
	const sandbox = createSandbox({ orders: 300, secrets: generateSecrets(), ...options });
	await sandbox.start(0);
	const described = sandbox.describe();
	const apps = Object.fromEntries(described.apps.map((a: SandboxApp) => [a.name, a]));
	return {
		baseUrl: sandbox.baseUrl,
		origin: sandbox.origin,
		controlToken: described.controlToken,
		apps,
		raw: sandbox,
		control: (method, path, body) => control(described, method, path, body),
		close: () => sandbox.close(),
	};
}
