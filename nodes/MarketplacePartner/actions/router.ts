import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import * as connection from './connection/Connection.resource';
import * as order from './order/Order.resource';
import * as otherEndpoint from './otherEndpoint/OtherEndpoint.resource';
import * as stock from './stock/Stock.resource';
import { readRunOptions } from '../../shared/runOptions';
import { startRun } from '../../shared/transport/runPolicy';
import { reportRun } from '../../shared/transport/runReport';

/** n8n's "Custom API Call" entry (n8n's own name and value: the editor recognises it by the value). */
export const CUSTOM_API_CALL = { name: 'Custom API Call', value: '__CUSTOM_API_CALL__' } as const;

type Operation = (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;

const operations: Record<string, Record<string, { execute: Operation }>> = {
	order: { get: order.get, getMany: order.getMany },
	stock: { update: stock.update },
	connection: { checkSetup: connection.checkSetup, ping: connection.ping },
	otherEndpoint: { send: otherEndpoint.send },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	// Under the Custom API Call resource no Operation shows: read it only under another.
	const operation = resource === CUSTOM_API_CALL.value ? CUSTOM_API_CALL.value : (this.getNodeParameter('operation', 0) as string);
	if (operation === CUSTOM_API_CALL.value) {
		// The editor's notice says so too, but a run reaches here: say what to do instead of "not supported".
		throw new NodeOperationError(this.getNode(), 'A custom API call is made with the HTTP Request node, not this one: nothing was sent', {
			description:
				'Add an HTTP Request node, set Authentication to Predefined Credential Type and Credential Type to Marketplace Partner API, pick this credential, and give the full URL under its Base URL (e.g. …/v1/ping.php). It signs every request as this node does.',
		});
	}
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
		reportRun(this, policy.report);
	}
}
