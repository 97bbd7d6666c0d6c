'use strict';
// The test event page (GET /_sandbox/test-event, and GET / leads there): a browser form that has the
// sandbox, playing the operator, send a signed test event to a trigger's URL, and says in plain
// words what n8n answered. Sending itself is control.js's, as for every other test event.
const crypto = require('node:crypto');
const { STATUSES } = require('./data');

const PAGE_PATH = '/_sandbox/test-event';
// The header the page's script sends its token in (sandbox/control.js: it opens the send route only).
const PAGE_TOKEN_HEADER = 'x-sandbox-page-token';

/** What n8n's answer to a delivery means for the person who pressed "Send test event". */
function meaningOf({ statusCode, error }) {
  if (statusCode === null) {
    if (error === 'ECONNREFUSED') {
      return 'Nothing answers at this address: is n8n running, and are the host and port those of its URL? (npm start runs n8n on 127.0.0.1:5678.)';
    }
    if (/TIMEOUT/i.test(error)) return 'n8n did not answer within 10 seconds: is the workflow stuck? Try again.';
    return `The delivery did not reach n8n (${error}): check the URL.`;
  }
  if (statusCode >= 200 && statusCode < 300) {
    return "n8n received it: look at the trigger's output in the editor. (Sent to a Production URL, it started a run: see the workflow's executions.)";
  }
  if (statusCode === 404) {
    return "n8n is not listening at this URL: in the trigger, click 'Execute step' (or 'Test this trigger') first, then send within 2 minutes. A Production URL listens only once its workflow is published (n8n 1.x: active).";
  }
  if (statusCode === 401) {
    return "n8n refused the signature: the credential's Webhook Secret is not this app's. Pick the app the credential belongs to, or paste this app's Webhook Secret into the credential.";
  }
  if (statusCode >= 500) return "n8n failed while taking the delivery: its answer is below; n8n's log says more.";
  return `n8n refused the delivery (HTTP ${statusCode}): its answer is below.`;
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * What the form offers, from the sandbox's data: the apps (names and ids only, never a secret), each
 * seller's newest order items and first products (bounded: a sandbox may hold 100,000 orders).
 */
function choicesOf(state, { shown = 50 } = {}) {
  const orders = [];
  for (const [sellerId, list] of state.ordersBySeller) {
    for (const order of list.slice(-shown).reverse()) {
      const { title } = state.products.get(order.product_id);
      orders.push({ sellerId, orderItemId: order.order_item_id, label: `${order.order_item_id} · ${order.order_no} · ${order.status} · ${title}` });
    }
  }
  const products = [];
  const perSeller = new Map();
  for (const product of state.products.values()) {
    const count = perSeller.get(product.seller_id) ?? 0;
    if (count >= shown) continue;
    perSeller.set(product.seller_id, count + 1);
    const variant = product.variant_ids.length ? ` · variant ${product.variant_ids[0]}` : '';
    products.push({ sellerId: product.seller_id, productId: product.product_id, label: `${product.product_id} · ${product.sku} · ${product.title}${variant}` });
  }
  const apps = state.apps.map(({ clientId, name, sellerId }) => ({ clientId, label: `${name} (seller ${sellerId})`, sellerId }));
  return { apps, orders, products };
}

const EVENT_LABELS = {
  'order.created': 'Order created',
  'order.updated': 'Order updated',
  'stock.updated': 'Stock updated',
  'return.requested': 'Return requested',
};

/**
 * The page's HTML and the headers it must go with (its script runs by the CSP's nonce only).
 * `pageToken` opens the send route only: the page holds no secret that reads or changes anything else.
 */
function renderPage({ state, events, defaultClientId, allowRemote, pageToken }) {
  const nonce = crypto.randomBytes(16).toString('base64');
  // In a <script> block, "<" written as \u003c: no data can end the block.
  const choices = JSON.stringify(choicesOf(state)).replace(/</g, '\\u003c');
  const appOptions = state.apps
    .map((a) => `<option value="${escapeHtml(a.clientId)}"${a.clientId === defaultClientId ? ' selected' : ''}>${escapeHtml(`${a.name} (seller ${a.sellerId})`)}</option>`)
    .join('');
  const eventOptions = events.map((e) => `<option value="${e}">${EVENT_LABELS[e]} (${e})</option>`).join('');
  const statusOptions = STATUSES.map((status) => `<option value="${status}">${status}</option>`).join('');
  const where = allowRemote
    ? 'This sandbox was started with --allow-remote: it sends to any address.'
    : 'This page sends only to addresses on this machine (127.0.0.1, localhost, [::1]).';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Send a test event · Partner API sandbox</title>
<style nonce="${nonce}">
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
  label { display: block; font-weight: 600; margin-top: 1rem; }
  .help { font-weight: normal; color: #555; font-size: 0.9rem; }
  input, select { width: 100%; box-sizing: border-box; padding: 0.4rem; font: inherit; }
  button { margin-top: 1.2rem; padding: 0.5rem 1.2rem; font: inherit; font-weight: 600; }
  #result { margin-top: 1.5rem; padding: 0.8rem 1rem; border-radius: 6px; }
  #result:empty { display: none; }
  #result.ok { background: #e6f4ea; border: 1px solid #8bc79a; }
  #result.fail { background: #fdecea; border: 1px solid #e39a92; }
  #result.busy { background: #f2f2f2; border: 1px solid #ccc; }
  pre { white-space: pre-wrap; word-break: break-word; background: #fff; padding: 0.5rem; border: 1px solid #ddd; }
</style>
</head>
<body>
<h1>Send a test event</h1>
<p>On a real marketplace, the operator sends a test event to your trigger. Here the sandbox plays the
operator: it sends one to the URL you paste, signed with the app's Webhook Secret like every delivery it sends.
It also plays the shop: under <b>What happens</b>, pick a real change (a new order, a status, a stock, a
return) and the demo store makes it, then sends its event (to the Trigger URL; left empty, to the webhook
URL registered for the app, if any), so later runs of your workflow find the change too.</p>
<ol>
  <li>In n8n, open the Marketplace Partner Trigger, open <b>Webhook URLs</b> › <b>Test URL</b>, copy it and paste it below (do this first: while n8n listens, its overlay covers the URLs).</li>
  <li>In n8n, click <b>Execute step</b> (or <b>Test this trigger</b>): n8n shows “Listening for test event”.</li>
  <li>Press <b>Send test event</b> here within 2 minutes.</li>
</ol>
<form id="form">
  <label for="url">Trigger URL <span class="help">(the Test URL, or the Production URL of a published workflow; may stay empty for a real change)</span></label>
  <input id="url" type="url" autocomplete="off" spellcheck="false" placeholder="http://127.0.0.1:5678/webhook-test/…/webhook">
  <label for="app">App <span class="help">(the one whose Webhook Secret is in the n8n credential)</span></label>
  <select id="app">${appOptions}</select>
  <label for="event">Event</label>
  <select id="event">${eventOptions}</select>
  <label for="mode">What happens</label>
  <select id="mode"><option value="test">A test event only: the demo store does not change</option><option value="change">A real change in the demo store, then its event</option></select>
  <div id="order-field"><label for="order">Order item <span class="help">(newest first)</span></label><select id="order"></select></div>
  <div id="product-field" hidden><label for="product">Product</label><select id="product"></select></div>
  <div id="status-field" hidden><label for="status">New status</label><select id="status">${statusOptions}</select></div>
  <div id="stock-field" hidden><label for="stock">New stock</label><input id="stock" type="number" min="0" max="1000000" step="1" value="0"></div>
  <button id="send" type="submit">Send test event</button>
</form>
<div id="result" role="status" aria-live="polite"></div>
<p class="help">${where} Every delivery is listed by <code>GET /_sandbox/deliveries</code> (with the sandbox's control token).</p>
<script id="choices" type="application/json">${choices}</script>
<script nonce="${nonce}">
'use strict';
let choices = JSON.parse(document.getElementById('choices').textContent);
const pageToken = ${JSON.stringify(pageToken)};
const $ = (id) => document.getElementById(id);
const fill = (select, list, key) => select.replaceChildren(...list.map((c) => new Option(c.label, c[key])));
const isStock = () => $('event').value === 'stock.updated';
const isChange = () => $('mode').value === 'change';
function update() {
  const app = choices.apps.find((a) => a.clientId === $('app').value);
  fill($('order'), choices.orders.filter((o) => o.sellerId === app.sellerId), 'orderItemId');
  fill($('product'), choices.products.filter((p) => p.sellerId === app.sellerId), 'productId');
  // A new order is of a product; a status or a return of an order item; a stock of a product.
  const created = $('event').value === 'order.created';
  $('order-field').hidden = isStock() || (isChange() && created);
  $('product-field').hidden = !(isStock() || (isChange() && created));
  $('status-field').hidden = !(isChange() && $('event').value === 'order.updated');
  $('stock-field').hidden = !(isChange() && isStock());
  $('send').textContent = isChange() ? 'Make the change and send its event' : 'Send test event';
}
function show(kind, heading, lines, answer) {
  const result = $('result');
  result.className = kind;
  const h = document.createElement('h2');
  h.textContent = heading;
  const parts = [h, ...lines.map((line) => Object.assign(document.createElement('p'), { textContent: line }))];
  if (answer) {
    parts.push(Object.assign(document.createElement('p'), { textContent: "n8n's answer:" }));
    parts.push(Object.assign(document.createElement('pre'), { textContent: answer }));
  }
  result.replaceChildren(...parts);
}
$('app').addEventListener('change', update);
$('event').addEventListener('change', update);
$('mode').addEventListener('change', update);
update();
$('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const pick = $('product-field').hidden ? { orderItemId: Number($('order').value) } : { productId: Number($('product').value) };
  const change = isChange() ? { status: $('status').value, stock: Number($('stock').value) } : {};
  const body = { url: $('url').value.trim(), clientId: $('app').value, event: $('event').value, ...pick, ...change };
  const route = isChange() ? '/_sandbox/demo-change' : '/_sandbox/test-event';
  $('send').disabled = true;
  show('busy', 'Sending…', []);
  try {
    const headers = { 'content-type': 'application/json', '${PAGE_TOKEN_HEADER}': pageToken };
    const res = await fetch(route, { method: 'POST', headers, body: JSON.stringify(body) });
    const { ok, data, error } = await res.json();
    // After a change: the lists as the store has them now (a new order first).
    if (ok && data.choices) {
      choices = data.choices;
      update();
    }
    if (!ok) show('fail', 'Not sent', [error.message]);
    else if (data.statusCode === undefined) show('ok', 'Changed', [data.meaning]);
    else if (data.statusCode === null) show('fail', 'No answer (' + data.error + ')', [data.meaning]);
    else {
      const received = data.statusCode >= 200 && data.statusCode < 300;
      show(received ? 'ok' : 'fail', 'n8n answered HTTP ' + data.statusCode, [data.meaning], data.responseBody);
    }
  } catch {
    show('fail', 'Not sent', ['The sandbox did not answer: is it still running?']);
  } finally {
    $('send').disabled = false;
  }
});
</script>
</body>
</html>
`;
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    // Its own script and style only, requests to the sandbox only, and never inside another site's frame.
    'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
  return { html, headers };
}

module.exports = { PAGE_PATH, PAGE_TOKEN_HEADER, choicesOf, meaningOf, renderPage };
