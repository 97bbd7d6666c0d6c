#!/usr/bin/env node
'use strict';
// `npm run sandbox -- [--port 8787] [--seed 1] [--orders 1000] ...`: starts the sandbox and prints,
// as its first line of stdout, one JSON object with the base URL, the control API's token and the apps'
// credentials (fresh secrets each run unless --secrets-file names where to keep them).
const { parseArgs } = require('node:util');
const { createSandbox } = require('./server');
const { generateSecrets, readSecretsFile } = require('./secrets');

const FLAGS = {
  port: ['number', 'Port to listen on (0 picks a free one)'],
  host: ['string', 'Address to listen on: loopback (127.0.0.0/8, ::1, localhost; default 127.0.0.1) unless --allow-remote'],
  'allow-remote': ['boolean', 'Allow a --host other machines can reach (prints what that exposes)'],
  'secrets-file': ['string', 'JSON file whose "apps" give each app its clientSecret and webhookSecret, and whose "controlToken" (if any) is the control API\'s token (default: fresh ones each run)'],
  seed: ['number', 'Seed of the generated data'],
  'seed-until-now': ['boolean', 'The seeded order items span the 90 days up to now (default: up to 1 June 2026, the same every day)'],
  orders: ['number', "Order items of seller A (the main apps' seller)"],
  'orders-b': ['number', 'Order items of seller B (default: a tenth of --orders, at least 10)'],
  products: ['number', 'Products per seller'],
  'header-prefix': ['string', 'Authentication header prefix'],
  'clock-tolerance': ['number', 'Allowed clock difference in seconds, both directions'],
  'base-path': ['string', 'Base path of the API'],
  latency: ['number', 'Added latency per API request, in ms'],
  'rate-429': ['number', 'Share (0..1) of API requests answered 429 with Retry-After'],
  'retry-after': ['number', 'Retry-After seconds sent with injected 429s'],
  'rate-5xx': ['number', 'Share (0..1) of API requests answered with --status-5xx'],
  'status-5xx': ['number', 'Status of injected server errors (default 503)'],
  'rate-drop': ['number', 'Share (0..1) of API requests whose connection is dropped'],
  'rate-php-fatal': ['number', 'Share (0..1) of API requests answered 500 with a PHP fatal-error page (text/html)'],
  'list-order': ['string', 'Order of GET /orders.php: order_item_id (default), updated_at_asc, updated_at_desc (ties by order_item_id, reversed too)'],
  'rate-limit': ['number', 'Requests per second each client may send (token bucket; 0 or absent: no limit)'],
  'rate-burst': ['number', 'Bucket size of --rate-limit: requests a client may send at once (default 10)'],
  'no-retry-after': ['boolean', 'Answer rate-limited requests 429 without a Retry-After header'],
  'no-sku': ['boolean', 'Play a marketplace without updates by sku: the field is ignored, so product_id is missing'],
  'time-zone': ['string', 'IANA zone the API writes its datetimes in and reads updated_after in (default UTC)'],
  'answer-style': ['string', 'json (default) or php: ids, quantities, prices and stock as strings, ok and booleans as 1/0'],
  'has-more-style': ['string', 'How has_more is written: boolean (default), number (1/0), string ("true"/"false"), absent'],
  'page-cap': ['number', 'orders.php serves at most this many items per page whatever limit asks (0: no cap)'],
  'error-style': ['string', 'Error answers: default, http200, flat, jsend, errors (see sandbox/README.md)'],
  'foreign-order-status': ['number', "Status of another seller's order item in order_detail.php: 404 (default) or 403"],
  replay: ['boolean', 'Reject a signature already seen (replayed_signature)'],
  'webhook-max-attempts': ['number', 'Attempts per webhook delivery'],
  'webhook-retry-base-ms': ['number', 'First retry delay of webhook deliveries; doubles each time'],
  'webhook-concurrency': ['number', 'Webhook attempts in flight at once (default: no limit, a burst is sent at once)'],
  quiet: ['boolean', 'Print nothing after the first line'],
  help: ['boolean', 'Show this help'],
};

const camel = (flag) => flag.replace(/-(\w)/g, (_, c) => c.toUpperCase());

function parse(argv) {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(Object.entries(FLAGS).map(([k, [type]]) => [k, { type: type === 'boolean' ? 'boolean' : 'string' }])),
    strict: true,
  });
  const out = {};
  for (const [flag, value] of Object.entries(values)) {
    const [type] = FLAGS[flag];
    if (type === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new Error(`--${flag} needs a number, got "${value}"`);
      out[camel(flag)] = n;
    } else out[camel(flag)] = value;
  }
  return out;
}

async function main() {
  let args;
  try {
    args = parse(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error.message}\nRun with --help for the flags.\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(
      `Usage: npm run sandbox -- [flags]\n\n${Object.entries(FLAGS).map(([k, [t, d]]) => `  --${k}${t === 'boolean' ? '' : ` <${t}>`}\n      ${d}`).join('\n')}\n`,
    );
    return;
  }
  const { ordersB, latency, rate429, retryAfter, rate5xx, status5xx, rateDrop, clockTolerance, noRetryAfter, noSku, quiet, secretsFile, ...rest } = args;
  let sandbox;
  try {
    // Without a file (or a controlToken in it), createSandbox makes a fresh control token.
    const { apps, controlToken } = secretsFile === undefined ? { apps: generateSecrets() } : readSecretsFile(secretsFile);
    sandbox = createSandbox({
      ...rest,
      secrets: apps,
      controlToken,
      ordersB,
      clockToleranceSec: clockTolerance,
      latencyMs: latency,
      rate429,
      retryAfterSec: retryAfter,
      rate5xx,
      status5xx,
      rateDrop,
      rateLimitRetryAfter: noRetryAfter ? false : undefined,
      skuUpdates: noSku ? false : undefined,
      log: quiet ? undefined : (line) => process.stderr.write(`[sandbox] ${line}\n`),
    });
  } catch (error) {
    // A wrong value of a flag (a style switch, the list order, the host, the secrets file): the message says which and why.
    process.stderr.write(`${error.message}\nRun with --help for the flags.\n`);
    process.exit(2);
  }
  await sandbox.start(args.port ?? 8787);
  // Before the first line: whoever reads it may stop the sandbox at once.
  const stop = async (signal) => {
    if (!quiet) process.stderr.write(`[sandbox] ${signal}: stopping\n`);
    await sandbox.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`${JSON.stringify(sandbox.describe())}\n`);
  if (!quiet) {
    process.stderr.write(`[sandbox] listening on ${sandbox.baseUrl} (control API: ${sandbox.origin}/_sandbox/, with the first line's controlToken; send a test event: ${sandbox.origin}/)\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
