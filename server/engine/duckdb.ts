/**
 * The one module that owns the DuckDB instance: the pool of request sessions (session.ts runs
 * their statements, results.ts reads their results), the attached databases and the SQL sandbox.
 * Nothing else in the server touches DuckDB objects but these three modules.
 *
 * Mounts and the sandbox: the engine owns the list of attached databases. SQL's file access is
 * sandboxed (`sandbox()`: DuckDB's `enable_external_access = false` with `allowed_directories`),
 * which DuckDB cannot undo while it runs and which also binds the instance's own ATTACH. So the
 * databases that exist at start are attached BEFORE the sandbox closes, and a database attached
 * later must live in a folder the sandbox leaves open: new projects in `projects/` (the instance
 * adds it to the allowed folders), DuckDB-file integrations in `uploads/`. The DuckDB instance is
 * never closed and reopened while the process runs (two instances on one file would both write
 * it). What SQL could do with those open folders: read the raw bytes of database files (nothing it
 * cannot already query); it can never write there, because `COPY ... TO` is the one statement that
 * writes files and guard.ts lets it write only into uploads/ and exports/, never over a database.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ERROR_CODES, ServiceError } from '../errors';
import type { WriteRules } from './guard';
import { MemoryGiveBack, processGiveBackDeps } from './give-back';
import { registerJsonDepthGuard } from './json-guard';
import { CrashJournal, Quarantine, crashHistory, type CrashRecord } from './journal';
import { quoteIdent, quoteString } from './quote';
import type { EngineResult, StreamSink, StreamSummary } from './results';
import {
  EngineSession,
  type QueryOptions,
  type SessionHost,
  type SessionLimits,
  type Ticket,
} from './session';
import type { Timings } from './timings';
import { turns } from './turns';
import type { JsonValue } from './values';

/** Work running at least this long is listed in the status (`long_running`). */
const LONG_RUNNING_MS = 10_000;

export interface EngineOptions extends SessionLimits {
  connections: number;
  queueLimit: number;
  /** JSON_MAX_DEPTH (json-guard.ts); 100 when unset. */
  jsonMaxDepth?: number;
  /**
   * Where the crash journal, the crash history and the quarantine live (journal.ts); none: no
   * journal (an engine of its own in a tool or test).
   */
  journalDir?: string;
  /**
   * ENGINE_SHORT_LANE: connections kept for short requests beside ENGINE_CONNECTIONS. When every
   * pool connection is busy, a request the caller judges short (`SessionOptions.short`) runs in
   * this lane instead of waiting behind heavy ones. 0: no lane.
   */
  shortLane?: number;
}

/** A database the engine attaches (and re-attaches on every remount). */
export interface Attachment {
  name: string;
  /** A file path, or `:memory:`. */
  path: string;
  readOnly?: boolean;
}

export interface SessionOptions {
  /**
   * Counts against ENGINE_CONNECTIONS and waits in the bounded queue (BUSY beyond it). Client
   * requests are limited; internal calls are not, so work done on behalf of a request that
   * already holds a slot can never wait for a slot itself (which could deadlock a full pool).
   */
  limited?: boolean;
  /**
   * Asked only when every pool connection is busy and the short lane has room: whether this
   * request is short (the SQL service asks DuckDB's plan, without running anything). True: it
   * runs in the lane at once; false: it waits in the queue like any other.
   */
  short?: () => Promise<boolean>;
  /** The client's id of the request (`context.query_id`): its place in line shows in the status. */
  queryId?: string;
  /** The request's cancellation: a request cancelled while it waits leaves the line. */
  signal?: AbortSignal;
  /** Where the request's time goes (timings.ts): admission, classification, its statements. */
  timings?: Timings;
  /**
   * Ends the request's mark as short work (turns.ts; set by the HTTP edge while it reads the
   * request): called when the request takes a pool slot or is judged heavy. A short-lane session
   * keeps it until its answer is sent.
   */
  endShortTurn?: () => void;
}

