'use strict';
// HTTP plumbing shared by the API and the control API: JSON answers and bounded request bodies.
const { ApiError } = require('./errors');

function send(res, status, bodyText, headers = {}) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(bodyText),
    ...headers,
  });
  res.end(bodyText);
}

/** The error shape of every API answer: { ok: false, error: { code, message, ...extra } }. */
function errorBody(err) {
  return JSON.stringify({ ok: false, error: { code: err.code, message: err.message, ...err.extra } });
}

const envelope = (value) => JSON.stringify({ ok: true, data: value });

function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      // Over the limit: keep draining so the client still gets its 413 answer.
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > limit) reject(new ApiError('payload_too_large', `The request body exceeds ${limit} bytes.`));
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

module.exports = { send, errorBody, envelope, readBody };
