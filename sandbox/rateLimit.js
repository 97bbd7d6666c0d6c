'use strict';
// Rate limits (the spec: "Rate limits ...: not shown"): a token bucket per client, off by default.
// Each client's bucket holds up to `burst` tokens and refills at `rate` tokens per second; a request
// takes one token or, when less than one is left, is answered 429 rate_limited without taking any.
// Keyed by the CLIENT-ID header and checked before authentication, as a gateway in front of the API
// would, so a limited request changes nothing.

const OFF = { rate: 0, burst: 10, retryAfter: true };

/** Checks control-API or CLI settings; returns an error message or null. */
function invalidSettings(settings) {
  for (const [key, value] of Object.entries(settings)) {
    if (!(key in OFF)) return `Unknown rate limit setting "${key}" (rate, burst, retryAfter).`;
    if (typeof value !== typeof OFF[key]) return `Rate limit setting "${key}" must be a ${typeof OFF[key]}.`;
  }
  if (settings.rate !== undefined && !(settings.rate >= 0 && Number.isFinite(settings.rate))) return 'rate must be 0 (off) or more requests per second.';
  if (settings.burst !== undefined && !(Number.isInteger(settings.burst) && settings.burst >= 1)) return 'burst must be a whole number of at least 1.';
  return null;
}

function createRateLimiter(initial = {}) {
  let settings;
  let buckets; // client key -> { tokens, at }

  /** Replaces the settings (missing ones from `base`) and empties every bucket's history. */
  function configure(changes = {}, base = settings ?? OFF) {
    const invalid = invalidSettings(changes);
    if (invalid) throw new Error(invalid);
    settings = { ...base, ...changes };
    buckets = new Map();
    return settings;
  }

  /**
   * Takes a token for `key` at `nowMs`. Null when the request may go; otherwise the seconds a
   * client must wait for a token (whole seconds, rounded up, at least 1: what Retry-After can say).
   */
  function take(key, nowMs) {
    const { rate, burst } = settings;
    if (rate === 0) return null;
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = { tokens: burst, at: nowMs }));
    bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.at) * rate) / 1000);
    bucket.at = nowMs;
    // Refills add up in floating point: a token due now may be 0.9999999999 of one.
    if (bucket.tokens >= 1 - 1e-9) {
      bucket.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
  }

  configure(initial, OFF);
  return {
    configure,
    take,
    get settings() {
      return settings;
    },
  };
}

module.exports = { createRateLimiter, invalidSettings, RATE_LIMIT_OFF: OFF };
