/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// What every browser test of the editor shares (test/ui/*.ui.ts): the demo's set-up on free ports
// (the sandbox, n8n with this package installed as a community package, the owner), Debian's
// chromium driven by playwright-core, signing in as the owner, screenshots, and the matcher
// toBeVisibleSoon (the editor renders asynchronously).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, selectors, type Browser, type Locator, type Page } from 'playwright-core';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort, startN8n, ROOT, STATE } = require('../../scripts/lib');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandboxProcess } = require('../../scripts/sandbox-process');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareWorkspace, setUpOwner, OWNER } = require('../../scripts/workspace');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ownerPassword } = require('../../scripts/demo');

export const SHOTS = path.join(STATE, 'ui-screenshots');
export const DOCS = path.join(ROOT, 'docs');
export { ROOT };

const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** The sandbox, n8n and the browser one test file runs against; `stop` ends them all. */
export interface EditorStack {
	sandbox: any;
	n8n: any;
	app: { clientId: string; clientSecret: string; webhookSecret: string };
	browser: Browser;
	userFolder: string;
	password: string;
	stop: () => Promise<void>;
}

/**
 * The demo's set-up on free ports, as `npm start` makes it: the sandbox, a user folder with the
 * package installed, the credential and the example workflows, n8n started, its owner set up; and
 * Debian's chromium. n8n's data-test-id attributes are what getByTestId reads.
 */
export async function startEditorStack(): Promise<EditorStack> {
	mkdirSync(SHOTS, { recursive: true });
	const sandboxPort = await freePort();
	const n8nPort = await freePort();
	const sandbox = await startSandboxProcess(['--port', String(sandboxPort), '--quiet']);
	const userFolder = mkdtempSync(path.join(tmpdir(), 'n8n-partner-ui-'));
	const password = ownerPassword();
	let n8n: any;
	try {
		const { app } = await prepareWorkspace({ userFolder, sandbox, n8nPort });
		n8n = await startN8n(userFolder, { port: n8nPort });
		if (!(await setUpOwner(n8n.url, password))) throw new Error('n8n refused to set up its owner');
		selectors.setTestIdAttribute('data-test-id');
		const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
		const stop = async () => {
			await browser.close();
			await Promise.allSettled([n8n.stop(), sandbox.stop()]);
			rmSync(userFolder, { recursive: true, force: true });
		};
		return { sandbox, n8n, app, browser, userFolder, password, stop };
	} catch (error) {
		await Promise.allSettled([n8n?.stop(), sandbox.stop()]);
		rmSync(userFolder, { recursive: true, force: true });
		throw error;
	}
}

/** Signs in as the demo's owner, as a user does on n8n's sign-in page. */
export async function signIn(page: Page, n8nUrl: string, password: string): Promise<void> {
	await page.goto(`${n8nUrl}/signin`, { timeout: 60_000 });
	await page.getByLabel(/email/i).fill(OWNER.email);
	await page.getByLabel(/password/i).fill(password);
	await page.getByRole('button', { name: /sign in/i }).click();
	await page.waitForURL(/home|workflows/);
}

/**
 * A screenshot of the page into .state/ui-screenshots/<name>.png; with UI_DOCS_SCREENSHOTS=1 and
 * `docs`, also the README's copy of the region that locator shows, into docs/<name>.png.
 */
export async function screenshot(page: Page, name: string, docs?: Locator): Promise<void> {
	await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
	if (docs && process.env.UI_DOCS_SCREENSHOTS) await docs.screenshot({ path: path.join(DOCS, `${name}.png`) });
}

declare global {
	// eslint-disable-next-line @typescript-eslint/no-namespace
	namespace jest {
		interface Matchers<R> {
			toBeVisibleSoon(timeoutMs?: number): Promise<R>;
		}
	}
}

expect.extend({
	/** The locator becomes visible within the time (the editor renders asynchronously). */
	async toBeVisibleSoon(locator: Locator, timeoutMs = 15_000) {
		try {
			await locator.waitFor({ state: 'visible', timeout: timeoutMs });
			return { pass: true, message: () => `${locator} is visible` };
		} catch {
			return { pass: false, message: () => `${locator} did not become visible within ${timeoutMs} ms` };
		}
	},
});
