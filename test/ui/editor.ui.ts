/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The editor as a new user meets it: Debian's chromium, driven by playwright-core, against the real
// n8n with this package installed as a community package and the sandbox behind it (the demo's own
// set-up, on free ports). Asserts what the screen says; screenshots of each step go to
// .state/ui-screenshots/ (git-ignored), and with UI_DOCS_SCREENSHOTS=1 the README's ones to docs/.
import { type Locator, type Page } from 'playwright-core';
import { screenshot, signIn, startEditorStack, type EditorStack } from '../helpers/editorUi';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { CREDENTIAL_ID, TRIGGER_WORKFLOW_ID } = require('../../scripts/workspace');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { control } = require('../../sandbox/client');

const STOCK_WORKFLOW_ID = 'mpExStockSync1';
const NODE_TYPE = 'n8n-nodes-marketplace-partner.marketplacePartner';

describe('the editor in a real browser', () => {
	let stack: EditorStack;
	let sandbox: any;
	let n8n: any;
	let page: Page;
	let app: EditorStack['app'];
	const notFound: string[] = [];

	/** A screenshot of the step; with `docs`, also the README's copy of the region `clip` shows. */
	async function shot(name: string, docs?: Locator) {
		await screenshot(page, name, docs);
	}

	beforeAll(async () => {
		stack = await startEditorStack();
		({ sandbox, n8n, app } = stack);
		page = await stack.browser.newPage({ viewport: { width: 1280, height: 800 } });
		page.on('response', (res) => {
			if (res.status() === 404 && res.url().includes('marketplace')) notFound.push(res.url());
		});
	}, 600_000);

	afterAll(async () => {
		await stack?.stop();
	});

	test('sign in', async () => {
		await signIn(page, n8n.url, stack.password);
		await shot('01-signed-in');
	});

	test('the node creator finds the nodes by "Marketplace": icon, triggers and actions', async () => {
		await page.goto(`${n8n.url}/workflow/new`);
		await expect(page.getByText('Add first step')).toBeVisibleSoon();
		await page.locator('[data-test-id="node-creator-plus-button"]').click();
		await page.locator('[data-test-id="node-creator"] input').first().fill('Marketplace');
		const creator = page.locator('[data-test-id="node-creator"]');
		await expect(creator.getByText('Marketplace Partner', { exact: true })).toBeVisibleSoon();
		await shot('node-creator-search', creator);
		// The polling trigger is an entry of its own (n8n merges only "X" with "X Trigger").
		const found = await creator.innerText();
		expect(found).toContain('Marketplace Partner Orders');
		expect(found).toContain('Starts the workflow when order items are created or change, by polling');
		// The merged "Marketplace Partner" entry shows the webhook trigger's description: it names both halves.
		expect(found).toContain("Starts the workflow when the marketplace's verified webhooks arrive; reads orders and sets stock through its Partner API");
		await creator.getByText('Marketplace Partner', { exact: true }).click();
		await expect(creator.getByText('Triggers (5)')).toBeVisibleSoon();
		for (const event of ['On all events', 'On order created', 'On order updated', 'On return requested', 'On stock updated']) {
			await expect(creator.getByText(event, { exact: true })).toBeVisibleSoon();
		}
		// Get Many, Get, Update stock, Ping, Check Setup and Send a request to an endpoint.
		await expect(creator.getByText('Actions (6)')).toBeVisibleSoon();
		// With no trigger on the canvas yet, n8n shows the actions collapsed: a click opens them.
		await creator.getByText('Actions (6)').click();
		await expect(creator.getByText('Send a request to an endpoint', { exact: true })).toBeVisibleSoon();
		// The icon is the package's own, served by n8n from the installed package.
		const icon = creator.locator('img[src*="marketplacePartner"]').first();
		await expect(icon).toBeVisibleSoon();
		expect(await icon.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
		await shot('node-creator', creator);
	});

	test('the webhook trigger shows its URLs, and "listen for test event" receives a sandbox test event; a tampered one does not appear', async () => {
		await page.goto(`${n8n.url}/workflow/${TRIGGER_WORKFLOW_ID}`);
		const triggerNode = page.locator('[data-test-id="canvas-node"][data-node-type$=".marketplacePartnerTrigger"]');
		await expect(triggerNode).toBeVisibleSoon();
		await shot('trigger-workflow');
		// The editor may open a hint popover over the canvas on a published workflow, sometimes only
		// after the canvas shows: close it (Escape) until the double click reaches the node.
		for (let tries = 1; ; tries++) {
			await page.keyboard.press('Escape');
			await page.locator('[data-reka-popper-content-wrapper]').waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined);
			const opened = await triggerNode.dblclick({ timeout: 5000 }).then(
				() => true,
				(error: Error) => {
					if (tries >= 5) throw error;
					return false;
				},
			);
			if (opened) break;
		}
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.getByText('Webhook URLs', { exact: true }).click();
		await ndv.locator('[data-test-id="radio-button-production"]').click();
		const productionUrl = /http:\/\/127\.0\.0\.1:\d+\/webhook\/[\w-]+\/webhook/.exec(await ndv.innerText())?.[0];
		expect(productionUrl).toBeDefined();
		await ndv.locator('[data-test-id="radio-button-test"]').click();
		const testUrl = /http:\/\/127\.0\.0\.1:\d+\/webhook-test\/[\w-]+\/webhook/.exec(await ndv.innerText())?.[0];
		expect(testUrl).toBeDefined();
		await shot('trigger-urls', ndv.locator('.webhooks'));

		await ndv.getByRole('button', { name: /test this trigger|listen for test event/i }).click();
		await expect(ndv.getByText(/Listening for test event/i)).toBeVisibleSoon();
		await control(sandbox, 'POST', `/apps/${app.clientId}/test-event`, { url: testUrl, tamper: 'signature' });
		const [tampered] = await control(sandbox, 'POST', '/deliveries/wait');
		expect(tampered.statusCode).toBe(401);
		await expect(ndv.getByText(/Listening for test event/i)).toBeVisibleSoon();

		await control(sandbox, 'POST', `/apps/${app.clientId}/test-event`, { url: testUrl, event: 'order.created' });
		const output = page.locator('[data-test-id="output-panel"]');
		await expect(output.getByText('order.created').first()).toBeVisibleSoon(30_000);
		await shot('trigger-test-event', output);
		await page.keyboard.press('Escape');
	});

	test('the spreadsheet example runs from the editor: 5 rows updated, 3 in the Failure Report with the node\'s own error texts', async () => {
		await page.goto(`${n8n.url}/workflow/${STOCK_WORKFLOW_ID}`);
		await page.locator('[data-test-id="execute-workflow-button"]').click();
		await expect(page.getByText(/workflow executed successfully/i).first()).toBeVisibleSoon(60_000);
		const canvas = page.locator('[data-test-id="canvas-wrapper"], #canvas').first();
		await expect(canvas.getByText('5 items').first()).toBeVisibleSoon();
		await expect(canvas.getByText('3 items').first()).toBeVisibleSoon();
		// The canvas says what each Marketplace node does: operation and resource (a literal subtitle,
		// as n8n's verification requires).
		await expect(canvas.getByText('update: stock', { exact: true })).toBeVisibleSoon();
		await shot('stock-workflow');

		await page.locator('[data-test-id="canvas-node"][data-node-name="Failure Report"]').dblclick();
		const ndv = page.locator('[data-test-id="ndv"]');
		const output = ndv.locator('[data-test-id="output-panel"]');
		await output.getByText('JSON', { exact: true }).click();
		await expect(output.getByText('The product belongs to another seller').first()).toBeVisibleSoon();
		// The JSON view escapes the quotes around the column's name.
		await expect(output.getByText(/Stock \(column \\?"stock\\?"\) must be 0 or more, but got -3 \(stock cannot be negative\)\./).first()).toBeVisibleSoon();
		await shot('stock-failures');
		// The JSON view renders the rows in view only: the third failure is further down.
		await output.hover();
		await page.mouse.wheel(0, 3000);
		await expect(output.getByText('The product was not found').first()).toBeVisibleSoon();
		await page.keyboard.press('Escape');

		await page.locator('[data-test-id="canvas-node"][data-node-name="Update Stock"]').dblclick();
		await expect(ndv.getByText('old_stock').first()).toBeVisibleSoon();
		// What the run met besides its items: the node's execution hint, over its output.
		const hint = ndv.locator('[data-test-id="run-data-hints"]');
		await expect(hint.getByText('3 of 8 rows failed and changed no stock: they are the items with an "error" field', { exact: false })).toBeVisibleSoon();
		await shot('stock-update-hint', ndv.locator('[data-test-id="output-panel"]'));
		// n8n's resource mapper, in the mode the example uses: the columns are read from each row.
		await shot('stock-update-parameters', ndv);
		const mappingMode = ndv.locator('[data-test-id="mapping-mode-select"]');
		await expect(mappingMode).toBeVisibleSoon();
		// The select shows its choice as text or in an input's value, by design-system version.
		const shown = await mappingMode.evaluate((el) => `${el.textContent} ${[...el.querySelectorAll('input')].map((i) => i.value).join(' ')}`);
		expect(shown).toContain('Map Automatically');
		// n8n's own notice of this mode, then the node's, which goes on from it: one account, not two.
		await expect(ndv.getByText('make sure the incoming data fields are named the same as the columns in Marketplace Partner', { exact: false }).first()).toBeVisibleSoon();
		await expect(ndv.getByText(/The columns in Marketplace Partner are product_id \(or sku, as Identify Product By says\) and stock/).first()).toBeVisibleSoon();
		// An empty CSV cell previews as empty, not as a red "undefined".
		expect((await ndv.innerText()).split('\n')).not.toContain('undefined');
		await shot('stock-update', ndv.locator('[data-test-id="output-panel"]'));
		await page.keyboard.press('Escape');
	});

	test('the credential test: a wrong secret gets the exact message, the right one "Connection tested successfully"', async () => {
		await page.goto(`${n8n.url}/home/credentials/${CREDENTIAL_ID}`);
		const modal = page.locator('[data-test-id="editCredential-modal"]');
		await expect(modal.getByText('Client Secret').first()).toBeVisibleSoon();
		const secret = modal.locator('[data-test-id="parameter-input-clientSecret"] input');
		await secret.fill('wrong-secret');
		await modal.locator('[data-test-id="credential-save-button"]').click();
		await expect(modal.getByText('Couldn’t connect with these settings')).toBeVisibleSoon(30_000);
		await modal.getByText('More details').click();
		await expect(
			modal.getByText('The API could not verify the signature: the Client ID or Client Secret is wrong.'),
		).toBeVisibleSoon(30_000);
		await shot('credential-wrong-secret');
		await secret.fill(app.clientSecret);
		await modal.locator('[data-test-id="credential-save-button"]').click();
		await expect(modal.getByText('Connection tested successfully')).toBeVisibleSoon(30_000);
		await shot('credential-test', modal);
		await page.keyboard.press('Escape');
	});

	test('n8n serves an output schema for every operation of both node versions, so the editor offers fields before a run (no 404s)', async () => {
		for (const [version, resource, operation] of ['1.0.0', '2.0.0'].flatMap((v) => [
			[v, 'order', 'get'],
			[v, 'order', 'getMany'],
			[v, 'stock', 'update'],
			[v, 'connection', 'ping'],
		])) {
			const res = await page.request.get(`${n8n.url}/schemas/${NODE_TYPE}/${version}/${resource}/${operation}.json`);
			expect([version, resource, operation, res.status()]).toEqual([version, resource, operation, 200]);
			expect((await res.json()).type).toBe('object');
		}
		expect(notFound).toEqual([]);
	});
});
