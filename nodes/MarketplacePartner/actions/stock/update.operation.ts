import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeParameterValueType } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { columnFinder } from '../../helpers/columnNames';
import { parameterReader } from '../../helpers/parameters';
import { toSku, toWholeNumber, type EmptyWord } from '../../../shared/helpers/values';
import { errorItem, rowOf, sheetRowOf, toNodeError } from '../../../shared/helpers/items';
import { apiRequest } from '../../../shared/transport';
import { explainBySku } from '../../../shared/transport/errors';
import { mapWithConcurrency } from '../../../shared/transport/concurrency';
import { runPolicyOf } from '../../../shared/transport/runPolicy';
import { concurrencyOption, giveUpAfterOption, optionsCollection } from '../../../shared/runOptions';
import { isTool, modelRunOf } from '../tool';
import { markedRef } from '../../../shared/helpers/events';
import { otherIdentifier, stockColumns, type IdentifyBy, type StockColumn } from './stockColumns';

/**
 * Rows in progress at once. A row waiting for its retry holds no request slot (the run's policy
 * bounds those), so a run keeps many more rows in progress than requests in flight: under random
 * 429s a tenth of the rows may be waiting out a Retry-After at any moment. The bound keeps the
 * memory of a 100,000-row sheet flat.
 */
const ROWS_IN_PROGRESS = 256;

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
/** Version 1: a parameter per field, mapped with an expression per row. */
const v1Properties: INodeProperties[] = [
	{
		displayName: 'Product ID',
		name: 'productId',
		type: 'number',
		typeOptions: { minValue: 1 },
		// Empty, not 0: a forgotten field must be an error, not a request for product 0.
		default: null,
		required: true,
		placeholder: 'e.g. 70001',
		description:
			"The marketplace's product identifier, product_id (e.g. 70001; not your SKU). Map it from your sheet's product column with an expression; text such as \"70001\" is accepted.",
	},
	{
		displayName: 'Stock',
		name: 'stock',
		type: 'number',
		typeOptions: { minValue: 0 },
		// Empty, not 0: forgetting to map Stock must not zero the stock.
		default: null,
		required: true,
		placeholder: 'e.g. 25',
		description:
			'The new stock quantity, stock (e.g. 25). It replaces the current stock (it is not added to it), so sending the same value twice is harmless. Must be a whole number, 0 or more.',
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
				placeholder: 'e.g. ERP-2026-0101',
				description:
					'Your own reference for this change (e.g. the ERP transaction ID or the sheet row), echoed back by the API. Required when a model calls this node as a tool.',
			},
		],
	},
];

const autoMapped = { '/columns.mappingMode': ['autoMapInputData'] };

