// Turning failures into per-item n8n errors and, under Continue On Fail, into error items.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { NotSentError } from '../transport/errors';
import type { ApiContext } from '../transport/runPolicy';

/** Our own errors keep their type; anything else (e.g. a value parser's Error) gets the item index. */
export function toNodeError(
	this: ApiContext,
	error: unknown,
	itemIndex: number | undefined,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	// A value that failed our checks before anything was sent (e.g. a negative stock from a sheet).
	return new NodeOperationError(this.getNode(), (error as Error).message, {
		itemIndex,
		description: 'Nothing was sent for this item. Fix the value in your data (or the expression that maps it) and run it again.',
	});
}

/**
 * The row a spreadsheet shows for input item `i`: Google Sheets' own `row_number`, else the row
 * under a header row (item 0 is row 2), as a file read by Extract from File numbers it.
 */
export function sheetRowOf(items: INodeExecutionData[], i: number): number {
	const own = items[i]?.json.row_number;
	return typeof own === 'number' && Number.isSafeInteger(own) && own > 0 ? own : i + 2;
}

/** A row as errors name it: the sheet's number and n8n's item index beside it. */
export function rowOf(items: INodeExecutionData[], i: number): string {
	return `row ${sheetRowOf(items, i)} (item ${i})`;
}

/** The code of an error item whose value the node refused before sending, as API errors carry theirs. */
export const INVALID_VALUE = 'invalid_value';

/**
 * `{ error, details }` and nothing else at the top: n8n sends an item of exactly that shape down the
 * error output under "Continue (using error output)", and keeps all of it under "Continue". (An
 * item-level `error` would be routed too, but n8n then cuts its json down to the message alone.)
 */
export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const details: IDataObject = {};
	if (error.description) details.description = error.description;
	// Not-sent rows carry `notSent` instead: they were valid, just never tried.
	const code = error instanceof NodeApiError ? error.errorResponse?.code : error instanceof NotSentError ? undefined : INVALID_VALUE;
	if (typeof code === 'string') details.code = code;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
	// Never reached the API, so nothing changed: unlike a row the API refused.
	if (error instanceof NotSentError) details.notSent = true;
	// Which input item failed (0-based, as n8n counts): a sheet's row is itemIndex + 2 under its header.
	details.itemIndex = itemIndex;
	return { json: { error: error.message, details }, pairedItem: { item: itemIndex } };
}

/**
 * Runs `run` for each input item in turn and collects what it returns. A failure stops the run
 * with an error that names the item, or under Continue On Fail becomes that item's error item.
 */
export async function forEachItem(
	this: IExecuteFunctions,
	run: (itemIndex: number) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const returnData: INodeExecutionData[] = [];
	const count = this.getInputData().length;
	for (let i = 0; i < count; i++) {
		try {
			// A loop, not push(...items): Return All can hand back more items than call arguments allow.
			for (const item of await run(i)) returnData.push(item);
		} catch (error) {
			const nodeError = toNodeError.call(this, error, i);
			if (!this.continueOnFail()) throw nodeError;
			returnData.push(errorItem(nodeError, i));
		}
	}
	return returnData;
}
