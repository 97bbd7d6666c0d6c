// The floor any n8n node can reach: the same signed requests through n8n's own HTTP helper
// (this.helpers.httpRequest), with nothing else: no validation, retries, error mapping or pairing
// work. Our node measured against it shows our own overhead; it against raw undici shows n8n's.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { buildQueryString } from '../nodes/shared/transport/signing';
import { signedHeaders } from './common';

export const FLOOR_TYPE = 'bench.floor';

export interface FloorJob {
	mode: 'pull' | 'sync';
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	rows?: Array<{ product_id: number; stock: number }>;
	concurrency?: number;
}

export function floorNodeType(job: FloorJob): INodeType {
	return {
		description: {
			displayName: 'Floor',
			name: 'floor',
			group: ['transform'],
			version: 1,
			description: 'n8n HTTP helper floor',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const signed = (method: 'GET' | 'POST', path: string, body = '') => signedHeaders(job.clientId, job.clientSecret, method, path, body);
			const out: INodeExecutionData[] = [];
			if (job.mode === 'pull') {
				for (let offset = 0; ; offset += 100) {
					const path = `/orders.php?${buildQueryString({ limit: 100, offset })}`;
					const page = (await this.helpers.httpRequest({ method: 'GET', url: `${job.baseUrl}${path}`, headers: signed('GET', path) })) as IDataObject;
					const data = page.data as { orders: IDataObject[]; pagination: { has_more: boolean } };
					for (const order of data.orders) out.push({ json: order, pairedItem: { item: 0 } });
					if (!data.pagination.has_more) break;
				}
			} else {
				const rows = job.rows ?? [];
				let next = 0;
				const results = new Array<INodeExecutionData>(rows.length);
				await Promise.all(
					Array.from({ length: job.concurrency ?? 1 }, async () => {
						while (next < rows.length) {
							const i = next++;
							const body = JSON.stringify(rows[i]);
							const res = (await this.helpers.httpRequest({ method: 'POST', url: `${job.baseUrl}/stock_update.php`, body, headers: signed('POST', '/stock_update.php', body) })) as IDataObject;
							results[i] = { json: res.data as IDataObject, pairedItem: { item: i } };
						}
					}),
				);
				out.push(...results);
			}
			return [out];
		},
	} as unknown as INodeType;
}
