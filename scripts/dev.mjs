#!/usr/bin/env node
// `npm run dev`: the embedded instance and the Vite dev server together, stopped together on
// Ctrl+C. With INSTANCE_URL set, only Vite starts and proxies to that instance.
import { spawn } from 'node:child_process';
import { warmUp } from './dev-ready.mjs';

const started = Date.now();

const children = [];
/** Vite's "Local: <url>" line is held back until a first visit will be quick (dev-ready.mjs). */
let announced = false;
function onLine(name, line) {
  const local = name === 'vite' && !announced && line.match(/Local:\s+(http\S+)/);
  if (!local) return line;
  announced = true;
  const url = local[1];
  warmUp(url)
    .then((n) => {
      const s = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`\n  Playground ready in ${s} s (${n} modules prepared): ${url}\n`);
    })
    .catch((err) => {
      console.log(`\n  Playground: ${url} (not prepared: ${err?.message ?? err})\n`);
    });
  return line.replace(url, '(preparing the first visit; the URL follows when it is ready)');
}

const run = (name, cmd, args, env = {}) => {
  const child = spawn(cmd, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const prefix = (line) => `[${name}] ${line}`;
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream.on('data', (d) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop();
      for (const l of lines)
        (stream === child.stderr ? process.stderr : process.stdout).write(
          prefix(onLine(name, l)) + '\n',
        );
    });
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(prefix(`exited (${signal ?? code}); stopping`));
      stop(code ?? 1);
    }
  });
  children.push(child);
  return child;
};

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  const t = setTimeout(() => process.exit(code), 5000);
  t.unref();
  Promise.all(
    children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.on('exit', r)))),
  ).then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

if (process.env.INSTANCE_URL) {
  console.log(`Using the instance at ${process.env.INSTANCE_URL} (embedded instance not started)`);
} else {
  run('instance', process.execPath, ['server/launch.mjs', 'server/main.ts']);
}
run('vite', process.execPath, ['node_modules/vite/bin/vite.js']);
