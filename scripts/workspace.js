'use strict';
// Sets up an n8n user folder the way a user would: our package installed as a community package,
// a credential pointing at the sandbox, the example workflows imported, the trigger workflow
// published and its production URL registered with the sandbox (the operator's job, in real life).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { control } = require('../sandbox/client');
const { ROOT, N8N_MAJOR, importWorkflows, installPackageInto, n8nCommand, publishWorkflow } = require('./lib');

const CREDENTIAL_ID = 'mpSandboxCred01';
const CREDENTIAL_NAME = 'Marketplace Partner (sandbox)';
const TRIGGER_WORKFLOW_ID = 'mpExNewOrder1';
// Published too: its Orders Trigger polls the sandbox every minute (activation takes its first poll).
const POLLING_WORKFLOW_ID = 'mpExOrderSync';
// The MCP server example: published by the demo, its URL and bearer token in the banner.
const MCP_WORKFLOW_ID = 'mpExMcpServer';
const MCP_CREDENTIAL = { id: 'mpMcpBearer01', name: 'Marketplace MCP server (bearer token)' };
const EXAMPLES_DIR = path.join(ROOT, 'examples');
/** n8n's default folder for files (N8N_RESTRICT_FILE_ACCESS_TO, ~/.n8n-files) in its Docker image, where the examples read. */
const DOCKER_FILES_DIR = '/home/node/.n8n-files';
const EXAMPLE_SANDBOX_URL = 'http://127.0.0.1:8787/api/partner/v1';

/**
 * The demo's owner account: a fresh n8n asks for one first, so the editor opens straight away. Its
 * password is the caller's (the demo's is made per install, scripts/demo.js): a fixed one would let
 * anyone who reaches the editor sign in.
 */
const OWNER = { email: 'demo@example.com', firstName: 'Demo', lastName: 'User' };

/** Sets up the owner; false if n8n already has one. */
async function setUpOwner(url, password) {
  // n8n answers its readiness check before it mounts its REST routes (1.123.81 does, for a moment):
  // a 404 then means "not yet", not "no such route".
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${url}/rest/owner/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...OWNER, password }),
    });
    if (res.status !== 404 || Date.now() > deadline) return res.ok;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The workflow JSON of an example, pointed at this sandbox and this checkout's sample data. */
function exampleFor(file, baseUrl) {
  const text = fs
    .readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')
    // The examples read sheets from n8n's files folder as Docker's n8n has it; the demo's is examples/data.
    .replaceAll(`${DOCKER_FILES_DIR}/`, `${path.join(EXAMPLES_DIR, 'data')}/`)
    .replaceAll(EXAMPLE_SANDBOX_URL, baseUrl);
  const workflow = JSON.parse(text);
  // n8n 1.x has the MCP Server Trigger up to version 2 (2.1, which hands its tools the client's
  // session, is n8n 2.x's): there the example runs as version 2 (docs/ai-agents.md).
  if (N8N_MAJOR < 2) for (const node of workflow.nodes) if (node.type === '@n8n/n8n-nodes-langchain.mcpTrigger' && node.typeVersion > 2) node.typeVersion = 2;
  // Likewise Read/Write Files 1.1 (an error naming a file that is not there; 1.x has version 1).
  if (N8N_MAJOR < 2) for (const node of workflow.nodes) if (node.type === 'n8n-nodes-base.readWriteFile' && node.typeVersion > 1) node.typeVersion = 1;
  return workflow;
}

function exampleFiles() {
  return fs.readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json')).sort();
}

/** The production webhook URL of the trigger in the example workflow. */
function triggerUrl(n8nPort, baseUrl) {
  const workflow = exampleFor('new-order-to-warehouse.json', baseUrl);
  const trigger = workflow.nodes.find((n) => n.type.endsWith('.marketplacePartnerTrigger'));
  return `http://127.0.0.1:${n8nPort}/webhook/${trigger.webhookId}/webhook`;
}

