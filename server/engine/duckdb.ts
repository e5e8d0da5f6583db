/**
 * The one module that owns DuckDB: the instance, a small pool of connections, the statement
 * timeout (a timer that interrupts the engine, not just the response), the row cap, and the
 * conversion of results to JSON-safe values. Nothing else in the server touches DuckDB objects.
 */
import {
  DuckDBInstance,
  DuckDBConnection,
  ResultReturnType,
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

interface PooledConnection {
  conn: DuckDBConnection;
  db: string | null;
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

export class Engine {
  private readonly idle: PooledConnection[] = [];
  private readonly waiters: ((c: PooledConnection) => void)[] = [];
  private closed = false;

  private constructor(
    readonly instance: DuckDBInstance,
    private readonly opts: EngineOptions,
  ) {}

  /** Opens (or creates) the database file; its catalog name is the file's stem. */
  static async open(path: string, opts: EngineOptions): Promise<Engine> {
    const instance = await DuckDBInstance.create(path);
    const engine = new Engine(instance, opts);
    for (let i = 0; i < opts.connections; i++) {
      engine.idle.push({ conn: await instance.connect(), db: null });
    }
    return engine;
  }

  get defaults() {
    return { timeoutMs: this.opts.timeoutMs, maxRows: this.opts.maxRows };
  }

  private acquire(): Promise<PooledConnection> {
    if (this.closed)
      return Promise.reject(new ServiceError(ERROR_CODES.BUSY, 'The instance is shutting down'));
    const c = this.idle.pop();
    if (c) return Promise.resolve(c);
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

  private release(c: PooledConnection) {
    const next = this.waiters.shift();
    if (next) next(c);
    else this.idle.push(c);
  }

  /** Runs `fn` with a dedicated connection (for multi-statement work such as transactions). */
  async withConnection<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const c = await this.acquire();
    try {
      return await fn(c.conn);
    } finally {
      // The callback may have changed the current catalog; forget what we knew.
      c.db = null;
      this.release(c);
    }
  }

  /**
   * Runs `sql` on a pooled connection with the statement timeout and cancellation armed, and
   * hands the streaming result to `consume`. Errors become ServiceErrors with positions.
   */
  private async run<T>(
    sql: string,
    o: QueryOptions,
    consume: (result: DuckDBResult) => Promise<T>,
  ): Promise<T> {
    const timeoutMs = o.timeoutMs ?? this.opts.timeoutMs;
    if (o.signal?.aborted)
      throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');
    const pooled = await this.acquire();
    const { conn } = pooled;
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
      if (o.db && pooled.db !== o.db) {
        pooled.db = null;
        await conn.run(`USE ${quoteIdent(o.db)}`);
        pooled.db = o.db;
      }
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
      const result = await conn.stream(sql, values, types);
      return await consume(result);
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
      this.release(pooled);
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

  /**
   * Moves idle connections whose current catalog is `name` back to `fallback`, so the catalog can
   * be detached (DuckDB refuses to detach a connection's default database).
   */
  async leaveDatabase(name: string, fallback: string): Promise<void> {
    for (const c of this.idle) {
      if (c.db?.toLowerCase() === name.toLowerCase()) {
        await c.conn.run(`USE ${quoteIdent(fallback)}`);
        c.db = fallback;
      }
    }
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
    return this.query(sql, { maxRows: Number.MAX_SAFE_INTEGER, timeoutMs: 10 * 60_000 });
  }

  /** Convenience for internal statements (catalog, loaders): rows as arrays, no cap. */
  async rows(sql: string, params?: Record<string, unknown>, db?: string): Promise<JsonValue[][]> {
    const r = await this.query(sql, {
      params,
      db,
      maxRows: Number.MAX_SAFE_INTEGER,
      timeoutMs: 10 * 60_000,
    });
    return r.rows;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.idle.splice(0)) c.conn.closeSync();
    this.instance.closeSync();
  }
}
