import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeApiError, NodeOperationError } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { forEachItem } from '../../../shared/helpers/items';
import { parseApiDate } from '../../../shared/helpers/orderChanges';
import { cut } from '../../../shared/helpers/networkText';
import { formatApiDateTime, toSku, toWholeNumber } from '../../../shared/helpers/values';
import { errorShape, hasMoreFinding, listOrdering, numberKinds, timeZoneFinding, writtenAs, type Finding } from '../../helpers/setupFindings';
import { apiAnswer, apiCredentials, MAX_CLOCK_OFFSET_SEC, type ApiAnswer } from '../../../shared/transport';
import { dateHeaderMs, PageCheck, statusMatches, successData, type CheckedPage, type ListRequest } from '../../../shared/transport/answerReading';
import { apiErrorFromResponse, explainBySku, readErrorBody } from '../../../shared/transport/errors';
import { giveUpAfterOption, optionsCollection } from '../../../shared/runOptions';

/** Asked for by the list check: the spec's maximum page size. */
const PAGE_SIZE = 100;
/** An order item id no marketplace is likely to have: read to see how "not found" is answered. */
const MISSING_ORDER_ITEM_ID = 2_147_483_647;
/** Sent with the test product's stock update, so the operator can tell it from real ones. */
const EXTERNAL_REF = 'n8n-check-setup';

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
const properties: INodeProperties[] = [
	{
		displayName:
			"Reads only, and reports what your marketplace answers and what to set. Fill in Test Product to also set one test product's stock: that tells the API's time zone.",
		name: 'checkSetupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Test Product',
		name: 'testProduct',
		type: 'collection',
		placeholder: 'Add Test Product Field',
		default: {},
		description: 'A product the operator set aside for integration tests. Leave empty to only read.',
		options: [
			{
				displayName: 'Product ID',
				name: 'productId',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: null,
				description: 'The test product\'s marketplace product_id. Its stock is set to Stock to Set.',
			},
			{
				displayName: 'Stock to Set',
				name: 'stock',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: null,
				description: 'The stock the test product is set to (replaces its stock, e.g. the value it has now)',
			},
			{
				displayName: 'SKU',
				name: 'sku',
				type: 'string',
				default: '',
				description: 'The test product\'s SKU: when given, the same stock is set once more by SKU, to see whether the marketplace accepts updates by SKU',
			},
		],
	},
	optionsCollection(giveUpAfterOption),
];

/** What a model reads about Connection › Check Setup used as a tool. */
export const toolDescription =
	'Check how the marketplace Partner API answers this connection (authentication, clock, permissions orders:read, orders:detail and stock:write, paging, errors, time zone) and which settings it needs. Takes no arguments; call it only when the other tools fail with an authentication or permission error.';
// Stryker restore all

const displayOptions = { show: { resource: ['connection'], operation: ['checkSetup'] } };

export const description = updateDisplayOptions(displayOptions, properties);

const NO_SETTING = 'None needed';
const NO_SETTING_CLOCK = 'None in n8n: synchronise this machine\'s clock (NTP)';

/** A check not made, the setting that would make it, and what it waits for. */
function skipped(check: string, finding: string, waitingFor: string, setting = NO_SETTING): Finding {
	return { check, result: 'skipped', finding, setting, details: { waitingFor } };
}

/** A refusal in words: the node's message, then the API's code and words and what to do. */
function refusalInWords(error: NodeApiError): string {
	return `${error.message}. ${error.description}`;
}

function refusal(context: IExecuteFunctions, answer: ApiAnswer): string {
	return refusalInWords(apiErrorFromResponse(context.getNode(), answer.statusCode, answer.body));
}

