'use strict';
// The local Partner API sandbox: the v1 endpoints of ../shared/spec/partner-api-v1.md over real HTTP,
// a control API under /_sandbox/ (loopback only), webhooks and fault injection.
const http = require('node:http');
const { ApiError } = require('./errors');
const { expectedRequestSignature, safeEqual } = require('./auth');
const data = require('./data');
const { createRandom } = require('./random');
const { formatApiDate, nowWholeSecondsMs, parseApiOrIsoDate } = require('./time');
const { WebhookSender } = require('./webhooks');
const { createChangeFeed } = require('./changes');

const DEFAULTS = {
  host: '127.0.0.1',
  port: 8787,
  basePath: '/api/partner/v1',
  headerPrefix: 'X-SVC-',
  clockToleranceSec: 300,
  seed: 1,
  orders: 1000,
  ordersB: undefined,
  products: 200,
  maxBodyBytes: 64 * 1024,
  webhookMaxAttempts: 5,
  webhookRetryBaseMs: 500,
  webhookTimeoutMs: 10000,
  listOrder: 'order_item_id',
};

const DEFAULT_PAGE_SIZE = 50; // the spec's recommended size; its default is "not shown"
const MAX_PAGE_SIZE = 100;
const MAX_STOCK = 1_000_000_000;
const EVENTS = ['order.created', 'order.updated', 'stock.updated', 'return.requested'];

const NO_FAULTS = {
  latencyMs: 0,
  rate429: 0,
  retryAfterSec: 1,
  rate5xx: 0,
  status5xx: 503,
  rateDrop: 0,
  // Counters: the next N API requests get that fault, in this order: drop, 429, 5xx. Tests use them
  // because they are exact where rates are random.
  next429: 0,
  next5xx: 0,
  nextDrop: 0,
  replay: false,
  // The sandbox's clock runs this many seconds ahead (negative: behind) of the machine's, in its
  // timestamp check and its Date header: stands in for a client whose clock is off.
  clockSkewSec: 0,
};

