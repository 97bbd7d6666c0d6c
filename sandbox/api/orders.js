'use strict';
// Spec "GET /orders.php": the seller's order items, a page at a time.
const { ApiError } = require('../errors');
const data = require('../data');
const { parseApiOrIsoDate } = require('../time');
const { intParam } = require('./params');

const DEFAULT_PAGE_SIZE = 50; // the spec's recommended size; its default is "not shown"
const MAX_PAGE_SIZE = 100;

module.exports = {
  method: 'GET',
  permission: 'orders:read',
  handle(ctx, app, { query }) {
    const { state, feed } = ctx;
    const limit = intParam(query, 'limit', { min: 1, max: MAX_PAGE_SIZE, fallback: DEFAULT_PAGE_SIZE });
    const offset = intParam(query, 'offset', { min: 0, max: Infinity, fallback: 0 });
    const status = query.get('status');
    const updatedAfterRaw = query.get('updated_after');
    let updatedAfter = null;
    if (updatedAfterRaw !== null) {
      updatedAfter = parseApiOrIsoDate(updatedAfterRaw);
      if (updatedAfter === null) {
        throw new ApiError(
          'invalid_parameter',
          'updated_after must be "YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601.',
          { field: 'updated_after' },
        );
      }
    }
    let orders = state.ordersBySeller.get(app.sellerId); // ascending order_item_id: a stable order
    if (status !== null || updatedAfter !== null) {
      orders = orders.filter(
        (o) => (status === null || o.status === status) && (updatedAfter === null || o.updated_ms > updatedAfter),
      );
    }
    orders = feed.sort(orders);
    const pageSize = ctx.faults.listIgnoresLimit ? MAX_PAGE_SIZE : limit;
    const page = orders.slice(offset, offset + pageSize);
    const hasMore = ctx.faults.listHasMoreAlways || offset + page.length < orders.length;
    const pagination = { limit: pageSize, offset, returned: page.length, has_more: hasMore };
    const body = `{"ok":true,"data":{"orders":[${page.map((o) => data.orderListJson(state, o)).join(',')}],"pagination":${JSON.stringify(pagination)}}}`;
    feed.afterListPage(state, app);
    return body;
  },
};
