import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { toApiDateTime, toStatusFilter, toWholeNumber } from '../../../shared/helpers/values';
import { forEachItem } from '../../../shared/helpers/items';
import { simplifyOrderItem } from '../../helpers/simplifyOrderItem';
import { withIsoDates } from '../../../shared/helpers/orderChanges';
import { apiCredentials } from '../../../shared/transport';
import { explainEmptyList, MAX_PAGE_SIZE, walkOrders } from '../../../shared/transport/orderPages';
import { runPolicyOf } from '../../../shared/transport/runPolicy';
import { giveUpAfterOption, optionsCollection } from '../../../shared/runOptions';
import { simplifyOption } from './simplifyOption';
import { valueName } from '../tool';
import { textOf } from '../../../shared/helpers/networkText';
import { statusParameter } from '../../../shared/helpers/statusParameter';

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
/** Versions 1 and 2: the status typed as text. */
const statusText: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'string',
	default: '',
	placeholder: 'e.g. accepted',
	description:
		'Only order items with exactly this order status, as the API writes it (lower case), e.g. accepted. "Accepted" or "Shipped" match nothing.',
};

function filters(status: INodeProperties): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			status,
			{
				displayName: 'Updated After',
				name: 'updatedAfter',
				type: 'dateTime',
				default: '',
				description:
					"Only order items updated after this moment. A value with a time zone is converted to the credential's Time Zone of the API. For a sync, use the previous run's latest updated_at.",
			},
		],
	};
}

const sortOption: INodeProperties = {
	displayName: 'Sort',
	name: 'sort',
	type: 'options',
	options: [
		{
			name: 'As the API Returns Them',
			value: 'api',
			description: 'In the order the marketplace lists them (often the oldest first)',
		},
		{
			name: 'Newest First (Sorted by This Node)',
			value: 'newestFirst',
			description: 'Fetches every matching order item, sorts them by created_at, newest first, then applies Limit',
		},
	],
	default: 'api',
	description:
		'The API does not say in which order it lists order items. To get the newest, this node fetches all matching items (use filters to keep that small) and sorts them itself.',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	simplifyOption,
	...updateDisplayOptions({ show: { '@version': [1, 2] } }, [filters(statusText)]),
	...updateDisplayOptions({ show: { '@version': [{ _cnd: { gte: 3 } }] } }, [filters(statusParameter)]),
	// Versions 1 to 3: Sort beside Options; version 4: under Options, as n8n's own nodes have it.
	...updateDisplayOptions({ show: { '@version': [1, 2, 3] } }, [sortOption, optionsCollection(giveUpAfterOption)]),
	...updateDisplayOptions({ show: { '@version': [{ _cnd: { gte: 4 } }] } }, [optionsCollection(giveUpAfterOption, sortOption)]),
];

/** What a model reads about Order › Get Many used as a tool. */
export const toolDescription =
	"List the seller's order items (Partner API GET /orders.php), oldest first as the API returns them. Each has order_item_id (e.g. 500001: pass it to the order detail tool), order_no, status (e.g. accepted), payment_status (e.g. paid), product_id, sku and title of the product, quantity, unit_price, currency, created_at and updated_at (YYYY-MM-DD HH:MM:SS) and the customer's city. " +
	'It returns at most a few order items (20 unless the workflow sets another Limit), not all of them: to find what you need, filter by status (e.g. accepted) and by updated_after (only order items updated after that moment, e.g. 2026-05-01 00:00:00) rather than trying to fetch everything. Send an empty string for a filter you do not need.';
// Stryker restore all

const displayOptions = { show: { resource: ['order'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, async (i) => {
		const returnAll = this.getNodeParameter('returnAll', i) as boolean;
		const wanted = returnAll ? Infinity : (toWholeNumber(this.getNodeParameter('limit', i), valueName(this, 'limit', 'Limit'), { min: 1 }) as number);
		const newestFirst = this.getNodeParameter(this.getNode().typeVersion >= 4 ? 'options.sort' : 'sort', i, 'api') === 'newestFirst';
		// Sorting needs every matching item first: the API's own order is not documented.
		const limit = newestFirst ? Infinity : wanted;
		const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
		const status = toStatusFilter(filters.status);
		const { timeZone } = await apiCredentials.call(this, i);
		const updatedAfter = filters.updatedAfter ? toApiDateTime(filters.updatedAfter, valueName(this, 'updated_after', 'Updated After'), timeZone) : undefined;

		const simplify = this.getNodeParameter('simplify', i) as boolean;
		const read = async (statusSent: string | undefined) => {
			const found: INodeExecutionData[] = [];
			await walkOrders.call(
				this,
				{ qs: { status: statusSent, updated_after: updatedAfter }, pageSize: () => Math.min(MAX_PAGE_SIZE, limit - found.length), itemIndex: i },
				(orders) => {
					for (const entry of orders.slice(0, limit - found.length)) {
						const order = withIsoDates(entry, timeZone);
						const json = simplify ? simplifyOrderItem(order, order.product, order.customer) : order;
						found.push({ json, pairedItem: { item: i } });
					}
					return found.length < limit;
				},
			);
			return found;
		};
		let orderItems = await read(status);
		if (orderItems.length === 0 && (status !== undefined || updatedAfter !== undefined)) {
			// An empty answer to a filter says why, and a status written otherwise than the API
			// writes it ("Accepted") is sent again as the API writes it (version 3).
			const { respelled, type, message } = await explainEmptyList.call(
				this,
				{
					status,
					window: updatedAfter === undefined ? undefined : `were updated after ${updatedAfter} (in the credential's Time Zone of the API)`,
					otherwise: "Choose an earlier Updated After, or check the credential's Time Zone of the API.",
				},
				{ respell: this.getNode().typeVersion >= 3, itemIndex: i },
			);
			runPolicyOf(this).report.tell({ type, message });
			if (respelled !== undefined) orderItems = await read(respelled);
		}
		if (!newestFirst) return orderItems;
		// created_at, then the id; the separator sorts below every character, so an entry without
		// created_at comes last (with "|", it came first: "|" sorts above the digits).
		const key = (item: INodeExecutionData) => `${textOf(item.json.created_at ?? '')}\u0000${textOf(item.json.order_item_id ?? '').padStart(20, '0')}`;
		return orderItems.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0)).slice(0, wanted);
	});
}
