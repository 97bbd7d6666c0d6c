'use strict';
// Every error the sandbox answers, with its HTTP status. The spec shows neither statuses nor the
// error body; these are the sandbox's choices, documented in sandbox/README.md. Body shape:
//   { "ok": false, "error": { "code": "...", "message": "...", "field"?: "..." } }
const ERROR_STATUS = {
  // From the spec
  missing_auth_headers: 401,
  invalid_signature: 401,
  expired_timestamp: 401,
  order_not_found: 404,
  product_not_found: 404,
  forbidden_product: 403,
  // Sandbox choices for what the spec leaves "not shown"
  invalid_timestamp: 401,
  forbidden_order: 403, // another seller's order item, with the foreignOrderStatus 403 style
  replayed_signature: 401,
  client_inactive: 403,
  insufficient_permission: 403,
  invalid_parameter: 400,
  unsupported_media_type: 415,
  invalid_json: 400,
  missing_field: 400,
  invalid_field: 400,
  negative_stock: 400,
  variant_required: 400,
  variant_not_found: 404,
  payload_too_large: 413,
  endpoint_not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  service_unavailable: 503,
};

class ApiError extends Error {
  constructor(code, message, extra = {}) {
    super(message);
    this.code = code;
    this.status = ERROR_STATUS[code] ?? 500;
    this.extra = extra;
  }
}

module.exports = { ERROR_STATUS, ApiError };
