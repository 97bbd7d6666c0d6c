'use strict';
// n8n in queue mode on one machine, for `npm run test:queue`: Redis and PostgreSQL from Debian's
// packages (installed when missing), each on a free loopback port with its data under
// .state/queue/, then n8n main, workers and webhook processes, each with its own user folder and
// ports and this package installed in it, all sharing one encryption key, Redis and database.
// Everything started is stopped by stop(), and killed when this process exits.
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { STATE, ROOT, run, cleanEnv, freePort, startN8n, log } = require('./lib');

const QUEUE_STATE = path.join(STATE, 'queue');
const POSTGRES_LIBS = '/usr/lib/postgresql';

function redisServerBin() {
  for (const bin of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) if (fs.existsSync(bin)) return bin;
  return null;
}

/** The newest Debian PostgreSQL's bin directory (n8n wants 17 or newer; Debian 12 ships 15). */
function postgresBinDir() {
  if (!fs.existsSync(POSTGRES_LIBS)) return null;
  const versions = fs
    .readdirSync(POSTGRES_LIBS)
    .filter((v) => fs.existsSync(path.join(POSTGRES_LIBS, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(POSTGRES_LIBS, versions[0], 'bin') : null;
}

/** Installs redis-server and PostgreSQL from Debian's packages when missing (needs root). */
function ensureServers() {
  const missing = [!redisServerBin() && 'redis-server', !postgresBinDir() && 'postgresql'].filter(Boolean);
  if (!missing.length) return;
  if (process.getuid() !== 0) {
    throw new Error(`queue mode needs ${missing.join(' and ')}: install them (Debian: sudo apt-get install ${missing.join(' ')})`);
  }
  log(`installing ${missing.join(' and ')} from Debian's packages…`);
  const env = cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' });
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
}

/** PostgreSQL refuses to run as root: as root, it runs as Debian's `postgres` user. */
function postgresUser() {
  if (process.getuid() !== 0) return {};
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0) throw new Error('running as root, and there is no `postgres` user to run PostgreSQL as');
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

function waitFor(check, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  return (async () => {
    for (;;) {
      if (await check()) return;
      if (Date.now() > deadline) throw new Error(`${what} did not become ready`);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
}

function redisPing(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(String(d).startsWith('+PONG'));
    });
  });
}

/**
 * A set of processes under one run directory. Each child is killed when this process exits; the
 * pids are written down so that the next run kills what a killed test runner left behind.
 */
class ProcessSet {
  constructor(dir) {
    this.dir = dir;
    this.children = new Map(); // name -> ChildProcess
    this.killAll = () => {
      for (const child of this.children.values()) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    process.on('exit', this.killAll);
  }

  add(name, child) {
    this.children.set(name, child);
    fs.writeFileSync(path.join(this.dir, 'pids.json'), JSON.stringify({ owner: process.pid, pids: [...this.children.values()].map((c) => c.pid) }));
    return child;
  }

  dispose() {
    this.killAll();
    process.removeListener('exit', this.killAll);
  }
}

/** Kills processes of earlier runs whose test runner is gone, and removes their directories. */
function cleanUpEarlierRuns() {
  if (!fs.existsSync(QUEUE_STATE)) return;
  for (const name of fs.readdirSync(QUEUE_STATE)) {
    const dir = path.join(QUEUE_STATE, name);
    let record;
    try {
      record = JSON.parse(fs.readFileSync(path.join(dir, 'pids.json'), 'utf8'));
    } catch {
      continue; // not a run directory, or one still starting
    }
    if (isAlive(record.owner)) continue;
    for (const pid of record.pids) {
      // Only what still runs from this run's directory (its command line or, for n8n, its user
      // folder in the environment): a pid may have been reused since.
      if (readProc(pid, 'cmdline').includes(dir) || readProc(pid, 'environ').includes(dir)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readProc(pid, file) {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** Resident memory of a process and its descendants (n8n starts its task runner as a child), in KiB. */
function treeRssKb(pid) {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(entry, 'stat');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!parents.has(ppid)) parents.set(ppid, []);
    parents.get(ppid).push(Number(entry));
  }
  let total = 0;
  const queue = [pid];
  while (queue.length) {
    const current = queue.pop();
    total += Number(/VmRSS:\s+(\d+)/.exec(readProc(current, 'status'))?.[1] ?? 0);
    queue.push(...(parents.get(current) ?? []));
  }
  return total;
}

/** A file descriptor of `<name>.log` in the run directory, for a child's output. */
function logTo(set, name) {
  return fs.openSync(path.join(set.dir, `${name}.log`), 'a');
}

async function startRedis(set) {
  const port = await freePort();
  const dir = path.join(set.dir, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  const out = logTo(set, 'redis');
  const child = set.add(
    'redis',
    spawn(redisServerBin(), ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', out, out],
    }),
  );
  fs.closeSync(out);
  await waitFor(() => redisPing(port), 'Redis');
  return { port, child };
}

async function startPostgres(set) {
  const bin = postgresBinDir();
  const port = await freePort();
  const dir = path.join(set.dir, 'postgres');
  fs.mkdirSync(dir, { recursive: true });
  const user = postgresUser();
  if (user.uid !== undefined) fs.chownSync(dir, user.uid, user.gid);
  const asUser = { ...user, env: cleanEnv({ LC_ALL: 'C' }) };
  run(path.join(bin, 'initdb'), ['-D', dir, '-U', 'n8n', '--auth=trust', '-E', 'UTF8', '--no-sync'], { ...asUser, stdio: 'ignore' });
  // Test settings: nothing here must survive a power cut, so no fsync.
  const out = logTo(set, 'postgres');
  const child = set.add(
    'postgres',
    spawn(
      path.join(bin, 'postgres'),
      ['-D', dir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      { ...asUser, stdio: ['ignore', out, out] },
    ),
  );
  fs.closeSync(out);
  const ready = () => spawnSync(path.join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', 'n8n']).status === 0;
  await waitFor(ready, 'PostgreSQL');
  run(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', 'n8n'], { stdio: 'ignore' });
  return { port, child, version: path.basename(path.dirname(bin)) };
}

/** What every n8n process of the installation shares: queue, database, encryption key. */
function sharedEnv({ redisPort, postgresPort, encryptionKey, dir }) {
  return {
    EXECUTIONS_MODE: 'queue',
    QUEUE_BULL_REDIS_HOST: '127.0.0.1',
    QUEUE_BULL_REDIS_PORT: String(redisPort),
    DB_TYPE: 'postgresdb',
    DB_POSTGRESDB_HOST: '127.0.0.1',
    DB_POSTGRESDB_PORT: String(postgresPort),
    DB_POSTGRESDB_DATABASE: 'n8n',
    DB_POSTGRESDB_USER: 'n8n',
    N8N_ENCRYPTION_KEY: encryptionKey,
    // No OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: n8n 3.0 removes it (manual runs always on a worker);
    // 2.x runs manual runs on main without it. The suites assert a worker only for production runs
    // (webhooks, polls), which go to a worker on every version; a run that must be on a worker (the
    // worker-kill test) starts from a production webhook, not from "Execute workflow".
    N8N_RESTRICT_FILE_ACCESS_TO: [path.join(ROOT, 'examples'), dir].join(';'),
  };
}

/**
 * Starts Redis and PostgreSQL for a new installation (its files, the run directory, are readable
 * by n8n's file nodes); then `start(name)` starts n8n processes with the shared `env`.
 */
async function startQueueInstallation({ extraEnv = {} } = {}) {
  ensureServers();
  cleanUpEarlierRuns();
  fs.mkdirSync(QUEUE_STATE, { recursive: true });
  const dir = fs.mkdtempSync(path.join(QUEUE_STATE, 'run-'));
  fs.chmodSync(dir, 0o755);
  const set = new ProcessSet(dir);
  const n8nProcesses = new Map(); // name -> startN8n handle
  const timings = {};
  const t0 = Date.now();
  const [redis, postgres] = await Promise.all([startRedis(set), startPostgres(set)]);
  timings.servicesMs = Date.now() - t0;
  const env = {
    ...sharedEnv({ redisPort: redis.port, postgresPort: postgres.port, encryptionKey: crypto.randomBytes(24).toString('hex'), dir }),
    ...extraEnv,
  };

  const userFolder = (name) => {
    const folder = path.join(dir, name);
    // Only this user reads an n8n user folder (its settings file holds the encryption key).
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    return folder;
  };

  /** Starts (or restarts) one n8n process: `main`, `worker…` or `webhook…` by its name's start. */
  async function start(name, { command, port, extraEnv = {} } = {}) {
    const cmd = command ?? (name.startsWith('worker') ? 'worker' : name.startsWith('webhook') ? 'webhook' : 'start');
    const logFile = fs.createWriteStream(path.join(dir, `${name}.log`), { flags: 'a' });
    const started = Date.now();
    const handle = await startN8n(userFolder(name), {
      command: cmd,
      port: port ?? (await freePort()),
      readyPath: cmd === 'worker' ? '/healthz' : '/healthz/readiness',
      extraEnv: { ...env, ...extraEnv },
      onOutput: (text) => logFile.write(text),
    });
    timings[`${name}StartMs`] = Date.now() - started;
    set.add(name, handle.child);
    handle.child.once('exit', () => logFile.end());
    n8nProcesses.set(name, handle);
    return handle;
  }

  return {
    dir,
    env,
    redis,
    postgres,
    timings,
    userFolder,
    start,
    process: (name) => n8nProcesses.get(name),
    /** Resident memory of every running process started (with its children), in MiB. */
    memory() {
      const rss = {};
      for (const [name, child] of set.children) {
        if (child.exitCode === null && child.signalCode === null) rss[name] = Math.round(treeRssKb(child.pid) / 1024);
      }
      return rss;
    },
    async stop() {
      await Promise.allSettled([...n8nProcesses.values()].map((p) => p.stop()));
      // Redis on SIGTERM, PostgreSQL on SIGINT (its fast shutdown); whatever lingers is killed.
      const exited = [redis.child, postgres.child]
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map((c) => new Promise((resolve) => c.once('exit', resolve)));
      redis.child.kill('SIGTERM');
      postgres.child.kill('SIGINT');
      await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      set.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { startQueueInstallation, ensureServers, treeRssKb };
