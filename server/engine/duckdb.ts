/**
 * The one module that owns DuckDB: the instance, request sessions, the statement timeout (a timer
 * that interrupts the engine, not just the response), the row and byte caps, the statement guard,
 * and the conversion of results to JSON-safe values. Nothing else in the server touches DuckDB
 * objects.
 *
 * Isolation: every session (one HTTP request's statements, or one internal call) runs on a FRESH
 * DuckDB connection that is closed when it ends. Closing rolls back a transaction left open and
 * drops the connection's temporary objects, settings and current database, so no client's state
 * can reach another (a shared pool let one client's stray BEGIN swallow other clients' writes).
 * A connection costs ~0.25 ms to open, use and close. What a client statement may do to the
 * instance as a whole is decided in guard.ts.
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
 *
 * A session runs one statement at a time: DuckDB keeps one pending result per connection, and a
 * second statement started while a result is being read would invalidate it.
 */
import {
  DuckDBInstance,
  DuckDBConnection,
  ResultReturnType,
  StatementType,
  BIGINT,
  DOUBLE,
  VARCHAR,
  BOOLEAN,
  SQLNULL,
  type DuckDBResult,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { ERROR_CODES, ServiceError } from '../errors';
import { fromDuckDBError } from './errors';
import {
  guardCopy,
  scanSql,
  guardStatementText,
  guardStatementType,
  type WriteRules,
} from './guard';
import { toJsonValue, type JsonValue } from './values';
import { quoteIdent, quoteString } from './quote';

export interface QueryOptions {
  /** Catalog to `USE` before running (the request's context.db). */
  db?: string;
  params?: Record<string, unknown>;
  timeoutMs?: number;
  maxRows?: number;
  /** Bytes of row data (as JSON, approximately) before the result is cut (`truncated`). */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Where this statement starts in the user's script (for error positions). */
  offsetInScript?: number;
  script?: string;
  /**
   * For SQL the instance rewrote: maps an offset in the SQL sent to DuckDB to an offset in
   * `script`, so error positions point at what the user wrote (overrides `offsetInScript`).
   */
  sourceOffset?: (offsetInSql: number) => number;
  /**
   * Internal statements of the instance itself (catalog ATTACH, loaders): skip the user-statement
   * guard. Never set for SQL that came from a client.
   */
  internal?: boolean;
}

export interface EngineResult {
  kind: 'table' | 'ok';
  /** DuckDB's kind of the statement that ran (`CREATE`, `DROP`, `SELECT`, ...). */
  statementType?: string;
  columns: string[];
  types: string[];
  rows: JsonValue[][];
  truncated: boolean;
  affectedRows: number | null;
}

export interface StreamSink {
  header(columns: string[], types: string[]): Promise<void> | void;
  rows(rows: JsonValue[][]): Promise<void> | void;
  ok(affectedRows: number | null, statementType?: string): Promise<void> | void;
}

export interface EngineOptions {
  connections: number;
  queueLimit: number;
  timeoutMs: number;
  maxRows: number;
  /** Default byte cap of a client request's result (MAX_RESULT_BYTES); unlimited when unset. */
  maxBytes?: number;
}

/** A database the engine attaches (and re-attaches on every remount). */
export interface Attachment {
  name: string;
  /** A file path, or `:memory:`. */
  path: string;
  readOnly?: boolean;
}

/** The JSON size of a value, approximately (strings by length, numbers by digits). */
export function jsonSize(v: JsonValue): number {
  if (v === null) return 4;
  switch (typeof v) {
    case 'string':
      return v.length + 2;
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < 1e15
        ? (v < 0 ? 2 : 1) + (v === 0 ? 0 : Math.floor(Math.log10(Math.abs(v))))
        : 24;
    case 'boolean':
      return 5;
    default:
      return JSON.stringify(v).length;
  }
}

/** Rejects when `abort` does; otherwise settles like `p`. */
function raced<T>(p: Promise<T> | T, abort: Promise<never>): Promise<T> {
  return Promise.race([Promise.resolve(p), abort]);
}

/** Values for `$name` parameters: integers as BIGINT so `:n + 1` stays an integer. */
function paramValue(name: string, v: unknown): { value: DuckDBValue; type: DuckDBType } {
  if (v === null || v === undefined) return { value: null, type: SQLNULL };
  if (typeof v === 'boolean') return { value: v, type: BOOLEAN };
  if (typeof v === 'number') {
    if (!Number.isFinite(v))
      throw new ServiceError(ERROR_CODES.BAD_INPUT, `Parameter '${name}' is not a finite number`);
    return Number.isSafeInteger(v)
      ? { value: BigInt(v), type: BIGINT }
      : { value: v, type: DOUBLE };
  }
  if (typeof v === 'string') return { value: v, type: VARCHAR };
  return { value: JSON.stringify(v), type: VARCHAR };
}

/** A statement (or a raw-connection job) running on the engine; see `Engine.enter`. */
interface Ticket {
  start: number;
  /** When it should have ended by (its timeout); later means the pool is wedged. */
  deadline: number;
}

/**
 * One connection for one request (or one internal call): every statement of the request runs on
 * it, so a request's own temporary tables and `USE` carry from statement to statement, and nothing
 * of it survives the request. Created only by `Engine.session`. The connection is opened at the
 * first statement and closed when the session ends.
 */
export class EngineSession {
  /** Catalog the connection currently uses (null: DuckDB's default). */
  private db: string | null = null;
  private closed = false;
  private connection: DuckDBConnection | null = null;
  /** The statement (or raw job) running now; the next one waits for it (see the module comment). */
  private turn: Promise<unknown> = Promise.resolve();

  /**
   * @param client a client request's session (limited): its results are capped at the byte cap
   *   by default; the instance's own work (training data, internal queries) is not
   */
  constructor(
    private readonly engine: Engine,
    private readonly opts: EngineOptions,
    private readonly client = false,
  ) {}

  /** The open connection (only while a statement or raw job of this session is running). */
  private async conn(): Promise<DuckDBConnection> {
    if (!this.connection) this.connection = await this.engine.connect();
    return this.connection;
  }

  /** Runs `fn` after every statement started before it on this session has settled. */
  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.turn.then(fn, fn);
    this.turn = run.catch(() => undefined);
    return run;
  }

  private drop(): void {
    const c = this.connection;
    this.connection = null;
    this.db = null;
    try {
      c?.closeSync();
    } catch {
      // already closed with its instance
    }
  }

  interrupt(): void {
    this.connection?.interrupt();
  }

  private async useDb(conn: DuckDBConnection, db: string | undefined): Promise<void> {
    if (!db || this.db === db) return;
    this.db = null;
    await conn.run(`USE ${quoteIdent(db)}`);
    this.db = db;
  }

  /** Runs `fn` with this session's raw connection (appenders, internal multi-statement work). */
  raw<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.inTurn(async () => {
      if (this.closed) throw new Error('engine session used after it ended');
      const ticket = await this.engine.enter(10 * 60_000);
      try {
        return await fn(await this.conn());
      } finally {
        this.engine.leave(ticket);
      }
    });
  }

  /**
   * Runs one statement with the statement timeout and cancellation armed, and hands the
   * streaming result to `consume` together with a promise that rejects when the statement is
   * timed out or cancelled (for waits outside DuckDB, such as a slow reader). Errors become
   * ServiceErrors with positions.
   */
  private run<T>(
    sql: string,
    o: QueryOptions,
    consume: (result: DuckDBResult, abort: Promise<never>, type: StatementType) => Promise<T>,
  ): Promise<T> {
    return this.inTurn(() => this.runNow(sql, o, consume));
  }

  private async runNow<T>(
    sql: string,
    o: QueryOptions,
    consume: (result: DuckDBResult, abort: Promise<never>, type: StatementType) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new Error('engine session used after it ended');
    const timeoutMs = o.timeoutMs ?? this.opts.timeoutMs;
    if (o.signal?.aborted)
      throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');
    const ticket = await this.engine.enter(timeoutMs);
    let timedOut = false;
    let cancelled = false;
    let stop: (err: Error) => void = () => undefined;
    const abort = new Promise<never>((_, reject) => (stop = reject));
    abort.catch(() => undefined);
    const timer = setTimeout(() => {
      timedOut = true;
      this.interrupt();
      stop(new Error('timeout'));
    }, timeoutMs);
    const onAbort = () => {
      cancelled = true;
      this.interrupt();
      stop(new Error('cancelled'));
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    let inTransaction = false;
    let conn: DuckDBConnection | null = null;
    try {
      conn = await this.conn();
      await this.useDb(conn, o.db);
      let values: Record<string, DuckDBValue> | undefined;
      let types: Record<string, DuckDBType> | undefined;
      if (o.params && Object.keys(o.params).length > 0) {
        values = {};
        types = {};
        for (const [k, v] of Object.entries(o.params)) {
          const p = paramValue(k, v);
          values[k] = p.value;
          types[k] = p.type;
        }
      }
      // Exactly one statement: DuckDB would otherwise run all but the last one unseen (and
      // unguarded). The SQL layer splits scripts before they get here.
      // The text checks come first: binding a statement (in prepare) already parses SQL that
      // table functions such as query() carry in strings.
      if (!o.internal) {
        guardStatementText(sql);
        guardCopy(sql, this.engine.writeRules());
      }
      const extracted = await conn.extractStatements(sql);
      if (extracted.count !== 1) {
        throw new ServiceError(
          ERROR_CODES.BAD_INPUT,
          `Expected one SQL statement, found ${extracted.count}`,
        );
      }
      const prepared = await extracted.prepare(0);
      try {
        let before: Set<string> | null = null;
        if (!o.internal) {
          await this.guard(conn, sql, prepared.statementType);
          if (prepared.statementType === StatementType.CREATE && createsFunction(sql)) {
            before = await this.engine.shadowingBaseline(conn);
            await conn.run('BEGIN TRANSACTION');
            inTransaction = true;
          }
        }
        if (values) prepared.bind(values, types);
        const result = await prepared.stream();
        const out = await consume(result, abort, prepared.statementType);
        if (inTransaction) {
          const added = [...(await this.engine.shadowing(conn))].filter((f) => !before!.has(f));
          if (added.length > 0) {
            throw new ServiceError(
              ERROR_CODES.FORBIDDEN,
              `A macro or function may not take the name of a built-in function (${added.join(', ')}): it would change that function for every client`,
            );
          }
          inTransaction = false;
          await conn.run('COMMIT');
        }
        return out;
      } finally {
        prepared.destroySync();
      }
    } catch (err) {
      if (inTransaction && conn) await conn.run('ROLLBACK').catch(() => undefined);
      if (timedOut) {
        throw new ServiceError(
          ERROR_CODES.TIMEOUT,
          `The statement ran longer than the statement timeout (${timeoutMs} ms) and was interrupted`,
        );
      }
      if (cancelled)
        throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');
      throw fromDuckDBError(err, sql, o.offsetInScript ?? 0, o.script ?? sql, o.sourceOffset);
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      this.engine.leave(ticket);
    }
  }

  /** The client-statement checks of guard.ts; EXPLAIN is judged by the statement it wraps. */
  private async guard(conn: DuckDBConnection, sql: string, type: StatementType): Promise<void> {
    let text = sql;
    for (let depth = 0; depth < 8; depth++) {
      guardStatementType(type);
      if (type === StatementType.COPY) guardCopy(text, this.engine.writeRules());
      const inner = guardStatementText(text);
      if (inner === null || type !== StatementType.EXPLAIN) return;
      const ex = await conn.extractStatements(inner);
      if (ex.count !== 1) return;
      const p = await ex.prepare(0);
      type = p.statementType;
      p.destroySync();
      // EXPLAIN ANALYZE runs what it explains, outside the checks a CREATE gets.
      if (type === StatementType.CREATE)
        throw new ServiceError(
          ERROR_CODES.FORBIDDEN,
          'EXPLAIN of a CREATE statement is not supported',
        );
      text = inner;
    }
  }

  /** Runs one statement and returns its converted result (at most `maxRows` rows, `maxBytes`). */
  async query(sql: string, o: QueryOptions = {}): Promise<EngineResult> {
    const maxRows = o.maxRows ?? this.opts.maxRows;
    const maxBytes =
      o.maxBytes ?? (this.client ? this.opts.maxBytes : undefined) ?? Number.MAX_SAFE_INTEGER;
    return this.run(sql, o, async (result, _abort, type) => {
      const statementType = StatementType[type];
      if (result.returnType === ResultReturnType.CHANGED_ROWS) {
        // DuckDB reports the count as a one-row "Count" result for INSERT/UPDATE/DELETE.
        const chunk = await result.fetchChunk();
        const count =
          chunk && chunk.rowCount > 0 ? Number(chunk.getColumnValues(0)[0]) : result.rowsChanged;
        return {
          kind: 'ok',
          statementType,
          columns: [],
          types: [],
          rows: [],
          truncated: false,
          affectedRows: count,
        };
      }
      if (result.returnType !== ResultReturnType.QUERY_RESULT) {
        return {
          kind: 'ok',
          statementType,
          columns: [],
          types: [],
          rows: [],
          truncated: false,
          affectedRows: null,
        };
      }
      const columns = result.columnNames();
      const colTypes = result.columnTypes();
      const rows: JsonValue[][] = [];
      let bytes = 0;
      let truncated = false;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        if (rows.length >= maxRows) {
          truncated = true;
          break;
        }
        // Row by row, so a result of huge values stops at the byte cap before the rest of the
        // chunk is ever converted to JS strings.
        const vectors = columns.map((_, c) => chunk.getColumnVector(c));
        const n = chunk.rowCount;
        let r = 0;
        for (; r < n && rows.length < maxRows; r++) {
          const row = new Array<JsonValue>(vectors.length);
          let size = 2 + vectors.length;
          for (let c = 0; c < vectors.length; c++) {
            const v = vectors[c];
            const value = toJsonValue(v.getItem(r), v.type, toJsonValue) ?? null;
            row[c] = value;
            size += jsonSize(value);
          }
          if (bytes + size > maxBytes) break;
          bytes += size;
          rows.push(row);
        }
        if (r < n) {
          truncated = true;
          break;
        }
      }
      return {
        kind: 'table',
        statementType,
        columns,
        types: colTypes.map((t) => t.toString()),
        rows,
        truncated,
        affectedRows: null,
      };
    });
  }

  /**
   * Streams a statement's rows to `sink` chunk by chunk without holding the whole result: the
   * memory-safe path for big results. `sink.rows` may return a promise (backpressure); the engine
   * waits for it before fetching the next chunk, but not past the statement timeout or a
   * cancellation, so a reader that stops reading cannot hold the connection. Stops after
   * `maxRows` and reports truncation.
   */
  async stream(
    sql: string,
    o: QueryOptions,
    sink: StreamSink,
  ): Promise<{ rowCount: number; truncated: boolean; statementType: string }> {
    const maxRows = o.maxRows ?? this.opts.maxRows;
    return this.run(sql, o, async (result, abort, type) => {
      const statementType = StatementType[type];
      if (result.returnType !== ResultReturnType.QUERY_RESULT) {
        const chunk =
          result.returnType === ResultReturnType.CHANGED_ROWS ? await result.fetchChunk() : null;
        const count = chunk && chunk.rowCount > 0 ? Number(chunk.getColumnValues(0)[0]) : null;
        await raced(sink.ok(count, statementType), abort);
        return { rowCount: 0, truncated: false, statementType };
      }
      await raced(
        sink.header(
          result.columnNames(),
          result.columnTypes().map((t) => t.toString()),
        ),
        abort,
      );
      let rowCount = 0;
      let truncated = false;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        if (rowCount >= maxRows) {
          truncated = true;
          break;
        }
        const cols = chunk.convertColumns(toJsonValue);
        const take = Math.min(chunk.rowCount, maxRows - rowCount);
        const rows: JsonValue[][] = new Array(take);
        for (let r = 0; r < take; r++) {
          const row = new Array<JsonValue>(cols.length);
          for (let c = 0; c < cols.length; c++) row[c] = cols[c][r] ?? null;
          rows[r] = row;
        }
        rowCount += take;
        await raced(sink.rows(rows), abort);
        if (take < chunk.rowCount) {
          truncated = true;
          break;
        }
      }
      return { rowCount, truncated, statementType };
    });
  }

  /** Ends the session: DuckDB rolls back an open transaction and drops temporary objects. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.drop();
  }
}

/**
 * Whether a CREATE statement can make a macro or function: DuckDB's grammar needs the keyword
 * MACRO or FUNCTION for it (a keyword is never quoted, and guard.ts's scanner skips literals and
 * comments exactly as DuckDB does), so only those statements pay for the check on the effect.
 */
