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

/**
 * A user's hands in the editor: the node creator, the node panel (NDV), its parameters, running a
 * step or the workflow. `runs` counts the runs a task took: clicks on "Execute workflow" and
 * "Execute step" here, and whatever a test adds (the credential's Save, "Fetch Test Event").
 */
export class EditorSession {
	runs = 0;
	readonly ndv: Locator;

	constructor(
		readonly page: Page,
		readonly n8nUrl: string,
	) {
		this.ndv = page.getByTestId('ndv');
	}

	canvasNode = (name: string) => this.page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	parameter = (name: string) => this.ndv.getByTestId(`parameter-input-${name}`);
	/** A collection parameter (Filters, Column Names), by its label: a notice may name it too. */
	collectionParameter = (label: string) => this.ndv.getByTestId('parameter-item').filter({ has: this.page.getByText(label, { exact: true }) }).filter({ has: this.page.getByTestId('collection-parameter-add') }).last();
	parameterItem = (label: string) => this.ndv.getByTestId('parameter-item').filter({ hasText: label }).first();

	/** Drags with the mouse, in steps, as a user does (n8n's mapping starts its drag only after a move). */
	drag = async (from: Locator, to: Locator) => {
		const a = (await from.boundingBox())!;
		const b = (await to.boundingBox())!;
		await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
		await this.page.mouse.down();
		await this.page.mouse.move(a.x + a.width / 2 + 30, a.y + a.height / 2 + 10, { steps: 5 });
		await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
		await this.page.mouse.up();
	};

	newWorkflow = async () => {
		await this.page.goto(`${this.n8nUrl}/workflow/new`, { timeout: 60_000 });
		await expect(this.page.getByText('Add first step')).toBeVisibleSoon(30_000);
	};

	/** Picks an entry (and one of its actions or triggers) in the open node creator, found by typing. */
	pickInNodeCreator = async (search: string, item: string, action?: string) => {
		await this.page.getByTestId('node-creator-search-bar').fill(search);
		await this.page.getByTestId('node-creator-item-name').getByText(item, { exact: true }).click();
		if (!action) return;
		const entry = this.page.getByTestId('node-creator-item-name').getByText(action, { exact: true });
		// After a trigger, the node creator shows an entry's actions and folds its triggers away.
		if (!(await entry.waitFor({ timeout: 3000 }).then(() => true, () => false))) {
			await this.page.getByTestId('node-creator').getByText(/^Triggers \(\d+\)$/).click();
		}
		await entry.click();
	};

	addFirstStep = async (search: string, item: string, action?: string) => {
		await this.page.getByTestId('canvas-plus-button').click();
		await this.pickInNodeCreator(search, item, action);
	};

	/** Adds a node after `previous` with the + at its output; the node's panel opens. */
	addAfter = async (previous: string, search: string, item: string, action?: string) => {
		// The whole workflow in view, so the + of the last node is on screen.
		await this.page.getByTestId('zoom-to-fit').click();
		await this.page.locator(`[data-test-id="canvas-node-output-handle"][data-node-name="${previous}"] [data-test-id="canvas-handle-plus"]`).first().click();
		await this.pickInNodeCreator(search, item, action);
		await expect(this.ndv).toBeVisibleSoon();
	};

	openNode = async (name: string) => {
		await this.canvasNode(name).dblclick();
		await expect(this.ndv).toBeVisibleSoon();
	};

	closeNdv = async () => {
		await this.ndv.getByTestId('ndv-close-button').click();
		await this.ndv.waitFor({ state: 'hidden' });
	};

	/** Picks `option` in the dropdown of parameter `name`. */
	choose = async (name: string, option: string) => {
		await this.parameter(name).click();
		// An option's name, then its description.
		await this.page.getByRole('option', { name: new RegExp(`^${option}`) }).click();
	};

	/** Adds an entry of a collection parameter (Filters, Column Names, Options) by its display name. */
	addToCollection = async (collection: Locator, option: string) => {
		await collection.getByTestId('collection-parameter-add').click();
		await this.page.getByRole('option', { name: option, exact: true }).click();
	};

	/** Types an expression into a parameter, as a user does: "{{" switches the field to an expression. */
	typeExpression = async (field: Locator, expression: string) => {
		await field.click();
		await this.page.keyboard.press('ControlOrMeta+a');
		await this.page.keyboard.press('Backspace');
		await this.page.keyboard.type(expression);
		await this.commit();
		// n8n takes the value a moment after the last key; its preview under the field shows the value
		// it holds (kept where no preview shows, as before).
		await this.ndv.getByTestId('parameter-expression-preview-value').filter({ hasText: expression }).first().waitFor({ timeout: 10_000 }).catch(() => undefined);
	};

	/**
	 * Types `value` into a field and leaves it, until the field holds it: n8n clears a resource
	 * locator's field a moment after its mode changes, which can swallow what was typed just before.
	 */
	fillField = async (field: Locator, value: string) => {
		for (let attempt = 0; attempt < 5; attempt++) {
			await field.fill(value);
			await this.commit();
			if ((await field.inputValue()) === value) return;
			await this.page.waitForTimeout(300);
		}
		throw new Error(`The field did not keep "${value}" after five tries`);
	};

	/** Leaves the field, as a user clicking elsewhere does: n8n takes a typed value when its field loses focus. */
	commit = async () => {
		await this.ndv.getByTestId('node-parameters').click({ position: { x: 4, y: 4 } });
	};

	/** "Execute workflow" on the canvas; waits for n8n's verdict, which it returns. */
	executeWorkflow = async (): Promise<string> => {
		// The verdict of an earlier run stays on screen until closed.
		for (const close of await this.page.locator('.el-notification__closeBtn').all()) await close.click().catch(() => undefined);
		await this.page.locator('.el-notification').first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined);
		this.runs++;
		await this.page.getByTestId('execute-workflow-button').click();
		const verdict = this.page.getByText(/Workflow executed successfully|Problem in node/).first();
		await expect(verdict).toBeVisibleSoon(60_000);
		return verdict.innerText();
	};

	/** "Execute step" in the open node panel; waits until its output shows. */
	executeStep = async (output = this.ndv.getByTestId('output-panel').getByText(/\d+ items?|Error/).first()) => {
		this.runs++;
		await this.ndv.getByTestId('node-execute-button').click();
		try {
			await expect(output).toBeVisibleSoon(60_000);
		} catch (error) {
			// What the panel showed instead (an error, another output): the failure says it.
			const shown = await this.ndv.getByTestId('output-panel').innerText().catch(() => '(no output panel)');
			throw new Error(`${(error as Error).message}\nThe output panel showed: ${shown.slice(0, 600)}`);
		}
	};

	/** The texts of the open panel's parameters (tooltips' content: the node types, which give it); the user's own credential's name aside. */
	panelTexts = async (): Promise<string> => {
		return (await this.ndv.getByTestId('node-parameters').innerText()).replace(/Marketplace Partner \(sandbox\)/g, '<the credential>');
	};
}
