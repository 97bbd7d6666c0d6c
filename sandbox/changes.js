'use strict';
// What polling clients need to be tested against: the order of the list (the spec does not say
// it), a log of every change of an order item (the witness that tests hold deliveries against),
// changes made on request, and changes armed to happen *while* a client pages through the list.
// Kept out of server.js, which only calls the hooks below.
const data = require('./data');
const { createRandom } = require('./random');
const { formatApiDate, nowWholeSecondsMs } = require('./time');
const { shaped } = require('./style');

/** Orders of GET /orders.php the sandbox can play; the first is the documented default. */
const LIST_ORDERS = ['order_item_id', 'updated_at_asc', 'updated_at_desc'];
const STATUSES = ['accepted', 'shipped', 'delivered', 'cancelled', 'returned'];
const CHANGE_KINDS = ['statusChanges', 'newOrders', 'sameSecond'];
const MAX_LOG = 200_000;

function createChangeFeed({ listOrder = LIST_ORDERS[0] } = {}) {
  if (!LIST_ORDERS.includes(listOrder)) throw new Error(`listOrder must be one of ${LIST_ORDERS.join(', ')}.`);
  let order = listOrder;
  let log; // [{ seq, order_item_id, seller_id, created_ms, updated_ms, entry }], entry in UTC and JSON types
  let seq;
  let armed; // sellerId -> remaining page actions
  let random;

  function reset(seed) {
    order = listOrder;
    log = [];
    seq = 0;
    armed = new Map();
    random = createRandom((seed ?? 1) ^ 0xc4a5);
  }

  /** Records the order item's current state as one change. */
  function record(state, item) {
    log.push({
      seq: ++seq,
      order_item_id: item.order_item_id,
      seller_id: item.seller_id,
      created_ms: item.created_ms,
      updated_ms: item.updated_ms,
      entry: JSON.parse(data.orderListJson(state, item)),
    });
    if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG);
  }

  /** The list in the chosen order; `list` is ascending order_item_id, as stored. */
  function sort(list) {
    if (order === 'order_item_id') return list;
    // Descending is the exact reverse, ties included (ORDER BY updated_at DESC, id DESC): a poller
    // must not rely on ties coming in id order.
    const sign = order === 'updated_at_asc' ? 1 : -1;
    return [...list].sort((a, b) => sign * (a.updated_ms - b.updated_ms || a.order_item_id - b.order_item_id));
  }

  function pickOrder(state, sellerId) {
    const orders = state.ordersBySeller.get(sellerId);
    // Half the time an item that changed lately: those are the ones inside a poller's window, where
    // a move between pages hurts. Otherwise any item, which enters the window when it changes.
    const recent = log.filter((c) => c.seller_id === sellerId).slice(-200);
    if (recent.length && random.next() < 0.5) return state.orders.get(random.pick(recent).order_item_id);
    return random.pick(orders);
  }

  function changeStatus(state, item, atMs) {
    const next = random.pick(STATUSES.filter((s) => s !== item.status));
    data.setOrderStatus(state, item, next, atMs);
    record(state, item);
  }

  /**
   * Applies `statusChanges` status changes, `newOrders` new order items and `sameSecond` status
   * changes stamped with the seller's newest updated_at (the watermark a naive poller keeps, so
   * `updated_after=<watermark>` never returns them) to the seller's orders, now.
   */
  function apply(state, sellerId, spec = {}) {
    const seller = data.SELLERS.find((s) => s.sellerId === sellerId);
    const made = [];
    for (let i = 0; i < (spec.newOrders ?? 0); i++) {
      const products = [...state.products.values()].filter((p) => p.seller_id === sellerId);
      const item = data.addOrderItem(state, { seller, product: random.pick(products), quantity: random.int(1, 4), createdMs: nowWholeSecondsMs() });
      record(state, item);
      made.push(item.order_item_id);
    }
    for (let i = 0; i < (spec.statusChanges ?? 0); i++) {
      const item = pickOrder(state, sellerId);
      changeStatus(state, item, nowWholeSecondsMs());
      made.push(item.order_item_id);
    }
    for (let i = 0; i < (spec.sameSecond ?? 0); i++) {
      const newest = state.ordersBySeller.get(sellerId).reduce((max, o) => Math.max(max, o.updated_ms), 0);
      const item = pickOrder(state, sellerId);
      changeStatus(state, item, newest);
      made.push(item.order_item_id);
    }
    return made;
  }

  /** Hook: a page of GET /orders.php was just built for `app`; play the next armed action, if any. */
  function afterListPage(state, app) {
    const queue = armed.get(app.sellerId);
    if (!queue?.length) return;
    const action = queue.shift();
    apply(state, app.sellerId, action);
    if (action.deactivateApp) app.active = false;
  }

  function validSpec(spec, fail) {
    if (spec === null || typeof spec !== 'object') fail(400, 'Each change must be an object.');
    for (const [key, value] of Object.entries(spec)) {
      if (key === 'deactivateApp') {
        if (typeof value !== 'boolean') fail(400, 'deactivateApp must be true or false.');
      } else if (!CHANGE_KINDS.includes(key)) {
        fail(400, `Unknown change "${key}"; use ${CHANGE_KINDS.join(', ')}, deactivateApp.`);
      } else if (!Number.isInteger(value) || value < 0 || value > 1000) {
        fail(400, `${key} must be a whole number from 0 to 1000.`);
      }
    }
    return spec;
  }

  /**
   * A logged change as GET /changes shows it: `updated_at` and the entry as orders.php would write
   * them in `style` (its zone, its types), so a client's output compares with it as it is.
   */
  function shown({ seq, order_item_id, seller_id, created_ms, updated_ms, entry }, style) {
    const updated_at = formatApiDate(updated_ms, style.timeZone);
    const written = { ...entry, created_at: formatApiDate(created_ms, style.timeZone), updated_at };
    return { seq, order_item_id, seller_id, updated_at, entry: shaped(written, style) };
  }

  /**
   * Control routes, in server.js's form: [method, pattern, handler(match, body, query)]. `fail(status,
   * message)` throws the server's control error; `sellerOf(body)` reads `clientId` or `sellerId`;
   * `getStyle()` is the answer style in force.
   */
  function routes({ getState, sellerOf, fail, getStyle }) {
    return [
      ['GET', /^\/list-order$/, () => ({ order })],
      ['POST', /^\/list-order$/, (m, body) => {
        if (!LIST_ORDERS.includes(body.order)) fail(400, `order must be one of ${LIST_ORDERS.join(', ')}.`);
        order = body.order;
        return { order };
      }],
      ['GET', /^\/changes$/, (m, body, query) => {
        const since = Number(query.get('since') ?? 0);
        const seller = query.get('sellerId');
        const style = getStyle();
        return log.filter((c) => c.seq > since && (seller === null || c.seller_id === Number(seller))).map((c) => shown(c, style));
      }],
      ['POST', /^\/changes$/, (m, body) => {
        const made = apply(getState(), sellerOf(body), validSpec(body.changes ?? {}, fail));
        return { orderItemIds: made, seq };
      }],
      ['GET', /^\/churn$/, () => Object.fromEntries(armed)],
      ['POST', /^\/churn$/, (m, body) => {
        if (!Array.isArray(body.pages)) fail(400, 'pages must be a list of changes, one per list page served.');
        const pages = body.pages.map((p) => validSpec(p ?? {}, fail));
        armed.set(sellerOf(body), pages);
        return { pages: pages.length };
      }],
    ];
  }

  reset();
  return {
    reset,
    record,
    sort,
    afterListPage,
    routes,
    get order() {
      return order;
    },
  };
}

module.exports = { createChangeFeed, LIST_ORDERS };
