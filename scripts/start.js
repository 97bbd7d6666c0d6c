#!/usr/bin/env node
'use strict';
// `npm start`: the demo. Provisions Node 24 and n8n once, installs this package into n8n as a
// community package, starts the sandbox and n8n on loopback, imports a credential and the example
// workflows, registers the trigger's production URL with the sandbox, and says what to try.
// Ctrl-C stops everything. Arguments go to the sandbox, so the demo can play a real marketplace's
// answer style: `npm start -- --time-zone America/New_York --answer-style php` (sandbox/README.md).
const fs = require('node:fs');
const path = require('node:path');
const { STATE, N8N_VERSION, TESTED_VERSIONS, provision, startN8n, log } = require('./lib');
const { startSandboxProcess } = require('./sandbox-process');
const { prepareWorkspace, setUpOwner, OWNER, TRIGGER_WORKFLOW_ID, POLLING_WORKFLOW_ID, MCP_WORKFLOW_ID } = require('./workspace');

const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 8787);
// One n8n user folder (database) per n8n version: a 2.x database is not for 1.x.
const DEMO_FOLDER = path.join(STATE, N8N_VERSION === TESTED_VERSIONS['2.x'] ? 'demo' : `demo-${N8N_VERSION}`);

async function main() {
  provision();
  const userFolder = DEMO_FOLDER;
  log(`starting the sandbox on 127.0.0.1:${SANDBOX_PORT}…`);
  const sandbox = await startSandboxProcess(['--port', String(SANDBOX_PORT), '--quiet', ...process.argv.slice(2)]);
  let n8n;
  const stop = async () => {
    log('stopping…');
    await Promise.allSettled([n8n?.stop(), sandbox.stop()]);
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  log('installing this package into n8n and importing the credential and example workflows…');
  const { app, webhookUrl, mcpUrl, mcpToken } = await prepareWorkspace({
    userFolder,
    sandbox,
    n8nPort: N8N_PORT,
    publish: [TRIGGER_WORKFLOW_ID, POLLING_WORKFLOW_ID, MCP_WORKFLOW_ID],
  });
  // The MCP server's bearer token: in a file only the user reads, not on screen (nor in a log).
  const tokenFile = path.join(userFolder, 'mcp-token');
  fs.writeFileSync(tokenFile, `${mcpToken}\n`, { mode: 0o600 });
  log(`starting n8n ${N8N_VERSION} on 127.0.0.1:${N8N_PORT}…`);
  n8n = await startN8n(DEMO_FOLDER, { port: N8N_PORT });
  const ownerCreated = await setUpOwner(n8n.url);

  const control = `${sandbox.controlUrl}`;
  process.stdout.write(`
  n8n with the Marketplace Partner nodes is running against the local sandbox.

  Editor:   ${n8n.url}/${ownerCreated ? `   (sign in as ${OWNER.email} / ${OWNER.password})` : ''}
  Sandbox:  ${sandbox.baseUrl}   (seller A app ${app.clientId})
  Trigger:  ${webhookUrl}  (registered with the sandbox)
  MCP:      ${mcpUrl}  (Streamable HTTP; header  Authorization: Bearer <token in ${path.relative(process.cwd(), tokenFile)}>)

  The credential "Marketplace Partner (sandbox)" is ready. To create one by hand, all of seller A's
  secrets (Client Secret, Webhook Secret) are in:  curl ${control}/state

  Four things to try:
  1. Open "Marketplace: spreadsheet to stock" and click "Execute workflow": every row of
     examples/data/stock.csv is pushed; the rows that fail come out of the error branch with a reason.
  2. Create an order and watch "Marketplace: new order to warehouse" run (Executions tab):
       curl -X POST ${control}/orders -H 'content-type: application/json' -d '{"clientId":"${app.clientId}"}'
     Or open its trigger, click "Test this trigger", copy the Test URL and have the sandbox send a test event there:
       curl -X POST ${control}/apps/${app.clientId}/test-event -H 'content-type: application/json' -d '{"url":"<Test URL>"}'
  3. "Marketplace: incremental order sync" is published: its Orders Trigger polls the sandbox every
     minute and runs once per change (no webhook needed). Change an order and look at its
     executions within a minute:
       curl -X POST ${control}/orders/500001/status -H 'content-type: application/json' -d '{"status":"shipped"}'

  4. Connect an MCP client (Claude Desktop, MCP Inspector...) to the MCP URL above with its bearer
     token: it gets the tools list_orders, get_order and update_stock ("Marketplace MCP server").
     "Marketplace order assistant" is the same tools behind a chat agent: pick your own chat model
     credential in it, then open its chat; it asks you before every stock change. (docs/ai-agents.md)

  Ctrl-C stops n8n and the sandbox.
`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
