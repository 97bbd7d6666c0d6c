'use strict';
// Answer styles (sandbox/README.md, "Answer styles"): how the API writes what the spec leaves "not
// shown", so clients can be tested against each plausible real marketplace. The defaults are the
// sandbox's documented choices; every other value plays an alternative a real backend may have
// chosen. Styles shape answers only: routing, authentication and the data are the same in all.
const { ApiError } = require('./errors');
const { canonicalTimeZone, formatApiDate } = require('./time');

const DEFAULT_STYLE = {
  // The zone the API writes its datetimes in, and reads `updated_after` in.
  timeZone: 'UTC',
  // 'json': ids and numbers as JSON numbers, `ok` true; 'php': as PHP over MySQL answers.
  answerStyle: 'json',
  // How `has_more` is written: true/false, 1/0, "true"/"false", or not at all.
  hasMoreStyle: 'boolean',
  // orders.php serves at most this many items per page, whatever `limit` asks (0: no cap).
  pageCap: 0,
  // The status and body of an error answer.
  errorStyle: 'default',
  // The status another seller's order item is answered with in order_detail.php.
  foreignOrderStatus: 404,
};

const STYLE_CHOICES = {
  answerStyle: ['json', 'php'],
  hasMoreStyle: ['boolean', 'number', 'string', 'absent'],
  errorStyle: ['default', 'http200', 'flat', 'jsend', 'errors'],
  foreignOrderStatus: [404, 403],
};

const MAX_PAGE_CAP = 1000;

/** The style switches among `options` (CLI flags or createSandbox options). */
function pickStyle(options) {
  return Object.fromEntries(Object.keys(DEFAULT_STYLE).filter((k) => options[k] !== undefined).map((k) => [k, options[k]]));
}

/** Checks style switches (a POST /_sandbox/style body): known names, types, values. An error message or null. */
function invalidStyle(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'The style must be a JSON object.';
  for (const [key, value] of Object.entries(body)) {
    if (!(key in DEFAULT_STYLE)) return `Unknown style switch "${key}"; use ${Object.keys(DEFAULT_STYLE).join(', ')}.`;
    const type = typeof DEFAULT_STYLE[key];
    if (typeof value !== type) return `Style switch "${key}" must be a ${type}.`;
    if (key in STYLE_CHOICES && !STYLE_CHOICES[key].includes(value)) {
      return `Style switch "${key}" must be one of ${STYLE_CHOICES[key].join(', ')}.`;
    }
    if (key === 'pageCap' && !(Number.isInteger(value) && value >= 0 && value <= MAX_PAGE_CAP)) {
      return `Style switch "pageCap" must be a whole number from 0 (no cap) to ${MAX_PAGE_CAP}.`;
    }
    if (key === 'timeZone' && canonicalTimeZone(value) === null) {
      return `Style switch "timeZone" must be an IANA time zone such as America/New_York; "${value}" is not one.`;
    }
  }
  return null;
}

/** The checked switches of `body` with the zone's canonical name; throws Error with the message if invalid. */
function checkedStyle(body) {
  const invalid = invalidStyle(body);
  if (invalid) throw new Error(invalid);
  return body.timeZone === undefined ? { ...body } : { ...body, timeZone: canonicalTimeZone(body.timeZone) };
}

/** A PHP-over-MySQL answer: numbers as strings (money with two decimals, as DECIMAL(…,2)), booleans 1/0. */
function phpValue(value, key) {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return key === 'unit_price' ? value.toFixed(2) : String(value);
  if (Array.isArray(value)) return value.map((v) => phpValue(v));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, phpValue(v, k)]));
  }
  return value;
}

/** `value` written in the answer style (JSON types, or PHP's). */
function shaped(value, style) {
  return style.answerStyle === 'php' ? phpValue(value) : value;
}

/** The JSON text of the success envelope's `ok`. */
function okJson(style) {
  return style.answerStyle === 'php' ? '1' : 'true';
}

/** A success answer: `{"ok":true,"data":…}` in the style. */
function successBody(data, style) {
  return `{"ok":${okJson(style)},"data":${JSON.stringify(shaped(data, style))}}`;
}

/** Formats instants as the API writes them in the style's zone. */
function dateWriter(style) {
  return (ms) => formatApiDate(ms, style.timeZone);
}

/**
 * The `has_more` field in the style, or undefined when the style leaves it out. In 'php' a boolean
 * is written 1/0 (json_encode of PHP's int), as `ok` is.
 */
function hasMoreValue(hasMore, style) {
  switch (style.hasMoreStyle) {
    case 'number':
      return hasMore ? 1 : 0;
    case 'string':
      return hasMore ? 'true' : 'false';
    case 'absent':
      return undefined;
    default:
      return style.answerStyle === 'php' ? (hasMore ? 1 : 0) : hasMore;
  }
}

/** The `pagination` object of orders.php in the style. */
function paginationBody({ limit, offset, returned, hasMore }, style) {
  const pagination = shaped({ limit, offset, returned }, style);
  const value = hasMoreValue(hasMore, style);
  if (value !== undefined) pagination.has_more = value;
  return pagination;
}

/**
 * An error answer in the style: `{ status, body }`. 'http200' answers the application's errors
 * with HTTP 200; a 429 and a 5xx (the rate limit and server trouble, in front of the application)
 * keep their status.
 */
function errorAnswer(err, style) {
  const { code, message, extra } = err;
  let body;
  switch (style.errorStyle) {
    case 'flat':
      body = { ok: false, error: code, message, ...extra };
      break;
    case 'jsend':
      body = { status: 'error', code, message, ...extra };
      break;
    case 'errors':
      body = { errors: [{ code, message, ...extra }] };
      break;
    default:
      body = { ok: false, error: { code, message, ...extra } };
  }
  const keepsStatus = err.status === 429 || err.status >= 500;
  const status = style.errorStyle === 'http200' && !keepsStatus ? 200 : err.status;
  return { status, body: JSON.stringify(shaped(body, style)) };
}

/** The answer to another seller's order item in order_detail.php: not found (404), or forbidden (403). */
function foreignOrderError(raw, style) {
  if (style.foreignOrderStatus === 403) {
    return new ApiError('forbidden_order', `Order item ${raw} does not belong to this seller.`);
  }
  return new ApiError('order_not_found', `Order item ${raw} was not found.`);
}

module.exports = {
  DEFAULT_STYLE,
  STYLE_CHOICES,
  MAX_PAGE_CAP,
  pickStyle,
  invalidStyle,
  checkedStyle,
  phpValue,
  shaped,
  okJson,
  successBody,
  dateWriter,
  hasMoreValue,
  paginationBody,
  errorAnswer,
  foreignOrderError,
};
