'use strict';
// Seeded, deterministic sandbox data. The same --seed and --orders always give the same sellers,
// apps, secrets, products and orders, so tests and demos can be repeated exactly.
const { createRandom } = require('./random');
const { formatApiDate } = require('./time');

const ALL_PERMISSIONS = ['orders:read', 'orders:detail', 'stock:write', 'webhooks'];
// Seeded orders are spread over the 90 days before this fixed moment, so their datetimes do not
// depend on when the sandbox starts. Orders made through the control API use the real clock.
const SEED_ANCHOR_MS = Date.UTC(2026, 5, 1, 0, 0, 0);

const SELLERS = [
  { sellerId: 1001, key: 'a', name: 'Seller A', currency: 'EUR' },
  { sellerId: 1002, key: 'b', name: 'Seller B', currency: 'TRY' },
];

// Names and places deliberately include non-ASCII text: integrations must carry it byte for byte.
const FIRST_NAMES = ['Ayşe', 'Mehmet', 'Zoë', 'Jürgen', 'Ana', 'Łukasz', 'Chloé', 'Emre', 'Sofia', 'Ömer'];
const LAST_NAMES = ['Yılmaz', 'Müller', 'García', 'Kowalski', 'Dupont', 'Şahin', 'Rossi', 'Öztürk'];
const PLACES = [
  ['İstanbul', 'Kadıköy'], ['Ankara', 'Çankaya'], ['İzmir', 'Karşıyaka'], ['Köln', 'Ehrenfeld'],
  ['München', 'Schwabing'], ['São Paulo', 'Pinheiros'], ['Lyon', 'Croix-Rousse'], ['Kraków', 'Kazimierz'],
];
const STREETS = ['Bağdat Cd.', 'Hauptstraße', 'Rue de la République', 'Avenida Paulista', 'ul. Floriańska'];
const NOUNS = ['T-Shirt', 'Mug', 'Backpack', 'Notebook', 'Lamp', 'Sneaker', 'Scarf', 'Kettle', 'Chair', 'Towel'];
const ADJECTIVES = ['Organic', 'Classic', 'Compact', 'Deluxe', 'Everyday', 'Nordic', 'Vintage', 'Travel'];
const SIZES = ['S', 'M', 'L', 'XL'];
const COLOURS = ['Black', 'White', 'Navy', 'Olive'];
const CARRIERS = ['acme_express', 'swift_cargo', 'parcel_plus'];
// Only `accepted` / `paid` / `label_ready` appear in the spec; the others are sandbox inventions so
// that the status filter has something to filter (see sandbox/README.md).
const STATUS_MIX = [
  ['accepted', 70], ['shipped', 15], ['delivered', 10], ['cancelled', 5],
];

function ean13(random) {
  const digits = [];
  for (let i = 0; i < 12; i++) digits.push(random.int(0, 9));
  const sum = digits.reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 1 : 3), 0);
  return digits.join('') + String((10 - (sum % 10)) % 10);
}

function pickStatus(random) {
  let roll = random.int(1, 100);
  for (const [status, weight] of STATUS_MIX) {
    if ((roll -= weight) <= 0) return status;
  }
  return 'accepted';
}

/** Shipment and payment that go with an order status. */
function fulfilmentFor(status, random, previousShipment) {
  const shipment = previousShipment
    ? { ...previousShipment }
    : {
        carrier_code: random.pick(CARRIERS),
        shipment_ref: `SHP-${random.hex(4).toUpperCase()}`,
        tracking_number: null,
        status: 'label_ready',
      };
  if (status === 'shipped' || status === 'delivered') {
    shipment.tracking_number = shipment.tracking_number ?? `TRK${random.int(100000000, 999999999)}`;
    shipment.status = status === 'shipped' ? 'in_transit' : 'delivered';
  } else if (status === 'cancelled') {
    shipment.status = 'cancelled';
  } else if (status === 'returned') {
    shipment.status = 'returned';
  }
  const payment_status = status === 'cancelled' ? 'refunded' : 'paid';
  return { shipment, payment_status };
}

// The apps every seed has, in the order their ids and secrets are drawn (the data after them depends on it).
const APPS = [
  { name: 'seller-a-full', seller: SELLERS[0], permissions: ALL_PERMISSIONS },
  { name: 'seller-a-readonly', seller: SELLERS[0], permissions: ['orders:read'] },
  { name: 'seller-b-full', seller: SELLERS[1], permissions: ALL_PERMISSIONS },
  { name: 'seller-a-inactive', seller: SELLERS[0], permissions: ALL_PERMISSIONS, active: false },
];
const APP_NAMES = APPS.map((a) => a.name);

