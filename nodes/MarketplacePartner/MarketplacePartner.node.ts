import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as connection from './actions/connection/Connection.resource';
import * as order from './actions/order/Order.resource';
import * as otherEndpoint from './actions/otherEndpoint/OtherEndpoint.resource';
import { CUSTOM_API_CALL, router } from './actions/router';
import * as stock from './actions/stock/Stock.resource';
import { withToolVariants } from './actions/tool';
import { searchOrderItems } from './methods/listSearch';
import { getStatuses } from '../shared/helpers/statusParameter';
import { getStockColumns } from './methods/resourceMapping';

// Stryker disable all: n8n UI description (the node's parameters, as a node and as a tool)
const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Connection', value: 'connection' },
			{ name: 'Order', value: 'order' },
			{ name: 'Other Endpoint', value: 'otherEndpoint' },
			{ name: 'Stock', value: 'stock' },
			// n8n's own entry, by its name and value: the editor then says to use the HTTP Request node
			// with this credential and hides the other parameters. n8n's loader adds it only to a node
			// with one version, so it is written here (and stops the loader adding a second one).
			{ name: CUSTOM_API_CALL.name, value: CUSTOM_API_CALL.value },
		],
		default: 'order',
	},
	...order.description,
	...stock.description,
	...connection.description,
	...otherEndpoint.description,
];

/** What a model reads about each operation, when the node is an AI Agent's or an MCP server's tool. */
const toolDescriptions = {
	order: { get: order.get.toolDescription, getMany: order.getMany.toolDescription },
	stock: { update: stock.update.toolDescription },
	connection: { checkSetup: connection.checkSetup.toolDescription, ping: connection.ping.toolDescription },
	otherEndpoint: { send: otherEndpoint.send.toolDescription },
};

const properties = withToolVariants(nodeProperties, toolDescriptions);
// Stryker restore all

export class MarketplacePartner implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Marketplace Partner',
		name: 'marketplacePartner',
		icon: { light: 'file:marketplacePartner.svg', dark: 'file:marketplacePartner.dark.svg' },
		group: ['transform'],
		// 2: Stock › Update maps its columns with n8n's resource mapper (or reads them from each item)
		// and can identify products by SKU. 3: Order › Get picks its order item (from a list, by ID or
		// by order number), and Get Many's Status filter lists the API's statuses.
		// 4: fewer options (no Concurrency, no Give Up After on Ping; Get Many's Sort under Options).
		// Earlier versions keep their parameters for existing workflows.
		version: [1, 2, 3, 4],
		defaultVersion: 4,
		// A literal, as n8n's verification wants (and n8n's own nodes write): "getMany: order".
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: "Read a marketplace seller's orders and set product stock through the marketplace's Partner API",
		defaults: { name: 'Marketplace Partner' },
		// As a tool: small answers by default and a description per operation (actions/tool.ts).
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'marketplacePartnerApi', required: true }],
		properties,
	};

	methods = {
		listSearch: { searchOrderItems },
		loadOptions: { getStatuses },
		resourceMapping: { getStockColumns },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
