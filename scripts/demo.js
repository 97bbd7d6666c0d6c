'use strict';
// What `npm start` keeps per install and what it shows: secrets made once with node:crypto and kept
// where only this user reads them (the demo's n8n user folder, 0700; the file, 0600), and the banner,
// which names that file but never prints a secret.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { generateSecrets, generateControlToken, invalidControlToken, invalidSecrets } = require('../sandbox/secrets');

const SECRETS_FILE = 'secrets.json';

/** A password n8n accepts (8 to 64 characters, a digit and an upper-case letter), 24 random characters. */
function ownerPassword() {
  for (;;) {
    const password = crypto.randomBytes(18).toString('base64url');
    if (/\d/.test(password) && /[A-Z]/.test(password)) return password;
  }
}

/** Why `secrets` (read from the file) cannot be used, or null. */
function invalidDemoSecrets(secrets) {
  for (const field of ['ownerPassword', 'mcpToken']) {
    if (typeof secrets?.[field] !== 'string' || secrets[field].length < 16) return `${field} must be a string of at least 16 characters.`;
  }
  return invalidSecrets(secrets.apps) ?? (secrets.controlToken === undefined ? null : invalidControlToken(secrets.controlToken));
}

/**
 * The demo's secrets in `<folder>/secrets.json`: the sandbox apps' client and webhook secrets (`apps`)
 * and its control API's token (`controlToken`), both what `sandbox/cli.js --secrets-file` reads, the
 * n8n owner's password and the MCP server's bearer token. Made on the first call, read on later ones,
 * so the imported credential, the owner's sign-in, an MCP client's token and the control token keep
 * working. The folder is made (or narrowed to) 0700, the file 0600. Returns { file, secrets, created }.
 */
function loadOrCreateDemoSecrets(folder) {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.chmodSync(folder, 0o700);
  const file = path.join(folder, SECRETS_FILE);
  if (fs.existsSync(file)) {
    fs.chmodSync(file, 0o600);
    let secrets;
    try {
      secrets = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`${file}: ${error.message}. Delete the file to have new secrets made.`);
    }
    const invalid = invalidDemoSecrets(secrets);
    if (invalid) throw new Error(`${file}: ${invalid} Delete the file to have new secrets made.`);
    if (secrets.controlToken === undefined) {
      // A file from before the control token: add one, keeping the rest (the credential and the owner's sign-in).
      secrets.controlToken = generateControlToken();
      fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    }
    return { file, secrets, created: false };
  }
  const secrets = {
    apps: generateSecrets(),
    controlToken: generateControlToken(),
    ownerPassword: ownerPassword(),
    mcpToken: crypto.randomBytes(24).toString('base64url'),
  };
  // `wx`: a second `npm start` racing this one fails here rather than replacing secrets in use.
  fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return { file, secrets, created: true };
}

/** What `npm start` prints once everything runs. Names where the secrets are; prints none of them. */
function demoBanner({ editorUrl, ownerEmail, ownerCreated, secretsFile, sandbox, app, webhookUrl, mcpUrl }) {
  const control = sandbox.controlUrl;
  // The sandbox's own address leads to its test event page (sandbox/testEventPage.js).
  const testEventPage = `${new URL(control).origin}/`;
  // Reads the token from the file when run: the banner shows where it is, never the token.
  const auth = `AUTH="Authorization: Bearer $(node -p 'require("./${secretsFile}").controlToken')"`;
  const signIn = ownerCreated
    ? `   (sign in as ${ownerEmail}; the password is "ownerPassword" in ${secretsFile})`
    : `   (sign in as ${ownerEmail}; the password is the one you set, else "ownerPassword" in ${secretsFile})`;
  return `
  n8n with the Marketplace Partner nodes is running against the local sandbox.

  Editor:   ${editorUrl}/${signIn}
  Sandbox:  ${sandbox.baseUrl}   (seller A app ${app.clientId})
  Trigger:  ${webhookUrl}  (registered with the sandbox)
  MCP:      ${mcpUrl}  (Streamable HTTP; header  Authorization: Bearer <"mcpToken" in ${secretsFile}>)

  Everything listens on loopback only. This install's secrets (owner password, MCP token, the sandbox
  apps' client and webhook secrets, the sandbox control API's token) were made for it and are in
  ${secretsFile}, readable by you only.

  The sandbox's control API (the curl lines below) needs its token: set it in your shell first with
       ${auth}

  The credential "Marketplace Partner (sandbox)" is ready. To create one by hand, all of seller A's
  secrets (Client Secret, Webhook Secret) are in:  curl -H "$AUTH" ${control}/state

  Four things to try:
  1. Open "Marketplace: spreadsheet to stock" and click "Execute workflow": every row of
     examples/data/stock.csv is pushed; the rows that fail come out of the error branch with a reason.
  2. Create an order from your browser and watch "Marketplace: new order to warehouse" run
     (Executions tab): on the sandbox's page, Event "Order created", What happens "A real change in
     the demo store", Trigger URL left empty (the event goes to the published workflow):
       ${testEventPage}
     Or with curl:
       curl -X POST ${control}/orders -H "$AUTH" -H 'content-type: application/json' -d '{"clientId":"${app.clientId}"}'
     To see a test event in the editor instead: open the trigger, copy its Test URL (Webhook URLs ›
     Test URL), then click "Execute step" and paste the URL into that page within 2 minutes.
  3. "Marketplace: incremental order sync" is published: its Orders Trigger polls the sandbox every
     minute and runs once per change (no webhook needed). Change an order's status on the same page
     (Event "Order updated", a real change) and look at its executions within a minute; or:
       curl -X POST ${control}/orders/500001/status -H "$AUTH" -H 'content-type: application/json' -d '{"status":"shipped"}'

  4. Connect an MCP client (Claude Desktop, MCP Inspector...) to the MCP URL above with its bearer
     token: it gets the tools list_orders, get_order and update_stock ("Marketplace MCP server").
     "Marketplace order assistant" is the same tools behind a chat agent: pick your own chat model
     credential in it, then open its chat; it asks you before every stock change. (docs/ai-agents.md)

  Ctrl-C stops n8n and the sandbox.
`;
}

module.exports = { loadOrCreateDemoSecrets, demoBanner, ownerPassword, SECRETS_FILE };
