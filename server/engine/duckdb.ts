/**
 * The one module that owns DuckDB: the instance, request sessions, the statement timeout (a timer
 * that interrupts the engine, not just the response), the row cap, the statement guard, and the
 * conversion of results to JSON-safe values. Nothing else in the server touches DuckDB objects.
 *
 * Isolation: every session (one HTTP request's statements, or one internal call) runs on a FRESH
 * DuckDB connection that is closed when it ends. Closing rolls back a transaction left open and
 * drops the connection's temporary objects, settings and current database, so no client's state
 * can reach another (a shared pool let one client's stray BEGIN swallow other clients' writes).
 * A connection costs ~0.25 ms to open, use and close. Statements with instance-wide effects
 * (ATTACH, DETACH, SET, INSTALL/LOAD, ...) are refused on user SQL (`guardStatement`).
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
import { toJsonValue, type JsonValue } from './values';
import { quoteIdent, quoteString } from './quote';

export interface QueryOptions {
  /** Catalog to `USE` before running (the request's context.db). */
  db?: string;
  params?: Record<string, unknown>;
  timeoutMs?: number;
  maxRows?: number;
  signal?: AbortSignal;
  /** Where this statement starts in the user's script (for error positions). */
  offsetInScript?: number;
  script?: string;
  /**
   * Internal statements of the instance itself (catalog ATTACH, loaders): skip the user-statement
   * guard. Never set for SQL that came from a client.
   */
  internal?: boolean;
}

export interface EngineResult {
  kind: 'table' | 'ok';
  columns: string[];
  types: string[];
  rows: JsonValue[][];
  truncated: boolean;
  affectedRows: number | null;
}

export interface StreamSink {
  header(columns: string[], types: string[]): Promise<void> | void;
  rows(rows: JsonValue[][]): Promise<void> | void;
  ok(affectedRows: number | null): Promise<void> | void;
}

export interface EngineOptions {
  connections: number;
  queueLimit: number;
  timeoutMs: number;
  maxRows: number;
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

/**
 * Statement kinds a client may not run: they change state shared by every connection (ATTACH,
 * DETACH, SET/RESET and their scopes, INSTALL/LOAD, PRAGMA settings, EXPORT/IMPORT, COPY FROM
 * DATABASE), or they would hold a transaction that outlives the statement's acknowledgement.
 * USE, CREATE DATABASE and DROP DATABASE are answered by the SQL layer, not by DuckDB.
 */
const REFUSED: Partial<Record<StatementType, string>> = {
  [StatementType.TRANSACTION]:
    'Transaction control (BEGIN, COMMIT, ROLLBACK) is not supported: every statement commits on its own when it succeeds',
  [StatementType.ATTACH]:
    "ATTACH is not allowed: use CREATE DATABASE ... WITH ENGINE = 'duckdb' (or another engine) to connect data",
  [StatementType.DETACH]: 'DETACH is not allowed: use DROP DATABASE to remove an integration',
  [StatementType.SET]:
    'SET/RESET would change engine settings for every client and is not allowed (USE <database> is supported)',
  [StatementType.VARIABLE_SET]: 'SET VARIABLE is not allowed',
  [StatementType.LOAD]: 'INSTALL and LOAD of engine extensions are not allowed',
  [StatementType.EXTENSION]: 'Extension statements are not allowed',
  [StatementType.UPDATE_EXTENSIONS]: 'UPDATE EXTENSIONS is not allowed',
  [StatementType.PRAGMA]: 'PRAGMA statements change engine settings and are not allowed',
  [StatementType.EXPORT]: 'EXPORT DATABASE / IMPORT DATABASE are not allowed',
  [StatementType.COPY_DATABASE]: 'COPY FROM DATABASE is not allowed',
  [StatementType.PREPARE]: 'PREPARE/EXECUTE are not supported: use :name parameters',
  [StatementType.EXECUTE]: 'PREPARE/EXECUTE are not supported: use :name parameters',
};

/** Throws FORBIDDEN when a client statement of this kind may not run (see REFUSED). */
export function guardStatement(type: StatementType): void {
  const why = REFUSED[type];
  if (why) throw new ServiceError(ERROR_CODES.FORBIDDEN, why);
}

/**
 * One connection for one request (or one internal call): every statement of the request runs on
 * it, so a request's own temporary tables and `USE` carry from statement to statement, and nothing
 * of it survives the request. Created only by `Engine.session`.
 */
export class EngineSession {
  /** Catalog the connection currently uses (null: DuckDB's default). */
  private db: string | null = null;
  private closed = false;

  constructor(
    readonly conn: DuckDBConnection,
    private readonly opts: EngineOptions,
  ) {}

  private async useDb(db: string | undefined): Promise<void> {
    if (!db || this.db === db) return;
    this.db = null;
    await this.conn.run(`USE ${quoteIdent(db)}`);
    this.db = db;
  }

