import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { toApiDateTime, toWholeNumber } from '../../helpers/values';
import { forEachItem } from '../../helpers/items';
import { simplifyOrderItem } from '../../helpers/simplify';
import { apiCredentials } from '../../transport';
import { knownStatuses, MAX_PAGE_SIZE, walkOrders } from '../../transport/orderPages';
import { runPolicyOf } from '../../transport/runPolicy';
import { giveUpAfterOption, optionsCollection } from '../runOptions';
import { simplifyOption } from './simplify';
import { valueName } from '../tool';
import { cut, textOf } from '../../helpers/untrusted';

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

/** Version 3: the statuses the API writes, to pick from (or any value through an expression). */
const statusPicked: INodeProperties = {
	displayName: 'Status Name or ID',
	name: 'status',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getStatuses' },
	// Any status the workflow names is sent (a marketplace's own, or one typed otherwise than the
	// list): the editor then marks no value outside the list as an issue.
	allowArbitraryValues: true,
	default: '',
	description:
		'Only order items in this order status: the statuses your marketplace\'s order items have. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
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
					'Only order items updated after this moment. Sent as YYYY-MM-DD HH:MM:SS; a value with a time zone is converted to the credential\'s Time Zone of the API, one without is sent as written. For an incremental sync, use the latest updated_at of the previous run.',
			},
		],
	};
}

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
	...updateDisplayOptions({ show: { '@version': [{ _cnd: { gte: 3 } }] } }, [filters(statusPicked)]),
	{
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
		const read = async (statusSent: string | undefined) => {
			const found: INodeExecutionData[] = [];
			await walkOrders.call(
				this,
				{ qs: { status: statusSent, updated_after: updatedAfter }, pageSize: () => Math.min(MAX_PAGE_SIZE, limit - found.length), itemIndex: i },
				(orders) => {
					for (const order of orders.slice(0, limit - found.length)) {
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
			const respelled = await explainEmpty.call(this, i, status, updatedAfter);
			if (respelled !== undefined) orderItems = await read(respelled);
		}
		if (!newestFirst) return orderItems;
		// created_at, then the id; the separator sorts below every character, so an entry without
		// created_at comes last (with "|", it came first: "|" sorts above the digits).
		const key = (item: INodeExecutionData) => `${textOf(item.json.created_at ?? '')}\u0000${textOf(item.json.order_item_id ?? '').padStart(20, '0')}`;
		return orderItems.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0)).slice(0, wanted);
	});
}

/**
 * Tells why a filtered list came back empty, naming the filters and the statuses the API's order
 * items have. Returns the API's spelling of a status that matched only by case, to send instead
 * (version 3; earlier versions keep sending what the workflow says, and are told).
 */
async function explainEmpty(this: IExecuteFunctions, i: number, status: string | undefined, updatedAfter: string | undefined): Promise<string | undefined> {
	const report = runPolicyOf(this).report;
	const statuses = status === undefined ? [] : await knownStatuses.call(this, 1, i);
	const filters = [
		status === undefined ? undefined : `have status "${cut(status, 50)}"`,
		updatedAfter === undefined ? undefined : `were updated after ${updatedAfter} (in the credential's Time Zone of the API)`,
	].filter(Boolean);
	const none = `No order items ${filters.join(' and ')}.`;
	if (status === undefined || statuses.includes(status)) {
		report.tell({ type: 'info', message: `${none} Choose an earlier Updated After, or check the credential's Time Zone of the API.` });
		return undefined;
	}
	const spelled = statuses.find((known) => known.toLowerCase() === status.toLowerCase());
	if (spelled !== undefined && this.getNode().typeVersion >= 3) {
		report.tell({ type: 'info', message: `Status "${cut(status, 50)}" was sent as "${cut(spelled, 50)}", as the API writes it.` });
		return spelled;
	}
	const fix = spelled === undefined ? "Pick one of those in the Status filter's list." : `Statuses match exactly: use "${cut(spelled, 50)}".`;
	report.tell({
		type: 'warning',
		message: `${none} The order items in the list have the statuses ${statuses.map((known) => `"${cut(known, 50)}"`).join(', ')}. ${fix}`,
	});
	return undefined;
}
