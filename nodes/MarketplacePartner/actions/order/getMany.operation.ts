import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { toApiDateTime, toWholeNumber } from '../../helpers/values';
import { forEachItem } from '../../helpers/items';
import { simplifyOrderItem } from '../../helpers/simplify';
import { apiCredentials, apiRequest } from '../../transport';
import { hasMoreOf, OffsetCheck, readOrdersPage } from '../../transport/answers';
import { runPolicyOf } from '../../transport/runPolicy';
import { giveUpAfterOption, optionsCollection } from '../runOptions';
import { simplifyOption } from './simplify';
import { valueName } from '../tool';
import { textOf } from '../../helpers/untrusted';

/** The API's maximum page size: Return All asks for full pages. */
const MAX_PAGE_SIZE = 100;

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
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
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: '',
				placeholder: 'accepted',
				description:
					'Only order items with exactly this order status, as the API writes it (lower case): accepted is the only value the API documents; the sandbox also has shipped, delivered and cancelled. "Shipped" matches nothing.',
			},
			{
				displayName: 'Updated After',
				name: 'updatedAfter',
				type: 'dateTime',
				default: '',
				description:
					'Only order items updated after this moment. Sent as YYYY-MM-DD HH:MM:SS; a value with a time zone is converted to the credential\'s Time Zone of the API, one without is sent as written. For an incremental sync, use the latest updated_at of the previous run.',
			},
		],
	},
	{
		displayName: 'Sort',
		name: 'sort',
		type: 'options',
		options: [
			{
				name: 'As the API Returns Them',
				value: 'api',
				description: 'The API does not document an order; the sandbox returns the oldest first',
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
	},
	optionsCollection(giveUpAfterOption),
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
		const newestFirst = this.getNodeParameter('sort', i, 'api') === 'newestFirst';
		// Sorting needs every matching item first: the API's own order is not documented.
		const limit = newestFirst ? Infinity : wanted;
		const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
		const status = typeof filters.status === 'string' && filters.status.trim() ? filters.status.trim() : undefined;
		const updatedAfter = filters.updatedAfter
			? toApiDateTime(filters.updatedAfter, valueName(this, 'updated_after', 'Updated After'), (await apiCredentials.call(this, i)).timeZone)
			: undefined;

		const simplify = this.getNodeParameter('simplify', i) as boolean;
		const orderItems: INodeExecutionData[] = [];
		const offsets = new OffsetCheck(this.getNode(), i);
		for (let offset = 0; ; ) {
			const pageSize = Math.min(MAX_PAGE_SIZE, limit - orderItems.length);
			const data = await apiRequest.call(this, 'GET', '/orders.php', {
				qs: { limit: pageSize, offset, status, updated_after: updatedAfter },
				itemIndex: i,
			});
			const { orders, more } = readOrdersPage(data);
			offsets.page(orders, offset);
			runPolicyOf(this).report.page(offset, pageSize, orders.length, hasMoreOf(data));
			for (const order of orders.slice(0, limit - orderItems.length)) {
				const json = simplify ? simplifyOrderItem(order, order.product, order.customer) : order;
				orderItems.push({ json, pairedItem: { item: i } });
			}
			offset += orders.length;
			if (!more || orderItems.length >= limit) break;
		}
		if (!newestFirst) return orderItems;
		// created_at, then the id; the separator sorts below every character, so an entry without
		// created_at comes last (with "|", it came first: "|" sorts above the digits).
		const key = (item: INodeExecutionData) => `${textOf(item.json.created_at ?? '')}\u0000${textOf(item.json.order_item_id ?? '').padStart(20, '0')}`;
		return orderItems.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0)).slice(0, wanted);
	});
}