function createsFunction(sql: string): boolean {
  return scanSql(sql).some(
    (t) => t.kind === 'word' && ['MACRO', 'FUNCTION'].includes(t.value.toUpperCase()),
  );
}

export interface SessionOptions {
  /**
   * Counts against ENGINE_CONNECTIONS and waits in the bounded queue (BUSY beyond it). Client
   * requests are limited; internal calls are not, so work done on behalf of a request that
   * already holds a slot can never wait for a slot itself (which could deadlock a full pool).
   */
  limited?: boolean;
}

export class Engine {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  private closed = false;
  private readonly running = new Set<Ticket>();
  private readonly attachments: Attachment[] = [];
  private sandboxDirs: string[] | null = null;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly path: string,
    private readonly opts: EngineOptions,
  ) {}

  /** Opens (or creates) the database file; its catalog name is the file's stem. */
  static async open(path: string, opts: EngineOptions): Promise<Engine> {
    const instance = await DuckDBInstance.create(path);
    return new Engine(instance, path, opts);
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
    for (const t of this.running) {
      oldest = Math.min(oldest, t.start);
      if (now > t.deadline + 60_000) overdue = true;
    }
    return {
      active: this.active,
      waiting: this.waiters.length,
      limit: this.opts.connections,
      statements: this.running.size,
      oldestMs: now - oldest,
      healthy: !overdue,
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
    return this.builtins!;
  }

  /** A new connection on the current DuckDB instance (sessions call it inside `enter`). */
  connect(): Promise<DuckDBConnection> {
    return this.instance.connect();
  }

  /** Registers a statement about to run (for the pool's health in `load`). */
  async enter(timeoutMs: number): Promise<Ticket> {
    if (this.closed) throw new ServiceError(ERROR_CODES.BUSY, 'The instance is shutting down');
    const now = Date.now();
    const t = { start: now, deadline: now + timeoutMs };
    this.running.add(t);
    return t;
  }

  leave(t: Ticket): void {
    this.running.delete(t);
  }

  private acquireSlot(): Promise<void> {
    if (this.active < this.opts.connections && this.waiters.length === 0) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiters.length >= this.opts.queueLimit) {
      return Promise.reject(
        new ServiceError(
          ERROR_CODES.BUSY,
          `Too many queries waiting (${this.opts.queueLimit}); try again shortly`,
        ),
      );
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private releaseSlot() {
    const next = this.waiters.shift();
    // The slot passes straight to the next waiter: `active` stays the same.
    if (next) next();
    else this.active--;
  }

  /**
   * Runs `fn` with a fresh connection that is closed when `fn` settles (see the module comment).
   */
  async session<T>(fn: (s: EngineSession) => Promise<T>, so: SessionOptions = {}): Promise<T> {
    if (this.closed) throw new ServiceError(ERROR_CODES.BUSY, 'The instance is shutting down');
    if (so.limited) await this.acquireSlot();
    const s = new EngineSession(this, this.opts, !!so.limited);
    try {
      return await fn(s);
    } finally {
      s.close();
      if (so.limited) this.releaseSlot();
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
  stream(
    sql: string,
    o: QueryOptions,
    sink: StreamSink,
  ): Promise<{ rowCount: number; truncated: boolean; statementType: string }> {
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
  }
}
