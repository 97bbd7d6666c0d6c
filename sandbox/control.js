'use strict';
// The control API under /_sandbox/ (sandbox/README.md, "Control API"): unsigned, loopback only, and
// every route needs the control token. It stands in for the operator (apps, webhooks, test events),
// changes orders, reads state for assertions, and sets faults and answer styles.
const crypto = require('node:crypto');
const data = require('./data');
const { readBody } = require('./http');
const { invalidFaults, NO_FAULTS } = require('./faults');
const { invalidSettings } = require('./rateLimit');
const { nowWholeSecondsMs } = require('./time');
const { invalidStyle, checkedStyle } = require('./style');
const { isLoopback, hostnameOf, foreignBrowserRequest } = require('./loopback');
const { choicesOf, meaningOf, renderPage, PAGE_PATH, PAGE_TOKEN_HEADER } = require('./testEventPage');

const EVENTS = ['order.created', 'order.updated', 'stock.updated', 'return.requested'];

class ControlError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const NO_TOKEN =
  "The control API needs this sandbox's control token: send Authorization: Bearer <controlToken>. The token is " +
  '"controlToken" on the first line the sandbox CLI prints, or in the --secrets-file it was started with ' +
  '(npm start: .state/demo/secrets.json); in-process, describe().controlToken.';
const NO_PAGE_TOKEN = `This page's token is not this sandbox's (was the sandbox restarted?): reload the page, ${PAGE_PATH}.`;

/** The test event page's token: an HMAC of the control token, so it proves the page was read but opens its own two routes only (send, change). */
function pageTokenOf(controlToken) {
  return crypto.createHmac('sha256', controlToken).update('sandbox test event page').digest('hex');
}

/** Whether `given` is `expected`, in constant time (hashed first: lengths differ). */
function sameSecret(given, expected) {
  const digest = (text) => crypto.createHash('sha256').update(String(text)).digest();
  return typeof given === 'string' && crypto.timingSafeEqual(digest(given), digest(expected));
}

/**
 * The control API: `handle(req, res, target)` and its `routes` ({ method, pattern, page }). `ctx` is
 * the sandbox's shared context (server.js); `hooks` gives it what only the server can do:
 * `reset(seedOptions)` and `resetStats()`.
 */
