// Stock › Update: every row read and checked before anything is sent, then sent with the run's
// retries and rate limit, rows of one product in sheet order.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { toWholeNumber } from '../../../shared/helpers/values';
import { errorItem, rowOf, toNodeError } from '../../../shared/helpers/items';
import { apiRequest } from '../../../shared/transport';
import { explainBySku } from '../../../shared/transport/errors';
import { mapWithConcurrency } from '../../../shared/transport/concurrency';
import { runPolicyOf } from '../../../shared/transport/runPolicy';
import { isTool } from '../tool';
import { markedRef } from '../../../shared/helpers/events';
import { stockColumns, type IdentifyBy } from './stockColumns';
import { autoMappedRows, bodyOf, mappedRows, RefusedByGuard, v1Rows, type Guard, type Row, type RowReader } from './rows';
import { productBudget } from './toolBudget';
import { invalidRows, withSheetSummary } from './sheetErrors';

export { description, toolDescription } from './update.description';

/**
 * Rows in progress at once. A row waiting for its retry holds no request slot (the run's policy
 * bounds those), so a run keeps many more rows in progress than requests in flight: under random
 * 429s a tenth of the rows may be waiting out a Retry-After at any moment. The bound keeps the
 * memory of a 100,000-row sheet flat.
 */
const ROWS_IN_PROGRESS = 256;

/** A row checked before anything is sent: its request body, or why it cannot be sent. */
type CheckedRow = { body: IDataObject } | { error: NodeOperationError };

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();

	let identifyBy: IdentifyBy = 'productId';
	let readRow: RowReader;
	if (this.getNode().typeVersion >= 2) {
		identifyBy = this.getNodeParameter('identifyBy', 0, 'productId') as IdentifyBy;
		const columns = stockColumns(identifyBy);
		const mode = this.getNodeParameter('columns.mappingMode', 0, 'autoMapInputData') as string;
		readRow = mode === 'autoMapInputData' ? autoMappedRows(this, columns, identifyBy) : mappedRows(this, columns);
	} else {
		readRow = v1Rows(this);
	}

	const tool = isTool(this);
	const guard: Guard = { maxStock: readMaxStock(this, tool), requireExternalRef: tool, allowZero: !tool || (this.getNodeParameter('toolAllowZero', 0, false) as boolean) };
	const productsLeft = tool ? productBudget(this) : undefined;
	const mark = this.getNode().typeVersion >= 3 && (this.getNodeParameter('markAsN8n', 0, true) as boolean);
	// As a tool, errors name each value by its API field: the model's argument.
	const apiNames: Row['label'] = (id) => id;
	// Version 1 has no Identify Product By, and a model cannot change the node's parameters.
	const skuHint = this.getNode().typeVersion >= 2 && !tool ? 'which looks like a SKU: to update by SKU, set Identify Product By › SKU' : undefined;

	// Every row is checked before anything is sent: a bad value never reaches the API, and without
	// Continue On Fail a sheet with a bad row changes no stock at all.
	let refused = 0;
	const prepared: CheckedRow[] = items.map((item, i) => {
		try {
			const row = readRow(item, i);
			const body = bodyOf(tool ? { ...row, label: apiNames, empty: 'empty' } : row, identifyBy, guard, skuHint);
			if (mark) body.external_ref = markedRef(body.external_ref as string | undefined);
			productsLeft?.take(targetOf(body));
			return { body };
		} catch (error) {
			if (error instanceof RefusedByGuard) refused++;
			return { error: toNodeError.call(this, error, i) as NodeOperationError };
		}
	});
	if (!continueOnFail) {
		const invalid = prepared.flatMap((p, i) => ('error' in p ? [{ i, error: p.error }] : []));
		// A model's call is one row: it reads the refusal as it is, with its own description.
		if (invalid.length > 0) throw tool ? invalid[0].error : invalidRows(this, items, invalid);
	}

	const policy = runPolicyOf(this);
	// Rows that set the same product (or variant) are sent one after the other, in sheet order: a
	// retry must not let an earlier row overwrite a later one.
	const previousOfTarget = new Map<string, Promise<unknown>>();
	// Per row: its result or its error (every row is started; once the run stops, a row fails unsent).
	const results = await mapWithConcurrency(items.length, ROWS_IN_PROGRESS, async (i): Promise<INodeExecutionData | Error> => {
		const row = prepared[i];
		if ('error' in row) return errorItem(row.error, i);
		const target = targetOf(row.body);
		const previous = previousOfTarget.get(target);
		const sending = (async () => {
			if (previous) await previous;
			return await apiRequest.call(this, 'POST', '/stock_update.php', { body: row.body, itemIndex: i });
		})();
		previousOfTarget.set(target, sending.catch(() => undefined));
		try {
			return { json: await sending, pairedItem: { item: i } };
		} catch (error) {
			const nodeError = toNodeError.call(this, identifyBy === 'sku' && error instanceof NodeApiError ? explainBySku(error) : error, i);
			if (continueOnFail) return errorItem(nodeError, i);
			// As in a sequential run, no further row is sent after a failure.
			policy.stop({ itemIndex: i, message: `The node stopped at ${rowOf(items, i)}, which failed.` });
			return nodeError;
		}
	});
	// The row that stopped the run; rows cut off after it are not the news.
	const stoppedAt = policy.stopReasonIfAny?.itemIndex;
	const failure = (stoppedAt !== undefined && results[stoppedAt] instanceof Error ? results[stoppedAt] : undefined) ?? results.find((r) => r instanceof Error);
	if (failure) throw withSheetSummary(failure as NodeApiError | NodeOperationError, results, items);
	// Under Continue On Fail: how many rows became error items, for the run's report.
	const failed = (results as INodeExecutionData[]).filter((r) => r.json.error !== undefined).length;
	policy.report.stockRows({ total: items.length, failed, refused, maxStock: guard.maxStock });
	return results as INodeExecutionData[];
}

/** The product (or variant) a row sets: rows of one target go one after the other, and count once. */
function targetOf(body: IDataObject): string {
	return `${body.product_id ?? `sku:${body.sku}`}/${body.variant_combination_id ?? ''}`;
}

/** The smallest bound set: the option's, and as a tool also the tool's own (always set). */
function readMaxStock(context: IExecuteFunctions, tool: boolean): number | undefined {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	try {
		const option = toWholeNumber(options.maxStock, 'Maximum Stock', { optional: true });
		if (!tool) return option;
		const own = toWholeNumber(context.getNodeParameter('toolMaxStock', 0, undefined), 'Maximum Stock') as number;
		return Math.min(own, option ?? own);
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message);
	}
}
