/**
 * The supervisor: a small process that owns the listening socket and runs the instance (HTTP,
 * SQL, DuckDB) in a child process, so that a native crash inside DuckDB (a SIGSEGV takes the
 * whole process, and no JavaScript can catch it) is not the end of the instance:
 *
 * - Connections are accepted here without reading a byte (`pauseOnConnect`) and handed to the
 *   instance over IPC; the instance serves them directly, so a request costs no copy through this
 *   process, only two small IPC notes (request started, response started).
 * - When the instance dies unexpectedly, every request it had started but not begun to answer
 *   gets a clear 503 in the documented error shape from here (the socket's other copy is still
 *   open in this process); the statements its crash journal lists are recorded, and after a
 *   native crash refused on sight (server/engine/journal.ts); a new instance starts at once, on
 *   the same DATA_DIR (DuckDB's WAL recovers what was committed), and connections that arrive
 *   meanwhile wait for it.
 * - SIGINT/SIGTERM stop the instance cleanly, then this process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config';
import { threadpoolSize } from '../engine/threadpool';
import { journalDirOf, recordCrash, type CrashRecord } from '../engine/journal';
import { ERROR_CODES } from '../errors';
import { EXIT_CANNOT_START, SUPERVISED_ENV, type FromInstance, type ToInstance } from './protocol';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, 'instance-process.ts');
/** Runs the instance process's TypeScript as one bundle of its modules (server/launch.mjs). */
const LAUNCH = path.join(HERE, '..', 'launch.mjs');
/**
 * Consecutive failed starts (an instance that ended before it was ready, by a signal or an
 * unexpected exit code) before giving up. A start-up refused in JavaScript is not retried at all
 * (EXIT_CANNOT_START).
 */
const MAX_FAILED_STARTS = 5;

interface Tracked {
  socket: net.Socket;
  /**
   * `new`: handed over, nothing reported yet (its first request may be in flight); `waiting`: a
   * request started and no response yet; `answering`: a response started (or finished).
   */
  state: 'new' | 'waiting' | 'answering';
  method: string;
  url: string;
}

export interface SupervisorLog {
  info(m: string): void;
  error(m: string): void;
}

export class Supervisor {
  private readonly server: net.Server;
  private child: ChildProcess | null = null;
  private ready = false;
  private readonly pending: net.Socket[] = [];
  private readonly conns = new Map<number, Tracked>();
  private nextId = 1;
  private restarts = 0;
  private failedStarts = 0;
  private stopping = false;
  private firstReady: (() => void) | null = null;

  constructor(
    private readonly config: Config,
    private readonly log: SupervisorLog,
  ) {
    this.server = net.createServer({ pauseOnConnect: true }, (socket) => this.accept(socket));
  }