/** The MCP server example's production URL (MCP Server Trigger v2 and later: Streamable HTTP at /mcp/<path>). */
function mcpUrl(n8nPort, baseUrl) {
  const trigger = exampleFor('marketplace-mcp-server.json', baseUrl).nodes.find((n) => n.type.endsWith('.mcpTrigger'));
  return `http://127.0.0.1:${n8nPort}/mcp/${trigger.parameters.path}`;
}

/**
 * Imports a credential for `app` of the sandbox into n8n, and the MCP server's bearer token (the
 * demo's is kept per install; by default a new one); returns the folder used for imports.
 */
async function importCredential(userFolder, sandbox, app, extraEnv = {}, mcpToken = crypto.randomBytes(24).toString('base64url')) {
  const importDir = path.join(userFolder, 'import');
  fs.mkdirSync(importDir, { recursive: true });
  const credentialFile = path.join(importDir, 'credentials.json');
  // Written for the import only, inside the user folder; n8n encrypts it on import.
  fs.writeFileSync(
    credentialFile,
    JSON.stringify([
      {
        id: CREDENTIAL_ID,
        name: CREDENTIAL_NAME,
        type: 'marketplacePartnerApi',
        data: {
          baseUrl: sandbox.baseUrl,
          clientId: app.clientId,
          clientSecret: app.clientSecret,
          webhookSecret: app.webhookSecret,
          headerPrefix: sandbox.headerPrefix,
        },
      },
      { ...MCP_CREDENTIAL, type: 'httpBearerAuth', data: { token: mcpToken } },
    ]),
    { mode: 0o600 },
  );
  await n8nCommand(userFolder, ['import:credentials', `--input=${credentialFile}`], extraEnv);
  fs.rmSync(credentialFile);
  return importDir;
}

/**
 * Prepares `userFolder` for `n8n start` / `n8n execute` against the sandbox described by `sandbox`
 * (the sandbox CLI's first line). Returns what tests and the demo need to know. `extraEnv` reaches
 * every n8n command (queue mode: the shared database); `tarball` is the package, packed once;
 * `publish` names the example workflows to publish (by default the webhook and the polling one);
 * `install: false` leaves the package out, for a test that installs it through n8n itself;
 * `mcpToken` is the MCP server's bearer token (by default a new one).
 */
async function prepareWorkspace({
  userFolder,
  sandbox,
  n8nPort,
  appName = 'seller-a-full',
  extraEnv = {},
  tarball,
  publish = [TRIGGER_WORKFLOW_ID, POLLING_WORKFLOW_ID],
  install = true,
  mcpToken = crypto.randomBytes(24).toString('base64url'),
}) {
  const app = sandbox.apps.find((a) => a.name === appName);
  if (install) installPackageInto(userFolder, tarball);

  const importDir = await importCredential(userFolder, sandbox, app, extraEnv, mcpToken);

  const workflowsDir = path.join(importDir, 'workflows');
  fs.mkdirSync(workflowsDir, { recursive: true });
  for (const file of exampleFiles()) {
    fs.writeFileSync(path.join(workflowsDir, file), JSON.stringify(exampleFor(file, sandbox.baseUrl)));
  }
  await importWorkflows(userFolder, workflowsDir, extraEnv);
  for (const id of publish) await publishWorkflow(userFolder, id, extraEnv);

  const webhookUrl = triggerUrl(n8nPort, sandbox.baseUrl);
  await control(sandbox, 'POST', `/apps/${app.clientId}/webhook`, { url: webhookUrl });
  return { app, webhookUrl, credentialId: CREDENTIAL_ID, triggerWorkflowId: TRIGGER_WORKFLOW_ID, mcpUrl: mcpUrl(n8nPort, sandbox.baseUrl), mcpToken };
}

module.exports = {
  prepareWorkspace,
  setUpOwner,
  OWNER,
  importCredential,
  exampleFor,
  exampleFiles,
  triggerUrl,
  CREDENTIAL_ID,
  TRIGGER_WORKFLOW_ID,
  POLLING_WORKFLOW_ID,
  MCP_WORKFLOW_ID,
};
