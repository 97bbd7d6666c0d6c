'use strict';
// Spec "GET /orders.php": the seller's order items, a page at a time.
const { ApiError } = require('../errors');
const data = require('../data');
const { parseApiOrIsoDate } = require('../time');
const { okJson, shaped, dateWriter, paginationBody } = require('../style');
const { intParam } = require('./params');

const DEFAULT_PAGE_SIZE = 50; // the spec's recommended size; its default is "not shown"
const MAX_PAGE_SIZE = 100;

module.exports = {
  method: 'GET',
  permission: 'orders:read',
  handle(ctx, app, { query }) {
    const { state, feed, style } = ctx;
    const limit = intParam(query, 'limit', { min: 1, max: MAX_PAGE_SIZE, fallback: DEFAULT_PAGE_SIZE });
    const offset = intParam(query, 'offset', { min: 0, max: Infinity, fallback: 0 });
    let status = query.get('status');
    const updatedAfterRaw = query.get('updated_after');
    let updatedAfter = null;
    // Under the fault, not even read: a backend that drops a format it does not know answers all.
    if (updatedAfterRaw !== null && !ctx.faults.listIgnoresUpdatedAfter) {
      // Read in the API's own zone, as a backend compares with its local datetimes.
      updatedAfter = parseApiOrIsoDate(updatedAfterRaw, style.timeZone);
      if (updatedAfter === null) {
        throw new ApiError(
          'invalid_parameter',
          `updated_after must be "YYYY-MM-DD HH:MM:SS" (${style.timeZone}) or ISO 8601.`,
          { field: 'updated_after' },
        );
      }
    }
    let orders = state.ordersBySeller.get(app.sellerId); // ascending order_item_id: a stable order
    if (ctx.faults.listIgnoresStatus) status = null;
    if (status !== null || updatedAfter !== null) {
      orders = orders.filter(
        (o) => (status === null || o.status === status) && (updatedAfter === null || o.updated_ms > updatedAfter),
      );
    }
    orders = feed.sort(orders);
    const pageSize = ctx.faults.listIgnoresLimit ? MAX_PAGE_SIZE : limit;
    // A capped server serves fewer than it was asked for; `limit` still says what was asked.
    const served = style.pageCap > 0 ? Math.min(pageSize, style.pageCap) : pageSize;
    const page = orders.slice(offset, offset + served);
    const hasMore = ctx.faults.listHasMoreAlways || offset + page.length < orders.length;
    const pagination = paginationBody({ limit: pageSize, offset, returned: page.length, hasMore }, style);
    // The default style reuses each item's cached JSON: list pages are the hot path.
    const plain = style.timeZone === 'UTC' && style.answerStyle === 'json';
    const writeDate = dateWriter(style);
    const entries = page.map((o) =>
      plain ? data.orderListJson(state, o) : JSON.stringify(shaped(data.orderListEntry(state, o, writeDate), style)),
    );
    const body = `{"ok":${okJson(style)},"data":{"orders":[${entries.join(',')}],"pagination":${JSON.stringify(pagination)}}}`;
    feed.afterListPage(state, app);
    return body;
  },
};
