// Starts the real sandbox in-process on a free loopback port, and talks to its control API.
import { request } from 'undici';

// The sandbox is dev-only JavaScript; it has no type declarations of its own.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../../sandbox/server');

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
	apps: Record<string, SandboxApp>;
	// The sandbox object itself, for in-process assertions on its state.
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	raw: any;
	control<T = any>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
	close(): Promise<void>;
}

export async function startSandbox(options: Record<string, unknown> = {}): Promise<RunningSandbox> {
	const sandbox = createSandbox({ orders: 300, ...options });
	await sandbox.start(0);
	const described = sandbox.describe();
	const apps = Object.fromEntries(described.apps.map((a: SandboxApp) => [a.name, a]));
	return {
		baseUrl: sandbox.baseUrl,
		origin: sandbox.origin,
		apps,
		raw: sandbox,
		async control(method, path, body) {
			const res = await request(`${sandbox.origin}/_sandbox${path}`, {
				method,
				body: body === undefined ? undefined : JSON.stringify(body),
				headers: { 'content-type': 'application/json' },
			});
			const json = (await res.body.json()) as { ok: boolean; data: any; error?: { message: string } };
			if (!json.ok) throw new Error(`control ${method} ${path}: ${res.statusCode} ${json.error?.message}`);
			return json.data;
		},
		close: () => sandbox.close(),
	};
}
