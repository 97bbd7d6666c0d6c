'use strict';
// A client of the sandbox's control API (/_sandbox), for the demo, the tests and the benchmarks.

/** Calls `route` under `controlUrl` with a JSON body; resolves with `data`, throws with the sandbox's message. */
async function control(controlUrl, method, route, body) {
  const res = await fetch(`${controlUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!json.ok) throw new Error(`sandbox ${method} ${route}: ${res.status} ${json.error?.message}`);
  return json.data;
}

module.exports = { control };
