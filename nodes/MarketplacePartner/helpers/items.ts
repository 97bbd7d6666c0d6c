// Turning failures into per-item n8n errors and, under Continue On Fail, into error items.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
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

export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: INodeExecutionData['json'] = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	const code = (error as NodeApiError).errorResponse?.code;
	if (typeof code === 'string') json.code = code;
	return { json, pairedItem: { item: itemIndex } };
}