function createControl(ctx, hooks) {
  function findApp(clientId) {
    const app = ctx.state.apps.find((a) => a.clientId === clientId);
    if (!app) throw new ControlError(404, `No app with client id ${clientId}.`);
    return app;
  }

  function findOrder(id) {
    const order = ctx.state.orders.get(Number(id));
    if (!order) throw new ControlError(404, `No order item ${id}.`);
    return order;
  }

  /** A product as the control API shows it: its variants' ids and the variants themselves. */
  function productView({ variant_ids, ...rest }) {
    return { ...rest, variant_combination_ids: variant_ids, variants: variant_ids.map((id) => ctx.state.variants.get(id)) };
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

  function eventOf(body) {
    const event = body.event ?? 'order.created';
    if (!EVENTS.includes(event)) throw new ControlError(400, `event must be one of ${EVENTS.join(', ')}.`);
    return event;
  }

  /** The test event page's target: any http(s) URL with --allow-remote, else one on this machine. */
  function pageTarget(url) {
    const trimmed = typeof url === 'string' ? url.trim() : '';
    if (!/^https?:\/\/[^\s]+$/.test(trimmed)) {
      throw new ControlError(400, "Paste the trigger's Test URL (or Production URL): it starts with http:// or https://.");
    }
    const hostname = hostnameOf(trimmed);
    if (!ctx.opts.allowRemote && !(hostname && isLoopback(hostname))) {
      throw new ControlError(
        403,
        `This page sends only to this machine (127.0.0.1, localhost, [::1]), not to ${hostname}. Start the sandbox with --allow-remote to send elsewhere.`,
      );
    }
    return trimmed;
  }

  /** A new order item of the seller (`productId`, or a product picked at random), and its order.created payload. */
  function createOrder(sellerId, body) {
    const seller = data.SELLERS.find((s) => s.sellerId === sellerId);
    if (!seller) throw new ControlError(400, `No seller ${sellerId}.`);
    const sellerProducts = [...ctx.state.products.values()].filter((p) => p.seller_id === sellerId);
    const product = body.productId ? ctx.state.products.get(Number(body.productId)) : ctx.state.random.pick(sellerProducts);
    if (!product || product.seller_id !== sellerId) throw new ControlError(400, `Product ${body.productId} is not seller ${sellerId}'s.`);
    const order = data.addOrderItem(ctx.state, {
      seller,
      product,
      variantId: body.variantCombinationId,
      quantity: body.quantity ?? 1,
      createdMs: nowWholeSecondsMs(),
    });
    ctx.feed.record(ctx.state, order);
    return { order, payload: data.orderListEntry(ctx.state, order, ctx.writeDate) };
  }

  /** The order item's status set to `status`; its order.updated payload (with `previous_status`). */
  function changeStatus(order, status) {
    if (typeof status !== 'string' || !/^[a-z_]{1,40}$/.test(status)) {
      throw new ControlError(400, 'status must be a lower-case word such as shipped.');
    }
    const previous = order.status;
    data.setOrderStatus(ctx.state, order, status, nowWholeSecondsMs());
    ctx.feed.record(ctx.state, order);
    return { ...data.orderListEntry(ctx.state, order, ctx.writeDate), previous_status: previous };
  }

  /** A return of the order item, as its return.requested payload. */
  function requestReturn(order, body) {
    return {
      return_id: ctx.state.nextReturnId++,
      order_item_id: order.order_item_id,
      order_no: order.order_no,
      product_id: order.product_id,
      quantity: body.quantity ?? order.quantity,
      reason: body.reason ?? 'not_as_described',
      requested_at: ctx.writeDate(Date.now()),
    };
  }

  /** The product's stock (its first variant's, for a product with variants) set to `stock`; the stock.updated payload. */
  function setStock(product, stock) {
    if (!Number.isInteger(stock) || stock < 0 || stock > 1_000_000) throw new ControlError(400, 'stock must be a whole number from 0 to 1000000.');
    const variant = product.variant_ids.length ? ctx.state.variants.get(product.variant_ids[0]) : null;
    const target = variant ?? product;
    const oldStock = target.stock;
    target.stock = stock;
    return {
      product_id: product.product_id, variant_combination_id: variant?.variant_combination_id ?? null, old_stock: oldStock, new_stock: stock,
      updated: true, external_ref: 'sandbox-page', updated_at: ctx.writeDate(Date.now()),
    };
  }

  /** The page's change for `event`, made in the app's seller's data; the event's payload. Another seller's order or product is refused. */
  function demoChange(app, event, body) {
    if (event === 'order.created') return createOrder(app.sellerId, { productId: body.productId }).payload;
    if (event === 'stock.updated') {
      const product = ctx.state.products.get(Number(body.productId));
      if (product?.seller_id !== app.sellerId) throw new ControlError(400, `Product ${body.productId} is not seller ${app.sellerId}'s.`);
      return setStock(product, body.stock);
    }
    const order = ctx.state.orders.get(Number(body.orderItemId));
    if (order?.seller_id !== app.sellerId) throw new ControlError(400, `Order item ${body.orderItemId} is not seller ${app.sellerId}'s.`);
    return event === 'order.updated' ? changeStatus(order, body.status) : requestReturn(order, {});
  }

  const CONTROL = [
    ['GET', /^\/state$/, () => ({
      baseUrl: ctx.baseUrl,
      headerPrefix: ctx.opts.headerPrefix,
      clockToleranceSec: ctx.opts.clockToleranceSec,
      seed: ctx.state.seed,
      apps: ctx.state.apps.map(publicApp),
      skuFormat: data.SKU_FORMAT,
      counts: {
        products: ctx.state.products.size,
        ordersBySeller: Object.fromEntries([...ctx.state.ordersBySeller].map(([id, list]) => [id, list.length])),
      },
      listOrder: ctx.feed.order,
      faults: ctx.faults,
      rateLimit: ctx.rateLimiter.settings,
      skuUpdates: ctx.skuUpdates,
      style: ctx.style,
    })],
    ['POST', /^\/reset$/, (m, body) => {
      hooks.reset(body);
      return { apps: ctx.state.apps.map(publicApp) };
    }],
    ['GET', /^\/faults$/, () => ctx.faults],
    ['POST', /^\/faults$/, (m, body) => {
      const invalid = invalidFaults(body);
      if (invalid) throw new ControlError(400, invalid);
      Object.assign(ctx.faults, body);
      return ctx.faults;
    }],
    ['GET', /^\/rate-limit$/, () => ctx.rateLimiter.settings],
    ['POST', /^\/rate-limit$/, (m, body) => {
      const invalid = invalidSettings(body);
      if (invalid) throw new ControlError(400, invalid);
      return ctx.rateLimiter.configure(body);
    }],
    ['GET', /^\/sku-updates$/, () => ({ accepted: ctx.skuUpdates })],
    ['POST', /^\/sku-updates$/, (m, body) => {
      if (typeof body.accepted !== 'boolean') throw new ControlError(400, 'accepted must be true or false.');
      ctx.skuUpdates = body.accepted;
      return { accepted: ctx.skuUpdates };
    }],
    ['POST', /^\/faults\/reset$/, () => Object.assign(ctx.faults, NO_FAULTS)],
    ['GET', /^\/style$/, () => ctx.style],
    ['POST', /^\/style$/, (m, body) => {
      const invalid = invalidStyle(body);
      if (invalid) throw new ControlError(400, invalid);
      return Object.assign(ctx.style, checkedStyle(body));
    }],
    // Back to the style the sandbox was started with (its flags or options), as /reset does.
    ['POST', /^\/style\/reset$/, () => Object.assign(ctx.style, ctx.initialStyle)],
    ['GET', /^\/stats$/, () => ctx.stats],
    ['POST', /^\/stats\/reset$/, () => (hooks.resetStats(), ctx.stats)],
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
      const event = eventOf(body);
      if (body.tamper !== undefined && !['body', 'signature', 'timestamp'].includes(body.tamper)) {
        throw new ControlError(400, 'tamper must be body, signature or timestamp.');
      }
      const { deliveryId, eventId } = ctx.webhooks.send(app, event, samplePayload(app, event, body), { test: true, tamper: body.tamper, url: body.url });
      return { deliveryId, eventId };
    }],
    // The test event page's button: one attempt, awaited, so the page can say what n8n answered (a
    // person presses again; retries would reach a trigger that stopped listening meanwhile). The only
    // route the page's own token opens (`page`), so the page can hold it.
    ['POST', /^\/test-event$/, async (m, body) => {
      const app = findApp(body.clientId);
      const url = pageTarget(body.url);
      const event = eventOf(body);
      const { deliveryId, eventId, done } = ctx.webhooks.send(app, event, samplePayload(app, event, body), { test: true, url, retried: false });
      const attempt = await done;
      if (!attempt) throw new ControlError(503, 'The sandbox is stopping: nothing was sent.');
      const { statusCode, error, responseBody } = attempt;
      return { deliveryId, eventId, event, url, statusCode, error, responseBody, meaning: meaningOf(attempt) };
    }, { page: true }],
    ['POST', /^\/orders$/, (m, body) => {
      const sellerId = body.clientId ? findApp(body.clientId).sellerId : body.sellerId ?? data.SELLERS[0].sellerId;
      const { order, payload } = createOrder(sellerId, body);
      return { ...data.orderDetail(ctx.state, order), deliveries: ctx.emit(sellerId, 'order.created', payload) };
    }],
    ['POST', /^\/orders\/(\d+)\/status$/, (m, body) => {
      const order = findOrder(m[1]);
      const payload = changeStatus(order, body.status);
      return { ...data.orderDetail(ctx.state, order), deliveries: ctx.emit(order.seller_id, 'order.updated', payload) };
    }],
    ['POST', /^\/orders\/(\d+)\/return$/, (m, body) => {
      const order = findOrder(m[1]);
      const payload = requestReturn(order, body);
      return { ...payload, deliveries: ctx.emit(order.seller_id, 'return.requested', payload) };
    }],
    // The page's "make the change" button: the demo store changes (a new order, a status, a stock, a
    // return) and its event goes to the pasted URL, signed like every delivery and not marked a
    // test; one attempt, awaited, as for a test event. Also a route the page's own token opens.
    // Without a URL, the event goes where the store's events go: the registered webhook URLs.
    ['POST', /^\/demo-change$/, async (m, body) => {
      const app = findApp(body.clientId);
      const url = String(body.url ?? '').trim() === '' ? null : pageTarget(body.url);
      const event = eventOf(body);
      const payload = demoChange(app, event, body);
      if (url === null) {
        const deliveries = ctx.emit(app.sellerId, event, payload);
        const meaning = deliveries.length
          ? `The change is made; its event goes to the webhook URL registered for the seller's apps (${deliveries.length}).`
          : 'The change is made. No webhook URL is registered for this seller, so no event was sent: paste a Trigger URL to send one.';
        return { event, payload, deliveries, meaning, choices: choicesOf(ctx.state) };
      }
      const { deliveryId, eventId, done } = ctx.webhooks.send(app, event, payload, { url, retried: false });
      const attempt = await done;
      if (!attempt) throw new ControlError(503, 'The sandbox is stopping: the change was made, its event not sent.');
      const { statusCode, error, responseBody } = attempt;
      return { deliveryId, eventId, event, url, payload, statusCode, error, responseBody, meaning: meaningOf(attempt), choices: choicesOf(ctx.state) };
    }, { page: true }],
    ['GET', /^\/orders\/(\d+)$/, (m) => data.orderDetail(ctx.state, findOrder(m[1]))],
    ['GET', /^\/products\/(\d+)$/, (m) => {
      const product = ctx.state.products.get(Number(m[1]));
      if (!product) throw new ControlError(404, `No product ${m[1]}.`);
      const { variant_combination_ids, ...rest } = productView(product);
      return rest;
    }],
    // Each with its variants' stock: a test reads a whole catalogue's state in one request.
    ['GET', /^\/products$/, (m, body, query) => {
      const sellerId = Number(query.get('sellerId') ?? data.SELLERS[0].sellerId);
      const sku = query.get('sku');
      return [...ctx.state.products.values()].filter((p) => (sku === null ? p.seller_id === sellerId : p.sku === sku)).map(productView);
    }],
    ['GET', /^\/deliveries$/, (m, body, query) => ctx.webhooks.list(Object.fromEntries(query))],
    ['POST', /^\/deliveries\/wait$/, async () => (await ctx.webhooks.idle(), ctx.webhooks.list())],
    ...ctx.feed.routes({
      getState: () => ctx.state,
      getStyle: () => ctx.style,
      sellerOf: (body) => (body.clientId ? findApp(body.clientId).sellerId : body.sellerId ?? data.SELLERS[0].sellerId),
      fail: (status, message) => {
        throw new ControlError(status, message);
      },
    }),
    ['POST', /^\/deliveries\/([^/]+)\/resend$/, (m, body) => {
      if (body.url !== undefined && !/^https?:\/\/[^\s]+$/.test(String(body.url))) throw new ControlError(400, 'url must be an http(s) URL.');
      const sent = ctx.webhooks.resend(m[1], body.url);
      if (!sent) throw new ControlError(404, `No delivery ${m[1]} (tampered test deliveries are not kept).`);
      return { deliveryId: sent.deliveryId, eventId: sent.eventId };
    }],
  ];

  /**
   * A test event's `data`, from the seller's data: the order item `orderItemId` (default: the
   * seller's newest), or for stock.updated the product `productId` (default: the first without
   * variants; one with variants reports its first variant).
   */
  function samplePayload(app, event, { orderItemId, productId } = {}) {
    if (event === 'stock.updated') {
      const product = productId == null
        ? [...ctx.state.products.values()].find((p) => p.seller_id === app.sellerId && !p.variant_ids.length)
        : ctx.state.products.get(Number(productId));
      if (product?.seller_id !== app.sellerId) throw new ControlError(400, `Product ${productId} is not seller ${app.sellerId}'s.`);
      const variant = product.variant_ids.length ? ctx.state.variants.get(product.variant_ids[0]) : null;
      const stock = (variant ?? product).stock;
      return {
        product_id: product.product_id, variant_combination_id: variant?.variant_combination_id ?? null, old_stock: stock, new_stock: stock,
        updated: true, external_ref: 'operator-test', updated_at: ctx.writeDate(Date.now()),
      };
    }
    const order = orderItemId == null ? ctx.state.ordersBySeller.get(app.sellerId).at(-1) : ctx.state.orders.get(Number(orderItemId));
    if (!order) throw new ControlError(409, `Seller ${app.sellerId} has no order item${orderItemId == null ? ' yet' : ` ${orderItemId}`}.`);
    if (order.seller_id !== app.sellerId) throw new ControlError(400, `Order item ${orderItemId} is not seller ${app.sellerId}'s.`);
    if (event === 'return.requested') {
      return {
        return_id: 0, order_item_id: order.order_item_id, order_no: order.order_no, product_id: order.product_id,
        quantity: 1, reason: 'operator_test', requested_at: ctx.writeDate(Date.now()),
      };
    }
    const entry = data.orderListEntry(ctx.state, order, ctx.writeDate);
    return event === 'order.updated' ? { ...entry, previous_status: entry.status } : entry;
  }

  const pageToken = pageTokenOf(ctx.opts.controlToken);

  /** Why `req` may not call `route`, or null: the control token opens every route, the page's token its own. */
  function refusal(req, route) {
    const bearer = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
    if (sameSecret(bearer, ctx.opts.controlToken)) return null;
    if (!route[3]?.page) return NO_TOKEN;
    return sameSecret(req.headers[PAGE_TOKEN_HEADER], pageToken) ? null : NO_PAGE_TOKEN;
  }

  async function handleControl(req, res, target) {
    const remote = req.socket.remoteAddress ?? '';
    if (!/^(127\.|::1$|::ffff:127\.)/.test(remote)) {
      return ctx.reply(res, 403, JSON.stringify({ ok: false, error: { code: 'forbidden', message: 'Control API is loopback only.' } }));
    }
    // A loopback peer may still be a browser running another site's page: it hands out every secret.
    const foreign = foreignBrowserRequest(req);
    if (foreign) return ctx.reply(res, 403, JSON.stringify({ ok: false, error: { code: 'forbidden', message: foreign } }));
    const [pathname, search = ''] = target.split('?');
    if (req.method === 'GET' && pathname === '/test-event') {
      // Open without a token: a person types its address. Only the sandbox's own origin can read it
      // (the checks above, and the browser's same-origin policy), so it may hold the page's token.
      // The first app, seller-a-full, is the one the demo's credential uses.
      const { html, headers } = renderPage({
        state: ctx.state, events: EVENTS, defaultClientId: ctx.state.apps[0].clientId, allowRemote: ctx.opts.allowRemote, pageToken,
      });
      return ctx.reply(res, 200, html, headers);
    }
    const route = CONTROL.find(([method, pattern]) => method === req.method && pattern.test(pathname));
    try {
      if (!route) throw new ControlError(404, `No control route ${req.method} /_sandbox${pathname}.`);
      // JSON only, so a browser asks first (CORS preflight) before sending it cross-site: a form or
      // a simple fetch can post text/plain unasked.
      if (req.method !== 'GET' && !/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
        throw new ControlError(415, 'Send the body as JSON, with Content-Type: application/json.');
      }
      const refused = refusal(req, route);
      if (refused) throw new ControlError(401, refused);
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
      ctx.reply(res, 200, JSON.stringify({ ok: true, data: result }));
    } catch (err) {
      const status = err instanceof ControlError ? err.status : 500;
      const headers = status === 401 ? { 'www-authenticate': 'Bearer realm="sandbox control API"' } : {};
      ctx.reply(res, status, JSON.stringify({ ok: false, error: { code: 'control_error', message: err.message } }), headers);
    }
  }
  const routes = CONTROL.map(([method, pattern, , options]) => ({ method, pattern, page: Boolean(options?.page) }));
  return { handle: handleControl, routes };
}

module.exports = { createControl, EVENTS };
