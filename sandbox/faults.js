'use strict';
// Fault injection (sandbox/README.md, "Fault injection"): what reliability tests of clients rely on.
// Faults apply to API endpoints only, before authentication, so a faulted request changes nothing.
const { ApiError } = require('./errors');

const NO_FAULTS = {
  latencyMs: 0,
  rate429: 0,
  retryAfterSec: 1,
  rate5xx: 0,
  status5xx: 503,
  rateDrop: 0,
  // That share answered the way a crashed PHP endpoint answers: 500 and an HTML fatal-error page.
  ratePhpFatal: 0,
  // Counters: the next N API requests get that fault, in this order: drop, 429, 5xx, PHP fatal error. Tests use them
  // because they are exact where rates are random.
  next429: 0,
  next5xx: 0,
  nextDrop: 0,
  nextPhpFatal: 0,
  replay: false,
  // orders.php as a careless server pages (the spec shows neither): full pages of 100 whatever
  // `limit` asks, and `has_more: true` on every page, the empty one past the end included.
  listIgnoresLimit: false,
  listHasMoreAlways: false,
  // orders.php as a backend that drops a filter it does not apply (the spec does not show the
  // format updated_after takes): the full list, whatever `status` or `updated_after` asks.
  listIgnoresStatus: false,
  listIgnoresUpdatedAfter: false,
  // The sandbox's clock runs this many seconds ahead (negative: behind) of the machine's, in its
  // timestamp check and its Date header: stands in for a client whose clock is off.
  clockSkewSec: 0,
};

/** The faults among `options` (CLI flags or createSandbox options). */
function pickFaults(options) {
  return Object.fromEntries(Object.keys(NO_FAULTS).filter((k) => options[k] !== undefined).map((k) => [k, options[k]]));
}

/** Checks a POST /_sandbox/faults body: known names, the default's type. Returns an error message or null. */
function invalidFaults(body) {
  for (const [key, value] of Object.entries(body)) {
    if (!(key in NO_FAULTS)) return `Unknown fault "${key}".`;
    if (typeof value !== typeof NO_FAULTS[key]) return `Fault "${key}" must be a ${typeof NO_FAULTS[key]}.`;
  }
  return null;
}

/** Decides the injected fault for this request, if any: 'drop' | 'phpFatal' | 429 | 5xx status | null. */
function nextFault(faults, random) {
  if (faults.nextDrop > 0) return faults.nextDrop--, 'drop';
  if (faults.next429 > 0) return faults.next429--, 429;
  if (faults.next5xx > 0) return faults.next5xx--, faults.status5xx;
  if (faults.nextPhpFatal > 0) return faults.nextPhpFatal--, 'phpFatal';
  if (faults.rateDrop && random.next() < faults.rateDrop) return 'drop';
  if (faults.rate429 && random.next() < faults.rate429) return 429;
  if (faults.rate5xx && random.next() < faults.rate5xx) return faults.status5xx;
  if (faults.ratePhpFatal && random.next() < faults.ratePhpFatal) return 'phpFatal';
  return null;
}

/**
 * What PHP prints for an uncaught exception with display_errors on (PHP 8: the password argument
 * hidden, others cut at 15 characters), naming the endpoint's script: the body of a 'phpFatal'.
 */
function phpFatalPage(endpoint) {
  const file = `/var/www/html/api/partner/v1${endpoint}`;
  return (
    `<br />\n<b>Fatal error</b>:  Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused in ${file}:14\n` +
    `Stack trace:\n#0 ${file}(14): PDO-&gt;__construct('mysql:host=db;d...', 'partner', Object(SensitiveParameterValue))\n` +
    `#1 {main}\n  thrown in <b>${file}</b> on line <b>14</b><br />\n`
  );
}

/** The error an injected 429 or 5xx answers with. */
function faultError(fault, faults) {
  if (fault === 429) {
    const err = new ApiError('rate_limited', 'Too many requests; retry after the time in Retry-After.');
    err.headers = { 'retry-after': String(faults.retryAfterSec) };
    return err;
  }
  const err = new ApiError('service_unavailable', 'The service is temporarily unavailable.');
  err.status = fault;
  return err;
}

module.exports = { NO_FAULTS, pickFaults, invalidFaults, nextFault, faultError, phpFatalPage };
