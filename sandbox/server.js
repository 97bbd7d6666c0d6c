'use strict';
// The local Partner API sandbox: the v1 endpoints of ../shared/spec/partner-api-v1.md over real HTTP,
// a control API under /_sandbox/ (loopback only, with the control token), webhooks and fault injection. This file wires the
// parts together; each is a module a reader can hold against the spec:
//   api/authentication.js  "Authentication"          api/orders.js       "GET /orders.php"
//   api/orderDetail.js     "GET /order_detail.php"   api/stockUpdate.js  "POST /stock_update.php"
//   api/ping.js            "GET /ping.php"           errors.js           "Errors" (codes, statuses)
//   faults.js              injected faults           rateLimit.js        the per-client rate limit
//   control.js             the control API       style.js            answer styles ("not shown" points)
const http = require('node:http');
const net = require('node:net');
const { ApiError } = require('./errors');
const { authenticate, headerNames, requirePermission } = require('./api/authentication');
const data = require('./data');
const { createRandom } = require('./random');
const { send, readBody } = require('./http');
const { DEFAULT_STYLE, pickStyle, checkedStyle, errorAnswer, dateWriter } = require('./style');
const { NO_FAULTS, pickFaults, nextFault, faultError, phpFatalPage } = require('./faults');
const { createRateLimiter } = require('./rateLimit');
const { createControl } = require('./control');
const { WebhookSender } = require('./webhooks');
const { createChangeFeed } = require('./changes');
const { checkedSecrets, applySecrets, generateControlToken, invalidControlToken } = require('./secrets');
const { isLoopback } = require('./loopback');
const { PAGE_PATH } = require('./testEventPage');

const DEFAULTS = {
  host: '127.0.0.1',
  // Another address than loopback only when asked for: the API, its webhooks and its secrets are a demo's.
  allowRemote: false,
  // App name -> { clientSecret, webhookSecret } (sandbox/secrets.js); absent: the seeded ones, the
  // same on every machine, for tests only.
  secrets: undefined,
  // The control API's bearer token (sandbox/control.js); absent: a fresh one, in describe().
  controlToken: undefined,
  port: 8787,
  basePath: '/api/partner/v1',
  headerPrefix: 'X-SVC-',
  clockToleranceSec: 300,
  // Signatures remembered (for replay detection) before those past the tolerance are forgotten.
  seenSignatureLimit: 200_000,
  seed: 1,
  // Whether the seeded order items end now (the demo's) rather than at a fixed moment (sandbox/data.js).
  seedUntilNow: false,
  orders: 1000,
  ordersB: undefined,
  products: 200,
  maxBodyBytes: 64 * 1024,
  webhookMaxAttempts: 5,
  webhookRetryBaseMs: 500,
  webhookTimeoutMs: 10000,
  webhookConcurrency: Infinity,
  listOrder: 'order_item_id',
  // Requests per second per client (0: no limit), its burst, and whether a 429 says Retry-After.
  rateLimit: 0,
  rateBurst: 10,
  rateLimitRetryAfter: true,
  // Whether POST /stock_update.php takes `sku` in place of `product_id` (false: a marketplace without it).
  skuUpdates: true,
  // Answer styles (sandbox/style.js): timeZone, answerStyle, hasMoreStyle, pageCap, errorStyle,
  // foreignOrderStatus; absent ones take style.js's defaults.
};

const ROUTES = {
  '/orders.php': require('./api/orders'),
  '/order_detail.php': require('./api/orderDetail'),
  '/stock_update.php': require('./api/stockUpdate'),
  '/ping.php': require('./api/ping'),
};

/** What a sandbox listening on `origin` (not loopback) shows other machines: printed on stderr. */
function exposureWarning(origin) {
  return (
    `[sandbox] WARNING: listening on ${origin}, which other machines may reach: they can call the Partner API ` +
    "(signed requests only, so with an app's secret). The control API (/_sandbox/: every app's secrets, orders, " +
    'webhooks) still answers loopback clients only, but a proxy on this machine in front of the sandbox exposes it too.\n'
  );
}

