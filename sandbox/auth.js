'use strict';
// The sandbox's request verifier, written from the spec ("Authentication > Signature").
// It deliberately shares no code with the node's signer: a mistake made on one side must not
// be able to pass on the other.
const crypto = require('node:crypto');

/** Base string: METHOD \n PATH \n TIMESTAMP \n RAW_BODY, hashed as bytes (RAW_BODY is a Buffer). */
function expectedRequestSignature(clientSecret, method, pathWithQuery, timestamp, rawBody) {
  const hmac = crypto.createHmac('sha256', clientSecret);
  hmac.update(Buffer.from(`${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n`, 'utf8'));
  hmac.update(rawBody);
  return hmac.digest('hex');
}

/** Constant-time comparison of two ASCII strings; different lengths are unequal without leaking where. */
function safeEqual(a, b) {
  const bufA = Buffer.from(String(a), 'utf8');
  const bufB = Buffer.from(String(b), 'utf8');
  if (bufA.length !== bufB.length) {
    // Compare against itself so the time spent does not depend on the guess's content.
    crypto.timingSafeEqual(bufA, bufA);
    return false;
  }
  return crypto.timingSafeEqual(bufA, bufB);
}

/** Webhook signature: HMAC-SHA256 over `TIMESTAMP.RAW_BODY` with the Webhook Secret. */
function webhookSignature(webhookSecret, timestamp, rawBody, encoding = 'hex') {
  const hmac = crypto.createHmac('sha256', webhookSecret);
  hmac.update(Buffer.from(`${timestamp}.`, 'utf8'));
  hmac.update(rawBody);
  return hmac.digest(encoding === 'base64' ? 'base64' : 'hex');
}

module.exports = { expectedRequestSignature, safeEqual, webhookSignature };
