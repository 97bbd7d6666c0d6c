// A sheet's rows (or a model's call) read into Stock › Update's request bodies: each version's
// reader, the column messages, and every value checked before anything is sent.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeParameterValueType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { columnFinder } from '../../helpers/columnNames';
import { parameterReader } from '../../helpers/parameters';
import { toSku, toWholeNumber, type EmptyWord } from '../../../shared/helpers/values';
import { otherIdentifier, stockColumns, type IdentifyBy, type StockColumn } from './stockColumns';

/**
 * A row's values by request field, how its errors name each field (with its column, if read from
 * one), and what a missing value is called (a cell is blank; a model's argument empty).
 */
export interface Row {
	values: Partial<Record<StockColumn['id'], unknown>>;
	label: (id: StockColumn['id']) => string;
	empty: EmptyWord;
}

export type RowReader = (item: INodeExecutionData, itemIndex: number) => Row;

/** How errors name each field when its value does not come from a column: by its display name. */
function labelsOf(columns: StockColumn[]): Row['label'] {
	const labels = Object.fromEntries(columns.map((c) => [c.id, c.displayName]));
	return (id) => labels[id];
}

export function v1Rows(context: IExecuteFunctions): RowReader {
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
export function mappedRows(context: IExecuteFunctions, columns: StockColumn[]): RowReader {
	const value = parameterReader<IDataObject>(context, 'columns.value', {});
	const label = labelsOf(columns);
	return (_, i) => ({ values: value(i) ?? {}, label, empty: 'blank' });
}

/**
 * "Map Automatically": each field from its column of the item, found once per header, no
 * expression. A column that other items of the input have is this item's blank cell (n8n's
 * spreadsheet reader leaves blank cells out of the item), not a missing column.
 */
export function autoMappedRows(context: IExecuteFunctions, columns: StockColumn[], identifyBy: IdentifyBy): RowReader {
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
export interface Guard {
	maxStock?: number;
	requireExternalRef: boolean;
	allowZero: boolean;
}

/** A row the guard's Maximum Stock refused: counted for the run's report. */
export class RefusedByGuard extends Error {}

/**
 * The request body of a row, in the API's field order; every value checked before anything is sent.
 * `skuHint` is said of a Product ID with letters in it, as a SKU has.
 */
export function bodyOf({ values, label, empty }: Row, identifyBy: IdentifyBy, guard: Guard, skuHint?: string): IDataObject {
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
