import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { forEachItem } from '../../../shared/helpers/items';
import { cut, textOf } from '../../../shared/helpers/networkText';
import { apiRequest, type Path } from '../../../shared/transport';
import type { QueryValue } from '../../../shared/transport/signing';
import { giveUpAfterOption, optionsCollection } from '../../../shared/runOptions';

const displayOptions = { show: { resource: ['otherEndpoint'], operation: ['send'] } };

const OTHER_PATH = 'other';
const WITH_BODY = ['POST', 'PUT', 'PATCH', 'DELETE'];

// Stryker disable all: n8n UI description (the endpoints the marketplace has announced, as "METHOD /path")
const endpointProperty: INodeProperties = {
	displayName: 'Endpoint',
	name: 'endpoint',
	type: 'options',
	options: [
		{ name: 'Another Path', value: 'other', description: 'Any path under the Base URL, with the method you choose' },
		{ name: 'Brands', value: 'GET /brands.php', description: 'GET /brands.php: the brand list' },
		{ name: 'Cancel Order', value: 'POST /cancel_order.php', description: 'POST /cancel_order.php: the cancellation flow' },
		{ name: 'Categories', value: 'GET /categories.php', description: 'GET /categories.php: the category tree' },
		{ name: 'Category Attributes', value: 'GET /category_attributes.php', description: 'GET /category_attributes.php: required and optional attributes per category' },
		{ name: 'Create Product', value: 'POST /products.php', description: 'POST /products.php' },
		{ name: 'Return Action', value: 'POST /return_action.php', description: 'POST /return_action.php: approve or reject a return' },
		{ name: 'Update Invoice', value: 'POST /invoice_update.php', description: 'POST /invoice_update.php: an invoice link or document' },
		{ name: 'Update Order Status', value: 'POST /order_status_update.php', description: 'POST /order_status_update.php' },
		{ name: 'Update Price', value: 'POST /price_update.php', description: 'POST /price_update.php' },
		{ name: 'Update Product', value: 'PUT /products.php', description: 'PUT /products.php' },
		{ name: 'Update Shipment', value: 'POST /shipment_update.php', description: 'POST /shipment_update.php: carrier and tracking information' },
	],
	default: 'GET /categories.php',
	description: 'The endpoint to call. The marketplace has announced these without publishing their fields: see its documentation for what each takes.',
};
// Stryker restore all
/** The listed endpoints that take a body. */
const BODY_ENDPOINTS = (endpointProperty.options as INodePropertyOptions[]).map((option) => String(option.value)).filter((value) => WITH_BODY.includes(value.split(' ')[0]));

// Stryker disable all: n8n UI description (the operation's parameters)
const properties: INodeProperties[] = [
	endpointProperty,
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: [
			{ name: 'DELETE', value: 'DELETE' },
			{ name: 'GET', value: 'GET' },
			{ name: 'PATCH', value: 'PATCH' },
			{ name: 'POST', value: 'POST' },
			{ name: 'PUT', value: 'PUT' },
		],
		default: 'GET',
		displayOptions: { show: { endpoint: [OTHER_PATH] } },
	},
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. /categories.php',
		description: 'The path after the Base URL, starting with /. Query parameters go below.',
		displayOptions: { show: { endpoint: [OTHER_PATH] } },
	},
	{
		displayName: 'Query Parameters',
		name: 'query',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Query Parameter',
		default: {},
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	...[
		{ endpoint: BODY_ENDPOINTS },
		{ endpoint: [OTHER_PATH], method: WITH_BODY },
	].map(
		(show): INodeProperties => ({
			displayName: 'Body',
			name: 'body',
			type: 'json',
			default: '{}',
			description: 'The JSON object to send, e.g. {"product_id": 70001}',
			displayOptions: { show },
		}),
	),
	optionsCollection(giveUpAfterOption),
];
// Stryker restore all

export const description = updateDisplayOptions(displayOptions, properties);

// Stryker disable all: n8n UI description (what a model reads about Other Endpoint › Send Request used as a tool)
export const toolDescription =
	'Send the request this workflow configures to the Partner API (an endpoint without an operation of its own) and return the data it answers. Takes no arguments unless the workflow asks for them.';
// Stryker restore all

/**
 * A path under the Base URL, or an error that says what to change. Only path characters of a URL
 * (RFC 3986), no `..` segment, no `//`: the request must stay at the Base URL's origin and path.
 */
export function readPath(value: unknown): Path {
	const path = textOf(value ?? '').trim();
	const shown = JSON.stringify(cut(path, 100));
	if (!path) throw new Error('Path is empty: give the path after the Base URL, e.g. /categories.php');
	if (!path.startsWith('/')) throw new Error(`Path ${shown} must start with /, e.g. /categories.php (the part after the Base URL)`);
	if (/[?#]/.test(path)) throw new Error(`Path ${shown} holds a query: give its parameters under Query Parameters, and the path without ? or #`);
	if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]+$/.test(path) || /\/\/|\/\.\.?(\/|$)/.test(path) || /%(?![0-9A-Fa-f]{2})/.test(path)) {
		throw new Error(`Path ${shown} is not a path under the Base URL: use letters, digits and - _ . ~ between single slashes, with no . or .. part`);
	}
	return path as Path;
}

/** The Query Parameters as one value per name; a name given twice or left empty is an error. */
function readQuery(this: IExecuteFunctions, i: number): Record<string, QueryValue> {
	const entries = (this.getNodeParameter('query.parameter', i, []) as Array<{ name?: unknown; value?: unknown }>) ?? [];
	// No prototype: a parameter named __proto__ is a parameter like any other.
	const query: Record<string, QueryValue> = Object.create(null);
	for (const { name, value } of entries) {
		const key = textOf(name ?? '').trim();
		if (!key) throw new Error('A query parameter has no name: give it one, or remove it');
		if (Object.hasOwn(query, key)) throw new Error(`The query parameter "${cut(key, 100)}" is given twice: keep one`);
		query[key] = textOf(value ?? '');
	}
	return query;
}

const NOT_JSON = Symbol('not JSON');
function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return NOT_JSON;
	}
}

/** The Body as a JSON object (as the field's text or an expression's object). */
function readBody(value: unknown): IDataObject {
	const body = typeof value === 'string' ? parseJson(value.trim() || '{}') : value;
	if (body === NOT_JSON) throw new Error('Body is not valid JSON: write an object such as {"product_id": 70001}');
	if (body === null || typeof body !== 'object' || Array.isArray(body)) {
		throw new Error('Body must be a JSON object such as {"product_id": 70001}, in { }');
	}
	return body as IDataObject;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, async (i) => {
		const endpoint = this.getNodeParameter('endpoint', i) as string;
		const [method, path] = endpoint === OTHER_PATH
			? [this.getNodeParameter('method', i) as IHttpRequestMethods, readPath(this.getNodeParameter('path', i))]
			: (endpoint.split(' ') as [IHttpRequestMethods, Path]);
		const qs = readQuery.call(this, i);
		const body = WITH_BODY.includes(method) ? readBody(this.getNodeParameter('body', i, '{}')) : undefined;
		// A POST or PATCH may not be safe to apply twice: sent again only when the API did not take it.
		const idempotent = !['POST', 'PATCH'].includes(method);
		const data = await apiRequest.call(this, method, path, { qs, body, itemIndex: i, idempotent, anyData: true });
		return [{ json: data, pairedItem: { item: i } }];
	});
}