  /** Listens on HOST:PORT and starts the instance; resolves when it first answers. */
  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.config.PORT, this.config.HOST, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const ready = new Promise<void>((resolve) => (this.firstReady = resolve));
    this.spawn();
    await ready;
    const a = this.server.address() as net.AddressInfo;
    return `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  }

  private spawn(): void {
    this.ready = false;
    const child = fork(LAUNCH, [CHILD], {
      execArgv: process.execArgv,
      env: {
        // Set by the user, it is kept; otherwise sized for the engine (threadpoolSize).
        UV_THREADPOOL_SIZE: String(
          threadpoolSize(this.config.ENGINE_CONNECTIONS, this.config.ENGINE_SHORT_LANE),
        ),
        ...process.env,
        [SUPERVISED_ENV.restarts]: String(this.restarts),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    this.log.info(`Instance process ${child.pid} started`);
    child.on('message', (m: FromInstance) => this.onMessage(m));
    // A message sent as the instance ends meets its closed channel (EPIPE): the instance's exit
    // is handled below, not as this process's error.
    child.on('error', (err) => {
      if (!isClosedChannel(err)) this.log.error(`Instance process ${child.pid}: ${err.message}`);
    });
    child.once('exit', (code, signal) => this.onExit(child, code, signal));
  }

  private onMessage(m: FromInstance): void {
    switch (m.t) {
      case 'ready':
        this.ready = true;
        this.failedStarts = 0;
        this.firstReady?.();
        this.firstReady = null;
        for (const s of this.pending.splice(0)) this.handOver(s);
        return;
      case 'q': {
        const c = this.conns.get(m.id);
        if (c) Object.assign(c, { state: 'waiting', method: m.method, url: m.url });
        return;
      }
      case 'h': {
        const c = this.conns.get(m.id);
        if (c) c.state = 'answering';
        return;
      }
      case 'x': {
        this.conns.get(m.id)?.socket.destroy();
        this.conns.delete(m.id);
        return;
      }
    }
  }

  private accept(socket: net.Socket): void {
    socket.on('error', () => undefined);
    if (this.stopping) {
      socket.destroy();
      return;
    }
    if (this.ready) this.handOver(socket);
    else this.pending.push(socket);
  }

  private handOver(socket: net.Socket): void {
    const child = this.child;
    if (!child?.connected || socket.destroyed) {
      if (!socket.destroyed) this.pending.push(socket);
      return;
    }
    const id = this.nextId++;
    this.conns.set(id, { socket, state: 'new', method: '', url: '' });
    // keepOpen: this process keeps its copy of the socket, to answer if the instance dies.
    child.send({ t: 'conn', id } satisfies ToInstance, socket, { keepOpen: true }, (err) => {
      if (err) {
        this.conns.delete(id);
        if (this.ready) socket.destroy();
        else this.pending.push(socket);
      }
    });
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = null;
    const wasReady = this.ready;
    this.ready = false;
    if (this.stopping) {
      this.dropAll();
      return;
    }
    if (!wasReady && code === EXIT_CANNOT_START) {
      // The instance said why above; the same DATA_DIR and settings would fail the same way.
      this.log.error('The instance cannot start with this DATA_DIR and configuration; stopping');
      this.dropAll();
      void this.stop(1);
      return;
    }
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    let record: CrashRecord | null = null;
    if (signal || code !== 0) {
      try {
        record = recordCrash(
          journalDirOf(this.config.DATA_DIR),
          { signal, code },
          this.config.CRASH_QUARANTINE_HOURS * 3600_000,
        );
      } catch (err) {
        this.log.error(`Cannot record the crash: ${(err as Error).message}`);
      }
    }
    const running = record?.statements.filter((s) => s.hash).map((s) => s.text) ?? [];
    this.log.error(
      `The instance process ended unexpectedly (${how})${
        running.length
          ? `; running: ${running.map((t) => JSON.stringify(t.slice(0, 200))).join(', ')}`
          : ''
      }${record?.quarantined ? ' (refused from now on)' : ''}; restarting it`,
    );
    this.answerInFlight(signal ?? `exit code ${code}`, !!record?.quarantined);
    if (!wasReady && ++this.failedStarts >= MAX_FAILED_STARTS) {
      this.log.error(`The instance failed to start ${MAX_FAILED_STARTS} times in a row; giving up`);
      void this.stop(1);
      return;
    }
    this.restarts++;
    const delay = wasReady ? 0 : Math.min(10_000, 250 * 2 ** this.failedStarts);
    setTimeout(() => this.spawn(), delay).unref();
  }

  /**
   * Requests the dead instance had started and not begun to answer get a 503 in the documented
   * shape; every other connection it held is closed (a half-written response cannot be
   * finished by anyone).
   */
  private answerInFlight(how: string, quarantined: boolean): void {
    for (const [id, c] of this.conns) {
      this.conns.delete(id);
      if (c.state === 'answering' || c.socket.destroyed) {
        c.socket.destroy();
        continue;
      }
      c.socket.end(crashResponse(c.method, c.url, how, quarantined), () => c.socket.destroy());
    }
  }

  private dropAll(): void {
    for (const c of this.conns.values()) c.socket.destroy();
    this.conns.clear();
    for (const s of this.pending.splice(0)) s.destroy();
  }

  /**
   * SIGINT/SIGTERM: stops cleanly. The same signal again while the instance stops (Ctrl-C twice)
   * ends it at once (SIGKILL: DuckDB's WAL keeps what was committed) and this process exits with
   * 1. The other kind meanwhile is the same request, not a second one: one Ctrl-C under
   * `npm run dev` brings the terminal's SIGINT and scripts/dev.mjs's SIGTERM.
   */
  onSignal(signal: NodeJS.Signals): void {
    if (!this.stopping) {
      this.firstSignal = signal;
      void this.stop();
    } else if (!this.firstSignal) this.firstSignal = signal;
    else if (signal === this.firstSignal) this.forceStop();
  }

  private firstSignal: NodeJS.Signals | null = null;

  /** Stops accepting, stops the instance cleanly, and ends this process. */
  async stop(exitCode = 0): Promise<never> {
    if (this.stopping) return new Promise<never>(() => undefined);
    this.stopping = true;
    this.server.close();
    for (const s of this.pending.splice(0)) s.destroy();
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      const stopped = (err: Error | null) => {
        if (err) child.kill('SIGTERM');
      };
      if (child.connected) child.send({ t: 'stop' } satisfies ToInstance, stopped);
      else child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(force);
    }
    this.dropAll();
    process.exit(this.forced ? 1 : exitCode);
  }

  private forced = false;

  /** The stop under way ends this process once the instance has exited. */
  private forceStop(): void {
    const child = this.child;
    if (!this.forced && child && child.exitCode === null && child.signalCode === null) {
      this.log.info(`Stopping the instance process ${child.pid} now (SIGKILL)`);
      this.forced = true;
      child.kill('SIGKILL');
    }
  }
}

/** A write to an instance process whose IPC channel has closed (it is ending or has ended). */
function isClosedChannel(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EPIPE' || code === 'ERR_IPC_CHANNEL_CLOSED' || code === 'ECONNRESET';
}

/** The raw HTTP answer to a request the instance died on: the SQL envelope or problem details. */
export function crashResponse(method: string, url: string, how: string, quarantined: boolean) {
  const message = `The engine crashed while this request ran (${how}) and the instance restarted; nothing of the request is known to have happened. ${
    quarantined ? 'The statement that was running is refused from now on. ' : ''
  }Try again in a moment; GET /api/status says what happened.`;
  const sql = method === 'POST' && /^\/(v1\/api\/)?api\/sql\/query(\?|$)/.test(url);
  const body = JSON.stringify(
    sql
      ? {
          type: 'error',
          column_names: [],
          error_code: ERROR_CODES.INTERNAL,
          error_message: message,
          context: { db: 'mindsdb' },
        }
      : {
          title: 'Service Unavailable',
          detail: message,
          error_code: ERROR_CODES.INTERNAL,
          error_message: message,
        },
  );
  return [
    'HTTP/1.1 503 Service Unavailable',
    `Content-Type: ${sql ? 'application/json' : 'application/problem+json'}; charset=utf-8`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Retry-After: 1',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}
