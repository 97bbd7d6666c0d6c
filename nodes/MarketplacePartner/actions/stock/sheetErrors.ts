// What a failed sheet says: every row whose values cannot be sent, in the sheet's row numbers, and
// how far a run got when a row failed for good.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { rowOf, sheetRowOf } from '../../../shared/helpers/items';

/**
 * Without Continue On Fail the run stops at the first row that fails for good: the error says how
 * far the sheet got, which row failed, and that running it again is safe.
 */
export function withSheetSummary(failure: NodeApiError | NodeOperationError, results: Array<INodeExecutionData | Error>, items: INodeExecutionData[]) {
	// Only without Continue On Fail, so no row holds an error item: every result that is not an Error was applied.
	const applied = results.filter((r) => !(r instanceof Error)).length;
	const row = rowOf(items, failure.context.itemIndex as number);
	const total = results.length;
	const summary =
		`${capitalized(row)} failed, of ${total} rows; ${applied} row${applied === 1 ? ' was' : 's were'} applied, the other ${total - applied} not. ` +
		'Stock updates set absolute values, so running the whole sheet again is safe: rows already applied are set to the same values.';
	failure.description = [failure.description, summary].filter(Boolean).join(' ');
	return failure;
}

/** Distinct errors named in full in the error of a sheet with bad values; the rest are counted. */
const ERRORS_NAMED = 20;
/** Rows named beside one error (the same error of a whole column names the first few). */
const ROWS_PER_ERROR = 5;

/**
 * Without Continue On Fail: one error for every row whose values cannot be sent, each named as the
 * sheet numbers it, so that one run shows every fix. Rows with the same error (a column missing
 * from every row) share a line. Nothing was sent, not even the good rows.
 */
export function invalidRows(context: IExecuteFunctions, items: INodeExecutionData[], invalid: Array<{ i: number; error: NodeOperationError }>): NodeOperationError {
	const byMessage = new Map<string, number[]>();
	for (const { i, error } of invalid) {
		const rows = byMessage.get(error.message);
		if (rows) rows.push(i);
		else byMessage.set(error.message, [i]);
	}
	const lines = [...byMessage].slice(0, ERRORS_NAMED).map(([message, rows]) => {
		const named = rows.slice(0, ROWS_PER_ERROR).map((i) => rowOf(items, i));
		const more = rows.length > ROWS_PER_ERROR ? ` and ${rows.length - ROWS_PER_ERROR} more rows` : '';
		return `${capitalized(named.join(', '))}${more}: ${message}`;
	});
	if (byMessage.size > ERRORS_NAMED) lines.push(`… and ${byMessage.size - ERRORS_NAMED} other errors.`);
	const good = items.length - invalid.length;
	const bad = invalid.length === 1 ? 'this row' : `these ${invalid.length} rows`;
	const nothingSent =
		`Nothing was sent${good > 0 ? `, not even the ${good} good row${good === 1 ? '' : 's'}` : ''}: fix ${bad} in your data (or the mapping) and run it again, ` +
		'or set Settings › On Error to Continue to send the good rows and get each bad one as an error item.';
	// One error (one row, or a column every row lacks) is the message itself.
	if (invalid.length === 1) return new NodeOperationError(context.getNode(), lines[0], { itemIndex: invalid[0].i, description: nothingSent });
	if (byMessage.size === 1) return new NodeOperationError(context.getNode(), lines[0], { description: nothingSent });
	const first = invalid.slice(0, 3).map(({ i }) => sheetRowOf(items, i)).join(', ');
	return new NodeOperationError(context.getNode(), `${invalid.length} rows have values that cannot be sent (rows ${first}${invalid.length > 3 ? ', …' : ''})`, {
		description: `${lines.join('\n')}\n${nothingSent}`,
	});
}

function capitalized(text: string): string {
	return `${text[0].toUpperCase()}${text.slice(1)}`;
}