  /**
   * Runs one statement with the statement timeout and cancellation armed, and hands the
   * streaming result to `consume`. Errors become ServiceErrors with positions.
   */
  private async run<T>(
    sql: string,
    o: QueryOptions,
    consume: (result: DuckDBResult) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new Error('engine session used after it ended');
    const timeoutMs = o.timeoutMs ?? this.opts.timeoutMs;
    if (o.signal?.aborted)
      throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');
    const { conn } = this;
    let timedOut = false;
    let cancelled = false;
    const timer = setTimeout(() => {
      timedOut = true;
      conn.interrupt();
    }, timeoutMs);
    const onAbort = () => {
      cancelled = true;
      conn.interrupt();
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await this.useDb(o.db);
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
      const extracted = await conn.extractStatements(sql);
      if (extracted.count !== 1) {
        throw new ServiceError(
          ERROR_CODES.BAD_INPUT,
          `Expected one SQL statement, found ${extracted.count}`,
        );
      }
      const prepared = await extracted.prepare(0);
      try {
        if (!o.internal) guardStatement(prepared.statementType);
        if (values) prepared.bind(values, types);
        const result = await prepared.stream();
        return await consume(result);
      } finally {
        prepared.destroySync();
      }
    } catch (err) {
      if (timedOut) {
        throw new ServiceError(
          ERROR_CODES.TIMEOUT,
          `The statement ran longer than the statement timeout (${timeoutMs} ms) and was interrupted`,
        );
      }
      if (cancelled)
        throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');
      throw fromDuckDBError(err, sql, o.offsetInScript ?? 0, o.script ?? sql);
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Runs one statement and returns its converted result (at most `maxRows` rows). */
  async query(sql: string, o: QueryOptions = {}): Promise<EngineResult> {
    const maxRows = o.maxRows ?? this.opts.maxRows;
    return this.run(sql, o, async (result) => {
      if (result.returnType === ResultReturnType.CHANGED_ROWS) {
        // DuckDB reports the count as a one-row "Count" result for INSERT/UPDATE/DELETE.
        const chunk = await result.fetchChunk();
        const count =
          chunk && chunk.rowCount > 0 ? Number(chunk.getColumnValues(0)[0]) : result.rowsChanged;
        return {
          kind: 'ok',
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
      let truncated = false;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        const cols = chunk.convertColumns(toJsonValue);
        const n = chunk.rowCount;
        const take = Math.min(n, maxRows - rows.length);
        for (let r = 0; r < take; r++) {
          const row = new Array<JsonValue>(cols.length);
          for (let c = 0; c < cols.length; c++) row[c] = cols[c][r] ?? null;
          rows.push(row);
        }
        if (take < n || rows.length >= maxRows) {
          // Stopped at the cap: truncated if anything is left (peek one chunk when exactly full).
          if (take < n) truncated = true;
          else {
            const more = await result.fetchChunk();
            truncated = !!more && more.rowCount > 0;
          }
          break;
        }
      }
      return {
        kind: 'table',
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
   * waits for it before fetching the next chunk. Stops after `maxRows` and reports truncation.
   */
  async stream(
    sql: string,
    o: QueryOptions,
    sink: StreamSink,
  ): Promise<{ rowCount: number; truncated: boolean }> {
    const maxRows = o.maxRows ?? this.opts.maxRows;
    return this.run(sql, o, async (result) => {
      if (result.returnType !== ResultReturnType.QUERY_RESULT) {
        const chunk =
          result.returnType === ResultReturnType.CHANGED_ROWS ? await result.fetchChunk() : null;
        const count = chunk && chunk.rowCount > 0 ? Number(chunk.getColumnValues(0)[0]) : null;
        await sink.ok(count);
        return { rowCount: 0, truncated: false };
      }
      await sink.header(
        result.columnNames(),
        result.columnTypes().map((t) => t.toString()),
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
        await sink.rows(rows);
        if (take < chunk.rowCount) {
          truncated = true;
          break;
        }
      }
      return { rowCount, truncated };
    });
  }

  /** Ends the session: DuckDB rolls back an open transaction and drops temporary objects. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.closeSync();
  }
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

  private constructor(
    readonly instance: DuckDBInstance,
    private readonly opts: EngineOptions,
  ) {}

  /** Opens (or creates) the database file; its catalog name is the file's stem. */
  static async open(path: string, opts: EngineOptions): Promise<Engine> {
    const instance = await DuckDBInstance.create(path);
    return new Engine(instance, opts);
  }

  get defaults() {
    return { timeoutMs: this.opts.timeoutMs, maxRows: this.opts.maxRows };
  }

  /** Sessions running and waiting (for the status endpoint and tests). */
  get load() {
    return { active: this.active, waiting: this.waiters.length, limit: this.opts.connections };
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
    try {
      const s = new EngineSession(await this.instance.connect(), this.opts);
      try {
        return await fn(s);
      } finally {
        s.close();
      }
    } finally {
      if (so.limited) this.releaseSlot();
    }
  }

  /** Runs `fn` with a dedicated connection (appenders, multi-statement internal work). */
  withConnection<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.session((s) => fn(s.conn));
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
  ): Promise<{ rowCount: number; truncated: boolean }> {
    return this.session((s) => s.stream(sql, o, sink));
  }

  /**
   * Closes the host off from SQL: file access only inside `allowedDirs`, no extension installs,
   * and the configuration locked so a user cannot undo it. DuckDB refuses to turn external access
   * back on while the database runs, so this lasts until the process ends.
   */
  async sandbox(allowedDirs: string[]): Promise<void> {
    const list = allowedDirs.map((d) => quoteString(d.endsWith('/') ? d : `${d}/`)).join(', ');
    await this.exec(`SET allowed_directories = [${list}]`);
    await this.exec(`SET enable_external_access = false`);
    await this.exec(`SET autoinstall_known_extensions = false`);
    await this.exec(`SET lock_configuration = true`);
  }

  /** Internal statements (catalog, loaders) with a generous timeout of their own. */
  async exec(sql: string): Promise<EngineResult> {
    return this.query(sql, {
      maxRows: Number.MAX_SAFE_INTEGER,
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
