'use strict';
// HTTP plumbing shared by the API and the control API: JSON answers and bounded request bodies.
// The bodies of API answers (envelope, errors) are written by style.js, in the answer style.
const { ApiError } = require('./errors');

function send(res, status, bodyText, headers = {}) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(bodyText),
    ...headers,
  });
  res.end(bodyText);
}

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

module.exports = { send, readBody };