/** The apps with seeded ids and secrets: the same on every machine (sandbox/secrets.js replaces the secrets). */
function makeApps(random) {
  return APPS.map(({ name, seller, permissions, active = true }) => ({
    name,
    clientId: `cli_${seller.key}_${random.hex(8)}`,
    clientSecret: `cs_${random.hex(24)}`,
    webhookSecret: `whs_${random.hex(24)}`,
    sellerId: seller.sellerId,
    permissions: [...permissions],
    active,
    webhookUrl: null,
    webhookSignatureEncoding: 'hex',
  }));
}

const skuOf = (seller, productId) => `SKU-${seller.key.toUpperCase()}-${productId}`;

function makeProducts(random, productsPerSeller) {
  const products = new Map();
  const variants = new Map();
  let productId = 70001;
  let variantId = 900001;
  // Sellers' products interleave, so neighbouring ids belong to different sellers.
  for (let i = 0; i < productsPerSeller; i++) {
    for (const seller of SELLERS) {
      const id = productId++;
      const hasVariants = random.next() < 0.3;
      const product = {
        product_id: id,
        seller_id: seller.sellerId,
        title: `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)} ${id}`,
        sku: skuOf(seller, id),
        barcode: ean13(random),
        unit_price: random.int(199, 49999) / 100,
        stock: hasVariants ? null : random.int(0, 250),
        variant_ids: [],
      };
      if (hasVariants) {
        for (const size of SIZES.slice(0, random.int(2, 4))) {
          const colour = random.pick(COLOURS);
          const variant = {
            variant_combination_id: variantId++,
            product_id: id,
            variant_summary: `Size: ${size}, Colour: ${colour}`,
            barcode: ean13(random),
            stock: random.int(0, 120),
          };
          variants.set(variant.variant_combination_id, variant);
          product.variant_ids.push(variant.variant_combination_id);
        }
      }
      products.set(id, product);
    }
  }
  return { products, variants };
}

/**
 * Builds the whole data set. `ordersA` order items belong to seller A (the main app's seller),
 * `ordersB` to seller B; their ids interleave so another seller's id is always close at hand.
 */
/**
 * The generated marketplace. Its order items span the 90 days before `untilMs`: by default a fixed
 * moment (1 June 2026), so tests and benchmarks see the same data on every day; the demo passes
 * "now", so that "orders since yesterday" has data on the first morning.
 */
function seed({ seed = 1, ordersA = 1000, ordersB, productsPerSeller = 200, untilMs = SEED_ANCHOR_MS } = {}) {
  const random = createRandom(seed);
  const apps = makeApps(random);
  const { products, variants } = makeProducts(random, productsPerSeller);
  const productsBySeller = new Map(SELLERS.map((s) => [s.sellerId, []]));
  for (const p of products.values()) productsBySeller.get(p.seller_id).push(p);
  // The SKU is the seller's own key for a product (`SKU-<seller key>-<product_id>`): unique across
  // sellers and predictable, so sample sheets and tests can name products by SKU.
  const productsBySku = new Map([...products.values()].map((p) => [p.sku, p]));

  const countB = ordersB ?? Math.max(10, Math.floor(ordersA / 10));
  const state = {
    seed,
    sellers: SELLERS,
    apps,
    products,
    productsBySku,
    variants,
    orders: new Map(),
    ordersBySeller: new Map(SELLERS.map((s) => [s.sellerId, []])),
    nextOrderItemId: 500001,
    nextOrderNo: 1,
    nextReturnId: 1,
    random,
  };
  const total = ordersA + countB;
  const spanMs = 90 * 24 * 3600 * 1000;
  let leftA = ordersA;
  let leftB = countB;
  for (let i = 0; i < total; i++) {
    // Keep the two sellers' shares spread evenly over the id range.
    const takeA = leftB === 0 || (leftA > 0 && random.next() * (leftA + leftB) < leftA);
    const seller = takeA ? SELLERS[0] : SELLERS[1];
    if (takeA) leftA--; else leftB--;
    // Whole seconds: the API's datetime form has no fractions, so the data must not hide any.
    const createdMs = untilMs - spanMs + Math.floor((spanMs / 1000) * (i / total)) * 1000 + random.int(0, 59) * 1000;
    const status = pickStatus(random);
    const updatedMs = createdMs + (status === 'accepted' ? random.int(0, 3600) : random.int(3600, 5 * 86400)) * 1000;
    addOrderItem(state, {
      seller,
      product: random.pick(productsBySeller.get(seller.sellerId)),
      quantity: random.int(1, 4),
      status,
      createdMs,
      updatedMs: Math.min(updatedMs, untilMs),
    });
  }
  return state;
}

