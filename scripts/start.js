#!/usr/bin/env node
'use strict';
// `npm start`: the demo. Provisions Node 24 and n8n once, makes this install's secrets once
// (scripts/demo.js), installs this package into n8n as a community package, starts the sandbox and
// n8n on loopback, imports a credential and the example workflows, registers the trigger's
// production URL with the sandbox, and says what to try.
// Ctrl-C stops everything. Arguments go to the sandbox, so the demo can play a real marketplace's
// answer style: `npm start -- --time-zone America/New_York --answer-style php` (sandbox/README.md).
const fs = require('node:fs');
const path = require('node:path');
const { STATE, N8N_VERSION, TESTED_VERSIONS, provision, startN8n, n8nCommand, log } = require('./lib');
const { loadOrCreateDemoSecrets, demoBanner } = require('./demo');
const { startSandboxProcess } = require('./sandbox-process');
const { prepareWorkspace, setUpOwner, OWNER, TRIGGER_WORKFLOW_ID, POLLING_WORKFLOW_ID, MCP_WORKFLOW_ID } = require('./workspace');

const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 8787);
// One n8n user folder (database) per n8n version: a 2.x database is not for 1.x.
const DEMO_FOLDER = path.join(STATE, N8N_VERSION === TESTED_VERSIONS['2.x'] ? 'demo' : `demo-${N8N_VERSION}`);

async function main() {
  provision();
  const userFolder = DEMO_FOLDER;
  const { file: secretsFile, secrets, created } = loadOrCreateDemoSecrets(userFolder);
  if (created && fs.existsSync(path.join(userFolder, '.n8n', 'database.sqlite'))) {
    // A demo from before secrets.json: its owner has the password every install shared. n8n's own
    // reset keeps workflows and credentials and lets the owner be set up again with the new one.
    log('this demo was set up with a shared owner password: resetting its owner to this install\'s…');
    await n8nCommand(userFolder, ['user-management:reset']);
    fs.rmSync(path.join(userFolder, 'mcp-token'), { force: true }); // its old token file: the token is in secrets.json now
  }
  log(`starting the sandbox on 127.0.0.1:${SANDBOX_PORT}…`);
  const sandbox = await startSandboxProcess(['--port', String(SANDBOX_PORT), '--quiet', '--seed-until-now', '--secrets-file', secretsFile, ...process.argv.slice(2)]);
  let n8n;
  const stop = async () => {
    log('stopping…');
    await Promise.allSettled([n8n?.stop(), sandbox.stop()]);
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  log('installing this package into n8n and importing the credential and example workflows…');
  const { app, webhookUrl, mcpUrl } = await prepareWorkspace({
    userFolder,
    sandbox,
    n8nPort: N8N_PORT,
    publish: [TRIGGER_WORKFLOW_ID, POLLING_WORKFLOW_ID, MCP_WORKFLOW_ID],
    mcpToken: secrets.mcpToken,
  });
  log(`starting n8n ${N8N_VERSION} on 127.0.0.1:${N8N_PORT}…`);
  n8n = await startN8n(userFolder, { port: N8N_PORT });
  const ownerCreated = await setUpOwner(n8n.url, secrets.ownerPassword);
  process.stdout.write(
    demoBanner({
      editorUrl: n8n.url,
      ownerEmail: OWNER.email,
      ownerCreated,
      secretsFile: path.relative(process.cwd(), secretsFile),
      sandbox,
      app,
      webhookUrl,
      mcpUrl,
    }),
  );
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
