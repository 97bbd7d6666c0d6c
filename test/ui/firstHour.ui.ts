/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// A new user's first hour with the package, in the editor (issue #42, item 8): each task done as a
// user does it (the node creator, typing, clicking, dragging; a second tab for the sandbox's test
// event page), never through n8n's REST API or the sandbox's control API. The test reads the
// sandbox's state and the node types the editor fetched only to assert what came of the user's steps, and counts
// the runs each task took: clicks on "Execute workflow", "Execute step", "Test this trigger",
// "Fetch Test Event" and the credential's Save (its connection test).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { EditorSession, ROOT, SHOTS, screenshot, signIn, startEditorStack, type EditorStack } from '../helpers/editorUi';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { control } = require('../../sandbox/client');

const PACKAGE = 'n8n-nodes-marketplace-partner';
/** The one folder the demo's file nodes may use (N8N_RESTRICT_FILE_ACCESS_TO, scripts/lib.js). */
const FILES = path.join(ROOT, 'examples');
/** The user's own stock sheet, keyed by SKU, with a quantity column named otherwise than "stock". */
const STOCK_SHEET = path.join(FILES, 'first-hour-stock.csv');
/** Where task 2's workflow writes the order's row. */
const ORDERS_FILE = path.join(FILES, 'first-hour-orders.csv');
/** An order number from a customer's e-mail, and its order item, as the seeded sandbox (seed 1) has them. */
const ORDER_NO = 'ORD-A-0000106';
const ORDER_NO_ITEM = 500106;
const MANUAL_TRIGGER = 'When clicking ‘Execute workflow’';
/** Words a help text must not use with a user: the team's, not theirs. */
const JARGON = /\bspec(s|ification)?\b|\bsandbox\b|\bsigned\b/i;

