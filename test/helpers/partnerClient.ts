/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// A signed Partner API client on undici, independent of the sandbox (it signs with the node's pure
// signing functions, so every sandbox test is also a check of two separate implementations).
import { Agent, request } from 'undici';
import { signRequest } from '../../nodes/shared/transport/signing';

export interface CallOptions {
	body?: string;
	timestamp?: number;
	contentType?: string | null;
	/** Sign this path instead of the one sent (to test mismatches). */
	signedPath?: string;
	/** Sign this body instead of the one sent. */
	signedBody?: string;
	headers?: Record<string, string>;
	omitHeaders?: string[];
	secret?: string;
}

export interface CallResult {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	json: any;
	signature: string;
}

export class PartnerClient {
	constructor(
		readonly baseUrl: string,
		readonly clientId: string,
		readonly clientSecret: string,
		readonly prefix = 'X-SVC-',
		readonly dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 16 }),
	) {}

	async call(method: 'GET' | 'POST', pathWithQuery: string, options: CallOptions = {}): Promise<CallResult> {
		const body = options.body ?? '';
		const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
		const signature = signRequest(
			options.secret ?? this.clientSecret,
			method,
			options.signedPath ?? pathWithQuery,
			timestamp,
			options.signedBody ?? body,
		);
		const headers: Record<string, string> = {
			accept: 'application/json',
			[`${this.prefix}CLIENT-ID`]: this.clientId,
			[`${this.prefix}TIMESTAMP`]: String(timestamp),
			[`${this.prefix}SIGNATURE`]: signature,
			...options.headers,
		};
		if (method === 'POST' && options.contentType !== null) {
			headers['content-type'] = options.contentType ?? 'application/json';
		}
		for (const name of options.omitHeaders ?? []) delete headers[name];
		const res = await request(`${this.baseUrl}${pathWithQuery}`, {
			method,
			body: method === 'POST' ? body : undefined,
			headers,
			dispatcher: this.dispatcher,
		});
		const text = await res.body.text();
		return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : null, signature };
	}

	get(pathWithQuery: string, options?: CallOptions) {
		return this.call('GET', pathWithQuery, options);
	}

	post(pathWithQuery: string, payload: unknown, options: CallOptions = {}) {
		return this.call('POST', pathWithQuery, {
			...options,
			body: options.body ?? (typeof payload === 'string' ? payload : JSON.stringify(payload)),
		});
	}

	close() {
		return this.dispatcher.close();
	}
}
