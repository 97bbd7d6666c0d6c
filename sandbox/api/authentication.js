'use strict';
// Spec "Authentication": the signed headers, the clock, and the endpoint's permission.
// The signature itself is computed in ../auth.js, which shares no code with the node's signer.
const { ApiError } = require('../errors');
const { expectedRequestSignature, safeEqual } = require('../auth');

/** Names of the authentication headers under the configured prefix, as Node lower-cases them. */
function headerNames(headerPrefix) {
  const prefix = headerPrefix.toLowerCase();
  return { clientId: `${prefix}client-id`, timestamp: `${prefix}timestamp`, signature: `${prefix}signature` };
}

/**
 * The app a request is signed by. Order of checks: missing headers, timestamp format, client and
 * signature, clock, replay, active. `signedPath` is the raw request target after the base path.
 */
function authenticate(ctx, req, signedPath, rawBody) {
  const { opts, headers: H } = ctx;
  const clientId = req.headers[H.clientId];
  const timestamp = req.headers[H.timestamp];
  const signature = req.headers[H.signature];
  const missing = [
    [clientId, 'CLIENT-ID'],
    [timestamp, 'TIMESTAMP'],
    [signature, 'SIGNATURE'],
  ]
    .filter(([v]) => v === undefined || v === '')
    .map(([, name]) => opts.headerPrefix + name);
  if (missing.length) {
    throw new ApiError('missing_auth_headers', `Missing authentication headers: ${missing.join(', ')}.`);
  }
  const app = ctx.state.apps.find((a) => a.clientId === clientId);
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new ApiError('invalid_timestamp', `${opts.headerPrefix}TIMESTAMP must be Unix time in whole seconds.`);
  }
  // An unknown client gets the same answer as a bad signature: client ids are not to be probed.
  const expected = app
    ? expectedRequestSignature(app.clientSecret, req.method, signedPath, timestamp, rawBody)
    : '0'.repeat(64);
  if (!app || !safeEqual(signature, expected)) {
    throw new ApiError('invalid_signature', 'The signature could not be verified.');
  }
  const nowSec = Math.floor(ctx.serverNowMs() / 1000);
  if (Math.abs(nowSec - Number(timestamp)) > opts.clockToleranceSec) {
    throw new ApiError(
      'expired_timestamp',
      `The timestamp is more than ${opts.clockToleranceSec} seconds away from the server time.`,
      { server_time: nowSec },
    );
  }
  if (ctx.seenSignatures.has(signature)) {
    ctx.stats.duplicateSignatures++;
    if (ctx.faults.replay) throw new ApiError('replayed_signature', 'This signature has already been used.');
  }
  rememberSignature(ctx, signature, Number(timestamp), nowSec);
  if (!app.active) throw new ApiError('client_inactive', 'This partner application is deactivated.');
  return app;
}

function rememberSignature(ctx, signature, timestamp, nowSec) {
  ctx.seenSignatures.set(signature, timestamp);
  if (ctx.seenSignatures.size > ctx.opts.seenSignatureLimit) {
    // A signature can only be replayed while its timestamp is within the tolerance.
    for (const [sig, ts] of ctx.seenSignatures) {
      if (ts < nowSec - ctx.opts.clockToleranceSec) ctx.seenSignatures.delete(sig);
    }
  }
}

function requirePermission(app, permission) {
  if (permission && !app.permissions.includes(permission)) {
    throw new ApiError(
      'insufficient_permission',
      `This partner application lacks the permission "${permission}".`,
      { permission },
    );
  }
}

module.exports = { headerNames, authenticate, requirePermission };