describe('the first hour of a new user, in the editor', () => {
	let stack: EditorStack;
	let n8n: any;
	let sandbox: any;
	let page: Page;
	let ndv: Locator;
	/** The user's hands in the editor; its `runs`: the runs the current task started (reset before each task). */
	let ui: EditorSession;
	const notFound: string[] = [];
	/** The node and credential types as the editor fetched them (its source of every help text). */
	const types: Record<string, any> = {};

	const shot = (name: string, docs?: Locator) => screenshot(page, `first-hour-${name}`, docs);

	/** Reads the sandbox's state (assertions only: the user's steps never call it). */
	async function sandboxState(route: string): Promise<any> {
		return await control(sandbox, 'GET', route);
	}

	beforeAll(async () => {
		rmSync(ORDERS_FILE, { force: true });
		stack = await startEditorStack();
		({ n8n, sandbox } = stack);
		// A context of its own: the sandbox's page opens in a second tab of it.
		page = await (await stack.browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
		ui = new EditorSession(page, n8n.url);
		ndv = ui.ndv;
		page.on('response', (res) => {
			if (res.status() === 404 && /\/schemas\/.*marketplace/i.test(res.url())) notFound.push(res.url());
			const kind = /\/types\/(nodes|credentials)\.json/.exec(res.url())?.[1];
			// A body the page navigated away from is gone: the next fetch of it counts.
			if (kind && res.status() === 200) res.json().then((json) => (types[kind] = json), () => undefined);
		});
		await signIn(page, n8n.url, stack.password);
	}, 600_000);

	beforeEach(() => {
		ui.runs = 0;
	});

	// Where each task ended, for whoever reads a failure.
	afterEach(async () => {
		const task = /\s(\d+)\.\s/.exec(expect.getState().currentTestName ?? '')?.[1] ?? 'x';
		await page.screenshot({ path: path.join(SHOTS, `first-hour-end-of-task-${task}.png`) }).catch(() => undefined);
	});

	afterAll(async () => {
		await stack?.stop();
		rmSync(STOCK_SHEET, { force: true });
		rmSync(ORDERS_FILE, { force: true });
	});

	test('1. the credential: Save tests the connection, "Connection tested successfully" in one run', async () => {
		await page.goto(`${n8n.url}/home/credentials`, { timeout: 60_000 });
		await page.getByText('Marketplace Partner (sandbox)', { exact: true }).first().click();
		const modal = page.getByTestId('editCredential-modal');
		await expect(modal.getByText('Client Secret').first()).toBeVisibleSoon();
		ui.runs++;
		await modal.getByTestId('credential-save-button').click();
		await expect(modal.getByText('Connection tested successfully')).toBeVisibleSoon(30_000);
		await shot('credential', modal);
		await page.keyboard.press('Escape');
		await modal.waitFor({ state: 'hidden' });
		expect(ui.runs).toBe(1);
	}, 240_000);

	test('2. webhook trigger (order.created) → Order › Get → a row in a CSV file, the test event sent from the sandbox\'s page in a second tab', async () => {
		await ui.newWorkflow();
		await ui.addFirstStep('Marketplace', 'Marketplace Partner', 'On order created');
		await expect(ndv).toBeVisibleSoon();
		await ndv.getByText('Webhook URLs', { exact: true }).click();
		await ndv.getByTestId('radio-button-test').click();
		const testUrl = /http:\/\/127\.0\.0\.1:\d+\/webhook-test\/[\w-]+\/webhook/.exec(await ndv.innerText())?.[0];
		expect(testUrl).toBeDefined();
		ui.runs++;
		await ndv.getByTestId('node-execute-button').click();
		await expect(ndv.getByText(/Listening for test event/i).first()).toBeVisibleSoon();
		await shot('webhook-listening', ndv);

		// The sandbox's test event page, in a second tab: the user pastes the Test URL and sends.
		const eventPage = await page.context().newPage();
		await eventPage.goto(new URL('/', sandbox.baseUrl).href);
		await eventPage.getByLabel(/Trigger URL/).fill(testUrl!);
		await eventPage.getByLabel('Event').selectOption('order.created');
		const orderItemId = Number(await eventPage.getByLabel(/Order item/).inputValue());
		expect(orderItemId).toBeGreaterThan(0);
		await eventPage.getByRole('button', { name: 'Send test event' }).click();
		await expect(eventPage.getByText(/n8n answered HTTP 200/)).toBeVisibleSoon(30_000);
		await screenshot(eventPage, 'first-hour-test-event-page', eventPage.locator('body'));
		await eventPage.close();

		// The trigger's item: the order item's fields at the top (version 2).
		const output = ndv.getByTestId('output-panel');
		await expect(output.getByText('order_item_id').first()).toBeVisibleSoon(30_000);
		await output.getByTestId('radio-button-json').click();
		await expect(output.getByText(`"order_item_id": ${orderItemId}`).first()).toBeVisibleSoon();
		await shot('webhook-test-event', output);
		await ui.closeNdv();
		const trigger = (await page.locator('[data-test-id="canvas-node"]').first().getAttribute('data-node-name'))!;

		await ui.addAfter(trigger, 'Marketplace', 'Marketplace Partner', 'Get an order item');
		const orderItem = ui.parameter('orderItem');
		await orderItem.getByTestId('rlc-mode-selector').click();
		await page.getByRole('option', { name: 'By ID', exact: true }).click();
		// Mapped by dragging order_item_id from the trigger's item (the input panel) onto the field.
		await ui.drag(ndv.getByTestId('ndv-input-panel').getByText('order_item_id', { exact: true }).first(), orderItem.getByTestId('rlc-input'));
		await expect(orderItem.getByText('{{ $json.order_item_id }}').first()).toBeVisibleSoon();
		// The expression's preview: the test event's order item.
		await expect(ui.parameterItem('Order Item').getByText(String(orderItemId), { exact: true }).first()).toBeVisibleSoon();
		await ui.parameter('simplify').locator('.el-switch').click();
		await shot('order-get-mapped', ndv);
		const getNode = (await page.locator('[data-test-id="canvas-node"]').nth(1).getAttribute('data-node-name'))!;
		await ui.closeNdv();

		await ui.addAfter(getNode, 'Convert to File', 'Convert to File', 'Convert to CSV');
		await ui.closeNdv();
		await ui.addAfter('Convert to File', 'Read/Write Files', 'Read/Write Files from Disk', 'Write File to Disk');
		await ui.parameter('fileName').locator('input, textarea').first().fill(ORDERS_FILE);
		await ui.commit();
		await ui.executeStep();
		await shot('orders-file-written', ndv);
		await ui.closeNdv();

		expect(existsSync(ORDERS_FILE)).toBe(true);
		const [header, row] = csvLines(ORDERS_FILE);
		const columns = header.split(',');
		const detail = await sandboxState(`/orders/${orderItemId}`);
		const values = row.split(',');
		expect(values[columns.indexOf('order_item_id')]).toBe(String(orderItemId));
		expect(values[columns.indexOf('order_no')]).toBe(detail.order.order_no);
		await shot('webhook-workflow');
		// Listening, then the file: the test event run and the step's run.
		expect(ui.runs).toBe(2);
	}, 240_000);

	test('3. the Orders Trigger in front of the same nodes: Fetch Test Event gives an order.created sample, the same {{ $json.order_item_id }} works', async () => {
		// The workflow of task 2 is still open.
		const nodes = page.locator('[data-test-id="canvas-node"]');
		const oldTrigger = (await nodes.first().getAttribute('data-node-name'))!;
		const getNode = (await nodes.nth(1).getAttribute('data-node-name'))!;
		await page.getByTestId('node-creator-plus-button').click();
		await ui.pickInNodeCreator('Marketplace Partner Orders', 'Marketplace Partner Orders', 'On new order item');
		await expect(ndv).toBeVisibleSoon();
		const ordersTrigger = (await ndv.getByTestId('node-title-container').innerText()).trim();
		// Events: New Order Item only.
		expect((await ui.parameter('events').innerText()).trim()).toBe('New Order Item');
		// n8n 2.x publishes a workflow: the panel says so, and says "activate" only as n8n 1.x's word for it (checked at the end).
		const panel = await ndv.innerText();
		const wording = { publish: /publish/i.test(panel), activate: /\bactivat\w*/i.exec(panel.replace(/\(n8n 1\.x: activ\w*\)/gi, ''))?.[0] ?? null };
		ui.runs++;
		await ndv.getByRole('button', { name: /fetch test event/i }).first().click();
		const output = ndv.getByTestId('output-panel');
		await output.getByTestId('radio-button-json').click();
		await expect(output.getByText('"order_item_id"').first()).toBeVisibleSoon(30_000);
		const sample = await output.innerText();
		expect(sample).toMatch(/"event":\s*"order\.created"|order\.created/);
		const sampleItemId = Number(/"order_item_id":\s*(\d+)/.exec(sample)?.[1]);
		expect(sampleItemId).toBeGreaterThan(0);
		await shot('orders-trigger-sample', ndv);
		await ui.closeNdv();

		// Rewire by dragging: the Orders Trigger's output onto Order › Get's input; the old trigger goes.
		await ui.canvasNode(oldTrigger).click();
		await page.keyboard.press('Delete');
		await ui.canvasNode(oldTrigger).waitFor({ state: 'detached' });
		const from = page.locator(`[data-test-id="canvas-node-output-handle"][data-node-name="${ordersTrigger}"]`).first();
		const to = page.locator(`[data-test-id="canvas-node-input-handle"][data-node-name="${getNode}"]`).first();
		await page.getByTestId('zoom-to-fit').click();
		await ui.drag(from, to);
		await expect(page.locator(`[data-test-id="edge"][data-source-node-name="${ordersTrigger}"][data-target-node-name="${getNode}"]`)).toBeVisibleSoon();

		// Tidied up, the canvas reads left to right again.
		await page.getByTestId('tidy-up-button').click();
		await shot('orders-trigger-rewired');

		// Order › Get keeps its mapping, unchanged.
		await ui.openNode(getNode);
		expect(await ui.parameter('orderItem').innerText()).toContain('{{ $json.order_item_id }}');
		await ui.closeNdv();
		rmSync(ORDERS_FILE, { force: true });
		await ui.openNode('Read/Write Files from Disk');
		await ui.executeStep();
		await ui.closeNdv();
		const [header, row] = csvLines(ORDERS_FILE);
		expect(row.split(',')[header.split(',').indexOf('order_item_id')]).toBe(String(sampleItemId));
		await shot('orders-trigger-workflow');
		expect(ui.runs).toBe(2);
		expect(wording).toEqual({ publish: true, activate: null });
	}, 240_000);

	test('4. a CSV with "SKU" and "Qty" → Stock › Update: one error names both fixes, the second run applies every row', async () => {
		// The user's own sheet, in the folder the demo's file nodes may read: seller A's products
		// without variants, from the sandbox's seeded data.
		const products = ((await sandboxState('/products?sellerId=1001')) as Array<{ product_id: number; sku: string; stock: number; variant_combination_ids: number[] }>)
			.filter((p) => p.variant_combination_ids.length === 0)
			.slice(0, 3);
		const rows = products.map((p, i) => ({ ...p, qty: ((p.stock ?? 0) + 11 + i) % 500 }));
		writeFileSync(STOCK_SHEET, `SKU,Qty\n${rows.map((r) => `${r.sku},${r.qty}`).join('\n')}\n`);

		await ui.newWorkflow();
		await ui.addFirstStep('manual', 'Manual Trigger');
		await ui.addAfter(MANUAL_TRIGGER, 'Read/Write Files', 'Read/Write Files from Disk', 'Read File(s) From Disk');
		await ui.parameter('fileSelector').locator('input').fill(STOCK_SHEET);
		await ui.commit();
		await ui.closeNdv();
		await ui.addAfter('Read/Write Files from Disk', 'Extract from File', 'Extract from File', 'Extract from CSV');
		await ui.closeNdv();
		await ui.addAfter('Extract from File', 'Marketplace', 'Marketplace Partner', 'Update stock');
		// One account of "Map Automatically": n8n's notice, then the node's, which goes on from it.
		const notices = await ndv.locator('.notice, [class*="notice"]').filter({ hasText: /Map|columns|named/i }).allInnerTexts();
		const mapNotices = notices.filter((text) => /named the same as the columns|The columns in Marketplace Partner are/.test(text));
		expect(mapNotices.length).toBeGreaterThan(0);
		const together = mapNotices.join('\n');
		expect(together).toContain('make sure the incoming data fields are named the same as the columns in Marketplace Partner');
		expect(together).toContain('The columns in Marketplace Partner are product_id (or sku, as Identify Product By says) and stock');
		// No second story: nothing says the columns are matched otherwise than by name.
		expect(together).not.toMatch(/ignored|by position|in order/i);
		await ui.closeNdv();

		// Run 1: one error, both fixes named.
		const first = await ui.executeWorkflow();
		expect(first).toMatch(/Problem in node .Update stock./);
		await ui.openNode('Update stock');
		const error = ndv.getByTestId('output-panel');
		await expect(error.getByText('set Identify Product By › SKU').first()).toBeVisibleSoon();
		const message = await error.innerText();
		expect(message).toContain('set Identify Product By › SKU');
		expect(message).toContain('If "Qty" is your Stock column, name it under Column Names › Stock Column');
		expect(message.match(/This item has no/g)).toHaveLength(1);
		await shot('stock-error', ndv);

		// The user does what it says.
		await ui.choose('identifyBy', 'SKU');
		await ui.addToCollection(ui.collectionParameter('Column Names'), 'Stock Column');
		await ui.parameter('stock').locator('input').fill('Qty');
		await ui.commit();
		await shot('stock-fixed', ndv);
		await ui.closeNdv();

		// Run 2: every row applied.
		expect(await ui.executeWorkflow()).toMatch(/Workflow executed successfully/);
		for (const row of rows) {
			const product = await sandboxState(`/products/${row.product_id}`);
			expect([row.sku, product.stock]).toEqual([row.sku, row.qty]);
		}
		await shot('stock-workflow');
		expect(ui.runs).toBe(2);
	}, 240_000);

	test('5. orders with status "Accepted": the Status list, "Accepted" as an expression, and a status that matches nothing says why', async () => {
		await ui.newWorkflow();
		await ui.addFirstStep('manual', 'Manual Trigger');
		await ui.addAfter(MANUAL_TRIGGER, 'Marketplace', 'Marketplace Partner', 'Get many order items');
		await ui.addToCollection(ui.collectionParameter('Filters'), 'Status Name or ID');
		await ui.parameter('status').locator('input').click();
		// The statuses the sandbox's order items have (sandbox/data.js STATUS_MIX), as words.
		const options = page.getByRole('option');
		await expect(options.filter({ hasText: 'Accepted' }).first()).toBeVisibleSoon(30_000);
		const names = (await options.allInnerTexts()).map((text) => text.split('\n')[0].trim());
		expect(names).toEqual(['Accepted', 'Cancelled', 'Delivered', 'Shipped']);
		await shot('status-list', ndv);
		await page.getByRole('option', { name: /^Accepted/ }).click();
		const output = ndv.getByTestId('output-panel');
		await ui.executeStep(output.getByText(/\d+ items/).first());
		expect(await output.innerText()).toMatch(/50 items/);
		// The JSON view renders the items in view: each one's status is "accepted".
		await output.getByTestId('radio-button-json').click();
		await expect(output.getByText('"status"').first()).toBeVisibleSoon();
		const statuses = [...(await output.innerText()).matchAll(/"status":\s*"(\w+)"/g)].map((m) => m[1]);
		expect(statuses.length).toBeGreaterThan(0);
		expect(new Set(statuses)).toEqual(new Set(['accepted']));

		// "Accepted" typed as an expression: sent as the API writes it, and the panel says so.
		await ui.parameter('status').hover();
		await ndv.getByTestId('status-parameter-input-options-container').getByTestId('radio-button-expression').click();
		await ui.typeExpression(ui.parameter('status').locator('.cm-content, [contenteditable="true"]').first(), 'Accepted');
		await ui.executeStep(ndv.getByTestId('run-data-hints').getByText(/was sent as "accepted"/).first());
		await expect(output.getByText(/50 items/).first()).toBeVisibleSoon();
		await shot('status-expression-hint', output);

		// A status that matches nothing: a warning naming the statuses, not a silent "No output data".
		await ui.typeExpression(ui.parameter('status').locator('.cm-content, [contenteditable="true"]').first(), 'Refunded');
		await ui.executeStep(ndv.getByTestId('run-data-hints').getByText(/have the statuses/).first());
		const hint = await output.getByTestId('run-data-hints').innerText();
		expect(hint).toContain('No order items have status "Refunded"');
		for (const status of ['"accepted"', '"cancelled"', '"delivered"', '"shipped"']) expect(hint).toContain(status);
		await shot('status-no-match-hint', output);
		await ui.closeNdv();
		expect(ui.runs).toBe(3);
	}, 240_000);

	test('6. one order by the order number in a customer\'s e-mail: By Order Number, By ID refused before a run, From List searched', async () => {
		const detail = await sandboxState(`/orders/${ORDER_NO_ITEM}`);
		expect(detail.order.order_no).toBe(ORDER_NO);

		await ui.newWorkflow();
		await ui.addFirstStep('manual', 'Manual Trigger');
		await ui.addAfter(MANUAL_TRIGGER, 'Marketplace', 'Marketplace Partner', 'Get an order item');
		const orderItem = ui.parameter('orderItem');
		const output = ndv.getByTestId('output-panel');

		await orderItem.getByTestId('rlc-mode-selector').click();
		await page.getByRole('option', { name: 'By Order Number', exact: true }).click();
		// n8n clears the field when the mode changes: type only once the new mode's field shows.
		await expect(orderItem.getByPlaceholder('e.g. ORD-A-0000106')).toBeVisibleSoon();
		await ui.fillField(orderItem.getByTestId('rlc-input'), ORDER_NO);
		await ui.executeStep(output.getByText(ORDER_NO).first());
		expect(await output.innerText()).toContain(String(ORDER_NO_ITEM));
		await shot('order-by-number', ndv);

		// By ID with the order number: the editor's validation says where it goes, before any run.
		await orderItem.getByTestId('rlc-mode-selector').click();
		await page.getByRole('option', { name: 'By ID', exact: true }).click();
		await expect(orderItem.getByPlaceholder('e.g. 500001')).toBeVisibleSoon();
		await orderItem.getByTestId('rlc-input').fill(ORDER_NO);
		await orderItem.getByTestId('rlc-input').blur();
		const issues = ndv.getByTestId('parameter-item').filter({ hasText: 'Order Item' }).getByTestId('parameter-issues');
		await expect(issues).toBeVisibleSoon();
		await issues.hover();
		await expect(page.getByText('For an order number such as ORD-A-0000106, choose By Order Number.').first()).toBeVisibleSoon();
		await shot('order-by-id-refused', ndv);
		await page.mouse.move(0, 0);
		await page.getByRole('tooltip').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);

		// From List: searched by the order number, picked.
		await orderItem.getByTestId('rlc-mode-selector').click();
		await page.getByRole('option', { name: 'From List' }).click();
		await orderItem.getByTestId('rlc-input').click();
		await page.getByTestId('rlc-search').first().fill(ORDER_NO);
		const entry = page.getByTestId('rlc-item').filter({ hasText: ORDER_NO });
		await expect(entry.first()).toBeVisibleSoon(30_000);
		expect(await page.getByTestId('rlc-item').count()).toBe(1);
		await shot('order-from-list', ndv);
		await entry.first().click();
		// The field shows the order item picked, by its order number.
		expect(await orderItem.getByTestId('rlc-input').inputValue()).toContain(ORDER_NO);
		await ui.closeNdv();
		expect(ui.runs).toBe(1);
	}, 240_000);

	test('7. the node panels, help texts and docs: no team words, Check Setup without "undefined", events described, the Webhook Secret notice, no 404 for output schemas', async () => {
		// Every help text the editor has of the three nodes and the credential: the node types it
		// fetches (fetched again here where the editor took them from its cache this session).
		for (const kind of ['nodes', 'credentials']) types[kind] ??= await (await page.request.get(`${n8n.url}/types/${kind}.json`)).json();
		expect(Object.keys(types).sort()).toEqual(['credentials', 'nodes']);
		const nodeTypes = types.nodes as any[];
		const ours = nodeTypes.filter((type) => String(type.name).startsWith(`${PACKAGE}.`));
		for (const name of ['marketplacePartner', 'marketplacePartnerTrigger', 'marketplacePartnerOrdersTrigger']) {
			expect(ours.map((type) => type.name)).toContain(`${PACKAGE}.${name}`);
		}
		const credentialTypes = types.credentials as any[];
		const credential = credentialTypes.filter((type) => type.name === 'marketplacePartnerApi');
		expect(credential).toHaveLength(1);
		const helpTexts = [...ours, ...credential].flatMap((type) => textsOf(type).map((text) => `${type.name}: ${text}`));
		expect(helpTexts.length).toBeGreaterThan(50);

		// The webhook trigger's events, each with a description (the newest version's).
		const webhookTrigger = ours.filter((type) => type.name === `${PACKAGE}.marketplacePartnerTrigger`).pop();
		const events = webhookTrigger.properties.find((p: any) => p.name === 'events');
		expect(events.options.filter((o: any) => !o.description).map((o: any) => o.name)).toEqual([]);

		// Check Setup, the first thing to run: its table fills every cell.
		await ui.newWorkflow();
		await ui.addFirstStep('manual', 'Manual Trigger');
		await ui.addAfter(MANUAL_TRIGGER, 'Marketplace', 'Marketplace Partner', 'Check the marketplace setup');
		const rendered: Array<[string, string]> = [['Check Setup', await ui.panelTexts()]];
		const output = ndv.getByTestId('output-panel');
		await ui.executeStep(output.getByText(/\d+ items?/).first());
		await output.getByTestId('radio-button-table').click();
		await expect(output.getByText('Authentication', { exact: true }).first()).toBeVisibleSoon();
		const table = await output.innerText();
		expect(table.split(/\s+/)).not.toContain('undefined');
		await shot('check-setup', output);
		await ui.closeNdv();

		// The panels as rendered say none of those words either: each node as a new user adds it.
		for (const [entry, action] of [
			['Marketplace Partner', 'On order created'],
			['Marketplace Partner Orders', 'On new order item'],
		]) {
			await page.getByTestId('node-creator-plus-button').click();
			await ui.pickInNodeCreator(entry, entry, action);
			await expect(ndv).toBeVisibleSoon();
			rendered.push([action, await ui.panelTexts()]);
			await ui.closeNdv();
		}
		let last = 'Check the marketplace setup';
		for (const action of ['Get an order item', 'Get many order items', 'Update stock']) {
			await ui.addAfter(last, 'Marketplace', 'Marketplace Partner', action);
			rendered.push([action, await ui.panelTexts()]);
			await ui.closeNdv();
			last = action;
		}

		// The credential, created new: a warning notice while the Webhook Secret is empty.
		await page.goto(`${n8n.url}/home/credentials`, { timeout: 60_000 });
		await page.getByRole('button', { name: 'Create credential' }).click();
		await page.keyboard.type('Marketplace Partner');
		await page.getByText('Marketplace Partner API', { exact: true }).first().click();
		await page.getByRole('button', { name: /continue/i }).click();
		const modal = page.getByTestId('editCredential-modal');
		await expect(modal.getByText('Webhook Secret', { exact: true }).first()).toBeVisibleSoon();
		await expect(modal.getByText('Without a Webhook Secret, the Marketplace Partner Trigger refuses every webhook delivery', { exact: false })).toBeVisibleSoon();
		await shot('credential-webhook-secret-notice', modal);
		rendered.push(['credential', await modal.innerText()]);
		await page.keyboard.press('Escape');
		await modal.waitFor({ state: 'hidden' });

		expect(rendered.filter(([, text]) => JARGON.test(text)).map(([where, text]) => `${where}: ${JARGON.exec(text)?.[0]}`)).toEqual([]);
		expect(helpTexts.filter((text) => JARGON.test(text))).toEqual([]);
		expect(notFound).toEqual([]);
		expect(ui.runs).toBe(1);
	}, 240_000);
});

/** A CSV file's lines, without the byte order mark n8n's Convert to File writes. */
function csvLines(file: string): string[] {
	return readFileSync(file, 'utf8').replace(/^\uFEFF/, '').trim().split('\n');
}

/** Every text of a node or credential type a user reads: names, descriptions, hints, notices, placeholders, options. */
function textsOf(value: unknown, key = ''): string[] {
	if (typeof value === 'string') {
		return ['displayName', 'description', 'hint', 'placeholder', 'name', 'action', 'header', 'executionsHelp', 'activationHint', 'active', 'inactive', 'subtitle', 'eventTriggerDescription', 'activationMessage', 'errorMessage'].includes(key)
			? [value]
			: [];
	}
	if (Array.isArray(value)) return value.flatMap((entry) => textsOf(entry, key));
	if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => textsOf(v, k === 'codex' || k === 'webhooks' ? '' : k));
	return [];
}
