// The columns of a stock update in version 2, in the API's own words: what the resource mapper
// offers under "Map Each Column Manually", and what "Map Automatically" reads from each input item.
import type { ResourceMapperField } from 'n8n-workflow';
import { ownValue } from '../../../shared/helpers/networkText';

export type IdentifyBy = 'productId' | 'sku';

export interface StockColumn {
	/** The request field, and the column "Map Automatically" looks for. */
	id: 'product_id' | 'sku' | 'stock' | 'variant_combination_id' | 'external_ref';
	displayName: string;
	required: boolean;
	/** Its entry under Column Names, where a column named otherwise is named once for the run. */
	option: string;
	/** Column names read as this field, besides their header variants ("Product ID" for product_id). */
	names: string[];
}

const identifiers: Record<IdentifyBy, StockColumn> = {
	productId: {
		id: 'product_id',
		displayName: 'Product ID',
		required: true,
		option: 'productId',
		names: ['product_id'],
	},
	sku: {
		id: 'sku',
		displayName: 'SKU',
		required: true,
		option: 'sku',
		names: ['sku'],
	},
};

const others: StockColumn[] = [
	{
		id: 'stock',
		displayName: 'Stock',
		required: true,
		option: 'stock',
		names: ['stock'],
	},
	{
		id: 'variant_combination_id',
		displayName: 'Variant Combination ID',
		required: false,
		option: 'variantCombinationId',
		names: ['variant_combination_id'],
	},
	{
		id: 'external_ref',
		displayName: 'External Reference',
		required: false,
		option: 'externalRef',
		names: ['external_ref', 'external_reference'],
	},
];

export function stockColumns(identifyBy: IdentifyBy): StockColumn[] {
	return [ownValue(identifiers, identifyBy) ?? identifiers.productId, ...others];
}

/**
 * The identifier the other choice of Identify Product By reads (its option is named as the column's
 * displayName): a sheet with its column and not the chosen one's was made for that choice.
 */
export function otherIdentifier(identifyBy: IdentifyBy): StockColumn {
	return identifyBy === 'sku' ? identifiers.productId : identifiers.sku;
}

/**
 * The resource mapper's fields. All typed as text: n8n converts mapped values to a field's type
 * before the node sees them, and would turn an empty number cell into 0, a stock of zero. The
 * node's own checks read "12" as 12 and refuse "", "-1" and "12.5" with the column's name.
 */
export function resourceMapperFields(identifyBy: IdentifyBy): ResourceMapperField[] {
	return stockColumns(identifyBy).map(({ id, displayName, required }) => ({
		id,
		displayName,
		required,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type: 'string',
	}));
}