/** Where a limited session runs: a pool slot or a place in the short lane. */
type Place = 'pool' | 'lane';

interface Waiter {
  id: string | null;
  since: number;
  /** Judged short (the lane may take it, and it goes before every heavy waiter). */
  short: boolean;
  /** Hands it its place; null once granted or abandoned. */
  grant: ((place: Place) => void) | null;
}

export class Engine implements SessionHost {
  private active = 0;
  /** Sessions running in the short lane (`EngineOptions.shortLane`). */
  private laneActive = 0;
  /** Requests waiting for a place, in the order they get one (`dispatch`). */
  private readonly waiters: Waiter[] = [];
  private closed = false;
  private readonly running = new Set<Ticket>();
  private readonly attachments: Attachment[] = [];
  private sandboxDirs: string[] | null = null;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly path: string,
    private readonly opts: EngineOptions,
  ) {
    const dir = opts.journalDir;
    this.journal = dir ? new CrashJournal(dir) : null;
    this.quarantine = dir ? new Quarantine(dir) : null;
    this.crashes = dir ? crashHistory(dir) : [];
  }

  /** Statements refused because they were running when the engine crashed. */
  get quarantined(): number {
    return this.quarantine?.size ?? 0;
  }

  quarantineReason(statement: string): string | null {
    return this.quarantine?.reason(statement) ?? null;
  }

  journalBegin(text: string, hash: string | null): number | null {
    return this.journal ? this.journal.begin(text, hash) : null;
  }

  journalEnd(slot: number | null): void {
    if (slot !== null) this.journal?.end(slot);
  }

  /** Opens (or creates) the database file; its catalog name is the file's stem. */
  private readonly journal: CrashJournal | null;
  private readonly quarantine: Quarantine | null;
  /** How earlier processes on this data ended (journal.ts), oldest first. */
  readonly crashes: CrashRecord[];

  static async open(path: string, opts: EngineOptions): Promise<Engine> {
    const instance = await DuckDBInstance.create(path);
    const engine = new Engine(instance, path, opts);
    const conn = await instance.connect();
    try {
      registerJsonDepthGuard(conn, engine.jsonMaxDepth);
    } finally {
      conn.closeSync();
    }
    return engine;
  }

  get jsonMaxDepth(): number {
    return this.opts.jsonMaxDepth ?? 100;
  }

  get defaults() {
    return { timeoutMs: this.opts.timeoutMs, maxRows: this.opts.maxRows };
  }

  /**
   * The pool's state for the status endpoint: sessions running and waiting, and the age of the
   * oldest running statement. Unhealthy when a statement outlived its timeout by a minute: the
   * timeout should have ended it, so something holds the pool.
   */
  get load() {
    const now = Date.now();
    let oldest = now;
    let overdue = false;
    const long: { what: string; ms: number; overdue: boolean }[] = [];
    for (const t of this.running) {
      oldest = Math.min(oldest, t.start);
      const late = now > t.deadline + 60_000;
      if (late) overdue = true;
      if (now - t.start >= LONG_RUNNING_MS)
        long.push({ what: t.what, ms: now - t.start, overdue: late });
    }
    return {
      active: this.active,
      waiting: this.waiters.length,
      limit: this.opts.connections,
      /** The short lane: sessions in it and its size. */
      lane: { active: this.laneActive, limit: this.opts.shortLane ?? 0 },
      /** Waiting requests that carry a query id, with their place in line. */
      queue: this.queue,
      statements: this.running.size,
      oldestMs: now - oldest,
      healthy: !overdue,
      /** Statements (client queries, training reads, loads) running for 10 s or more, longest first. */
      longRunning: long.sort((a, b) => b.ms - a.ms),
    };
  }

  /** Lower-case names of DuckDB's built-in functions, and the shadowing set at the first check. */
  private builtins: { names: Set<string>; baseline: Set<string> } | null = null;

  /**
   * User functions (as `catalog.schema.name`) whose name is a built-in's: what a client CREATE
   * may not add (see guard.ts). One scan of DuckDB's function list; built-in names are cached.
   */
  async shadowing(conn: DuckDBConnection): Promise<Set<string>> {
    const names = (await this.builtinState(conn)).names;
    const r = await conn.runAndReadAll(
      'SELECT database_name, schema_name, function_name FROM duckdb_functions() WHERE NOT internal',
    );
    return new Set(
      r
        .getRows()
        .filter((row) => names.has(String(row[2]).toLowerCase()))
        .map((row) => row.map(String).join('.')),
    );
  }

  /** The shadowing functions present before any client statement (legacy ones are dropped at start). */
  async shadowingBaseline(conn: DuckDBConnection): Promise<Set<string>> {
    return (await this.builtinState(conn)).baseline;
  }

  private async builtinState(conn: DuckDBConnection) {
    if (!this.builtins) {
      const r = await conn.runAndReadAll(
        'SELECT DISTINCT lower(function_name) FROM duckdb_functions() WHERE internal',
      );
      const state = {
        names: new Set(r.getRows().map((row) => String(row[0]))),
        baseline: new Set<string>(),
      };
      this.builtins = state;
      state.baseline = await this.shadowing(conn);
    }
    return this.builtins;
  }

  /** A new connection on the current DuckDB instance (sessions call it inside `enter`). */
  connect(): Promise<DuckDBConnection> {
    return this.instance.connect();
  }

  /** Registers a statement about to run (for the pool's health in `load`). */
  async enter(timeoutMs: number, what: string): Promise<Ticket> {
    if (this.closed) throw new ServiceError(ERROR_CODES.BUSY, 'The instance is shutting down');
    this.giveBack?.busy();
    const now = Date.now();
    const t = { start: now, deadline: now + timeoutMs, what: what.slice(0, 300) };
    this.running.add(t);
    return t;
  }

  leave(t: Ticket): void {
    this.running.delete(t);
    if (this.running.size === 0) this.giveBack?.idle();
  }

  /** Collects V8's garbage once the engine is idle after big results (give-back.ts). */
  private readonly giveBack: MemoryGiveBack | null = (() => {
    const deps = processGiveBackDeps();
    return deps ? new MemoryGiveBack(deps) : null;
  })();

  /**
   * A place to run: a pool slot, or, while the pool is full, a place in the short lane for a
   * request `short` judges short. A short request that finds the lane full too waits in a queue of
   * its own, served before the heavy ones whenever a lane place or a pool slot frees: a cheap
   * statement never waits behind a heavy one.
   */
  private async acquire(so: SessionOptions): Promise<Place> {
    if (this.poolFree()) {
      this.active++;
      so.endShortTurn?.();
      return 'pool';
    }
    if (this.waiters.length >= this.opts.queueLimit) {
      throw new ServiceError(
        ERROR_CODES.BUSY,
        `Too many queries waiting (${this.opts.queueLimit}); try again shortly`,
      );
    }
    const waiter: Waiter = { id: so.queryId ?? null, since: Date.now(), short: false, grant: null };
    // In line from the start, so the queue position counts it while its plan is asked about.
    const granted = new Promise<Place>((resolve, reject) => {
      waiter.grant = resolve;
      const onAbort = () => {
        if (!waiter.grant) return;
        waiter.grant = null;
        this.abandon(waiter);
        reject(new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client'));
      };
      so.signal?.addEventListener('abort', onAbort, { once: true });
      if (so.signal?.aborted) onAbort();
    });
    // Cancelled while its plan is asked about: the rejection reaches the caller below.
    granted.catch(() => undefined);
    this.waiters.push(waiter);
    if (so.short && (this.opts.shortLane ?? 0) > 0) {
      // Asked outside any slot: planning (EXPLAIN) runs nothing and holds no pool connection.
      const t0 = performance.now();
      // Judging is short work: heavy JavaScript slices wait while it runs (turns.ts).
      const done = turns.light();
      const short = await so
        .short()
        .catch(() => false)
        .finally(done);
      so.timings?.add('classify', performance.now() - t0);
      if (short && waiter.grant) {
        waiter.short = true;
        this.reorder();
        this.dispatch();
      }
    }
    // Waiting as heavy: heavy slices must not wait for it (its own among them, once it runs).
    if (!waiter.short) so.endShortTurn?.();
    const place = await granted;
    if (place === 'pool') so.endShortTurn?.();
    return place;
  }

  private poolFree(): boolean {
    return this.active < this.opts.connections && this.waiters.length === 0;
  }

  /** Short waiters first (in arrival order), then the others (in arrival order). */
  private reorder(): void {
    const short = this.waiters.filter((w) => w.short);
    const rest = this.waiters.filter((w) => !w.short);
    this.waiters.splice(0, this.waiters.length, ...short, ...rest);
  }

  /** Hands free places to waiters: the lane to short ones, pool slots to the head of the line. */
  private dispatch(): void {
    const laneLimit = this.opts.shortLane ?? 0;
    for (;;) {
      const head = this.waiters[0];
      if (!head) return;
      let place: Place;
      if (this.active < this.opts.connections) place = 'pool';
      else if (head.short && this.laneActive < laneLimit) place = 'lane';
      else return;
      this.waiters.shift();
      if (place === 'pool') this.active++;
      else this.laneActive++;
      const grant = head.grant!;
      head.grant = null;
      grant(place);
    }
  }

  private release(place: Place | null): void {
    if (place === 'lane') this.laneActive--;
    else if (place === 'pool') this.active--;
    else return;
    this.dispatch();
  }

  /**
   * Where each waiting request with a query id stands (1: next), for the status: a playground
   * shows its query's place in line.
   */
  get queue(): { queryId: string; position: number; waitingMs: number; short: boolean }[] {
    const now = Date.now();
    const out: { queryId: string; position: number; waitingMs: number; short: boolean }[] = [];
    this.waiters.forEach((w, i) => {
      if (w.id !== null)
        out.push({ queryId: w.id, position: i + 1, waitingMs: now - w.since, short: w.short });
    });
    return out;
  }

  /** Leaves the line (the request was cancelled while it waited). */
  private abandon(w: Waiter): void {
    const i = this.waiters.indexOf(w);
    if (i >= 0) this.waiters.splice(i, 1);
  }

  /**
   * Runs `fn` with a fresh connection that is closed when `fn` settles (see the module comment).
   */
  async session<T>(fn: (s: EngineSession) => Promise<T>, so: SessionOptions = {}): Promise<T> {
    if (this.closed) throw new ServiceError(ERROR_CODES.BUSY, 'The instance is shutting down');
    const t0 = performance.now();
    const place = so.limited ? await this.acquire(so) : null;
    so.timings?.add('admit', performance.now() - t0);
    const s = new EngineSession(this, this.opts, !!so.limited, so.timings);
    // A request in the short lane has the JavaScript thread before heavy slices (turns.ts).
    const light = place === 'lane' ? turns.light() : null;
    try {
      return await fn(s);
    } finally {
      light?.();
      s.close();
      this.release(place);
    }
  }

  /** Runs `fn` with a dedicated connection (appenders, multi-statement internal work). */
  withConnection<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.session((s) => s.raw(fn));
  }

  /** One statement in a session of its own. */
  query(sql: string, o: QueryOptions = {}): Promise<EngineResult> {
    return this.session((s) => s.query(sql, o));
  }

  /** One streamed statement in a session of its own. */
  stream(sql: string, o: QueryOptions, sink: StreamSink): Promise<StreamSummary> {
    return this.session((s) => s.stream(sql, o, sink));
  }

  private writeFolders: WriteRules['folders'] = null;
  private ownFolder: WriteRules['own'];

  /**
   * Where client `COPY ... TO` may write (guard.ts): inside `folders` (null: anywhere), never in
   * `own` except its open parts, never over an attached database file.
   */
  restrictWrites(folders: WriteRules['folders'], own?: WriteRules['own']): void {
    this.writeFolders = folders ? [...folders] : null;
    this.ownFolder = own;
  }

  writeRules(): WriteRules {
    return {
      folders: this.writeFolders,
      own: this.ownFolder,
      databases: [
        this.path,
        ...this.attachments.filter((a) => a.path !== ':memory:').map((a) => a.path),
      ],
    };
  }

  /** The attached databases (name and path), in attach order. */
  get mounts(): readonly Attachment[] {
    return this.attachments;
  }

  private attachSql(a: Attachment): string {
    return `ATTACH IF NOT EXISTS ${quoteString(a.path)} AS ${quoteIdent(a.name)}${a.readOnly ? ' (READ_ONLY)' : ''}`;
  }

  /**
   * Attaches a database. Once the sandbox is closed, DuckDB attaches only files inside the
   * folders it leaves open (see the module comment); a file elsewhere gets a message saying so.
   */
  async attach(a: Attachment): Promise<void> {
    if (this.attachments.some((x) => x.name.toLowerCase() === a.name.toLowerCase())) return;
    try {
      await this.exec(this.attachSql(a));
    } catch (err) {
      if (this.sandboxDirs && err instanceof ServiceError && err.code === ERROR_CODES.FORBIDDEN) {
        throw new ServiceError(
          ERROR_CODES.FORBIDDEN,
          `Cannot attach '${a.path}' while the instance runs: SQL's file sandbox leaves only ${this.sandboxDirs.join(', ')} open`,
        );
      }
      throw err;
    }
    this.attachments.push({ ...a });
  }

  /** Detaches a database and forgets it. */
  async detach(name: string): Promise<void> {
    const i = this.attachments.findIndex((x) => x.name.toLowerCase() === name.toLowerCase());
    if (i >= 0) this.attachments.splice(i, 1);
    await this.exec(`DETACH DATABASE IF EXISTS ${quoteIdent(name)}`);
  }

  /**
   * Closes the host off from SQL: file access only inside `allowedDirs`, no extension installs,
   * no persistent secrets, and the configuration locked so a user cannot undo it. DuckDB refuses
   * to turn external access back on while the database runs, so this lasts until the process ends.
   */
  async sandbox(allowedDirs: string[]): Promise<void> {
    this.sandboxDirs = [...allowedDirs];
    await this.withConnection((conn) => this.closeSandbox(conn));
  }

  private async closeSandbox(conn: DuckDBConnection): Promise<void> {
    if (!this.sandboxDirs) return;
    const list = this.sandboxDirs.map((d) => quoteString(d.endsWith('/') ? d : `${d}/`)).join(', ');
    await conn.run(`SET allowed_directories = [${list}]`);
    await conn.run(`SET enable_external_access = false`);
    await conn.run(`SET autoinstall_known_extensions = false`);
    await conn.run(`SET autoload_known_extensions = false`);
    await conn.run(`SET allow_persistent_secrets = false`);
    await conn.run(`SET lock_configuration = true`);
  }

  /** Internal statements (catalog, loaders) with a generous timeout of their own. */
  async exec(sql: string): Promise<EngineResult> {
    return this.query(sql, {
      maxRows: Number.MAX_SAFE_INTEGER,
      maxBytes: Number.MAX_SAFE_INTEGER,
      timeoutMs: 10 * 60_000,
      internal: true,
    });
  }

  /** Convenience for internal statements (catalog, loaders): rows as arrays, no cap. */
  async rows(sql: string, params?: Record<string, unknown>, db?: string): Promise<JsonValue[][]> {
    const r = await this.query(sql, {
      params,
      db,
      maxRows: Number.MAX_SAFE_INTEGER,
      maxBytes: Number.MAX_SAFE_INTEGER,
      timeoutMs: 10 * 60_000,
      internal: true,
    });
    return r.rows;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.instance.closeSync();
    this.journal?.close();
  }
}
