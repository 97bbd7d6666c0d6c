'use strict';
// Loaded into each n8n process of `npm run bench:webhooks` (NODE_OPTIONS=--require): writes the
// process's own view of its memory (V8 heap, external, array buffers) to BENCH_MEMORY_DIR/<pid>.json
// twice a second, so the bench can set it beside the resident size it reads from /proc.
const fs = require('node:fs');
const path = require('node:path');
const { isMainThread } = require('node:worker_threads');

const dir = process.env.BENCH_MEMORY_DIR;
// Worker threads load it too (NODE_OPTIONS reaches them) and share the pid: only the main thread writes.
if (dir && isMainThread) {
  const file = path.join(dir, `${process.pid}.json`);
  setInterval(() => {
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    fs.writeFileSync(file, JSON.stringify({ rss, heapTotal, heapUsed, external, arrayBuffers }));
  }, 500).unref();
}