function createSandbox(options = {}) {
  const opts = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  if (!isLoopback(opts.host) && !opts.allowRemote) {
    throw new Error(
      `host ${opts.host} is not a loopback address (127.0.0.0/8, ::1, localhost): other machines could reach the sandbox. ` +
        'Use a loopback address, or --allow-remote (option allowRemote) if you mean to expose it.',
    );
  }
  if (opts.secrets) checkedSecrets(opts.secrets);
  opts.controlToken ??= generateControlToken();
  const invalidToken = invalidControlToken(opts.controlToken);
  if (invalidToken) throw new Error(invalidToken);
  const log = opts.log ?? (() => {});
  const rateLimitOptions = { rate: opts.rateLimit, burst: opts.rateBurst, retryAfter: opts.rateLimitRetryAfter };
  // Checked now, so a wrong option fails createSandbox with the control API's message.
  const initialStyle = { ...DEFAULT_STYLE, ...checkedStyle(pickStyle(opts)) };
  const webhooks = new WebhookSender({
    getStyle: () => ctx.style,
    headerPrefix: opts.headerPrefix,
    maxAttempts: opts.webhookMaxAttempts,
    retryBaseMs: opts.webhookRetryBaseMs,
    timeoutMs: opts.webhookTimeoutMs,
    concurrency: opts.webhookConcurrency,
    log,
  });

  /** What every part works on. `state`, `faults`, `style`, `stats` and `seenSignatures` are replaced by reset(). */
  const ctx = {
    opts,
    headers: headerNames(opts.headerPrefix),
    baseUrl: null,
    state: null,
    faults: null,
    faultRandom: null,
    rateLimiter: createRateLimiter(rateLimitOptions),
    skuUpdates: opts.skuUpdates,
    // How answers are written where the spec says "not shown" (sandbox/style.js).
    style: null,
    initialStyle,
    stats: null,
    seenSignatures: null, // signature -> unix seconds it was signed for
    webhooks,
    // List order, the change log and changes armed while a client pages (sandbox/changes.js).
    feed: createChangeFeed({ listOrder: opts.listOrder }),
    serverNowMs: () => Date.now() + ctx.faults.clockSkewSec * 1000,
    /** Answers with JSON; a skewed clock shows in the Date header. */
    reply(res, status, bodyText, headers = {}) {
      if (ctx.faults.clockSkewSec) headers = { date: new Date(ctx.serverNowMs()).toUTCString(), ...headers };
      send(res, status, bodyText, headers);
    },
    /** Answers an API error in the error style. */
    replyError(res, err) {
      const { status, body } = errorAnswer(err, ctx.style);
      ctx.reply(res, status, body, err.headers ?? {});
    },
    /** Writes an instant as the API does, in the style's zone. */
    writeDate: (ms) => dateWriter(ctx.style)(ms),
    /** Sends `event` to every active app of the seller with the webhooks permission and a URL. */
    emit(sellerId, event, payload, emitOptions) {
      const sent = [];
      for (const app of ctx.state.apps) {
        if (app.sellerId === sellerId && app.active && app.webhookUrl && app.permissions.includes('webhooks')) {
          const { deliveryId, eventId } = webhooks.send(app, event, payload, emitOptions);
          sent.push({ clientId: app.clientId, deliveryId, eventId });
        }
      }
      return sent;
    },
  };

  function reset({ seed = opts.seed, orders = opts.orders, ordersB = opts.ordersB, products = opts.products } = {}) {
    // Whole seconds, as the API writes datetimes.
    const untilMs = opts.seedUntilNow ? Math.floor(Date.now() / 1000) * 1000 : undefined;
    ctx.state = data.seed({ seed, ordersA: orders, ordersB, productsPerSeller: products, untilMs });
    applySecrets(ctx.state.apps, opts.secrets);
    ctx.faults = { ...NO_FAULTS, ...pickFaults(opts) };
    ctx.faultRandom = createRandom(seed ^ 0x5eed);
    ctx.rateLimiter.configure(rateLimitOptions, rateLimitOptions);
    ctx.skuUpdates = opts.skuUpdates;
    ctx.style = { ...initialStyle };
    ctx.seenSignatures = new Map();
    ctx.feed.reset(seed);
    webhooks.clearAttempts();
    resetStats();
  }

  function resetStats() {
    ctx.stats = { requests: 0, byEndpoint: {}, byCode: {}, duplicateSignatures: 0, inFlight: 0, maxInFlight: 0, recent: [] };
  }

  function record(entry) {
    const { stats } = ctx;
    stats.requests++;
    const key = `${entry.method} ${entry.endpoint} ${entry.status}`;
    stats.byEndpoint[key] = (stats.byEndpoint[key] ?? 0) + 1;
    if (entry.code) stats.byCode[entry.code] = (stats.byCode[entry.code] ?? 0) + 1;
    stats.recent.push(entry);
    if (stats.recent.length > 5000) stats.recent.splice(0, 1000);
  }

  function rateLimited(waitSec) {
    const { rate, burst, retryAfter } = ctx.rateLimiter.settings;
    const err = new ApiError(
      'rate_limited',
      `Too many requests: this client may send ${rate} per second (bursts of ${burst}).${retryAfter ? ' Retry after the time in Retry-After.' : ''}`,
    );
    if (retryAfter) err.headers = { 'retry-after': String(waitSec) };
    return err;
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  /** One API request: faults first, then routing, authentication, permission and the endpoint. */
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
      clientId: req.headers[ctx.headers.clientId] ?? null,
    };
    const { stats } = ctx;
    stats.maxInFlight = Math.max(stats.maxInFlight, ++stats.inFlight);
    try {
      const rawBody = await readBody(req, opts.maxBodyBytes);
      if (ctx.faults.latencyMs > 0) await sleep(ctx.faults.latencyMs);
      const fault = nextFault(ctx.faults, ctx.faultRandom);
      if (fault === 'drop') {
        entry.code = 'dropped';
        req.socket.destroy();
        return;
      }
      if (fault === 'phpFatal') {
        entry.status = 500;
        entry.code = 'php_fatal';
        // Known endpoints only in the page: the request's own path is not echoed.
        ctx.reply(res, 500, phpFatalPage(route ? pathname : '/index.php'), { 'content-type': 'text/html; charset=UTF-8' });
        return;
      }
      if (fault !== null) throw faultError(fault, ctx.faults);
      const waitSec = ctx.rateLimiter.take(entry.clientId ?? '', Date.now());
      if (waitSec !== null) throw rateLimited(waitSec);
      if (!route) throw new ApiError('endpoint_not_found', `No endpoint ${pathname}.`);
      if (req.method !== route.method) {
        const err = new ApiError('method_not_allowed', `${pathname} accepts ${route.method} only.`);
        err.headers = { allow: route.method };
        throw err;
      }
      // PATH is signed exactly as sent: the raw request target, never re-encoded or re-ordered.
      const app = authenticate(ctx, req, target, rawBody);
      entry.clientId = app.clientId;
      requirePermission(app, route.permission);
      const body = route.handle(ctx, app, { query, rawBody, req });
      entry.status = 200;
      ctx.reply(res, 200, body);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      entry.status = err.status;
      entry.code = err.code;
      ctx.replyError(res, err);
    } finally {
      stats.inFlight--;
      record(entry);
    }
  }

  const control = createControl(ctx, { reset, resetStats });

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    let work;
    if (url.startsWith('/_sandbox/')) work = control.handle(req, res, url.slice('/_sandbox'.length));
    // The address a person types leads to the page a person uses; the API has nothing at /.
    else if (url === '/' && req.method === 'GET') work = Promise.resolve(res.writeHead(302, { location: PAGE_PATH }).end());
    else if (url.startsWith(`${opts.basePath}/`)) work = handleApi(req, res, url.slice(opts.basePath.length));
    else {
      const err = new ApiError('endpoint_not_found', `The API lives under ${opts.basePath}/.`);
      work = Promise.resolve(ctx.replyError(res, err));
    }
    work.catch((err) => {
      log(`internal error: ${err.stack}`);
      if (!res.headersSent) ctx.reply(res, 500, JSON.stringify({ ok: false, error: { code: 'internal_error', message: 'Internal error.' } }));
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
      return ctx.state;
    },
    get faults() {
      return ctx.faults;
    },
    get style() {
      return ctx.style;
    },
    get stats() {
      return ctx.stats;
    },
    webhooks,
    // Every control route ({ method, pattern, page }), so a test can check each one asks for the token.
    controlRoutes: control.routes,
    baseUrl: null,
    origin: null,
    reset,
    async start(port = opts.port) {
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, opts.host, resolve);
      });
      const { port: actual } = server.address();
      sandbox.origin = `http://${net.isIPv6(opts.host) ? `[${opts.host}]` : opts.host}:${actual}`;
      if (!isLoopback(opts.host)) process.stderr.write(exposureWarning(sandbox.origin));
      sandbox.baseUrl = `${sandbox.origin}${opts.basePath}`;
      ctx.baseUrl = sandbox.baseUrl;
      return sandbox;
    },
    /** The first line the CLI prints: what a client needs to connect (sandbox/client.js takes it whole). */
    describe() {
      return {
        baseUrl: sandbox.baseUrl,
        controlUrl: `${sandbox.origin}/_sandbox`,
        controlToken: opts.controlToken,
        headerPrefix: opts.headerPrefix,
        apps: ctx.state.apps.map(({ name, clientId, clientSecret, webhookSecret, sellerId, permissions, active }) => ({
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

module.exports = { createSandbox };
