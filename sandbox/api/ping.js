'use strict';
// Spec "GET /ping.php": tests authentication; its shape is not shown, this one says who is calling.
const { envelope } = require('../http');
const { formatApiDate } = require('../time');

module.exports = {
  method: 'GET',
  permission: null,
  handle(ctx, app) {
    const nowMs = Date.now();
    return envelope({
      pong: true,
      client_id: app.clientId,
      seller_id: app.sellerId,
      permissions: app.permissions,
      server_time: formatApiDate(nowMs),
      timestamp: Math.floor(nowMs / 1000),
    });
  },
};
