// Turning failures into per-item n8n errors and, under Continue On Fail, into error items.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** Our own errors keep their type; anything else (e.g. a value parser's Error) gets the item index. */
export function toNodeError(
	this: IExecuteFunctions,
	error: unknown,
	itemIndex: number | undefined,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(this.getNode(), (error as Error).message, { itemIndex });
}

/**
 * `{ error, details }` and nothing else at the top: n8n sends an item of exactly that shape down the
 * error output under "Continue (using error output)", and keeps all of it under "Continue". (An
 * item-level `error` would be routed too, but n8n then cuts its json down to the message alone.)
 */
export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const details: IDataObject = {};
	if (error.description) details.description = error.description;
	const code = (error as NodeApiError).errorResponse?.code;
	if (typeof code === 'string') details.code = code;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
	return { json: { error: error.message, details }, pairedItem: { item: itemIndex } };
}