/** Version 2: n8n's resource mapper, either a column per field or the fields read from each item. */
const v2Properties: INodeProperties[] = [
	{
		displayName: 'Identify Product By',
		name: 'identifyBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Product ID', value: 'productId', description: "The marketplace's product_id" },
			{
				name: 'SKU',
				value: 'sku',
				description:
					'Your own SKU, sent in place of product_id. Not every marketplace accepts SKUs; Connection › Check Setup, given a Test Product and its SKU, tells you whether yours does.',
			},
		],
		default: 'productId',
	},
	{
		displayName: 'Columns',
		name: 'columns',
		type: 'resourceMapper',
		noDataExpression: true,
		// Reading the fields from each item is what a sheet-to-stock sync needs, and it costs no
		// expression per row.
		default: { mappingMode: 'autoMapInputData', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['identifyBy'],
			resourceMapper: {
				resourceMapperMethod: 'getStockColumns',
				mode: 'add',
				fieldWords: { singular: 'column', plural: 'columns' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: true,
			},
		},
	},
	// Shown right under n8n's own notice of this mode ("make sure the incoming data fields are named
	// the same as the columns in Marketplace Partner…"), which no typeOption hides or rewords in
	// n8n 2.x: this one goes on from it, naming those columns and that any spelling of them counts.
	{
		displayName:
			'The columns in Marketplace Partner are product_id (or sku, as Identify Product By says) and stock, plus variant_combination_id and external_ref if needed, in any spelling ("Product ID").',
		name: 'autoMapNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: autoMapped },
	},
	{
		displayName: 'Column Names',
		name: 'columnNames',
		type: 'collection',
		placeholder: 'Name a Column',
		default: {},
		description: 'Columns of your data named otherwise than the fields, named once for the whole run',
		displayOptions: { show: autoMapped },
		options: [
			{
				displayName: 'External Reference Column',
				name: 'externalRef',
				type: 'string',
				default: '',
				placeholder: 'e.g. Note',
				description: 'The column holding your own reference for each row',
			},
			{
				displayName: 'Product ID Column',
				name: 'productId',
				type: 'string',
				default: '',
				placeholder: 'e.g. Article No',
				description: 'The column holding the marketplace product_id',
				displayOptions: { show: { '/identifyBy': ['productId'] } },
			},
			{
				displayName: 'SKU Column',
				name: 'sku',
				type: 'string',
				default: '',
				placeholder: 'e.g. Item Code',
				description: 'The column holding the SKU',
				displayOptions: { show: { '/identifyBy': ['sku'] } },
			},
			{
				displayName: 'Stock Column',
				name: 'stock',
				type: 'string',
				default: '',
				placeholder: 'e.g. Qty',
				description: 'The column holding the new stock',
			},
			{
				displayName: 'Variant Combination ID Column',
				name: 'variantCombinationId',
				type: 'string',
				default: '',
				placeholder: 'e.g. Variant',
				description: 'The column holding the variant combination ID',
			},
		],
	},
];

/** The guard against a mistaken write (a typo in a sheet, a model's slip): off unless set. */
const maxStockOption: INodeProperties = {
	displayName: 'Maximum Stock',
	name: 'maxStock',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 1000,
	description:
		'Refuse a row whose new stock is above this, before sending it: a guard against a typo (1000 for 100). Not set, no limit.',
};

/**
 * As a tool the guard is on by default and in sight: a model's slip (or a prompt that talks it into
 * one) cannot set any stock up to 2^53. The option above still applies where it is smaller.
 */
const toolMaxStock: INodeProperties = {
	displayName: 'Maximum Stock',
	name: 'toolMaxStock',
	type: 'number',
	typeOptions: { minValue: 0 },
	required: true,
	default: 1000,
	description:
		'The model may not set a stock above this: such a call is refused before anything is sent. Set it to the most one of your products can hold.',
	displayOptions: { show: { '@tool': [true] } },
};

/** As a tool, a stock of 0 (sold out) only where the user allows it: a prompt must not empty a catalogue. */
const toolAllowZero: INodeProperties = {
	displayName: 'Allow Stock of 0',
	name: 'toolAllowZero',
	type: 'boolean',
	default: false,
	description:
		'Whether the model may set a stock to 0, which marks the product sold out. Off: such a call is refused before anything is sent, and the model is told to leave it to a person.',
	displayOptions: { show: { '@tool': [true] } },
};

/** As a tool, how many products one run may change: a model talked into a mass change stops there. */
const toolMaxProducts: INodeProperties = {
	displayName: 'Maximum Products per Run',
	name: 'toolMaxProducts',
	type: 'number',
	typeOptions: { minValue: 1 },
	required: true,
	default: 10,
	description:
		'The most products the model may change in one run (one chat answer) or one MCP client session. Past it, calls are refused before anything is sent.',
	displayOptions: { show: { '@tool': [true] } },
};

/** Version 3: changes marked as this package's, so the trigger can tell them from the marketplace's own. */
const markProperty: INodeProperties = {
	displayName: 'Mark as Made by a Workflow',
	name: 'markAsN8n',
	type: 'boolean',
	default: true,
	description:
		'Whether to start each External Reference with "n8n:", so that the Marketplace Partner Trigger can skip the stock.updated events of these changes (no loop in a two-way sync)',
};

