/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// A loopback HTTP server that plays back scripted answers, for answers the sandbox never gives
// (a 500 or 501, a Retry-After on a 503, a success without the envelope, a request left unanswered
// or dropped, no Date header).
// It records each request as it arrived: when, the target, the headers and the raw body.
import http from 'node:http';
import { randomBytes } from 'node:crypto';

export interface Answer {
	status: number;
	headers?: Record<string, string>;
	/** A string is sent as is; anything else as JSON. */
	body?: unknown;
	/** Accept the request and never answer it. */
	hang?: boolean;
	/** Close the connection without an answer. */
	drop?: boolean;
	/** Send the status and headers at once, then the body one byte every this many ms (an answer that stalls). */
	trickleMs?: number;
}

export interface ScriptedRequest {
	at: number;
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	rawBody: string;
}

export interface ScriptedApi {
	/** The credential's Base URL: http://127.0.0.1:PORT/api/partner/v1 */
	baseUrl: string;
	requests: ScriptedRequest[];
	/**
	 * An app with a secret no other test shares. The node signs a request identical to one it signed
	 * in the same second for an earlier second (requestSigner.ts), up to a minute back, then waits a
	 * second per request: tests sharing one secret would wait on each other's pings.
	 */
	app: { clientId: string; clientSecret: string; webhookSecret: string };
	close(): Promise<void>;
}

export const ok = (data: unknown): Answer => ({ status: 200, body: { ok: true, data } });

/**
 * A PHP backend that clamps `offset` at its last page and answers has_more: true to every page:
 * `total` order items (ids 1..total), pages of at most `limit`, pagination.offset as clamped when
 * `writesOffset`. Every walk of it must end with an error.
 */
export function clampingList(total: number, { writesOffset = true } = {}): (request: ScriptedRequest) => Answer {
	return (request) => {
		const query = new URL(request.url, 'http://x').searchParams;
		const limit = Math.min(100, Number(query.get('limit') ?? 50));
		const offset = Math.min(Number(query.get('offset') ?? 0), Math.floor((total - 1) / limit) * limit);
		const orders = Array.from({ length: Math.min(limit, total - offset) }, (_, n) => ({
			order_item_id: offset + n + 1,
			order_no: `ORD-${offset + n + 1}`,
			status: 'accepted',
			created_at: '2026-05-01 10:00:00',
			updated_at: '2026-05-01 10:00:00',
		}));
		return ok({ orders, pagination: { limit, ...(writesOffset ? { offset } : {}), total, has_more: true } });
	};
}

/**
 * Answers the n-th request with `answers[n]`; once they are used up, with the last one. A function
 * answers each request as it sees it.
 */
export async function startScriptedApi(answers: Answer[] | ((request: ScriptedRequest) => Answer)): Promise<ScriptedApi> {
	const requests: ScriptedRequest[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const at = Date.now();
			const request = { at, method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') };
			requests.push(request);
			const answer = typeof answers === 'function' ? answers(request) : answers[Math.min(requests.length, answers.length) - 1];
			if (answer.hang) return;
			if (answer.drop) return void req.socket.destroy();
			res.sendDate = false; // a Date header only where the script gives one
			const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? '');
			res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
			if (!answer.trickleMs) return void res.end(text);
			res.flushHeaders();
			let sent = 0;
			const timer = setInterval(() => {
				if (res.destroyed || sent >= text.length) {
					clearInterval(timer);
					return void res.end();
				}
				res.write(text[sent++]);
			}, answer.trickleMs);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		baseUrl: `http://127.0.0.1:${port}/api/partner/v1`,
		requests,
		app: { clientId: 'cli_scripted', clientSecret: `cs_${randomBytes(16).toString('hex')}`, webhookSecret: '' },
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
