'use strict';
// Starts the sandbox CLI as a child process and reads its first stdout line (the connection JSON).
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const { ROOT } = require('./lib');

function startSandboxProcess(args = []) {
  const child = spawn(process.execPath, [path.join(ROOT, 'sandbox', 'cli.js'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
    readline.createInterface({ input: child.stdout }).once('line', (line) => {
      const info = JSON.parse(line);
      resolve({
        ...info,
        child,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

module.exports = { startSandboxProcess };
