'use strict';
// Spec "GET /ping.php": tests authentication; its shape is not shown, this one says who is calling.
const { successBody, dateWriter } = require('../style');

module.exports = {
  method: 'GET',
  permission: null,
  handle(ctx, app) {
    const nowMs = Date.now();
    return successBody({
      pong: true,
      client_id: app.clientId,
      seller_id: app.sellerId,
      permissions: app.permissions,
      server_time: dateWriter(ctx.style)(nowMs),
      timestamp: Math.floor(nowMs / 1000),
    }, ctx.style);
  },
};
