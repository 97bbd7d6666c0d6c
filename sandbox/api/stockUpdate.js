'use strict';
// Spec "POST /stock_update.php": sets the stock of one product or variant of the seller.
const { ApiError } = require('../errors');
const { successBody, dateWriter } = require('../style');

const MAX_STOCK = 1_000_000_000;

const isSet = (value) => value !== undefined && value !== null;

/**
 * How a stock update names its product: by `product_id`, or by `sku`, the alternative the spec
 * mentions without showing its field (the name `sku` is this sandbox's choice). Validates the
 * field; the lookup comes after every other field is validated, as for `product_id` alone. With
 * `skuUpdates` off the sandbox plays a marketplace that does not know `sku`: it ignores the field,
 * as it ignores any unknown one.
 */
function productRef(state, body, skuUpdates) {
  const { product_id } = body;
  const sku = skuUpdates ? body.sku : undefined;
  if (isSet(product_id) && isSet(sku)) {
    throw new ApiError('invalid_field', 'Send product_id or sku, not both.', { field: 'sku' });
  }
  if (isSet(sku)) {
    if (typeof sku !== 'string' || sku === '' || sku.length > 64) {
      throw new ApiError('invalid_field', 'sku must be a non-empty string of at most 64 characters.', { field: 'sku' });
    }
    return { product: state.productsBySku.get(sku), named: `Product with SKU "${sku}"` };
  }
  if (!isSet(product_id)) {
    throw new ApiError('missing_field', `product_id${skuUpdates ? ' (or sku)' : ''} is required.`, { field: 'product_id' });
  }
  if (!Number.isInteger(product_id) || product_id <= 0) {
    throw new ApiError('invalid_field', 'product_id must be a positive integer.', { field: 'product_id' });
  }
  return { product: state.products.get(product_id), named: `Product ${product_id}` };
}

function handle(ctx, app, { rawBody, req }) {
  const { state } = ctx;
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
  const { product, named } = productRef(state, body, ctx.skuUpdates);
  if (!isSet(stock)) throw new ApiError('missing_field', 'stock is required.', { field: 'stock' });
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
    updated_at: dateWriter(ctx.style)(Date.now()),
  };
  ctx.emit(app.sellerId, 'stock.updated', result);
  return successBody(result, ctx.style);
}

module.exports = { method: 'POST', permission: 'stock:write', handle };
