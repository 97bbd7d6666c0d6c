/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// A plain HTTP server that records what it receives, raw body included: a webhook receiver for tests.
import http from 'node:http';

export interface Received {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	rawBody: Buffer;
}

export interface Receiver {
	url: string;
	received: Received[];
	/** Status to answer with, per request; default 200. */
	respond: (req: Received) => number;
	waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
	close(): Promise<void>;
}

export async function startReceiver(
	handle?: (req: Received, res: http.ServerResponse) => void | Promise<void>,
): Promise<Receiver> {
	const received: Received[] = [];
	const receiver = { received, respond: () => 200 } as unknown as Receiver;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', async () => {
			const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks) };
			received.push(entry);
			if (handle) return handle(entry, res);
			res.writeHead(receiver.respond(entry), { 'content-type': 'text/plain' }).end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	receiver.url = `http://127.0.0.1:${port}/hook`;
	receiver.waitFor = async (count, timeoutMs = 10_000) => {
		const until = Date.now() + timeoutMs;
		while (received.length < count) {
			if (Date.now() > until) throw new Error(`expected ${count} requests, got ${received.length}`);
			await new Promise((r) => setTimeout(r, 10));
		}
		return received;
	};
	receiver.close = () =>
		new Promise((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return receiver;
}