const properties: INodeProperties[] = [
	...updateDisplayOptions({ show: { '@version': [1] } }, v1Properties),
	...updateDisplayOptions({ show: { '@version': [{ _cnd: { gte: 2 } }] } }, v2Properties),
	...updateDisplayOptions({ show: { '@version': [{ _cnd: { gte: 3 } }] } }, [markProperty]),
	toolMaxStock,
	toolAllowZero,
	toolMaxProducts,
	// Version 4 has no Concurrency: 32 in flight, paced down by the node itself under a rate limit.
	...updateDisplayOptions({ show: { '@version': [1, 2, 3] } }, [optionsCollection(concurrencyOption, giveUpAfterOption, maxStockOption)]),
	...updateDisplayOptions({ show: { '@version': [{ _cnd: { gte: 4 } }] } }, [optionsCollection(giveUpAfterOption, maxStockOption)]),
];

/** What a model reads about Stock › Update used as a tool. */
export const toolDescription =
	"Set the stock of one product of the seller (Partner API POST /stock_update.php). Arguments: product_id, the marketplace product id (a whole number, e.g. 70001, as in an order item's product_id; or sku, e.g. SKU-A-70001, where the workflow identifies products by SKU); stock, the new quantity (a whole number, 0 or more, e.g. 25), which replaces the current stock rather than adding to it; external_ref, required: why you make this change or the person's reference for it (e.g. \"recount shelf B, asked by Ana\"). " +
	'Answers old_stock and new_stock. Only change stock when the person asked for this exact change; the workflow may refuse a stock above its Maximum Stock.';
// Stryker restore all

const displayOptions = { show: { resource: ['stock'], operation: ['update'] } };

export const description = updateDisplayOptions(displayOptions, properties);

type Prepared = { body: IDataObject } | { error: NodeOperationError };

/**
 * A row's values by request field, how its errors name each field (with its column, if read from
 * one), and what a missing value is called (a cell is blank; a model's argument empty).
 */
interface Row {
	values: Partial<Record<StockColumn['id'], unknown>>;
	label: (id: StockColumn['id']) => string;
	empty: EmptyWord;
}

type RowReader = (item: INodeExecutionData, itemIndex: number) => Row;

/** How errors name each field when its value does not come from a column: by its display name. */
function labelsOf(columns: StockColumn[]): Row['label'] {
	const labels = Object.fromEntries(columns.map((c) => [c.id, c.displayName]));
	return (id) => labels[id];
}

function v1Rows(context: IExecuteFunctions): RowReader {
	const label = labelsOf(stockColumns('productId'));
	const productId = parameterReader<NodeParameterValueType>(context, 'productId', '');
	const stock = parameterReader<NodeParameterValueType>(context, 'stock', '');
	const additionalFields = parameterReader<IDataObject>(context, 'additionalFields', {});
	return (_, i) => {
		const fields = additionalFields(i);
		return {
			values: { product_id: productId(i), stock: stock(i), variant_combination_id: fields.variantCombinationId, external_ref: fields.externalRef },
			label,
			empty: 'blank',
		};
	};
}

/** "Map Each Column Manually": the resource mapper's values, evaluated per row only where they hold an expression. */
function mappedRows(context: IExecuteFunctions, columns: StockColumn[]): RowReader {
	const value = parameterReader<IDataObject>(context, 'columns.value', {});
	const label = labelsOf(columns);
	return (_, i) => ({ values: value(i) ?? {}, label, empty: 'blank' });
}

/**
 * "Map Automatically": each field from its column of the item, found once per header, no
 * expression. A column that other items of the input have is this item's blank cell (n8n's
 * spreadsheet reader leaves blank cells out of the item), not a missing column.
 */
