/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// A person before the stock write, in the real n8n 2.x: an AI Agent whose update_stock tool (the
// order assistant example's node) sits behind n8n's human review for tools. No chat model runs here,
// so a scripted OpenAI-compatible server plays the model (it asks for the tool call a model would);
// the review is the Send Email node's human-review variant, because its approval is an HTTP link
// (the example's Chat variant approves in the editor's chat). The mail goes to an SMTP sink on loopback.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';

/* eslint-disable @typescript-eslint/no-require-imports */
const { freePort, importWorkflows, n8nCommand, publishWorkflow, startN8n, N8N_MAJOR } = require('../../scripts/lib');
const { prepareWorkspace, exampleFor } = require('../../scripts/workspace');
/* eslint-enable @typescript-eslint/no-require-imports */

const WORKFLOW_ID = 'mpTestReviewed';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An SMTP server that accepts every mail and keeps its raw text. */
async function startSmtpSink() {
	const mails: string[] = [];
	const server = net.createServer((socket) => {
		let buffer = '';
		let inData = false;
		socket.write('220 sink ESMTP\r\n');
		socket.on('data', (chunk) => {
			buffer += chunk.toString('utf8');
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end < 0) return;
					mails.push(buffer.slice(0, end));
					buffer = buffer.slice(end + 5);
					inData = false;
					socket.write('250 queued\r\n');
					continue;
				}
				const eol = buffer.indexOf('\r\n');
				if (eol < 0) return;
				const line = buffer.slice(0, eol);
				buffer = buffer.slice(eol + 2);
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO' || verb === 'HELO') socket.write('250 sink\r\n');
				else if (verb === 'DATA') {
					inData = true;
					socket.write('354 go on\r\n');
				} else if (verb === 'QUIT') socket.end('221 bye\r\n');
				else socket.write('250 ok\r\n');
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { port: (server.address() as AddressInfo).port, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * An OpenAI-compatible chat completions endpoint that plays a model: asked with no tool result yet,
 * it calls update_stock with `args`; given the tool's result, it answers with that result as text.
 */
async function startScriptedModel(args: () => Record<string, unknown>) {
	const requests: any[] = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c) => (body += c));
		req.on('end', () => {
			const request = JSON.parse(body || '{}');
			requests.push(request);
			const last = request.messages?.[request.messages.length - 1];
			const tool = (request.tools ?? []).map((t: any) => t.function).find((f: any) => f.name === 'update_stock');
			// Behind a human review, n8n asks for the tool's arguments under toolParameters (and the review's under hitlParameters).
			const reviewed = tool?.parameters?.properties?.toolParameters !== undefined;
			const call = reviewed ? { toolParameters: args(), hitlParameters: {} } : args();
			const message =
				last?.role === 'tool'
					? { role: 'assistant', content: `Tool said: ${last.content}` }
					: { role: 'assistant', content: null, tool_calls: [{ id: `call_${requests.length}`, type: 'function', function: { name: tool.name, arguments: JSON.stringify(call) } }] };
			res.setHeader('content-type', 'application/json');
			res.end(
				JSON.stringify({
					id: `chatcmpl-${requests.length}`,
					object: 'chat.completion',
					created: Math.floor(Date.now() / 1000),
					model: 'scripted',
					choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
					usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
				}),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A person clicking a button of the mail in a browser. n8n answers a link opened by a bot (by its
 * User-Agent: link scanners of mail services) with an empty page and records nothing, so a plain
 * fetch, whose User-Agent is "node", would never approve.
 */
const click = (url: string) => fetch(url, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36' } });

/** The buttons of a review mail (its HTML may come quoted-printable): label -> URL. */
const decoded = (mail: string) => mail.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));

function buttons(mail: string): Record<string, string> {
	const html = decoded(mail);
	return Object.fromEntries([...html.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map(([, url, label]) => [label.trim(), url.replace(/&amp;/g, '&')]));
}

(N8N_MAJOR >= 2 ? describe : describe.skip)('a person approves each stock write of an AI Agent (n8n human review for tools)', () => {
	let sb: RunningSandbox;
	let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
	let model: Awaited<ReturnType<typeof startScriptedModel>>;
	let userFolder: string;
	let n8n: { stop(): Promise<void>; output(): string; url: string };
	let product: { product_id: number; stock: number };
	let ask: Record<string, unknown>;

	const stockWrites = async () => (await sb.control('GET', '/stats')).byEndpoint['POST /stock_update.php 200'] ?? 0;
	const stockOf = async () => (await sb.control('GET', `/products/${product.product_id}`)).stock;
	const until = async <T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> => {
		for (const deadline = Date.now() + ms; ; await sleep(250)) {
			const value = await probe();
			if (value !== undefined) return value;
			if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${n8n.output().slice(-3000)}`);
		}
	};

	beforeAll(async () => {
		sb = await startSandbox({ orders: 10 });
		const products: Array<{ product_id: number; stock: number; variant_combination_ids: number[] }> = await sb.control('GET', '/products?sellerId=1001');
		product = products.find((p) => p.variant_combination_ids.length === 0)!;
		smtp = await startSmtpSink();
		model = await startScriptedModel(() => ask);
		userFolder = mkdtempSync(path.join(tmpdir(), 'n8n-partner-review-'));
		const port = await freePort();
		await prepareWorkspace({ userFolder, sandbox: sb.raw.describe(), n8nPort: port, publish: [] });

		const credentials = path.join(userFolder, 'review-credentials.json');
		writeFileSync(
			credentials,
			JSON.stringify([
				{ id: 'mpTestModel01', name: 'Scripted model', type: 'openAiApi', data: { apiKey: 'sk-scripted', url: model.url } },
				{ id: 'mpTestSmtp01', name: 'SMTP sink', type: 'smtp', data: { user: '', password: '', host: '127.0.0.1', port: smtp.port, secure: false, disableStartTls: true } },
			]),
		);
		await n8nCommand(userFolder, ['import:credentials', `--input=${credentials}`]);
		const example = exampleFor('order-assistant.json', sb.baseUrl);
		const updateStock = example.nodes.find((n: any) => n.name === 'update_stock');
		const workflow = {
			id: WORKFLOW_ID,
			name: 'Test: stock writes of an agent behind human review',
			nodes: [
				{ id: 'a0000000-0000-4000-8000-0000000000r1', name: 'Ask', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: 'a0000000-0000-4000-8000-0000000000r0', parameters: { httpMethod: 'POST', path: 'assistant-review', options: {} } },
				{ id: 'a0000000-0000-4000-8000-0000000000r2', name: 'Order assistant', type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 3.1, position: [240, 0], parameters: { promptType: 'define', text: '={{ $json.body.message }}', options: {} } },
				{ id: 'a0000000-0000-4000-8000-0000000000r3', name: 'Model', type: '@n8n/n8n-nodes-langchain.lmChatOpenAi', typeVersion: 1.2, position: [120, 240], parameters: { model: { __rl: true, value: 'scripted', mode: 'id' }, options: {} }, credentials: { openAiApi: { id: 'mpTestModel01', name: 'Scripted model' } } },
				{
					id: 'a0000000-0000-4000-8000-0000000000r4',
					name: 'Ask before changing stock',
					type: 'n8n-nodes-base.emailSendHitlTool',
					typeVersion: 2.1,
					position: [360, 240],
					// The example's review message (its Chat node variant), here in a mail.
					parameters: {
						message: example.nodes.find((n: any) => n.name === 'Ask before changing stock').parameters.message,
						fromEmail: 'n8n@example.com', toEmail: 'warehouse@example.com', subject: 'Approve a stock change', approvalOptions: { values: { approvalType: 'double' } }, options: {} },
					credentials: { smtp: { id: 'mpTestSmtp01', name: 'SMTP sink' } },
				},
				{ ...updateStock, position: [360, 480] },
			],
			connections: {
				Ask: { main: [[{ node: 'Order assistant', type: 'main', index: 0 }]] },
				Model: { ai_languageModel: [[{ node: 'Order assistant', type: 'ai_languageModel', index: 0 }]] },
				update_stock: { ai_tool: [[{ node: 'Ask before changing stock', type: 'ai_tool', index: 0 }]] },
				'Ask before changing stock': { ai_tool: [[{ node: 'Order assistant', type: 'ai_tool', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		};
		const file = path.join(userFolder, 'review-workflow.json');
		writeFileSync(file, JSON.stringify(workflow));
		await importWorkflows(userFolder, file);
		await publishWorkflow(userFolder, WORKFLOW_ID);
		n8n = await startN8n(userFolder, { port });
		// Registered, the webhook answers a GET with "not registered for GET requests"; before, with "… is not registered."
		for (let tries = 0; !/for GET requests/.test(await (await fetch(`${n8n.url}/webhook/assistant-review`)).text()) && tries < 240; tries++) await sleep(500);
	}, 600_000);

	afterAll(async () => {
		await n8n?.stop();
		await Promise.all([sb?.close(), smtp?.close(), model?.close()]);
		if (userFolder) rmSync(userFolder, { recursive: true, force: true });
	});

	const request = async (stock: number) => {
		ask = { product_id: product.product_id, stock, external_ref: `review test: set ${stock}` };
		const mails = smtp.mails.length;
		const res = await fetch(`${n8n.url}/webhook/assistant-review`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ message: `Set the stock of product ${product.product_id} to ${stock}` }),
		});
		expect(res.status).toBe(200);
		return await until('the review mail', () => (smtp.mails.length > mails ? smtp.mails[mails] : undefined));
	};

	test('nothing is written while the review waits; approved, the write lands once with the model\'s arguments', async () => {
		await sb.control('POST', '/stats/reset');
		const before = await stockOf();
		const mail = await request(before + 7);
		// The person sees what the model asks for.
		expect(decoded(mail)).toContain(`The assistant wants to change stock: {"product_id":${product.product_id},"stock":${before + 7},"external_ref":"review test: set ${before + 7}"}`);
		await sleep(1000);
		expect(await stockWrites()).toBe(0);
		expect(await stockOf()).toBe(before);

		const approve = buttons(mail).Approve;
		expect(approve).toMatch(/approved=true/);
		expect((await click(approve)).status).toBe(200);
		await until('the stock write', async () => ((await stockWrites()) === 1 ? true : undefined));
		expect(await stockOf()).toBe(before + 7);
		const result = await until('the model to get the tool result', () => model.requests.map((r) => r.messages.at(-1)).find((m) => m?.role === 'tool'));
		expect(result.content).toContain(`"new_stock":${before + 7}`);
		await sleep(1000);
		expect(await stockWrites()).toBe(1);
	});

	test('declined, nothing is written', async () => {
		await sb.control('POST', '/stats/reset');
		const before = await stockOf();
		const mail = await request(before + 100);
		const decline = buttons(mail).Decline;
		expect(decline).toMatch(/approved=false/);
		expect((await click(decline)).status).toBe(200);
		const told = await until('the model to hear of the refusal', () => model.requests.map((r) => r.messages.at(-1)).filter((m) => m?.role === 'tool')[1]);
		expect(told.content).not.toContain('new_stock');
		await sleep(1000);
		expect(await stockWrites()).toBe(0);
		expect(await stockOf()).toBe(before);
	});
});
