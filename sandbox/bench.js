#!/usr/bin/env node
'use strict';
// How many signed `orders.php?limit=100` pages per second the sandbox serves to one client process
// over keep-alive, so we know it is never the bottleneck of a benchmark.
// Usage: npm run sandbox:bench -- [--seconds 5] [--connections 8] [--orders 100000]
const crypto = require('node:crypto');
const { parseArgs } = require('node:util');
const { Agent, request } = require('undici');
const { createSandbox } = require('./server');

async function main() {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '8' }, orders: { type: 'string', default: '100000' } },
  });
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const sandbox = createSandbox({ orders: Number(values.orders) });
  await sandbox.start(0);
  const app = sandbox.describe().apps.find((a) => a.name === 'seller-a-full');
  const agent = new Agent({ connections, keepAliveTimeout: 30_000 });
  const total = sandbox.state.ordersBySeller.get(app.sellerId).length;
  let done = 0;
  let failed = 0;
  let bytes = 0;
  const until = performance.now() + seconds * 1000;
  async function worker(w) {
    let page = w;
    while (performance.now() < until) {
      const path = `/orders.php?limit=100&offset=${(page++ * 100) % total}`;
      const ts = Math.floor(Date.now() / 1000);
      const sig = crypto.createHmac('sha256', app.clientSecret).update(`GET\n${path}\n${ts}\n`).digest('hex');
      const res = await request(`${sandbox.baseUrl}${path}`, {
        dispatcher: agent,
        headers: { 'X-SVC-CLIENT-ID': app.clientId, 'X-SVC-TIMESTAMP': String(ts), 'X-SVC-SIGNATURE': sig },
      });
      const body = await res.body.arrayBuffer();
      bytes += body.byteLength;
      if (res.statusCode === 200) done++;
      else failed++;
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, (_, i) => worker(i)));
  const elapsed = (performance.now() - started) / 1000;
  const result = {
    requestsPerSecond: Math.round(done / elapsed),
    ordersPerSecond: Math.round((done * 100) / elapsed),
    mbPerSecond: Number((bytes / elapsed / 1e6).toFixed(1)),
    failed,
    connections,
    seconds: Number(elapsed.toFixed(1)),
    seededOrders: total,
  };
  console.log(JSON.stringify(result));
  await agent.close();
  await sandbox.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