function autoMappedRows(context: IExecuteFunctions, columns: StockColumn[], identifyBy: IdentifyBy): RowReader {
	const named = context.getNodeParameter('columnNames', 0, {}) as IDataObject;
	const headers: IDataObject = {};
	for (const { json } of context.getInputData()) for (const header of Object.keys(json)) headers[header] = true;
	const finders = columns.map((column) => {
		const name = typeof named[column.option] === 'string' ? (named[column.option] as string).trim() : '';
		const find = columnFinder(name ? [name] : column.names);
		return { column, name, find, inSheet: headerOf(find, headers) };
	});
	const other = otherIdentifier(identifyBy);
	const alternative: Alternative = { replaces: columns[0], column: other, find: columnFinder(other.names) };
	return ({ json }) => {
		const values: Row['values'] = {};
		const labels: Record<string, string> = {};
		const read = new Set<string>();
		const missing: Missing[] = [];
		for (const { column, name, find, inSheet } of finders) {
			const header = find(json) ?? inSheet;
			if (header === undefined) {
				if (column.required) missing.push({ column, name });
				continue;
			}
			values[column.id] = json[header];
			labels[column.id] = `${column.displayName} (column "${header}")`;
			read.add(header);
		}
		if (missing.length > 0) {
			throw new NodeOperationError(context.getNode(), missingColumns(missing, json, read, alternative), {
				description: 'Nothing was sent for this item. Make the change the message names (or rename the columns in your data) and run it again.',
			});
		}
		return { values, label: (id) => labels[id], empty: 'blank' };
	};
}

/** A required field the item has no column for, and the column named for it under Column Names ('' if none). */
interface Missing {
	column: StockColumn;
	name: string;
}

/** The other choice of Identify Product By: the identifier it replaces, its own, and how to find its column. */
interface Alternative {
	replaces: StockColumn;
	column: StockColumn;
	find: (json: IDataObject) => string | undefined;
}

/**
 * One message for every required column the item lacks, each with its fix, so that one change of
 * the node fixes the row. An item with the other identifier's column was made for the other choice
 * of Identify Product By; the item's one column no field reads is offered for the one still unfixed.
 */
function missingColumns(missing: Missing[], json: IDataObject, read: Set<string>, alternative: Alternative): string {
	const headers = Object.keys(json);
	const switchTo = missing.some(({ column, name }) => column === alternative.replaces && !name) ? headerOf(alternative.find, json) : undefined;
	const spare = headers.filter((header) => !read.has(header) && header !== switchTo);
	const switches = (column: StockColumn) => switchTo !== undefined && column === alternative.replaces;
	const unfixed = missing.filter(({ column, name }) => !name && !switches(column));
	const fixes = missing.map(({ column, name }) => {
		const { displayName } = column;
		if (name) return `The column "${name}" named under Column Names › ${displayName} Column is not in this item.`;
		if (switches(column)) {
			const by = alternative.column.displayName;
			return `Its column "${switchTo}" reads as ${by}: to update by ${by}, set Identify Product By › ${by}.`;
		}
		if (unfixed.length === 1 && spare.length === 1) return `If "${spare[0]}" is your ${displayName} column, name it under Column Names › ${displayName} Column.`;
		return `Looked for "${column.names[0]}" or a header such as "${displayName}"; name your ${displayName} column under Column Names › ${displayName} Column.`;
	});
	const columns = headers.map((c) => `"${c}"`).join(', ') || 'none';
	return `This item has no ${missing.map(({ column }) => `${column.displayName} column`).join(' and no ')}. ${fixes.join(' ')} The item's columns: ${columns}.`;
}

/** The column `find` reads in `json`; none when several read as it, as picking one would be a guess. */
function headerOf(find: (json: IDataObject) => string | undefined, json: IDataObject): string | undefined {
	try {
		return find(json);
	} catch {
		return undefined;
	}
}

/** The guard: limits a row must keep to (as a tool, a reason for every change, and no stock of 0 unless allowed). */
interface Guard {
	maxStock?: number;
	requireExternalRef: boolean;
	allowZero: boolean;
}

/** A row the guard's Maximum Stock refused: counted for the run's report. */
class RefusedByGuard extends Error {}

