'use strict';
// Loaded into each n8n process of `npm run bench:webhooks` (NODE_OPTIONS=--require): writes the
// process's own view of its memory (V8 heap, external, array buffers) to BENCH_MEMORY_DIR/<pid>.json
// twice a second, so the bench can set it beside the resident size it reads from /proc. With it,
// what V8 kept after its latest full (mark-compact) collection, and how many it has run: a heap far
// above that is garbage V8 has not collected yet, not data the process holds.
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const { isMainThread } = require('node:worker_threads');

const dir = process.env.BENCH_MEMORY_DIR;
// Worker threads load it too (NODE_OPTIONS reaches them) and share the pid: only the main thread writes.
if (dir && isMainThread) {
  const file = path.join(dir, `${process.pid}.json`);
  let liveAfterFullGc;
  let fullGcs = 0;
  let profiler = new v8.GCProfiler();
  profiler.start();
  setInterval(() => {
    for (const gc of profiler.stop().statistics) {
      if (gc.gcType !== 'MarkSweepCompact') continue;
      liveAfterFullGc = gc.afterGC.heapStatistics.usedHeapSize;
      fullGcs++;
    }
    profiler = new v8.GCProfiler();
    profiler.start();
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    fs.writeFileSync(file, JSON.stringify({ rss, heapTotal, heapUsed, external, arrayBuffers, liveAfterFullGc, fullGcs }));
  }, 500).unref();
}
