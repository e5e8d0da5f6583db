/**
 * The instance process the supervisor (server/main.ts) runs: the whole instance (HTTP, SQL,
 * models, DuckDB) on the connections the supervisor hands it over IPC. It reports each request's
 * start and each response's start, so the supervisor can answer in-flight requests itself if a
 * native crash ends this process. It ends as soon as the supervisor is gone (its IPC channel
 * closes), like a process killed, so a new instance can open the same DATA_DIR.
 */
import type { Socket } from 'node:net';
import { loadConfig } from '../config';
import { buildApp, consoleLogger } from '../http/app';
import { createInstance } from '../instance';
import { EXIT_CANNOT_START, SUPERVISED_ENV, type FromInstance, type ToInstance } from './protocol';

const send = (m: FromInstance) => {
  if (process.connected) process.send!(m);
};

async function main() {
  if (!process.send)
    throw new Error('server/supervisor/instance-process.ts runs under server/main.ts');
  // Everything the instance (and DuckDB) creates in DATA_DIR is for this user only: 0600/0700.
  process.umask(0o077);
  // The supervisor gone means no one hands connections over any more: end at once, as a killed
  // process would (DuckDB's WAL keeps what was committed).
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
  const started = Date.now();
  const config = loadConfig();
  const instance = await createInstance(config);
  instance.supervision = { restarts: Number(process.env[SUPERVISED_ENV.restarts] ?? 0) };
  const app = await buildApp(instance, consoleLogger);
  await app.ready();
  const server = app.server;

  server.on('request', (req, res) => {
    const id = (req.socket as Socket & { connectionId?: number }).connectionId;
    if (id === undefined) return;
    send({ t: 'q', id, method: req.method ?? 'GET', url: (req.url ?? '/').slice(0, 300) });
    const writeHead = res.writeHead;
    // Every response passes here (an implicit header too): from now on it cannot be replaced.
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      res.writeHead = writeHead;
      send({ t: 'h', id });
      return writeHead.apply(this, args);
    } as typeof writeHead;
  });

  process.on('message', (m: ToInstance, handle?: unknown) => {
    if (m.t === 'stop') {
      void stop('the supervisor');
      return;
    }
    if (m.t !== 'conn' || !handle) return;
    const socket = handle as Socket & { connectionId?: number };
    socket.connectionId = m.id;
    socket.once('close', () => send({ t: 'x', id: m.id }));
    server.emit('connection', socket);
  });

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    consoleLogger.info(`Shutting down (${why})`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // In-flight requests finish; idle keep-alive connections close now.
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }).catch(() => undefined);
    await app.close().catch(() => undefined);
    await instance.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  send({ t: 'ready', ms: Date.now() - started });
}

main().catch((err) => {
  consoleLogger.error(
    `Failed to start the instance: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(EXIT_CANNOT_START);
});