function createSandbox(options = {}) {
  const opts = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  const prefix = opts.headerPrefix.toLowerCase();
  const H = {
    clientId: `${prefix}client-id`,
    timestamp: `${prefix}timestamp`,
    signature: `${prefix}signature`,
  };
  const log = opts.log ?? (() => {});
  let state;
  let faults;
  let faultRandom;
  let stats;
  let seenSignatures; // signature -> unix seconds it was signed for
  const webhooks = new WebhookSender({
    headerPrefix: opts.headerPrefix,
    maxAttempts: opts.webhookMaxAttempts,
    retryBaseMs: opts.webhookRetryBaseMs,
    timeoutMs: opts.webhookTimeoutMs,
    log,
  });
  // List order, the change log and changes armed while a client pages (sandbox/changes.js).
  const feed = createChangeFeed({ listOrder: opts.listOrder });

  function reset({ seed = opts.seed, orders = opts.orders, ordersB = opts.ordersB, products = opts.products } = {}) {
    state = data.seed({ seed, ordersA: orders, ordersB, productsPerSeller: products });
    faults = { ...NO_FAULTS, ...pickFaults(opts) };
    faultRandom = createRandom(seed ^ 0x5eed);
    seenSignatures = new Map();
    feed.reset(seed);
    webhooks.clearAttempts();
    resetStats();
  }

  function resetStats() {
    stats = { requests: 0, byEndpoint: {}, byCode: {}, duplicateSignatures: 0, inFlight: 0, maxInFlight: 0, recent: [] };
  }

  function record(entry) {
    stats.requests++;
    const key = `${entry.method} ${entry.endpoint} ${entry.status}`;
    stats.byEndpoint[key] = (stats.byEndpoint[key] ?? 0) + 1;
    if (entry.code) stats.byCode[entry.code] = (stats.byCode[entry.code] ?? 0) + 1;
    stats.recent.push(entry);
    if (stats.recent.length > 5000) stats.recent.splice(0, 1000);
  }

  // ---- HTTP plumbing -------------------------------------------------------------------------

  function send(res, status, bodyText, headers = {}) {
    if (faults.clockSkewSec) headers = { date: new Date(serverNowMs()).toUTCString(), ...headers };
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(bodyText),
      ...headers,
    });
    res.end(bodyText);
  }

  function sendError(res, err) {
    const error = { code: err.code, message: err.message, ...err.extra };
    send(res, err.status, JSON.stringify({ ok: false, error }), err.headers ?? {});
  }

  function readBody(req, limit) {
    return new Promise((resolve, reject) => {
      const chunks = [];
      let size = 0;
      req.on('data', (chunk) => {
        size += chunk.length;
        // Over the limit: keep draining so the client still gets its 413 answer.
        if (size <= limit) chunks.push(chunk);
      });
      req.on('end', () => {
        if (size > limit) reject(new ApiError('payload_too_large', `The request body exceeds ${limit} bytes.`));
        else resolve(Buffer.concat(chunks));
      });
      req.on('error', reject);
    });
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const serverNowMs = () => Date.now() + faults.clockSkewSec * 1000;

  // ---- Authentication (spec: "Authentication") -----------------------------------------------

  function authenticate(req, signedPath, rawBody) {
    const clientId = req.headers[H.clientId];
    const timestamp = req.headers[H.timestamp];
    const signature = req.headers[H.signature];
    const missing = [
      [clientId, 'CLIENT-ID'],
      [timestamp, 'TIMESTAMP'],
      [signature, 'SIGNATURE'],
    ]
      .filter(([v]) => v === undefined || v === '')
      .map(([, name]) => opts.headerPrefix + name);
    if (missing.length) {
      throw new ApiError('missing_auth_headers', `Missing authentication headers: ${missing.join(', ')}.`);
    }
    const app = state.apps.find((a) => a.clientId === clientId);
    if (!/^\d{1,12}$/.test(timestamp)) {
      throw new ApiError('invalid_timestamp', `${opts.headerPrefix}TIMESTAMP must be Unix time in whole seconds.`);
    }
    // An unknown client gets the same answer as a bad signature: client ids are not to be probed.
    const expected = app
      ? expectedRequestSignature(app.clientSecret, req.method, signedPath, timestamp, rawBody)
      : '0'.repeat(64);
    if (!app || !safeEqual(signature, expected)) {
      throw new ApiError('invalid_signature', 'The signature could not be verified.');
    }
    const nowSec = Math.floor(serverNowMs() / 1000);
    if (Math.abs(nowSec - Number(timestamp)) > opts.clockToleranceSec) {
      throw new ApiError(
        'expired_timestamp',
        `The timestamp is more than ${opts.clockToleranceSec} seconds away from the server time.`,
        { server_time: nowSec },
      );
    }
    if (seenSignatures.has(signature)) {
      stats.duplicateSignatures++;
      if (faults.replay) throw new ApiError('replayed_signature', 'This signature has already been used.');
    }
    rememberSignature(signature, Number(timestamp), nowSec);
    if (!app.active) throw new ApiError('client_inactive', 'This partner application is deactivated.');
    return app;
  }

  function rememberSignature(signature, timestamp, nowSec) {
    seenSignatures.set(signature, timestamp);
    if (seenSignatures.size > 200_000) {
      // A signature can only be replayed while its timestamp is within the tolerance.
      for (const [sig, ts] of seenSignatures) {
        if (ts < nowSec - opts.clockToleranceSec) seenSignatures.delete(sig);
      }
    }
  }

  function requirePermission(app, permission) {
    if (permission && !app.permissions.includes(permission)) {
      throw new ApiError(
        'insufficient_permission',
        `This partner application lacks the permission "${permission}".`,
        { permission },
      );
    }
  }

  // ---- Endpoints (spec: "Endpoints") -----------------------------------------------------------

  function intParam(query, name, { min, max, fallback }) {
    const raw = query.get(name);
    if (raw === null) return fallback;
    const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= min && value <= max)) {
      const range = max === Infinity ? `${min} or more` : `from ${min} to ${max}`;
      throw new ApiError('invalid_parameter', `${name} must be a whole number ${range}.`, { field: name });
    }
    return value;
  }

  function listOrders(app, query) {
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
    const page = orders.slice(offset, offset + limit);
    const pagination = { limit, offset, returned: page.length, has_more: offset + page.length < orders.length };
    const body = `{"ok":true,"data":{"orders":[${page.map((o) => data.orderListJson(state, o)).join(',')}],"pagination":${JSON.stringify(pagination)}}}`;
    feed.afterListPage(state, app);
    return body;
  }

  function orderDetail(app, query) {
    const raw = query.get('order_item_id');
    if (raw === null || !/^\d{1,12}$/.test(raw)) {
      throw new ApiError('invalid_parameter', 'order_item_id is required and must be a whole number.', {
        field: 'order_item_id',
      });
    }
    const order = state.orders.get(Number(raw));
    // Another seller's item is answered as not found: its existence is not this seller's business.
    if (!order || order.seller_id !== app.sellerId) {
      throw new ApiError('order_not_found', `Order item ${raw} was not found.`);
    }
    return envelope(data.orderDetail(state, order));
  }

  const isSet = (value) => value !== undefined && value !== null;

  /**
   * How a stock update names its product: by `product_id`, or by `sku`, the alternative the spec
   * mentions without showing its field (the name `sku` is this sandbox's choice). Validates the
   * field; the lookup comes after every other field is validated, as for `product_id` alone.
   */
  function productRef(body) {
    const { product_id, sku } = body;
    if (isSet(product_id) && isSet(sku)) {
      throw new ApiError('invalid_field', 'Send product_id or sku, not both.', { field: 'sku' });
    }
    if (isSet(sku)) {
      if (typeof sku !== 'string' || sku === '' || sku.length > 64) {
        throw new ApiError('invalid_field', 'sku must be a non-empty string of at most 64 characters.', { field: 'sku' });
      }
      return { product: state.productsBySku.get(sku), named: `Product with SKU "${sku}"` };
    }
    if (!isSet(product_id)) throw new ApiError('missing_field', 'product_id (or sku) is required.', { field: 'product_id' });
    if (!Number.isInteger(product_id) || product_id <= 0) {
      throw new ApiError('invalid_field', 'product_id must be a positive integer.', { field: 'product_id' });
    }
    return { product: state.products.get(product_id), named: `Product ${product_id}` };
  }

  function stockUpdate(app, query, rawBody, req) {
    const contentType = req.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;.*)?$/i.test(contentType)) {
      throw new ApiError('unsupported_media_type', 'Content-Type must be application/json.');
    }
    let body;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new ApiError('invalid_json', 'The request body is not valid JSON.');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiError('invalid_json', 'The request body must be a JSON object.');
    }
    const { variant_combination_id, stock, external_ref } = body;
    const { product, named } = productRef(body);
    if (stock === undefined || stock === null) throw new ApiError('missing_field', 'stock is required.', { field: 'stock' });
    if (typeof stock !== 'number' || !Number.isInteger(stock)) {
      throw new ApiError('invalid_field', 'stock must be an integer.', { field: 'stock' });
    }
    if (stock < 0) throw new ApiError('negative_stock', 'stock must not be negative.', { field: 'stock' });
    if (stock > MAX_STOCK) {
      throw new ApiError('invalid_field', `stock must not exceed ${MAX_STOCK}.`, { field: 'stock' });
    }
    const hasVariant = isSet(variant_combination_id);
    if (hasVariant && (!Number.isInteger(variant_combination_id) || variant_combination_id <= 0)) {
      throw new ApiError('invalid_field', 'variant_combination_id must be a positive integer or null.', {
        field: 'variant_combination_id',
      });
    }
    if (isSet(external_ref) && (typeof external_ref !== 'string' || external_ref.length > 255)) {
      throw new ApiError('invalid_field', 'external_ref must be a string of at most 255 characters.', {
        field: 'external_ref',
      });
    }
    // The same answers whichever way the product was named.
    if (!product) throw new ApiError('product_not_found', `${named} was not found.`);
    if (product.seller_id !== app.sellerId) {
      throw new ApiError('forbidden_product', `${named} does not belong to this seller.`);
    }
    const { product_id } = product;
    let target = product;
    if (hasVariant) {
      const variant = state.variants.get(variant_combination_id);
      if (!variant || variant.product_id !== product_id) {
        throw new ApiError(
          'variant_not_found',
          `Variant combination ${variant_combination_id} was not found for product ${product_id}.`,
          { field: 'variant_combination_id' },
        );
      }
      target = variant;
    } else if (product.variant_ids.length) {
      throw new ApiError(
        'variant_required',
        `Product ${product_id} has variants; send variant_combination_id (one of ${product.variant_ids.join(', ')}).`,
        { field: 'variant_combination_id' },
      );
    }
    const oldStock = target.stock;
    target.stock = stock;
    const result = {
      product_id,
      variant_combination_id: hasVariant ? variant_combination_id : null,
      old_stock: oldStock,
      new_stock: stock,
      updated: true,
      external_ref: external_ref ?? null,
      updated_at: formatApiDate(Date.now()),
    };
    emit(app.sellerId, 'stock.updated', result);
    return envelope(result);
  }

  function ping(app) {
    const nowMs = Date.now();
    return envelope({
      pong: true,
      client_id: app.clientId,
      seller_id: app.sellerId,
      permissions: app.permissions,
      server_time: formatApiDate(nowMs),
      timestamp: Math.floor(nowMs / 1000),
    });
  }

  const envelope = (value) => JSON.stringify({ ok: true, data: value });

  const ROUTES = {
    '/orders.php': { method: 'GET', permission: 'orders:read', handler: listOrders },
    '/order_detail.php': { method: 'GET', permission: 'orders:detail', handler: orderDetail },
    '/stock_update.php': { method: 'POST', permission: 'stock:write', handler: stockUpdate },
    '/ping.php': { method: 'GET', permission: null, handler: ping },
  };

  /** Decides the injected fault for this request, if any: 'drop' | 429 | 5xx status | null. */
  function nextFault() {
    if (faults.nextDrop > 0) return faults.nextDrop--, 'drop';
    if (faults.next429 > 0) return faults.next429--, 429;
    if (faults.next5xx > 0) return faults.next5xx--, faults.status5xx;
    if (faults.rateDrop && faultRandom.next() < faults.rateDrop) return 'drop';
    if (faults.rate429 && faultRandom.next() < faults.rate429) return 429;
    if (faults.rate5xx && faultRandom.next() < faults.rate5xx) return faults.status5xx;
    return null;
  }

  async function handleApi(req, res, target) {
    const q = target.indexOf('?');
    const pathname = q < 0 ? target : target.slice(0, q);
    const route = ROUTES[pathname];
    const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
    // The query and arrival time too: what a poller asked for (its updated_after) and when.
    const entry = {
      method: req.method,
      endpoint: pathname,
      query: Object.fromEntries(query),
      at: Date.now(),
      status: 0,
      code: null,
      clientId: req.headers[H.clientId] ?? null,
    };
    stats.maxInFlight = Math.max(stats.maxInFlight, ++stats.inFlight);
    try {
      const rawBody = await readBody(req, opts.maxBodyBytes);
      if (faults.latencyMs > 0) await sleep(faults.latencyMs);
      const fault = nextFault();
      if (fault === 'drop') {
        entry.code = 'dropped';
        req.socket.destroy();
        return;
      }
      if (fault === 429) {
        const err = new ApiError('rate_limited', 'Too many requests; retry after the time in Retry-After.');
        err.headers = { 'retry-after': String(faults.retryAfterSec) };
        throw err;
      }
      if (fault !== null) {
        const err = new ApiError('service_unavailable', 'The service is temporarily unavailable.');
        err.status = fault;
        throw err;
      }
      if (!route) throw new ApiError('endpoint_not_found', `No endpoint ${pathname}.`);
      if (req.method !== route.method) {
        const err = new ApiError('method_not_allowed', `${pathname} accepts ${route.method} only.`);
        err.headers = { allow: route.method };
        throw err;
      }
      // PATH is signed exactly as sent: the raw request target, never re-encoded or re-ordered.
      const app = authenticate(req, target, rawBody);
      entry.clientId = app.clientId;
      requirePermission(app, route.permission);
      const body = route.handler(app, query, rawBody, req);
      entry.status = 200;
      send(res, 200, body);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      entry.status = err.status;
      entry.code = err.code;
      sendError(res, err);
    } finally {
      stats.inFlight--;
      record(entry);
    }
  }

  // ---- Events --------------------------------------------------------------------------------

  function emit(sellerId, event, payload, options) {
    const sent = [];
    for (const app of state.apps) {
      if (app.sellerId === sellerId && app.active && app.webhookUrl && app.permissions.includes('webhooks')) {
        const { deliveryId, eventId } = webhooks.send(app, event, payload, options);
        sent.push({ clientId: app.clientId, deliveryId, eventId });
      }
    }
    return sent;
  }

  // ---- Control API (unsigned, loopback only) -------------------------------------------------

  function findApp(clientId) {
    const app = state.apps.find((a) => a.clientId === clientId);
    if (!app) throw new ControlError(404, `No app with client id ${clientId}.`);
    return app;
  }

  function findOrder(id) {
    const order = state.orders.get(Number(id));
    if (!order) throw new ControlError(404, `No order item ${id}.`);
    return order;
  }

  function publicApp(app) {
    const { name, clientId, clientSecret, webhookSecret, sellerId, permissions, active, webhookUrl, webhookSignatureEncoding } = app;
    return { name, clientId, clientSecret, webhookSecret, sellerId, permissions, active, webhookUrl, webhookSignatureEncoding };
  }

  function setWebhook(app, body) {
    if (body.url !== undefined) {
      if (body.url !== null && !/^https?:\/\/[^\s]+$/.test(String(body.url))) {
        throw new ControlError(400, 'url must be an http(s) URL or null.');
      }
      app.webhookUrl = body.url;
    }
    if (body.encoding !== undefined) {
      if (!['hex', 'base64'].includes(body.encoding)) throw new ControlError(400, 'encoding must be hex or base64.');
      app.webhookSignatureEncoding = body.encoding;
    }
    return publicApp(app);
  }

  const CONTROL = [
    ['GET', /^\/state$/, () => ({
      baseUrl: sandbox.baseUrl,
      headerPrefix: opts.headerPrefix,
      clockToleranceSec: opts.clockToleranceSec,
      seed: state.seed,
      apps: state.apps.map(publicApp),
      skuFormat: data.SKU_FORMAT,
      counts: {
        products: state.products.size,
        ordersBySeller: Object.fromEntries([...state.ordersBySeller].map(([id, list]) => [id, list.length])),
      },
      listOrder: feed.order,
      faults,
    })],
    ['POST', /^\/reset$/, (m, body) => {
      reset(body);
      return { apps: state.apps.map(publicApp) };
    }],
    ['GET', /^\/faults$/, () => faults],
    ['POST', /^\/faults$/, (m, body) => {
      for (const [key, value] of Object.entries(body)) {
        if (!(key in NO_FAULTS)) throw new ControlError(400, `Unknown fault "${key}".`);
        if (typeof value !== typeof NO_FAULTS[key]) throw new ControlError(400, `Fault "${key}" must be a ${typeof NO_FAULTS[key]}.`);
      }
      Object.assign(faults, body);
      return faults;
    }],
    ['POST', /^\/faults\/reset$/, () => Object.assign(faults, NO_FAULTS)],
    ['GET', /^\/stats$/, () => stats],
    ['POST', /^\/stats\/reset$/, () => (resetStats(), stats)],
    ['POST', /^\/apps\/([^/]+)$/, (m, body) => {
      const app = findApp(m[1]);
      if (body.active !== undefined) app.active = Boolean(body.active);
      if (body.permissions !== undefined) app.permissions = body.permissions.filter((p) => data.ALL_PERMISSIONS.includes(p));
      return setWebhook(app, body);
    }],
    ['POST', /^\/apps\/([^/]+)\/webhook$/, (m, body) => setWebhook(findApp(m[1]), body)],
    ['POST', /^\/apps\/([^/]+)\/test-event$/, (m, body) => {
      const app = findApp(m[1]);
      // `url` sends to another address than the registered one, e.g. the trigger's test URL while
      // the editor listens for a test event.
      if (body.url !== undefined && !/^https?:\/\//.test(String(body.url))) throw new ControlError(400, 'url must be an http(s) URL.');
      if (!app.webhookUrl && !body.url) throw new ControlError(409, 'Register a webhook URL for this app first, or pass url.');
      const event = body.event ?? 'order.created';
      if (!EVENTS.includes(event)) throw new ControlError(400, `event must be one of ${EVENTS.join(', ')}.`);
      if (body.tamper !== undefined && !['body', 'signature', 'timestamp'].includes(body.tamper)) {
        throw new ControlError(400, 'tamper must be body, signature or timestamp.');
      }
      const { deliveryId, eventId } = webhooks.send(app, event, samplePayload(app, event), { test: true, tamper: body.tamper, url: body.url });
      return { deliveryId, eventId };
    }],
    ['POST', /^\/orders$/, (m, body) => {
      const sellerId = body.clientId ? findApp(body.clientId).sellerId : body.sellerId ?? data.SELLERS[0].sellerId;
      const seller = data.SELLERS.find((s) => s.sellerId === sellerId);
      if (!seller) throw new ControlError(400, `No seller ${sellerId}.`);
      const sellerProducts = [...state.products.values()].filter((p) => p.seller_id === sellerId);
      const product = body.productId ? state.products.get(body.productId) : state.random.pick(sellerProducts);
      if (!product || product.seller_id !== sellerId) throw new ControlError(400, `Product ${body.productId} is not seller ${sellerId}'s.`);
      const now = nowWholeSecondsMs();
      const order = data.addOrderItem(state, {
        seller,
        product,
        variantId: body.variantCombinationId,
        quantity: body.quantity ?? 1,
        createdMs: now,
      });
      feed.record(state, order);
      const deliveries = emit(sellerId, 'order.created', data.orderListEntry(state, order));
      return { ...data.orderDetail(state, order), deliveries };
    }],
    ['POST', /^\/orders\/(\d+)\/status$/, (m, body) => {
      const order = findOrder(m[1]);
      if (typeof body.status !== 'string' || !/^[a-z_]{1,40}$/.test(body.status)) {
        throw new ControlError(400, 'status must be a lower-case word such as shipped.');
      }
      const previous = order.status;
      data.setOrderStatus(state, order, body.status, nowWholeSecondsMs());
      feed.record(state, order);
      const deliveries = emit(order.seller_id, 'order.updated', { ...data.orderListEntry(state, order), previous_status: previous });
      return { ...data.orderDetail(state, order), deliveries };
    }],
    ['POST', /^\/orders\/(\d+)\/return$/, (m, body) => {
      const order = findOrder(m[1]);
      const payload = {
        return_id: state.nextReturnId++,
        order_item_id: order.order_item_id,
        order_no: order.order_no,
        product_id: order.product_id,
        quantity: body.quantity ?? order.quantity,
        reason: body.reason ?? 'not_as_described',
        requested_at: formatApiDate(Date.now()),
      };
      return { ...payload, deliveries: emit(order.seller_id, 'return.requested', payload) };
    }],
    ['GET', /^\/orders\/(\d+)$/, (m) => data.orderDetail(state, findOrder(m[1]))],
    ['GET', /^\/products\/(\d+)$/, (m) => {
      const product = state.products.get(Number(m[1]));
      if (!product) throw new ControlError(404, `No product ${m[1]}.`);
      const { variant_ids, ...rest } = product;
      return { ...rest, variants: variant_ids.map((id) => state.variants.get(id)) };
    }],
    ['GET', /^\/products$/, (m, body, query) => {
      const sellerId = Number(query.get('sellerId') ?? data.SELLERS[0].sellerId);
      const sku = query.get('sku');
      return [...state.products.values()]
        .filter((p) => (sku === null ? p.seller_id === sellerId : p.sku === sku))
        .map(({ variant_ids, ...rest }) => ({ ...rest, variant_combination_ids: variant_ids }));
    }],
    ['GET', /^\/deliveries$/, (m, body, query) => webhooks.list(Object.fromEntries(query))],
    ['POST', /^\/deliveries\/wait$/, async () => (await webhooks.idle(), webhooks.list())],
    ...feed.routes({
      getState: () => state,
      sellerOf: (body) => (body.clientId ? findApp(body.clientId).sellerId : body.sellerId ?? data.SELLERS[0].sellerId),
      fail: (status, message) => {
        throw new ControlError(status, message);
      },
    }),
    ['POST', /^\/deliveries\/([^/]+)\/resend$/, (m, body) => {
      if (body.url !== undefined && !/^https?:\/\/[^\s]+$/.test(String(body.url))) throw new ControlError(400, 'url must be an http(s) URL.');
      const sent = webhooks.resend(m[1], body.url);
      if (!sent) throw new ControlError(404, `No delivery ${m[1]} (tampered test deliveries are not kept).`);
      return { deliveryId: sent.deliveryId, eventId: sent.eventId };
    }],
  ];

  function samplePayload(app, event) {
    const order = state.ordersBySeller.get(app.sellerId)[0];
    if (event === 'stock.updated') {
      const product = [...state.products.values()].find((p) => p.seller_id === app.sellerId && !p.variant_ids.length);
      return {
        product_id: product.product_id, variant_combination_id: null, old_stock: product.stock, new_stock: product.stock,
        updated: true, external_ref: 'operator-test', updated_at: formatApiDate(Date.now()),
      };
    }
    if (event === 'return.requested') {
      return {
        return_id: 0, order_item_id: order.order_item_id, order_no: order.order_no, product_id: order.product_id,
        quantity: 1, reason: 'operator_test', requested_at: formatApiDate(Date.now()),
      };
    }
    const entry = data.orderListEntry(state, order);
    return event === 'order.updated' ? { ...entry, previous_status: entry.status } : entry;
  }

  class ControlError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  async function handleControl(req, res, target) {
    const remote = req.socket.remoteAddress ?? '';
    if (!/^(127\.|::1$|::ffff:127\.)/.test(remote)) {
      return send(res, 403, JSON.stringify({ ok: false, error: { code: 'forbidden', message: 'Control API is loopback only.' } }));
    }
    const [pathname, search = ''] = target.split('?');
    const route = CONTROL.find(([method, pattern]) => method === req.method && pattern.test(pathname));
    try {
      if (!route) throw new ControlError(404, `No control route ${req.method} /_sandbox${pathname}.`);
      const raw = await readBody(req, 1024 * 1024);
      let body = {};
      if (raw.length) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new ControlError(400, 'The body must be JSON.');
        }
      }
      const result = await route[2](route[1].exec(pathname), body ?? {}, new URLSearchParams(search));
      send(res, 200, JSON.stringify({ ok: true, data: result }));
    } catch (err) {
      const status = err instanceof ControlError ? err.status : 500;
      send(res, status, JSON.stringify({ ok: false, error: { code: 'control_error', message: err.message } }));
    }
  }

  // ---- Server --------------------------------------------------------------------------------

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    let work;
    if (url.startsWith('/_sandbox/')) work = handleControl(req, res, url.slice('/_sandbox'.length));
    else if (url.startsWith(`${opts.basePath}/`)) work = handleApi(req, res, url.slice(opts.basePath.length));
    else {
      work = Promise.resolve(
        sendError(res, new ApiError('endpoint_not_found', `The API lives under ${opts.basePath}/.`)),
      );
    }
    work.catch((err) => {
      log(`internal error: ${err.stack}`);
      if (!res.headersSent) send(res, 500, JSON.stringify({ ok: false, error: { code: 'internal_error', message: 'Internal error.' } }));
    });
  });
  // Keep idle keep-alive connections longer than clients' own pools do, so a server-side close
  // never races a reused socket.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;

  const sandbox = {
    server,
    options: opts,
    get state() {
      return state;
    },
    get faults() {
      return faults;
    },
    get stats() {
      return stats;
    },
    webhooks,
    baseUrl: null,
    origin: null,
    reset,
    async start(port = opts.port) {
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, opts.host, resolve);
      });
      const { port: actual } = server.address();
      sandbox.origin = `http://${opts.host}:${actual}`;
      sandbox.baseUrl = `${sandbox.origin}${opts.basePath}`;
      return sandbox;
    },
    /** The first line the CLI prints: what a client needs to connect. */
    describe() {
      return {
        baseUrl: sandbox.baseUrl,
        controlUrl: `${sandbox.origin}/_sandbox`,
        headerPrefix: opts.headerPrefix,
        apps: state.apps.map(({ name, clientId, clientSecret, webhookSecret, sellerId, permissions, active }) => ({
          name, clientId, clientSecret, webhookSecret, sellerId, permissions, active,
        })),
      };
    },
    async close() {
      webhooks.close();
      await new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  reset();
  return sandbox;
}

function pickFaults(o) {
  return Object.fromEntries(Object.keys(NO_FAULTS).filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

module.exports = { createSandbox };
