import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import * as connection from './connection/Connection.resource';
import * as order from './order/Order.resource';
import * as stock from './stock/Stock.resource';
import { readRunOptions } from './runOptions';
import { startRun } from '../transport/runPolicy';
import { tellUser } from '../transport/runReport';

type Operation = (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;

const operations: Record<string, Record<string, { execute: Operation }>> = {
	order: { get: order.get, getMany: order.getMany },
	stock: { update: stock.update },
	connection: { checkSetup: connection.checkSetup, ping: connection.ping },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const run = operations[resource]?.[operation];
	if (!run) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	// One retry policy for every request of this run: retries follow the run's progress.
	const policy = startRun(this, readRunOptions(this));
	try {
		return [await run.execute.call(this)];
	} finally {
		// What the run met that its items do not show (waits, a corrected clock, failed rows…).
		tellUser(this, policy.report);
	}
}