function permissionFinding(context: IExecuteFunctions, permission: string, what: string, answer: ApiAnswer): Finding {
	const check = `Permission ${permission}`;
	if (successData(answer.body)) return { check, result: 'ok', finding: `Granted: ${what} can be used.`, setting: NO_SETTING, details: { httpStatus: answer.statusCode } };
	const { code } = readErrorBody(answer.body);
	const missing = code === 'insufficient_permission';
	return {
		check,
		result: missing ? 'warning' : 'error',
		finding: missing ? `Not granted: ${what} cannot be used. Ask the marketplace operator for ${permission} if you need it.` : refusal(context, answer),
		setting: missing ? `None in n8n: the marketplace operator grants ${permission}` : 'See the finding',
		details: { httpStatus: answer.statusCode, code: code ?? null },
	};
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, async (i) => {
		const testProduct = this.getNodeParameter('testProduct', i, {}) as IDataObject;
		const productId = toWholeNumber(testProduct.productId, 'Test Product › Product ID', { min: 1, optional: true });
		const stock = productId === undefined ? undefined : toWholeNumber(testProduct.stock, 'Test Product › Stock to Set', { why: 'stock cannot be negative' });
		const sku = productId !== undefined && testProduct.sku !== undefined && testProduct.sku !== '' ? toSku(testProduct.sku, 'Test Product › SKU') : undefined;
		const { timeZone } = await apiCredentials.call(this, i);
		const findings: Finding[] = [];

		const sentAt = Date.now();
		const ping = await apiAnswer.call(this, 'GET', '/ping.php', { itemIndex: i });
		const midpoint = (sentAt + Date.now()) / 2;
		const signed = successData(ping.body) !== undefined;
		findings.push(
			signed
				? {
						check: 'Authentication',
						result: 'ok',
						finding: `Requests are signed correctly: /ping.php answered HTTP ${ping.statusCode}.`,
						setting: NO_SETTING,
						details: { okWrittenAs: writtenAs((ping.body as IDataObject).ok) },
					}
				: { check: 'Authentication', result: 'error', finding: refusal(this, ping), setting: 'The credential, as the finding says', details: { httpStatus: ping.statusCode } },
		);
		const serverMs = dateHeaderMs(ping.headers);
		if (Number.isNaN(serverMs)) {
			findings.push({
				check: 'Clock',
				result: 'warning',
				finding: 'The API sends no Date header: the node cannot correct a clock difference by itself. Keep this machine\'s clock synchronised (NTP).',
				setting: NO_SETTING_CLOCK,
				details: { dateHeader: 'absent' },
			});
		} else {
			// Date has whole seconds: up to a second either way is no difference.
			const aheadSeconds = Math.round((serverMs - midpoint) / 1000);
			const small = Math.abs(aheadSeconds) <= 2;
			const corrected = Math.abs(aheadSeconds) <= MAX_CLOCK_OFFSET_SEC;
			findings.push({
				check: 'Clock',
				result: small ? 'ok' : corrected ? 'warning' : 'error',
				finding: small
					? 'The API\'s clock and this machine\'s agree (Date header).'
					: `The API's clock is ${Math.abs(aheadSeconds)} s ${aheadSeconds > 0 ? 'ahead of' : 'behind'} this machine's (Date header). ${
							corrected
								? 'The node corrects its timestamps after an expired_timestamp answer, but synchronise this machine\'s clock (NTP).'
								: `The node corrects at most ${MAX_CLOCK_OFFSET_SEC / 60} minutes: a request the API refuses for its timestamp fails. Set the wrong clock right: this machine's (NTP), or the API's (report it to the marketplace operator).`
						}`,
				setting: small ? NO_SETTING : NO_SETTING_CLOCK,
				details: { apiAheadSeconds: aheadSeconds },
			});
		}
		if (!signed) {
			findings.push(skipped('Other checks', 'Skipped: they need a credential the API accepts. Fix the authentication first.', 'Authentication'));
			return findings.map((json) => ({ json: json as unknown as IDataObject, pairedItem: { item: i } }));
		}

		const list = await apiAnswer.call(this, 'GET', '/orders.php', { qs: { limit: PAGE_SIZE, offset: 0 }, itemIndex: i });
		findings.push(permissionFinding(this, 'orders:read', 'Order › Get Many and the Orders Trigger', list));
		const listData = successData(list.body);
		let firstId: unknown;
		if (listData) {
			// Checked as every walk of the list is, so that what the nodes would stop at is reported.
			const check = new PageCheck(this.getNode(), i);
			const { orders, more } = check.page(0, listData, PAGE_SIZE);
			const hasMore = hasMoreFinding(listData.pagination);
			firstId = orders[0]?.order_item_id;
			let pageCap: number | undefined;
			let circle: NodeOperationError | undefined;
			// A short page that says more: a cap when the next page brings new order items. A page read
			// before may be a list that moved: one page more tells, as the check stops a walk at the second.
			for (let offset = orders.length, pages = 0; pages < 2 && orders.length < PAGE_SIZE && more; pages++) {
				const next = successData((await apiAnswer.call(this, 'GET', '/orders.php', { qs: { limit: PAGE_SIZE, offset }, itemIndex: i })).body);
				if (!next) break;
				let page: CheckedPage;
				try {
					page = check.page(offset, next, PAGE_SIZE);
				} catch (error) {
					circle = error as NodeOperationError;
					break;
				}
				if (page.fresh.length > 0) pageCap = orders.length;
				if (page.fresh.length > 0 || !page.more) break;
				offset += page.orders.length;
			}
			findings.push(
				circle
					? {
							check: 'List paging',
							result: 'error',
							finding: `${circle.message}. ${circle.description}`,
							setting: 'None in n8n: the marketplace operator fixes the paging',
							details: { returned: orders.length, pageCap: null, hasMoreWrittenAs: hasMore.writtenAs },
						}
					: {
							check: 'List paging',
							result: 'ok',
							finding: [
								pageCap
									? `Pages hold at most ${pageCap} order items though ${PAGE_SIZE} were asked for; the node pages on.`
									: `The first page held ${orders.length} order item${orders.length === 1 ? '' : 's'} (${PAGE_SIZE} asked for).`,
								hasMore.more === undefined
									? `has_more is ${hasMore.writtenAs}: the node reads on until an empty page (one request more per list).`
									: `has_more is written as ${hasMore.writtenAs}.`,
							].join(' '),
							setting: NO_SETTING,
							details: { returned: orders.length, pageCap: pageCap ?? null, hasMoreWrittenAs: hasMore.writtenAs },
						},
			);
			if (orders.length > 0) {
				const kinds = numberKinds(orders[0]);
				const ordering = listOrdering(orders);
				findings.push({
					check: 'List values',
					result: 'ok',
					finding: `Ids and numbers are written as ${kinds}${kinds.includes('string') ? ' (the node reads both)' : ''}; datetimes as ${writtenAs(orders[0].updated_at)}. ${
						ordering ? `The page is ordered by ${ordering}.` : 'The page follows no order the node can tell (the node does not rely on one).'
					}`,
					setting: NO_SETTING,
					details: { numbersWrittenAs: kinds, ordering: ordering ?? null },
				});
			}
			findings.push(...(await appliedFindings.call(this, i, orders)));
		}

		if (firstId !== undefined) {
			const detail = await apiAnswer.call(this, 'GET', '/order_detail.php', { qs: { order_item_id: String(firstId) }, itemIndex: i });
			findings.push(permissionFinding(this, 'orders:detail', 'Order › Get and Include Order Detail', detail));
		} else {
			findings.push(skipped('Permission orders:detail', 'Not checked: the list held no order item to read.', 'An order item in the list'));
		}
		const missing = await apiAnswer.call(this, 'GET', '/order_detail.php', { qs: { order_item_id: MISSING_ORDER_ITEM_ID }, itemIndex: i });
		const { code } = readErrorBody(missing.body);
		findings.push(
			successData(missing.body)
				? {
						check: 'Errors',
						result: 'warning',
						finding: `Order item ${MISSING_ORDER_ITEM_ID} (which should not exist) was answered as a success.`,
						setting: NO_SETTING,
						details: { httpStatus: missing.statusCode },
					}
				: {
						check: 'Errors',
						result: 'ok',
						finding: `A missing order item is answered HTTP ${missing.statusCode}${code ? ` with code ${code}` : ''}, as ${errorShape(missing.body)}.${
							missing.statusCode < 300 ? ' Errors come with a success status: the node reads them as errors all the same.' : ''
						}`,
						setting: NO_SETTING,
						details: { httpStatus: missing.statusCode, code: code ?? null },
					},
		);

		if (productId === undefined) {
			const why = 'Not checked: fill in Test Product (a product set aside for tests) to check it with one stock update.';
			findings.push(skipped('Permission stock:write', why, 'Test Product', 'Test Product, to check it'), skipped('Time zone', why, 'Test Product', 'Test Product, to check it'));
		} else {
			const update = await apiAnswer.call(this, 'POST', '/stock_update.php', { body: { product_id: productId, stock, external_ref: EXTERNAL_REF }, itemIndex: i });
			findings.push(permissionFinding(this, 'stock:write', 'Stock › Update', update));
			const data = successData(update.body);
			if (data) findings.push(timeZoneFinding(data.updated_at, dateHeaderMs(update.headers), timeZone));
			if (data && sku !== undefined) {
				const bySku = await apiAnswer.call(this, 'POST', '/stock_update.php', { body: { sku, stock, external_ref: EXTERNAL_REF }, itemIndex: i });
				const accepted = successData(bySku.body);
				findings.push(
					accepted
						? {
								check: 'Updates by SKU',
								result: String(accepted.product_id) === String(productId) ? 'ok' : 'warning',
								finding:
									String(accepted.product_id) === String(productId)
										? 'Accepted: the SKU updated the test product.'
										: `Accepted, but the SKU updated product ${String(accepted.product_id)}, not ${productId}: check the SKU.`,
								setting: 'Identify Product By: SKU or Product ID',
								details: { productIdUpdated: String(accepted.product_id) },
							}
						: {
								check: 'Updates by SKU',
								result: 'warning',
								finding: refusalInWords(explainBySku(apiErrorFromResponse(this.getNode(), bySku.statusCode, bySku.body))),
								setting: 'Identify Product By: Product ID',
								details: { httpStatus: bySku.statusCode, code: readErrorBody(bySku.body).code ?? null },
							},
				);
			}
		}
		return findings.map((json) => ({ json: json as unknown as IDataObject, pairedItem: { item: i } }));
	});
}

