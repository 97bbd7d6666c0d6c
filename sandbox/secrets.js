'use strict';
// The apps' secrets. Seeded secrets are the same on every machine, so they are for in-process tests
// only: the CLI makes fresh ones per run (or reads a file), since anyone who knows an app's webhook
// secret can sign deliveries for a trigger that trusts it. The control token guards the control API,
// which hands those secrets out.
const crypto = require('node:crypto');
const fs = require('node:fs');
const { APP_NAMES } = require('./data');

/** A client secret and a webhook secret for every app, from node:crypto. */
function generateSecrets() {
  return Object.fromEntries(
    APP_NAMES.map((name) => [
      name,
      { clientSecret: `cs_${crypto.randomBytes(24).toString('hex')}`, webhookSecret: `whs_${crypto.randomBytes(24).toString('hex')}` },
    ]),
  );
}

/** A control token: 256 random bits from node:crypto, hex (it travels in an Authorization header). */
function generateControlToken() {
  return `ct_${crypto.randomBytes(32).toString('hex')}`;
}

/** Why `token` cannot be a control token, or null: long enough not to be guessed, and fit for a header. */
function invalidControlToken(token) {
  if (typeof token !== 'string' || !/^[\x21-\x7e]{32,}$/.test(token)) {
    return 'controlToken must be a string of at least 32 characters, without spaces or non-ASCII characters.';
  }
  return null;
}

/** Why `secrets` (app name -> { clientSecret, webhookSecret }) cannot be used, or null. */
function invalidSecrets(secrets) {
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) {
    return `secrets must be an object naming each app (${APP_NAMES.join(', ')}) with its clientSecret and webhookSecret.`;
  }
  const unknown = Object.keys(secrets).filter((name) => !APP_NAMES.includes(name));
  if (unknown.length) return `secrets name apps the sandbox does not have: ${unknown.join(', ')} (it has ${APP_NAMES.join(', ')}).`;
  for (const name of APP_NAMES) {
    const app = Object.hasOwn(secrets, name) ? secrets[name] : undefined;
    for (const field of ['clientSecret', 'webhookSecret']) {
      const value = app?.[field];
      if (typeof value !== 'string' || value.length < 16 || /\s/.test(value)) {
        return `secrets.${name}.${field} must be a string of at least 16 characters without spaces.`;
      }
    }
  }
  return null;
}

/** Throws with what to fix unless `secrets` names every app's two secrets. */
function checkedSecrets(secrets) {
  const invalid = invalidSecrets(secrets);
  if (invalid) throw new Error(invalid);
  return secrets;
}

/** Gives each of `apps` (a seed's) its secrets from `secrets`; without `secrets`, the seeded ones stay. */
function applySecrets(apps, secrets) {
  if (!secrets) return;
  for (const app of apps) {
    app.clientSecret = secrets[app.name].clientSecret;
    app.webhookSecret = secrets[app.name].webhookSecret;
  }
}

/**
 * A secrets file (`npm start`'s, or one written by hand): { "apps": { <name>: {...} }, "controlToken"? }.
 * Returns { apps, controlToken } (controlToken undefined when the file has none).
 */
function readSecretsFile(file) {
  let parsed;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`--secrets-file ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  }
  const invalid = invalidSecrets(parsed?.apps);
  if (invalid) throw new Error(`--secrets-file ${file}: "apps": ${invalid}`);
  const { controlToken } = parsed;
  const invalidToken = controlToken === undefined ? null : invalidControlToken(controlToken);
  if (invalidToken) throw new Error(`--secrets-file ${file}: ${invalidToken}`);
  return { apps: parsed.apps, controlToken };
}

module.exports = { generateSecrets, generateControlToken, invalidControlToken, invalidSecrets, checkedSecrets, applySecrets, readSecretsFile };
