'use strict';
// Spec "GET /order_detail.php": one order item with product, customer and shipment.
const { ApiError } = require('../errors');
const data = require('../data');
const { successBody, dateWriter, foreignOrderError } = require('../style');

module.exports = {
  method: 'GET',
  permission: 'orders:detail',
  handle(ctx, app, { query }) {
    const raw = query.get('order_item_id');
    if (raw === null || !/^\d{1,12}$/.test(raw)) {
      throw new ApiError('invalid_parameter', 'order_item_id is required and must be a whole number.', {
        field: 'order_item_id',
      });
    }
    const order = ctx.state.orders.get(Number(raw));
    if (!order) throw new ApiError('order_not_found', `Order item ${raw} was not found.`);
    // Another seller's item is answered as not found by default: its existence is not this seller's
    // business. The foreignOrderStatus 403 style answers forbidden_order instead.
    if (order.seller_id !== app.sellerId) throw foreignOrderError(raw, ctx.style);
    return successBody(data.orderDetail(ctx.state, order, dateWriter(ctx.style)), ctx.style);
  },
};
