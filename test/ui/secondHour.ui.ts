/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// A team's second hour with the package, in the editor (issue #52, item 9): what it builds once the
// first workflow runs, done as a user does it (the node creator, the lists, typing), never through
// n8n's REST API or the sandbox's control API, which the test reads only to assert what came of the
// user's steps. Each task counts its runs ("Execute step", "Execute workflow").
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { readSheet } from '../helpers/sheet';
import { EditorSession, ROOT, SHOTS, screenshot, signIn, startEditorStack, type EditorStack } from '../helpers/editorUi';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { control } = require('../../sandbox/client');

const MANUAL_TRIGGER = 'When clicking ‘Execute workflow’';
/** The team's stock sheet, in the one folder the demo's file nodes may use (examples/). */
const STOCK_SHEET = path.join(ROOT, 'examples', 'second-hour-stock.csv');
/** The team's daily orders sheet, there too. */
const DAILY_SHEET = path.join(ROOT, 'examples', 'second-hour-daily-orders.csv');

describe('the second hour of a team, in the editor', () => {
	let stack: EditorStack;
	let sandbox: any;
	let page: Page;
	let ui: EditorSession;

	const shot = (name: string) => screenshot(page, `second-hour-${name}`);
	const stats = async () => await control(sandbox, 'GET', '/stats');
	/** As a user does it: a new workflow, its … menu › Import › From file, the file picked in the browser's dialog. */
	const importExample = async (file: string) => {
		await ui.newWorkflow();
		await page.getByTestId('workflow-menu').click();
		await page.getByText('Import', { exact: true }).hover();
		const chooser = page.waitForEvent('filechooser');
		await page.getByText(/^From file/i).click();
		await (await chooser).setFiles(path.join(ROOT, 'examples', file));
	};
	/** On the sandbox's page, a new order made by the demo store (no event sent: no Trigger URL); its order item id. */
	const newOrderInTheStore = async (): Promise<number> => {
		const storePage = await page.context().newPage();
		await storePage.goto(new URL('/', sandbox.baseUrl).href);
		await storePage.getByLabel('Event').selectOption('order.created');
		await storePage.getByLabel('What happens').selectOption('change');
		await storePage.getByRole('button', { name: 'Make the change and send its event' }).click();
		await expect(storePage.locator('#result.ok')).toBeVisibleSoon(30_000);
		// The page's lists now start with the new order item.
		await storePage.getByLabel('What happens').selectOption('test');
		const created = Number(await storePage.getByLabel(/Order item/).inputValue());
		await storePage.close();
		return created;
	};

	beforeAll(async () => {
		stack = await startEditorStack();
		({ sandbox } = stack);
		page = await (await stack.browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
		ui = new EditorSession(page, stack.n8n.url);
		await signIn(page, stack.n8n.url, stack.password);
	}, 600_000);

	beforeEach(() => {
		ui.runs = 0;
	});

	afterEach(async () => {
		const task = /\s(\d+)\.\s/.exec(expect.getState().currentTestName ?? '')?.[1] ?? 'x';
		await page.screenshot({ path: path.join(SHOTS, `second-hour-end-of-task-${task}.png`) }).catch(() => undefined);
	});

	afterAll(async () => {
		await stack?.stop();
		rmSync(STOCK_SHEET, { force: true });
		rmSync(DAILY_SHEET, { force: true });
	});

	test("1. a custom call: Other Endpoint › Send Request sends it with this node's handling, and n8n's Custom API Call points to HTTP Request, whose Credential Type list has the credential; each signed and accepted in one run", async () => {
		const { ndv, parameter } = ui;
		await ui.newWorkflow();
		await ui.addFirstStep('manual', 'Manual Trigger');
		await ui.addAfter(MANUAL_TRIGGER, 'Marketplace', 'Marketplace Partner', 'Ping the API');
		// This node's own way: any path under the Base URL, its query picked in the panel.
		await ui.choose('resource', 'Other Endpoint');
		await ui.choose('endpoint', 'Another Path');
		await parameter('path').locator('input, textarea').first().fill('/orders.php');
		await ui.commit();
		await ndv.getByTestId('fixed-collection-add').first().click();
		await parameter('name').locator('input, textarea').first().fill('limit');
		await parameter('value').locator('input, textarea').first().fill('2');
		await ui.commit();
		const listed = (await stats()).byEndpoint['GET /orders.php 200'] ?? 0;
		await ui.executeStep();
		await shot('other-endpoint-sent');
		expect((await stats()).byEndpoint['GET /orders.php 200'] ?? 0).toBe(listed + 1);
		const output = ndv.getByTestId('output-panel');
		await expect(output.getByText(/1 item/).first()).toBeVisibleSoon();
		await output.getByTestId('radio-button-json').click();
		await expect(output.getByText('"order_item_id"').first()).toBeVisibleSoon();
		// limit=2 reached the API: two order items in the answer.
		expect([...(await output.innerText()).matchAll(/"order_item_id"/g)]).toHaveLength(2);

		// n8n's way: the Resource list ends with n8n's own Custom API Call, which says what to do.
		await ui.choose('resource', 'Custom API Call');
		const notice = ndv.getByText(/Use the HTTP Request node to make a custom API call/);
		await expect(notice).toBeVisibleSoon();
		expect(await notice.innerText()).toContain("We'll take care of the Marketplace Partner auth for you");
		await shot('custom-api-call-notice');
		await ui.closeNdv();
		// As the notice says: the HTTP Request node instead of this one.
		await ui.canvasNode('Marketplace Partner').click();
		await page.keyboard.press('Delete');
		await ui.canvasNode('Marketplace Partner').waitFor({ state: 'detached' });

		await ui.addAfter(MANUAL_TRIGGER, 'HTTP Request', 'HTTP Request');
		await ui.choose('authentication', 'Predefined Credential Type');
		await parameter('nodeCredentialType').click();
		await page.keyboard.type('Marketplace');
		await page.getByTestId('credential-select-option').filter({ hasText: 'Marketplace Partner API' }).click();
		// The one credential of that type is picked for the user.
		await expect(ndv.getByText('Marketplace Partner API', { exact: true }).first()).toBeVisibleSoon();
		expect(await ndv.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))).toContain('Marketplace Partner (sandbox)');
		const url = `${sandbox.baseUrl}/ping.php`;
		await parameter('url').locator('input, textarea').first().fill(url);
		await ui.commit();
		const before = (await stats()).byEndpoint['GET /ping.php 200'] ?? 0;
		await ui.executeStep();
		await shot('custom-api-call-signed');
		// The sandbox accepted it: a signed ping, answered 200 (an unsigned one is answered 401).
		expect((await stats()).byEndpoint['GET /ping.php 200'] ?? 0).toBe(before + 1);
		await expect(ndv.getByTestId('output-panel').getByText(/1 item/).first()).toBeVisibleSoon();
		expect(ui.runs).toBe(2);
	}, 240_000);

	test("2. the demo in the browser: while the trigger listens, the sandbox's page makes a new order (no terminal); the trigger shows it, and the store has it", async () => {
		const { ndv } = ui;
		await ui.newWorkflow();
		await ui.addFirstStep('Marketplace', 'Marketplace Partner', 'On order created');
		await expect(ndv).toBeVisibleSoon();
		// The order that works: the Test URL first, then listen.
		await ndv.getByText('Webhook URLs', { exact: true }).click();
		await ndv.getByTestId('radio-button-test').click();
		const testUrl = /http:\/\/127\.0\.0\.1:\d+\/webhook-test\/[\w-]+\/webhook/.exec(await ndv.innerText())?.[0];
		expect(testUrl).toBeDefined();

		const storePage = await page.context().newPage();
		await storePage.goto(new URL('/', sandbox.baseUrl).href);
		await storePage.getByLabel(/Trigger URL/).fill(testUrl!);
		await storePage.getByLabel('Event').selectOption('order.created');
		const newestBefore = Number(await storePage.getByLabel(/Order item/).inputValue());
		await storePage.getByLabel('What happens').selectOption('change');
		await expect(storePage.getByLabel('Product', { exact: true })).toBeVisibleSoon();
		const productId = Number(await storePage.getByLabel('Product', { exact: true }).inputValue());

		ui.runs++;
		await ndv.getByTestId('node-execute-button').click();
		await expect(ndv.getByText(/Listening for test event/i).first()).toBeVisibleSoon();
		await storePage.getByRole('button', { name: 'Make the change and send its event' }).click();
		await expect(storePage.getByText(/n8n answered HTTP 200/)).toBeVisibleSoon(30_000);
		await screenshot(storePage, 'second-hour-store-change', storePage.locator('body'));
		// The page's lists now start with the new order item.
		await storePage.getByLabel('What happens').selectOption('test');
		const created = Number(await storePage.getByLabel(/Order item/).inputValue());
		expect(created).toBeGreaterThan(newestBefore);
		await storePage.close();

		const output = ndv.getByTestId('output-panel');
		await expect(output.getByText('order_item_id').first()).toBeVisibleSoon(30_000);
		await output.getByTestId('radio-button-json').click();
		await expect(output.getByText(`"order_item_id": ${created}`).first()).toBeVisibleSoon();
		await shot('store-change-in-trigger');
		// In the store, as the API serves it: a later Get or Get Many finds it.
		const detail = await control(sandbox, 'GET', `/orders/${created}`);
		expect(detail.product.product_id).toBe(productId);
		expect(ui.runs).toBe(1);
	}, 240_000);

	test("3. the Orders Trigger's Status picked from the list; a status changed on the sandbox's page is the test event Fetch Test Event gives, the most recent change", async () => {
		const { ndv } = ui;
		// On the sandbox's page, no URL: a shipped order item becomes accepted again (its event goes nowhere).
		const storePage = await page.context().newPage();
		await storePage.goto(new URL('/', sandbox.baseUrl).href);
		await storePage.getByLabel('Event').selectOption('order.updated');
		await storePage.getByLabel('What happens').selectOption('change');
		const shipped = storePage.getByLabel(/Order item/).locator('option').filter({ hasText: ' · shipped · ' }).first();
		const changed = Number(await shipped.getAttribute('value'));
		await storePage.getByLabel(/Order item/).selectOption(String(changed));
		await storePage.getByLabel('New status').selectOption('accepted');
		await storePage.getByRole('button', { name: 'Make the change and send its event' }).click();
		await expect(storePage.getByText(/The change is made/)).toBeVisibleSoon();
		await storePage.close();
		expect((await control(sandbox, 'GET', `/orders/${changed}`)).order.status).toBe('accepted');

		await ui.newWorkflow();
		await ui.addFirstStep('Marketplace Partner Orders', 'Marketplace Partner Orders', 'On updated order item');
		await expect(ndv).toBeVisibleSoon();
		await ui.addToCollection(ui.collectionParameter('Options'), 'Status Name or ID');
		await ui.parameter('status').locator('input').click();
		await expect(page.getByRole('option', { name: /^Accepted/ }).first()).toBeVisibleSoon(30_000);
		await page.getByRole('option', { name: /^Accepted/ }).click();
		ui.runs++;
		await ndv.getByRole('button', { name: /fetch test event/i }).first().click();
		const output = ndv.getByTestId('output-panel');
		await output.getByTestId('radio-button-json').click();
		await expect(output.getByText('"order_item_id"').first()).toBeVisibleSoon(30_000);
		const sample = await output.innerText();
		await shot('orders-trigger-status-test-event');
		expect(Number(/"order_item_id":\s*(\d+)/.exec(sample)?.[1])).toBe(changed);
		expect(sample).toMatch(/"status":\s*"accepted"/);
		expect(ui.runs).toBe(1);
	}, 240_000);

	test('4. a `sku,stock` sheet with -3, abc and a blank cell: one error names the three rows as the sheet numbers them, nothing is sent; fixed, the second run applies every row', async () => {
		const { ndv } = ui;
		const products = (await control(sandbox, 'GET', '/products?sellerId=1001')).filter((p: any) => !p.variant_combination_ids.length).slice(0, 6);
		const good = (i: number) => ((products[i].stock ?? 0) + 13 + i) % 500;
		const cells = products.map((p: any, i: number) => [p.sku, [1, 2, 3].includes(i) ? ['-3', 'abc', ''][i - 1] : String(good(i))]);
		writeFileSync(STOCK_SHEET, `sku,stock\n${cells.map((c: string[]) => c.join(',')).join('\n')}\n`);
		const writes = async () => (await stats()).byEndpoint['POST /stock_update.php 200'] ?? 0;
		const before = await writes();

		await ui.newWorkflow();
		await ui.addFirstStep('manual', 'Manual Trigger');
		await ui.addAfter(MANUAL_TRIGGER, 'Read/Write Files', 'Read/Write Files from Disk', 'Read File(s) From Disk');
		await ui.parameter('fileSelector').locator('input').fill(STOCK_SHEET);
		await ui.commit();
		await ui.closeNdv();
		await ui.addAfter('Read/Write Files from Disk', 'Extract from File', 'Extract from File', 'Extract from CSV');
		await ui.closeNdv();
		await ui.addAfter('Extract from File', 'Marketplace', 'Marketplace Partner', 'Update stock');
		await ui.choose('identifyBy', 'SKU');
		await ui.closeNdv();

		// Run 1: every bad row at once, in the sheet's row numbers; nothing sent.
		expect(await ui.executeWorkflow()).toMatch(/Problem in node .Update stock./);
		await ui.openNode('Update stock');
		const error = ndv.getByTestId('output-panel');
		await expect(error.getByText(/rows have values that cannot be sent/).first()).toBeVisibleSoon();
		const message = await error.innerText();
		await shot('sheet-errors');
		expect(message).toContain('3 rows have values that cannot be sent (rows 3, 4, 5)');
		expect(message).toContain('Row 3 (item 1): Stock (column "stock") must be 0 or more, but got -3');
		expect(message).toContain('Row 4 (item 2): Stock (column "stock") must be a whole number, but got "abc"');
		expect(message).toContain('Row 5 (item 3): Stock (column "stock") is blank; it needs a whole number.');
		expect(message).toContain('Nothing was sent, not even the 3 good rows');
		expect(await writes()).toBe(before);
		await ui.closeNdv();

		// The team fixes the three cells in its sheet; run 2 applies every row.
		const fixed = products.map((p: any, i: number) => [p.sku, String(good(i))]);
		writeFileSync(STOCK_SHEET, `sku,stock\n${fixed.map((c: string[]) => c.join(',')).join('\n')}\n`);
		expect(await ui.executeWorkflow()).toMatch(/Workflow executed successfully/);
		for (const [i, p] of products.entries()) expect((await control(sandbox, 'GET', `/products/${p.product_id}`)).stock).toBe(good(i));
		expect(await writes()).toBe(before + products.length);
		expect(ui.runs).toBe(2);
	}, 240_000);
	test('5. an example imported with Import › From file: the sheet it reads is not there yet, and the error names it; with the path set to the sheet, the second run updates 5 rows and reports 3', async () => {
		const writes = async () => (await stats()).byEndpoint['POST /stock_update.php 200'] ?? 0;
		const before = await writes();
		await importExample('spreadsheet-to-stock.json');
		await expect(ui.canvasNode('Read Stock Sheet')).toBeVisibleSoon();
		await expect(ui.canvasNode('Update Stock')).toBeVisibleSoon();

		// Run 1: the example reads n8n's files folder, where this team has put no sheet yet.
		expect(await ui.executeWorkflow()).toMatch(/Problem in node .Read Stock Sheet./);
		await ui.openNode('Read Stock Sheet');
		const error = ui.ndv.getByTestId('output-panel');
		await expect(error.getByText('No file(s) found').first()).toBeVisibleSoon();
		expect(await error.innerText()).toContain('/home/node/.n8n-files/stock.csv');
		await shot('imported-example-no-sheet');
		expect(await writes()).toBe(before);

		// The README: this n8n reads the checkout's examples/data/; the path goes there.
		await ui.fillField(ui.parameter('fileSelector').locator('input').first(), path.join(ROOT, 'examples', 'data', 'stock.csv'));
		await ui.closeNdv();
		expect(await ui.executeWorkflow()).toMatch(/Workflow executed successfully/);
		const canvas = page.locator('[data-test-id="canvas-wrapper"], #canvas').first();
		await expect(canvas.getByText('5 items').first()).toBeVisibleSoon();
		await expect(canvas.getByText('3 items').first()).toBeVisibleSoon();
		await shot('imported-example-ran');
		expect(await writes()).toBe(before + 5);
		expect(ui.runs).toBe(2);
	}, 240_000);

	test("6. every morning, the order items updated since yesterday added to a CSV sheet (the example imported): the first morning makes the sheet, the second adds its rows under the same header, and a spreadsheet reads it whole", async () => {
		rmSync(DAILY_SHEET, { force: true });
		await importExample('daily-orders-to-sheet.json');
		await expect(ui.canvasNode('Write Daily Sheet')).toBeVisibleSoon();
		// The sheet this team keeps, in the folder this n8n may use, for both the reading and the writing node.
		await ui.openNode('Read Daily Sheet');
		await ui.fillField(ui.parameter('fileSelector').locator('input').first(), DAILY_SHEET);
		await ui.closeNdv();
		await ui.openNode('Write Daily Sheet');
		await ui.fillField(ui.parameter('fileName').locator('input').first(), DAILY_SHEET);
		await ui.closeNdv();

		// The first morning: an order came in; there is no sheet yet.
		const first = await newOrderInTheStore();
		expect(await ui.executeWorkflow()).toMatch(/Workflow executed successfully/);
		expect(existsSync(DAILY_SHEET)).toBe(true);
		const day1 = readSheet(readFileSync(DAILY_SHEET, 'utf8'));
		expect(day1.header.slice(0, 3)).toEqual(['order_item_id', 'order_no', 'status']);
		expect(day1.rows.map((r) => Number(r.order_item_id))).toContain(first);

		// The second morning: another order; its rows go under the first morning's.
		const second = await newOrderInTheStore();
		expect(await ui.executeWorkflow()).toMatch(/Workflow executed successfully/);
		await shot('daily-sheet-second-morning');
		const text = readFileSync(DAILY_SHEET, 'utf8');
		const day2 = readSheet(text);
		expect(text.indexOf('\uFEFF', 1)).toBe(-1);
		expect(day2.header).toEqual(day1.header);
		expect(day2.rows.slice(0, day1.rows.length)).toEqual(day1.rows);
		expect(day2.rows.map((r) => Number(r.order_item_id))).toEqual(expect.arrayContaining([first, second]));
		expect(day2.rows.filter((r) => r.order_item_id === 'order_item_id')).toEqual([]);
		expect(ui.runs).toBe(2);
	}, 240_000);
});