function randomCustomer(random) {
  const [city, district] = random.pick(PLACES);
  return {
    full_name: `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`,
    city,
    district,
    address: `${random.pick(STREETS)} ${random.int(1, 250)}, ${district}, ${city}`,
  };
}

/** Adds one order item (its own order number) and returns it. */
function addOrderItem(state, { seller, product, variantId, quantity, status = 'accepted', createdMs, updatedMs }) {
  const { random } = state;
  const variant = product.variant_ids.length
    ? state.variants.get(variantId ?? random.pick(product.variant_ids))
    : null;
  const { shipment, payment_status } = fulfilmentFor(status, random);
  const order = {
    order_item_id: state.nextOrderItemId++,
    order_no: `ORD-${seller.key.toUpperCase()}-${String(state.nextOrderNo++).padStart(7, '0')}`,
    seller_id: seller.sellerId,
    status,
    payment_status,
    currency: seller.currency,
    unit_price: product.unit_price,
    quantity,
    created_ms: createdMs,
    updated_ms: updatedMs ?? createdMs,
    product_id: product.product_id,
    variant_combination_id: variant ? variant.variant_combination_id : null,
    customer: randomCustomer(random),
    shipment,
    listJson: null,
  };
  state.orders.set(order.order_item_id, order);
  state.ordersBySeller.get(seller.sellerId).push(order);
  return order;
}

function setOrderStatus(state, order, status, nowMs) {
  const { shipment, payment_status } = fulfilmentFor(status, state.random, order.shipment);
  order.status = status;
  order.payment_status = payment_status;
  order.shipment = shipment;
  order.updated_ms = Math.max(nowMs, order.updated_ms);
  order.listJson = null;
}

/** The list entry of the spec ("Order item"); `formatDate` writes its datetimes (default: UTC). */
function orderListEntry(state, order, formatDate = formatApiDate) {
  const product = state.products.get(order.product_id);
  return {
    order_item_id: order.order_item_id,
    order_no: order.order_no,
    status: order.status,
    payment_status: order.payment_status,
    currency: order.currency,
    unit_price: order.unit_price,
    quantity: order.quantity,
    created_at: formatDate(order.created_ms),
    updated_at: formatDate(order.updated_ms),
    product: { product_id: product.product_id, title: product.title, sku: product.sku },
    customer: { city: order.customer.city, district: order.customer.district },
  };
}

/** Serialised once and reused until the order changes: list pages are the hot path. */
function orderListJson(state, order) {
  if (order.listJson === null) order.listJson = JSON.stringify(orderListEntry(state, order));
  return order.listJson;
}

/** The detail of the spec ("Order detail"); `formatDate` writes its datetimes (default: UTC). */
function orderDetail(state, order, formatDate = formatApiDate) {
  const product = state.products.get(order.product_id);
  const variant = order.variant_combination_id ? state.variants.get(order.variant_combination_id) : null;
  return {
    order: {
      order_item_id: order.order_item_id,
      order_no: order.order_no,
      status: order.status,
      payment_status: order.payment_status,
      currency: order.currency,
      quantity: order.quantity,
      unit_price: order.unit_price,
      created_at: formatDate(order.created_ms),
      updated_at: formatDate(order.updated_ms),
    },
    product: {
      product_id: product.product_id,
      title: product.title,
      sku: product.sku,
      barcode: variant ? variant.barcode : product.barcode,
      ...(variant
        ? { variant_combination_id: variant.variant_combination_id, variant_summary: variant.variant_summary }
        : {}),
    },
    customer: { ...order.customer },
    shipment: { ...order.shipment },
  };
}

module.exports = {
  ALL_PERMISSIONS,
  /** Every status the seeded orders have. */
  STATUSES: STATUS_MIX.map(([status]) => status),
  APP_NAMES,
  SELLERS,
  SKU_FORMAT: 'SKU-<seller key A|B>-<product_id>',
  seed,
  addOrderItem,
  setOrderStatus,
  orderListEntry,
  orderListJson,
  orderDetail,
};