/** What the stock answer's updated_at, written as the Date header's moment, says of the API's zone. */
/** The page size the limit check asks for: smaller than any first page worth checking. */
const LIMIT_PROBE = 2;
const NOT_APPLIED_SETTING = 'None in n8n: the node leaves out what the API should not have sent; ask the marketplace operator';

/**
 * Whether the API applies what a list request asks (a small limit, a status, an updated_after),
 * each asked once and its answer held to the request as every walk of the list holds it
 * (`PageCheck`): what would be left out and named in a run is reported here first. The values
 * asked come from the first page, so that an answer that obeys can be told from one that does not.
 */
async function appliedFindings(this: IExecuteFunctions, i: number, firstPage: IDataObject[]): Promise<Finding[]> {
	const ask = async (limit: number, request: ListRequest): Promise<CheckedPage | undefined> => {
		const qs = { limit, offset: 0, status: request.status, updated_after: request.updatedAfter };
		const data = successData((await apiAnswer.call(this, 'GET', '/orders.php', { qs, itemIndex: i })).body);
		return data ? new PageCheck(this.getNode(), i, request).page(0, data, limit) : undefined;
	};
	const findings: Finding[] = [];
	/** The finding of one probe: no list, entries outside what was asked (`outside`), or none. */
	const verdict = (check: string, page: CheckedPage | undefined, asked: string | number, outside: number, notApplied: string, applied: string): Finding =>
		!page
			? { check, result: 'warning', finding: 'The API did not answer the list request with a list.', setting: NO_SETTING, details: { asked: null, outside: null } }
			: outside > 0
				? { check, result: 'warning', finding: notApplied, setting: NOT_APPLIED_SETTING, details: { asked, outside } }
				: { check, result: 'ok', finding: applied, setting: NO_SETTING, details: { asked, outside: 0 } };

	// Limit: a page of LIMIT_PROBE asked for.
	if (firstPage.length <= LIMIT_PROBE) {
		findings.push(skipped('List limit', `Not checked: the first page held ${firstPage.length} order items; it needs more than ${LIMIT_PROBE}.`, `More than ${LIMIT_PROBE} order items`));
	} else {
		const page = await ask(LIMIT_PROBE, {});
		const beyond = page?.beyondLimit ?? 0;
		const answered = `Asked for ${LIMIT_PROBE} order items, the API answered ${(page?.orders.length ?? 0) + beyond}`;
		findings.push(
			verdict('List limit', page, LIMIT_PROBE, beyond, `${answered}: it does not apply limit. The node reads at most the limit it asked of each page and pages on; each run says so.`, `${answered}: it applies limit.`),
		);
	}

	// Status: the first order item's, which only a filter that is applied keeps the others out of.
	const status = firstPage.find((entry) => typeof entry.status === 'string' && entry.status.trim() !== '')?.status as string | undefined;
	if (status === undefined || firstPage.every((entry) => statusMatches(entry.status, status))) {
		findings.push(
			skipped('Status filter', `Not checked: ${status === undefined ? 'the first page shows no status' : `every order item of the first page has status ${cut(status, 40)}`}, so a filter cannot show whether the API applies it.`, 'Order items of two statuses'),
		);
	} else {
		const page = await ask(PAGE_SIZE, { status });
		const outside = page?.outside.status ?? 0;
		findings.push(
			verdict(
				'Status filter',
				page,
				status,
				outside,
				`Asked for status ${cut(status, 40)}, the API answered ${outside} order item${outside === 1 ? '' : 's'} of other statuses: it does not apply the status filter. The node leaves them out and names them in each run; every list it reads with a Status is the whole list.`,
				`Asked for status ${cut(status, 40)}, the API answered only order items of that status: it applies the filter.`,
			),
		);
	}

	// Updated after: the middle updated_at of the first page, so that older order items exist to be left out.
	const times = [...new Set(firstPage.map((entry) => parseApiDate(entry.updated_at)).filter((ms): ms is number => ms !== undefined))].sort((a, b) => a - b);
	if (times.length < 2) {
		findings.push(skipped('Updated After filter', 'Not checked: the first page shows fewer than two datetimes the node can read.', 'Order items updated at two moments'));
	} else {
		// As the Orders Trigger sends it: YYYY-MM-DD HH:MM:SS, the wall clock the API writes.
		const after = formatApiDateTime(times[Math.floor(times.length / 2)], 'UTC');
		const page = await ask(PAGE_SIZE, { updatedAfter: after });
		const outside = page?.outside.updatedAfter ?? 0;
		findings.push(
			verdict(
				'Updated After filter',
				page,
				after,
				outside,
				`Asked for updated_after ${after}, the API answered ${outside} order item${outside === 1 ? '' : 's'} updated at or before it: it does not apply the filter (or not in this format). The node leaves them out and names them in each run; the Orders Trigger reads the whole list on every poll, and still emits each change once.`,
				`Asked for updated_after ${after}, the API answered only order items updated after it: it applies the filter.`,
			),
		);
	}
	return findings;
}
