'use strict';
// A client of the sandbox's control API (/_sandbox), for the demo, the tests and the benchmarks.

/**
 * Calls `route` of the sandbox `sandbox` describes (its `describe()`, the CLI's first line: it has
 * `controlUrl` and `controlToken`, so the token cannot be left out) with a JSON body; resolves with
 * `data`, throws with the sandbox's message.
 */
async function control(sandbox, method, route, body) {
  const { controlUrl, controlToken } = sandbox ?? {};
  if (typeof controlUrl !== 'string' || typeof controlToken !== 'string') {
    throw new TypeError("control() takes the sandbox's description ({ controlUrl, controlToken }), not a URL.");
  }
  const res = await fetch(`${controlUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${controlToken}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!json.ok) throw new Error(`sandbox ${method} ${route}: ${res.status} ${json.error?.message}`);
  return json.data;
}

module.exports = { control };
