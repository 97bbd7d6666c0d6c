import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeParameterValueType } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { parameterReader } from '../../helpers/parameters';
import { toWholeNumber } from '../../helpers/values';
import { errorItem, toNodeError } from '../../helpers/items';
import { apiRequest } from '../../transport';
import { mapWithConcurrency } from '../../transport/concurrency';

export const DEFAULT_CONCURRENCY = 8;

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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 32 },
				default: DEFAULT_CONCURRENCY,
				description:
					'How many stock updates of this run are sent at the same time. Results keep the order of the input rows. Lower it if the marketplace rate-limits you.',
			},
		],
	},
];

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

	const concurrency = toWholeNumber(
		(this.getNodeParameter('options', 0, {}) as IDataObject).concurrency ?? DEFAULT_CONCURRENCY,
		'Concurrency',
		{ min: 1 },
	) as number;
	let stopped = false;
	// Per row: its result, its error, or nothing when it was never started.
	const results = await mapWithConcurrency(items.length, concurrency, async (i): Promise<INodeExecutionData | Error | undefined> => {
		const row = prepared[i];
		if ('error' in row) return errorItem(row.error, i);
		if (stopped) return undefined;
		try {
			const data = await apiRequest.call(this, 'POST', '/stock_update.php', { body: row.body, itemIndex: i });
			return { json: data, pairedItem: { item: i } };
		} catch (error) {
			const nodeError = toNodeError.call(this, error, i);
			if (continueOnFail) return errorItem(nodeError, i);
			stopped = true; // as in a sequential run, no further row is started after a failure
			return nodeError;
		}
	});
	const failure = results.find((r) => r instanceof Error);
	if (failure) throw failure;
	return results as INodeExecutionData[];
}
