// Stock › Update as the editor shows it: each version's parameters, the tool's guard and what a model reads.
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { concurrencyOption, giveUpAfterOption, optionsCollection } from '../../../shared/runOptions';

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