/**
 * The request body of a row, in the API's field order; every value checked before anything is sent.
 * `skuHint` is said of a Product ID with letters in it, as a SKU has.
 */
function bodyOf({ values, label, empty }: Row, identifyBy: IdentifyBy, guard: Guard, skuHint?: string): IDataObject {
	const body: IDataObject =
		identifyBy === 'sku'
			? { sku: toSku(values.sku, label('sku'), empty) }
			: { product_id: toWholeNumber(values.product_id, label('product_id'), { min: 1, ifLetters: skuHint, empty }) };
	const stock = toWholeNumber(values.stock, label('stock'), { min: 0, why: 'stock cannot be negative', empty }) as number;
	if (stock > (guard.maxStock ?? Infinity)) {
		throw new RefusedByGuard(
			`${label('stock')} ${stock} is above the Maximum Stock of ${guard.maxStock} this workflow allows, so nothing was sent. Send ${guard.maxStock} or less, or have the workflow's Maximum Stock raised if ${stock} is right.`,
		);
	}
	if (stock === 0 && !guard.allowZero) {
		throw new Error(
			`${label('stock')} 0 would mark the product sold out, and this workflow does not let a model set a stock of 0, so nothing was sent. Leave it to a person, or have Allow Stock of 0 turned on in the workflow.`,
		);
	}
	body.stock = stock;
	const variant = toWholeNumber(values.variant_combination_id, label('variant_combination_id'), { min: 1, optional: true, empty });
	if (variant !== undefined) body.variant_combination_id = variant;
	const externalRef = values.external_ref;
	if (typeof externalRef === 'number' || (typeof externalRef === 'string' && externalRef.trim() !== '')) body.external_ref = String(externalRef);
	else if (guard.requireExternalRef) {
		throw new Error(
			`${label('external_ref')} is empty: as a tool, every stock change needs one, the reason for it or the person's reference (e.g. "recount shelf B, asked by Ana"). Nothing was sent.`,
		);
	}
	return body;
}

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
	const prepared: Prepared[] = items.map((item, i) => {
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

/** Model runs whose tool changes are counted (runs, MCP sessions, hours; `modelRunOf`), in this process. */
const MAX_RUNS_COUNTED = 100;
const changedByRun = new Map<string, Set<string>>();

/** As a tool: the products this model run may still change (Maximum Products per Run), counted across its calls. */
function productBudget(context: IExecuteFunctions): { take(target: string): void } {
	let max: number;
	try {
		max = toWholeNumber(context.getNodeParameter('toolMaxProducts', 0, 10), 'Maximum Products per Run', { min: 1 }) as number;
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message);
	}
	const run = modelRunOf(context, Date.now());
	let changed = changedByRun.get(run.key);
	if (!changed) {
		changed = new Set();
		changedByRun.set(run.key, changed);
		// Oldest first: a run counted 100 runs ago has long ended.
		if (changedByRun.size > MAX_RUNS_COUNTED) changedByRun.delete(changedByRun.keys().next().value!);
	}
	const counted = changed;
	return {
		take(target) {
			if (counted.has(target)) return;
			if (counted.size >= max) {
				// Its own description: "fix the value and run it again" would not be true here.
				throw new NodeOperationError(
					context.getNode(),
					`This workflow lets a model change at most ${max} products ${run.scope}, and ${counted.size} were changed already, so nothing was sent. Tell the person; ${run.next}.`,
					{ description: 'The limit keeps a model from changing many products at once; only a person can change it, in the workflow.' },
				);
			}
			counted.add(target);
		},
	};
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

/**
 * Without Continue On Fail the run stops at the first row that fails for good: the error says how
 * far the sheet got, which row failed, and that running it again is safe.
 */
function withSheetSummary(failure: NodeApiError | NodeOperationError, results: Array<INodeExecutionData | Error>, items: INodeExecutionData[]) {
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
function invalidRows(context: IExecuteFunctions, items: INodeExecutionData[], invalid: Array<{ i: number; error: NodeOperationError }>): NodeOperationError {
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
