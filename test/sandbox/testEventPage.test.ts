/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The sandbox's test event page (GET / leads to it): it sends a signed test event to a pasted
// trigger URL and says what the receiver answered; it sends to this machine only, and takes no
// request a foreign page could make. Its token (in the page) opens its send route and nothing else. Deliveries are checked with bare node:crypto, not sandbox code.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

interface Answer {
	status: number;
	headers: http.IncomingHttpHeaders;
	text: string;
	json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One request with exactly these headers (fetch would not let a test set Host or Origin); host '' sends none. */
function call(origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
	const { host, ...others } = headers;
	const options = host === '' ? { method, headers: others, setHost: false } : { method, headers };
	return new Promise((resolve, reject) => {
		const req = http.request(`${origin}${path}`, options, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				let json;
				try {
					json = JSON.parse(text);
				} catch {
					json = undefined;
				}
				resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
			});
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** The token the page's script sends, read from the page as a browser does. */
async function pageTokenOf(origin: string): Promise<string> {
	const page = await call(origin, 'GET', '/_sandbox/test-event');
	return /const pageToken = "([0-9a-f]{64})";/.exec(page.text)![1];
}

describe('the test event page', () => {
	let sb: RunningSandbox;
	let receiver: Receiver;
	let pageToken: string;
	const app = () => sb.apps['seller-a-full'];
	const newestOrderId = (sellerId: number) => sb.raw.state.ordersBySeller.get(sellerId).at(-1).order_item_id;
	const send = (body: object, headers: Record<string, string> = {}) =>
		call(sb.origin, 'POST', '/_sandbox/test-event', { 'content-type': 'application/json', 'x-sandbox-page-token': pageToken, ...headers }, JSON.stringify(body));
	const attempts = async () => (await sb.control('GET', '/deliveries')).length;

	beforeAll(async () => {
		// Secrets of their own, as the CLI and the demo give: the page must show none of them.
		const secrets = Object.fromEntries(
			['seller-a-full', 'seller-a-readonly', 'seller-b-full', 'seller-a-inactive'].map((name, i) => [
				name,
				{ clientSecret: `cs_page_test_${i}_0123456789abcdef`, webhookSecret: `whs_page_test_${i}_0123456789abcdef` },
			]),
		);
		sb = await startSandbox({ secrets, webhookRetryBaseMs: 20 });
		pageToken = await pageTokenOf(sb.origin);
	});
	beforeEach(async () => {
		receiver = await startReceiver();
	});
	afterEach(() => receiver.close());
	afterAll(() => sb.close());

	test('the address a person types, /, leads to the page, served as HTML that runs only its own script', async () => {
		const root = await call(sb.origin, 'GET', '/');
		expect(root.status).toBe(302);
		expect(root.headers.location).toBe('/_sandbox/test-event');
		const page = await call(sb.origin, 'GET', '/_sandbox/test-event');
		expect(page.status).toBe(200);
		expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
		const nonce = /script-src 'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))![1];
		expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
		expect(page.text).toContain(`<script nonce="${nonce}">`);
		expect(page.text).toContain('<button id="send" type="submit">Send test event</button>');
		for (const event of ['order.created', 'order.updated', 'stock.updated', 'return.requested']) expect(page.text).toContain(`<option value="${event}">`);
		// The demo's app is picked; the order items offered start with the newest.
		expect(page.text).toContain(`<option value="${app().clientId}" selected>seller-a-full (seller 1001)</option>`);
		const choices = JSON.parse(/<script id="choices" type="application\/json">(.*?)<\/script>/s.exec(page.text)![1]);
		expect(choices.orders.find((o: { sellerId: number }) => o.sellerId === 1001).orderItemId).toBe(newestOrderId(1001));
		// The page posts JSON to its own origin, with its token.
		expect(page.text).toContain("const headers = { 'content-type': 'application/json', 'x-sandbox-page-token': pageToken };");
		expect(page.text).toContain("const route = isChange() ? '/_sandbox/demo-change' : '/_sandbox/test-event';");
		expect(page.text).toContain("fetch(route, { method: 'POST', headers, body: JSON.stringify(body) });");
	});

	test('no secret of any app is in the page, nor the control token', async () => {
		const page = await call(sb.origin, 'GET', '/_sandbox/test-event');
		expect(page.text).not.toContain(sb.controlToken);
		expect(pageToken).not.toBe(sb.controlToken);
		const apps = Object.values(sb.apps);
		expect(apps).toHaveLength(4);
		for (const a of apps) {
			expect(page.text).toContain(a.clientId);
			expect(page.text).not.toContain(a.clientSecret);
			expect(page.text).not.toContain(a.webhookSecret);
		}
	});

	test("a sent test event arrives signed with the app's Webhook Secret (checked with node:crypto), and the page says n8n received it", async () => {
		const answer = await send({ url: receiver.url, clientId: app().clientId, event: 'order.created' });
		expect(answer.status).toBe(200);
		expect(answer.json.data).toMatchObject({ statusCode: 200, error: null, responseBody: 'ok', url: receiver.url, event: 'order.created' });
		expect(answer.json.data.meaning).toBe(
			"n8n received it: look at the trigger's output in the editor. (Sent to a Production URL, it started a run: see the workflow's executions.)",
		);
		const [r] = receiver.received;
		const timestamp = String(r.headers['x-svc-webhook-timestamp']);
		expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(10);
		const expected = createHmac('sha256', app().webhookSecret).update(`${timestamp}.`).update(r.rawBody).digest('hex');
		expect(r.headers['x-svc-webhook-signature']).toBe(expected);
		expect(r.headers['x-svc-webhook-id']).toBe(answer.json.data.deliveryId);
		expect(r.headers['x-svc-webhook-event']).toBe('order.created');
		expect(r.headers['content-type']).toBe('application/json');
		// By default the seller's newest order item, as the page offers first.
		expect(JSON.parse(r.rawBody.toString('utf8'))).toMatchObject({
			id: answer.json.data.eventId,
			event: 'order.created',
			test: true,
			data: { order_item_id: newestOrderId(1001) },
		});
	});

	test('the order item or product picked on the page is the one in the event; another seller\'s is refused', async () => {
		const orders = sb.raw.state.ordersBySeller.get(1001);
		const picked = orders[3].order_item_id;
		await send({ url: receiver.url, clientId: app().clientId, event: 'return.requested', orderItemId: picked });
		const product = [...sb.raw.state.products.values()].find((p: { seller_id: number; variant_ids: number[] }) => p.seller_id === 1001 && p.variant_ids.length);
		await send({ url: receiver.url, clientId: app().clientId, event: 'stock.updated', productId: product.product_id });
		const [ret, stock] = receiver.received.map((r) => JSON.parse(r.rawBody.toString('utf8')));
		expect(ret).toMatchObject({ event: 'return.requested', data: { order_item_id: picked } });
		expect(stock).toMatchObject({ event: 'stock.updated', data: { product_id: product.product_id, variant_combination_id: product.variant_ids[0] } });

		const foreign = sb.raw.state.ordersBySeller.get(1002)[0].order_item_id;
		const refused = await send({ url: receiver.url, clientId: app().clientId, event: 'order.created', orderItemId: foreign });
		expect(refused.status).toBe(400);
		expect(refused.json.error.message).toBe(`Order item ${foreign} is not seller 1001's.`);
		expect(receiver.received).toHaveLength(2);
	});

	test.each([
		[401, "n8n refused the signature: the credential's Webhook Secret is not this app's. Pick the app the credential belongs to, or paste this app's Webhook Secret into the credential."],
		[
			404,
			"n8n is not listening at this URL: in the trigger, click 'Execute step' (or 'Test this trigger') first, then send within 2 minutes. A Production URL listens only once its workflow is published (n8n 1.x: active).",
		],
		[500, "n8n failed while taking the delivery: its answer is below; n8n's log says more."],
	])('an answer %i is said in plain words, after one attempt (the person sends again)', async (status, meaning) => {
		receiver.respond = () => status;
		const answer = await send({ url: receiver.url, clientId: app().clientId, event: 'order.updated' });
		expect(answer.json.data).toMatchObject({ statusCode: status, error: null, responseBody: 'ok', meaning });
		await sb.control('POST', '/deliveries/wait');
		expect(receiver.received).toHaveLength(1);
	});

	const change = (body: object, headers: Record<string, string> = {}) =>
		call(sb.origin, 'POST', '/_sandbox/demo-change', { 'content-type': 'application/json', 'x-sandbox-page-token': pageToken, ...headers }, JSON.stringify(body));
	const delivered = (i = 0) => {
		const r = receiver.received[i];
		const timestamp = String(r.headers['x-svc-webhook-timestamp']);
		expect(r.headers['x-svc-webhook-signature']).toBe(createHmac('sha256', app().webhookSecret).update(`${timestamp}.`).update(r.rawBody).digest('hex'));
		return { event: r.headers['x-svc-webhook-event'], body: JSON.parse(r.rawBody.toString('utf8')) };
	};

	test("a real change from the page: a new order item is in the store (the API lists it), and its order.created arrives signed, not a test; the page's lists now offer it", async () => {
		const before = sb.raw.state.ordersBySeller.get(1001).length;
		const product = [...sb.raw.state.products.values()].find((p: { seller_id: number }) => p.seller_id === 1001);
		const answer = await change({ url: receiver.url, clientId: app().clientId, event: 'order.created', productId: product.product_id });
		expect(answer.status).toBe(200);
		const orders = sb.raw.state.ordersBySeller.get(1001);
		expect(orders).toHaveLength(before + 1);
		const created = orders.at(-1);
		expect(created).toMatchObject({ product_id: product.product_id, status: 'accepted' });
		expect(answer.json.data).toMatchObject({ statusCode: 200, event: 'order.created', payload: { order_item_id: created.order_item_id } });
		const { event, body } = delivered();
		expect(event).toBe('order.created');
		expect(body).toMatchObject({ event: 'order.created', data: { order_item_id: created.order_item_id, product: { product_id: product.product_id } } });
		expect(body.test).toBeFalsy();
		expect(answer.json.data.choices.orders.find((o: { sellerId: number }) => o.sellerId === 1001).orderItemId).toBe(created.order_item_id);
	});

	test('a status change, a stock change and a return: each made in the store and sent as its event', async () => {
		const order = sb.raw.state.ordersBySeller.get(1001).find((o: { status: string }) => o.status === 'accepted');
		expect((await change({ url: receiver.url, clientId: app().clientId, event: 'order.updated', orderItemId: order.order_item_id, status: 'shipped' })).json.data.statusCode).toBe(200);
		expect(sb.raw.state.orders.get(order.order_item_id).status).toBe('shipped');
		expect(delivered(0)).toMatchObject({ event: 'order.updated', body: { data: { order_item_id: order.order_item_id, status: 'shipped', previous_status: 'accepted' } } });

		const product = [...sb.raw.state.products.values()].find((p: { seller_id: number; variant_ids: number[] }) => p.seller_id === 1001 && !p.variant_ids.length);
		const old = product.stock;
		expect((await change({ url: receiver.url, clientId: app().clientId, event: 'stock.updated', productId: product.product_id, stock: old + 7 })).json.data.statusCode).toBe(200);
		expect(sb.raw.state.products.get(product.product_id).stock).toBe(old + 7);
		expect(delivered(1)).toMatchObject({ event: 'stock.updated', body: { data: { product_id: product.product_id, old_stock: old, new_stock: old + 7, variant_combination_id: null } } });

		const withVariants = [...sb.raw.state.products.values()].find((p: { seller_id: number; variant_ids: number[] }) => p.seller_id === 1001 && p.variant_ids.length);
		await change({ url: receiver.url, clientId: app().clientId, event: 'stock.updated', productId: withVariants.product_id, stock: 0 });
		expect(sb.raw.state.variants.get(withVariants.variant_ids[0]).stock).toBe(0);
		expect(delivered(2).body.data).toMatchObject({ variant_combination_id: withVariants.variant_ids[0], new_stock: 0 });

		const returnsBefore = sb.raw.state.nextReturnId;
		await change({ url: receiver.url, clientId: app().clientId, event: 'return.requested', orderItemId: order.order_item_id });
		expect(sb.raw.state.nextReturnId).toBe(returnsBefore + 1);
		expect(delivered(3)).toMatchObject({ event: 'return.requested', body: { data: { return_id: returnsBefore, order_item_id: order.order_item_id } } });
		expect(receiver.received).toHaveLength(4);
	});

	test.each([
		[{ event: 'order.updated', status: 'Shipped!' }, 400, 'status must be a lower-case word such as shipped.'],
		[{ event: 'stock.updated', stock: -3 }, 400, 'stock must be a whole number from 0 to 1000000.'],
		[{ event: 'stock.updated', stock: 2.5 }, 400, 'stock must be a whole number from 0 to 1000000.'],
		[{ event: 'order.updated', status: 'shipped', foreign: true }, 400, /^Order item \d+ is not seller 1001's\.$/],
		[{ event: 'order.created', url: 'http://192.0.2.10/hook' }, 403, /^This page sends only to this machine/],
	])('a change the store cannot make (%j) is refused, and nothing changes or is sent', async (spec, status, message) => {
		const { foreign, url, ...rest } = spec as { foreign?: boolean; url?: string; event: string };
		const orderItemId = sb.raw.state.ordersBySeller.get(foreign ? 1002 : 1001)[0].order_item_id;
		const product = [...sb.raw.state.products.values()].find((p: { seller_id: number; variant_ids: number[] }) => p.seller_id === 1001 && !p.variant_ids.length);
		const snapshot = JSON.stringify({ orders: sb.raw.state.ordersBySeller.get(1001).length, status: sb.raw.state.orders.get(orderItemId).status, stock: product.stock });
		const answer = await change({ url: url ?? receiver.url, clientId: app().clientId, orderItemId, productId: product.product_id, ...rest });
		expect(answer.status).toBe(status);
		expect(answer.json.error.message).toMatch(message);
		expect(JSON.stringify({ orders: sb.raw.state.ordersBySeller.get(1001).length, status: sb.raw.state.orders.get(orderItemId).status, stock: product.stock })).toBe(snapshot);
		await sb.control('POST', '/deliveries/wait');
		expect(receiver.received).toHaveLength(0);
	});

	test('a change without a URL goes where the store\'s events go: the registered webhook URL, or nowhere (said so)', async () => {
		const order = sb.raw.state.ordersBySeller.get(1001)[2];
		const none = await change({ url: '', clientId: app().clientId, event: 'order.updated', orderItemId: order.order_item_id, status: 'delivered' });
		expect(none.json.data).toMatchObject({ deliveries: [], meaning: 'The change is made. No webhook URL is registered for this seller, so no event was sent: paste a Trigger URL to send one.' });
		expect(sb.raw.state.orders.get(order.order_item_id).status).toBe('delivered');
		await sb.control('POST', `/apps/${app().clientId}/webhook`, { url: receiver.url });
		try {
			const sent = await change({ clientId: app().clientId, event: 'order.updated', orderItemId: order.order_item_id, status: 'shipped' });
			expect(sent.json.data.deliveries).toEqual([expect.objectContaining({ clientId: app().clientId })]);
			expect(sent.json.data.meaning).toBe("The change is made; its event goes to the webhook URL registered for the seller's apps (1).");
			await sb.control('POST', '/deliveries/wait');
			expect(delivered(0)).toMatchObject({ event: 'order.updated', body: { data: { order_item_id: order.order_item_id, status: 'shipped', previous_status: 'delivered' } } });
		} finally {
			await sb.control('POST', `/apps/${app().clientId}/webhook`, { url: null });
		}
	});

	test('a page of another origin cannot make a change', async () => {
		const before = sb.raw.state.ordersBySeller.get(1001).length;
		const answer = await change({ url: receiver.url, clientId: app().clientId, event: 'order.created' }, { origin: 'https://evil.example' });
		expect(answer.status).toBe(403);
		expect((await change({ url: receiver.url, clientId: app().clientId, event: 'order.created' }, { 'x-sandbox-page-token': 'x' })).status).toBe(401);
		expect(sb.raw.state.ordersBySeller.get(1001)).toHaveLength(before);
		expect(receiver.received).toHaveLength(0);
	});

	test('nothing listening at the URL is said in plain words', async () => {
		const closed = await startReceiver();
		await closed.close();
		const answer = await send({ url: closed.url, clientId: app().clientId, event: 'order.created' });
		expect(answer.status).toBe(200);
		expect(answer.json.data).toMatchObject({
			statusCode: null,
			error: 'ECONNREFUSED',
			meaning: 'Nothing answers at this address: is n8n running, and are the host and port those of its URL? (npm start runs n8n on 127.0.0.1:5678.)',
		});
	});

	test.each(['http://192.0.2.10:5678/webhook-test/x/webhook', 'http://example.com/webhook', 'http://[2001:db8::1]/hook', 'http://127.0.0.1.example/hook'])(
		'a target off this machine (%s) is refused and nothing is sent',
		async (url) => {
			const before = await attempts();
			const answer = await send({ url, clientId: app().clientId, event: 'order.created' });
			expect(answer.status).toBe(403);
			expect(answer.json.error.message).toMatch(/^This page sends only to this machine \(127\.0\.0\.1, localhost, \[::1\]\), not to .*--allow-remote/);
			expect(await attempts()).toBe(before);
		},
	);

	test('localhost and [::1] are this machine', async () => {
		const local = receiver.url.replace('127.0.0.1', 'localhost');
		expect((await send({ url: local, clientId: app().clientId })).json.data.statusCode).toBe(200);
		const v6 = await send({ url: 'http://[::1]:9/hook', clientId: app().clientId });
		expect(v6.status).toBe(200);
		expect(v6.json.data.statusCode).toBeNull();
	});

	test('a page of another origin can neither load the page nor send, n8n\'s editor included', async () => {
		const before = await attempts();
		for (const origin of ['https://evil.example', 'http://127.0.0.1:5678', 'null']) {
			const sent = await send({ url: receiver.url, clientId: app().clientId }, { origin });
			expect(sent.status).toBe(403);
			expect(sent.json.error.message).toBe(`Requests from pages of "${origin}" are not taken: only the sandbox's own pages may call it.`);
			expect((await call(sb.origin, 'GET', '/_sandbox/test-event', { origin })).status).toBe(403);
		}
		expect(await attempts()).toBe(before);
		expect(receiver.received).toHaveLength(0);
		// Its own origin is taken, under any loopback name the page was opened with.
		expect((await send({ url: receiver.url, clientId: app().clientId }, { origin: sb.origin })).json.data.statusCode).toBe(200);
		const port = new URL(sb.origin).port;
		const asLocalhost = { host: `localhost:${port}`, origin: `http://localhost:${port}` };
		expect((await send({ url: receiver.url, clientId: app().clientId }, asLocalhost)).json.data.statusCode).toBe(200);
	});

	test('a body that is not declared JSON is refused (a cross-site form can post text/plain unasked)', async () => {
		const body = JSON.stringify({ url: receiver.url, clientId: app().clientId });
		for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
			const answer = await call(sb.origin, 'POST', '/_sandbox/test-event', { 'content-type': type, 'x-sandbox-page-token': pageToken }, body);
			expect(answer.status).toBe(415);
			expect(answer.json.error.message).toBe('Send the body as JSON, with Content-Type: application/json.');
		}
		expect((await call(sb.origin, 'POST', '/_sandbox/test-event', { 'x-sandbox-page-token': pageToken }, body)).status).toBe(415);
		await sb.control('POST', '/deliveries/wait');
		expect(receiver.received).toHaveLength(0);
	});

	test('a Host that is not a loopback name (a name rebound to 127.0.0.1) is refused, the secrets of /state included', async () => {
		const port = new URL(sb.origin).port;
		for (const host of [`rebound.example:${port}`, `192.168.1.20:${port}`, `127.0.0.1:${port}@rebound.example`]) {
			const sent = await send({ url: receiver.url, clientId: app().clientId }, { host });
			expect(sent.status).toBe(403);
			expect(sent.json.error.message).toBe(`Host ${JSON.stringify(host)} is not a loopback name (127.0.0.1, localhost, [::1]).`);
			expect((await call(sb.origin, 'GET', '/_sandbox/test-event', { host })).status).toBe(403);
			const state = await call(sb.origin, 'GET', '/_sandbox/state', { host });
			expect(state.status).toBe(403);
			expect(state.text).not.toContain(app().webhookSecret);
		}
		// No Host at all: Node.js answers 400 before the sandbox sees the request.
		expect((await send({ url: receiver.url, clientId: app().clientId }, { host: '' })).status).toBe(400);
		expect(receiver.received).toHaveLength(0);
	});

	test("the page's token opens its two routes only (send, change): /state, /reset, /orders and every other route answer 401", async () => {
		const withPageToken = (method: string, path: string) =>
			call(sb.origin, method, `/_sandbox${path}`, { 'content-type': 'application/json', authorization: `Bearer ${pageToken}`, 'x-sandbox-page-token': pageToken }, method === 'GET' ? undefined : '{}');
		for (const [method, path] of [['GET', '/state'], ['POST', '/reset'], ['GET', '/deliveries'], ['POST', `/apps/${app().clientId}/test-event`], ['POST', '/orders']]) {
			const answer = await withPageToken(method, path);
			expect(answer.status).toBe(401);
			expect(answer.text).not.toContain(app().webhookSecret);
		}
		// Only the page's routes take it, in its own header.
		expect(sb.raw.controlRoutes.filter((r: { page: boolean }) => r.page).map((r: { method: string; pattern: RegExp }) => `${r.method} ${r.pattern}`)).toEqual([
			'POST /^\\/test-event$/',
			'POST /^\\/demo-change$/',
		]);
		expect((await send({ url: receiver.url, clientId: app().clientId })).json.data.statusCode).toBe(200);
	});

	test('the send route without the page\'s token, or with another, is refused 401 with what to do, and nothing is sent', async () => {
		const body = { url: receiver.url, clientId: app().clientId };
		for (const headers of [{ 'x-sandbox-page-token': '' }, { 'x-sandbox-page-token': pageToken.replace(/.$/, (c) => (c === '0' ? '1' : '0')) }]) {
			const answer = await send(body, headers);
			expect(answer.status).toBe(401);
			expect(answer.json.error.message).toBe("This page's token is not this sandbox's (was the sandbox restarted?): reload the page, /_sandbox/test-event.");
		}
		// The control token opens it too (a script of yours, not the page).
		expect((await send(body, { 'x-sandbox-page-token': '', authorization: `Bearer ${sb.controlToken}` })).json.data.statusCode).toBe(200);
		expect(receiver.received).toHaveLength(1);
	});

	test('the control API itself still answers its own clients, and refuses a foreign page', async () => {
		const state = await call(sb.origin, 'GET', '/_sandbox/state', { authorization: `Bearer ${sb.controlToken}` });
		expect(state.json.data.apps[0].webhookSecret).toBe(app().webhookSecret);
		const csrf = await call(sb.origin, 'POST', '/_sandbox/orders', { origin: 'https://evil.example', 'content-type': 'text/plain' }, '{}');
		expect(csrf.status).toBe(403);
	});
});

describe('the test event page of a sandbox started with --allow-remote', () => {
	let sb: RunningSandbox;
	beforeAll(async () => {
		sb = await startSandbox({ allowRemote: true });
	});
	afterAll(() => sb.close());

	test('sends to an address off this machine too', async () => {
		const page = await call(sb.origin, 'GET', '/_sandbox/test-event');
		expect(page.text).toContain('This sandbox was started with --allow-remote: it sends to any address.');
		const body = JSON.stringify({ url: 'http://receiver.invalid/hook', clientId: sb.apps['seller-a-full'].clientId });
		const headers = { 'content-type': 'application/json', 'x-sandbox-page-token': await pageTokenOf(sb.origin) };
		const answer = await call(sb.origin, 'POST', '/_sandbox/test-event', headers, body);
		expect(answer.status).toBe(200);
		expect(answer.json.data).toMatchObject({ statusCode: null, error: 'ENOTFOUND', meaning: 'The delivery did not reach n8n (ENOTFOUND): check the URL.' });
	});
});
