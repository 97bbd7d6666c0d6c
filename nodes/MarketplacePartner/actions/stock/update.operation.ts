import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeApiError, NodeParameterValueType } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { parameterReader } from '../../helpers/parameters';
import { toWholeNumber } from '../../helpers/values';
import { errorItem, toNodeError } from '../../helpers/items';
import { apiRequest } from '../../transport';
import { mapWithConcurrency } from '../../transport/concurrency';
import { runPolicyOf } from '../../transport/runPolicy';
import { concurrencyOption, giveUpAfterOption, optionsCollection } from '../runOptions';

/**
 * Rows in progress at once. A row waiting for its retry holds no request slot (the run's policy
 * bounds those), so a run keeps many more rows in progress than requests in flight: under random
 * 429s a tenth of the rows may be waiting out a Retry-After at any moment. The bound keeps the
 * memory of a 100,000-row sheet flat.
 */
const ROWS_IN_PROGRESS = 256;

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
const properties: INodeProperties[] = [
	{
		displayName: 'Product ID',
		name: 'productId',
		type: 'number',
		typeOptions: { minValue: 1 },
		// Empty, not 0: a forgotten field must be an error, not a request for product 0.
		default: null,
		required: true,
		description:
			"The marketplace's product identifier (not your SKU). Map it from your sheet's product column with an expression; text such as \"70001\" is accepted.",
	},
	{
		displayName: 'Stock',
		name: 'stock',
		type: 'number',
		typeOptions: { minValue: 0 },
		// Empty, not 0: forgetting to map Stock must not zero the stock.
		default: null,
		required: true,
		description:
			'The new stock quantity. It replaces the current stock (it is not added to it), so sending the same value twice is harmless. Must be a whole number, 0 or more.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Variant Combination ID',
				name: 'variantCombinationId',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: null,
				description:
					'For products with variants (size, colour…): the variant combination whose stock you set, as shown in an order detail. Leave empty for products without variants.',
			},
			{
				displayName: 'External Reference',
				name: 'externalRef',
				type: 'string',
				default: '',
				description:
					"Your own reference for this change (e.g. the ERP transaction ID or the sheet row). The API echoes it back, so you can match results to your records.",
			},
		],
	},
	optionsCollection(concurrencyOption, giveUpAfterOption),
];
// Stryker restore all

const displayOptions = { show: { resource: ['stock'], operation: ['update'] } };

export const description = updateDisplayOptions(displayOptions, properties);

type Prepared = { body: IDataObject } | { error: NodeOperationError };

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();

	// Every row is checked before anything is sent: a bad value never reaches the API, and without
	// Continue On Fail a sheet with a bad row changes no stock at all.
	const productId = parameterReader<NodeParameterValueType>(this, 'productId', '');
	const stock = parameterReader<NodeParameterValueType>(this, 'stock', '');
	const additionalFields = parameterReader<IDataObject>(this, 'additionalFields', {});
	const prepared: Prepared[] = items.map((_, i) => {
		try {
			const fields = additionalFields(i);
			const body: IDataObject = {
				product_id: toWholeNumber(productId(i), 'Product ID', { min: 1 }),
				stock: toWholeNumber(stock(i), 'Stock', { min: 0 }),
			};
			const variant = toWholeNumber(fields.variantCombinationId, 'Variant Combination ID', { min: 1, optional: true });
			if (variant !== undefined) body.variant_combination_id = variant;
			if (typeof fields.externalRef === 'string' && fields.externalRef !== '') body.external_ref = fields.externalRef;
			return { body };
		} catch (error) {
			return { error: toNodeError.call(this, error, i) as NodeOperationError };
		}
	});
	const firstInvalid = prepared.findIndex((p) => 'error' in p);
	if (firstInvalid >= 0 && !continueOnFail) {
		throw (prepared[firstInvalid] as { error: NodeOperationError }).error;
	}

	const policy = runPolicyOf(this);
	// Rows that set the same product (or variant) are sent one after the other, in sheet order: a
	// retry must not let an earlier row overwrite a later one.
	const previousOfTarget = new Map<string, Promise<unknown>>();
	// Per row: its result, its error, or nothing when it was never started.
	const results = await mapWithConcurrency(items.length, ROWS_IN_PROGRESS, async (i): Promise<INodeExecutionData | Error | undefined> => {
		const row = prepared[i];
		if ('error' in row) return errorItem(row.error, i);
		const target = `${row.body.product_id}/${row.body.variant_combination_id ?? ''}`;
		const previous = previousOfTarget.get(target);
		const sending = (async () => {
			if (previous) await previous;
			return await apiRequest.call(this, 'POST', '/stock_update.php', { body: row.body, itemIndex: i });
		})();
		previousOfTarget.set(target, sending.catch(() => undefined));
		try {
			return { json: await sending, pairedItem: { item: i } };
		} catch (error) {
			const nodeError = toNodeError.call(this, error, i);
			if (continueOnFail) return errorItem(nodeError, i);
			// As in a sequential run, no further row is sent after a failure.
			policy.stop({ itemIndex: i, message: `The node stopped at row ${i + 1}, which failed.` });
			return nodeError;
		}
	});
	// The row that stopped the run; rows cut off after it are not the news.
	const stoppedAt = policy.stopReasonIfAny?.itemIndex;
	const failure = (stoppedAt !== undefined && results[stoppedAt] instanceof Error ? results[stoppedAt] : undefined) ?? results.find((r) => r instanceof Error);
	if (failure) throw withSheetSummary(failure as NodeApiError | NodeOperationError, results);
	return results as INodeExecutionData[];
}

/**
 * Without Continue On Fail the run stops at the first row that fails for good: the error says how
 * far the sheet got, which row failed, and that running it again is safe.
 */
function withSheetSummary(failure: NodeApiError | NodeOperationError, results: Array<INodeExecutionData | Error | undefined>) {
	const applied = results.filter((r) => r !== undefined && !(r instanceof Error) && r.json.error === undefined).length;
	const row = (failure.context.itemIndex as number) + 1;
	const total = results.length;
	const summary =
		`Row ${row} of ${total} failed; ${applied} row${applied === 1 ? ' was' : 's were'} applied, the other ${total - applied} not. ` +
		'Stock updates set absolute values, so running the whole sheet again is safe: rows already applied are set to the same values.';
	failure.description = [failure.description, summary].filter(Boolean).join(' ');
	return failure;
}
