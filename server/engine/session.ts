/**
 * A request's session on DuckDB: one fresh connection per session, one statement at a time, each
 * with the statement timeout (a timer that interrupts the engine, not just the response),
 * cancellation, parameters, and the statement guard of guard.ts for client SQL.
 *
 * Isolation: every session (one HTTP request's statements, or one internal call) runs on a FRESH
 * DuckDB connection that is closed when it ends. Closing rolls back a transaction left open and
 * drops the connection's temporary objects, settings and current database, so no client's state
 * can reach another (a shared pool let one client's stray BEGIN swallow other clients' writes).
 * A connection costs ~0.25 ms to open, use and close. What a client statement may do to the
 * instance as a whole is decided in guard.ts.
 *
 * A session runs one statement at a time: DuckDB keeps one pending result per connection, and a
 * second statement started while a result is being read would invalidate it.
 */
import {
  StatementType,
  BIGINT,
  DOUBLE,
  VARCHAR,
  BOOLEAN,
  SQLNULL,
  type DuckDBConnection,
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
import { guardJsonCalls } from './json-guard';
import { statementHash } from './journal';
import { quoteIdent } from './quote';
import {
  ReadEnded,
  readResult,
  streamResult,
  type EarlyEnd,
  type ReadControl,
  type EngineResult,
  type StreamSink,
  type StreamSummary,
} from './results';
import type { Timings } from './timings';

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
  /** What the statement is for, in the status's list of long-running work (default: its text). */
  label?: string;
}

/** What V8 says when a result's value does not fit in a JavaScript string or array. */
const JS_VALUE_LIMIT =
  /Cannot create a string longer than|Invalid string length|Invalid typed array length|Array buffer allocation failed/;
/** The longest string V8 holds (0x1fffffe8 UTF-16 units). */
const MAX_STRING_CHARS = 0x1fffffe8;

/** A value of the result is too large to hand to JavaScript: refused with the limit named. */
function valueTooLarge(): ServiceError {
  return new ServiceError(
    ERROR_CODES.TOO_LARGE,
    `A value in the result is too large to return: the limit is ${MAX_STRING_CHARS.toLocaleString('en-US')} characters for one value (the longest string the instance's JavaScript engine holds); select a part of it (left(), substr()) or its length`,
  );
}

/** A session's defaults: the statement timeout, the row cap and a client's byte cap. */
export interface SessionLimits {
  timeoutMs: number;
  maxRows: number;
  /** Default byte cap of a client request's result (MAX_RESULT_BYTES); unlimited when unset. */
  maxBytes?: number;
}

/** What a session needs of its engine (`Engine` in duckdb.ts). */
export interface SessionHost {
  /** A new connection on the current DuckDB instance (sessions call it inside `enter`). */
  connect(): Promise<DuckDBConnection>;
  /** Registers a statement about to run (for the pool's health); `what` names it. */
  enter(timeoutMs: number, what: string): Promise<Ticket>;
  leave(t: Ticket): void;
  /** Where client `COPY ... TO` may write. */
  writeRules(): WriteRules;
  /** JSON_MAX_DEPTH: how deep JSON may nest in the input of DuckDB's recursing JSON functions. */
  readonly jsonMaxDepth: number;
  /** The crash journal (journal.ts): a slot written before a statement runs, cleared after. */
  journalBegin(text: string, hash: string | null): number | null;
  journalEnd(slot: number | null): void;
  /** Why a client statement is refused on sight (it crashed the engine), or null. */
  quarantineReason(statement: string): string | null;
  /** User functions named like built-ins: now, and before any client statement ran. */
  shadowing(conn: DuckDBConnection): Promise<Set<string>>;
  shadowingBaseline(conn: DuckDBConnection): Promise<Set<string>>;
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
export interface Ticket {
  start: number;
  /** When it should have ended by (its timeout); later means the pool is wedged. */
  deadline: number;
  /** What runs: a label, or the (client's) statement. */
  what: string;
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
  /** The client's statement this session runs for now (what the crash journal records). */
  private current: { text: string; hash: string } | null = null;

  /**
   * @param client a client request's session (limited): its results are capped at the byte cap
   *   by default; the instance's own work (training data, internal queries) is not
   */
  constructor(
    private readonly engine: SessionHost,
    private readonly opts: SessionLimits,
    private readonly client = false,
    private readonly timings?: Timings,
  ) {}

  /** The open connection (only while a statement or raw job of this session is running). */
  private async conn(): Promise<DuckDBConnection> {
    if (this.connection) return this.connection;
    const t0 = performance.now();
    this.connection = await this.engine.connect();
    this.timings?.add('connect', performance.now() - t0);
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

  /** Ends the running statement, if one runs: it fails as interrupted (never a quiet end). */
  interrupt(): void {
    if (this.endRunning) this.endRunning('interrupt');
    else this.connection?.interrupt();
  }

  /** Ends the statement running now (set while one runs). */
  private endRunning: ((why: EarlyEnd) => void) | null = null;

  /**
   * Names the client statement (as the user wrote it) that the next engine statements run for,
   * so the crash journal records it; null when none. Refuses a statement that was running when
   * the engine crashed (journal.ts).
   */
  clientStatement(text: string | null): void {
    if (text === null) {
      this.current = null;
      return;
    }
    const refused = this.engine.quarantineReason(text);
    if (refused) throw new ServiceError(ERROR_CODES.FORBIDDEN, refused);
    this.current = { text: text.trim(), hash: statementHash(text) };
  }

  /** Writes the statement about to run into the crash journal. */
  private journal(sql: string): number | null {
    return this.engine.journalBegin(this.current?.text ?? sql, this.current?.hash ?? null);
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
      const ticket = await this.engine.enter(10 * 60_000, this.current?.text ?? 'internal work');
      const slot = this.current ? this.journal(this.current.text) : null;
      try {
        return await fn(await this.conn());
      } finally {
        this.engine.journalEnd(slot);
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
    consume: (result: DuckDBResult, ctl: ReadControl, type: StatementType) => Promise<T>,
  ): Promise<T> {
    return this.inTurn(() => this.runNow(sql, o, consume));
  }

  private async runNow<T>(
    sql: string,
    o: QueryOptions,
    consume: (result: DuckDBResult, ctl: ReadControl, type: StatementType) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new Error('engine session used after it ended');
    const timeoutMs = o.timeoutMs ?? this.opts.timeoutMs;
    if (o.signal?.aborted)
      throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');
    const ticket = await this.engine.enter(timeoutMs, o.label ?? this.current?.text ?? sql);
    const slot = this.journal(sql);
    /** Why the statement was ended early, if it was: checked after reading, never a quiet end. */
    let ended: EarlyEnd | null = null;
    let stop: (err: Error) => void = () => undefined;
    const abort = new Promise<never>((_, reject) => (stop = reject));
    abort.catch(() => undefined);
    const end = (why: EarlyEnd) => {
      ended ??= why;
      this.connection?.interrupt();
      stop(new Error(why));
    };
    const ctl: ReadControl = { abort, ended: () => ended !== null, end, sql };
    const timer = setTimeout(() => end('timeout'), timeoutMs);
    const onAbort = () => end('cancel');
    o.signal?.addEventListener('abort', onAbort, { once: true });
    this.endRunning = end;
    let inTransaction = false;
    let conn: DuckDBConnection | null = null;
    let errorSql = sql;
    let errorScript: string | undefined;
    let errorOffset: ((offset: number) => number) | undefined;
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
      // The text checks come first: binding a statement (in prepare) already parses SQL that
      // table functions such as query() carry in strings.
      if (!o.internal) {
        guardStatementText(sql);
        guardCopy(sql, this.engine.writeRules());
        const guarded = guardJsonCalls(sql, this.engine.jsonMaxDepth);
        if (guarded) {
          // Errors still point at what the user wrote.
          const { script, offsetInScript, sourceOffset } = o;
          errorSql = guarded.sql;
          errorOffset = (at) =>
            sourceOffset
              ? sourceOffset(guarded.toOriginal(at))
              : (offsetInScript ?? 0) + guarded.toOriginal(at);
          errorScript = script ?? sql;
          sql = guarded.sql;
        }
      }
      const preparing = performance.now();
      const prepared = await prepareOne(conn, sql);
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
        // Cancelled or timed out while connecting, preparing or guarding: DuckDB's interrupt hit
        // no running statement then, and this one would run to the statement timeout.
        if (ended) throw new ReadEnded();
        const executing = performance.now();
        this.timings?.add('prepare', executing - preparing);
        const result = await prepared.stream();
        const out = await consume(result, ctl, prepared.statementType);
        this.timings?.add('execute', performance.now() - executing);
        // An interrupt that came after DuckDB's last chunk still ended the statement early.
        if (ended) throw new ReadEnded();
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
      if (ended === 'timeout') {
        throw new ServiceError(
          ERROR_CODES.TIMEOUT,
          `The statement ran longer than the statement timeout (${timeoutMs} ms) and was interrupted`,
        );
      }
      if (ended === 'cancel')
        throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');
      if (ended === 'interrupt' || err instanceof ReadEnded)
        throw new ServiceError(
          ERROR_CODES.TIMEOUT,
          'The statement was interrupted before it finished',
        );
      if (err instanceof Error && JS_VALUE_LIMIT.test(err.message)) throw valueTooLarge();
      throw fromDuckDBError(
        err,
        errorSql,
        o.offsetInScript ?? 0,
        errorScript ?? o.script ?? errorSql,
        errorOffset ?? o.sourceOffset,
      );
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      this.endRunning = null;
      this.engine.journalEnd(slot);
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

  /**
   * DuckDB's own kind of a client statement (`DELETE`, `CREATE`, `EXPLAIN`, ...), without running
   * it: the statement guard's checks, then DuckDB parses and binds it (binding reads the catalog,
   * never data). Throws what running it would throw at those steps. For the SQL layer's dry
   * classification (server/sql/classify.ts).
   */
  statementType(sql: string, o: Pick<QueryOptions, 'db' | 'signal' | 'timeoutMs'> = {}) {
    return this.inTurn(async (): Promise<string> => {
      if (this.closed) throw new Error('engine session used after it ended');
      const timeoutMs = o.timeoutMs ?? this.opts.timeoutMs;
      const ticket = await this.engine.enter(timeoutMs, this.current?.text ?? sql);
      const slot = this.journal(sql);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        this.interrupt();
      }, timeoutMs);
      try {
        const conn = await this.conn();
        await this.useDb(conn, o.db);
        guardStatementText(sql);
        guardCopy(sql, this.engine.writeRules());
        const prepared = await prepareOne(
          conn,
          guardJsonCalls(sql, this.engine.jsonMaxDepth)?.sql ?? sql,
        );
        try {
          guardStatementType(prepared.statementType);
          return StatementType[prepared.statementType];
        } finally {
          prepared.destroySync();
        }
      } catch (err) {
        if (timedOut) {
          throw new ServiceError(
            ERROR_CODES.TIMEOUT,
            `Reading the statement took longer than the statement timeout (${timeoutMs} ms)`,
          );
        }
        throw fromDuckDBError(err, sql);
      } finally {
        clearTimeout(timer);
        this.engine.journalEnd(slot);
        this.engine.leave(ticket);
      }
    });
  }

  /** Runs one statement and returns its converted result (at most `maxRows` rows, `maxBytes`). */
  async query(sql: string, o: QueryOptions = {}): Promise<EngineResult> {
    const maxRows = o.maxRows ?? this.opts.maxRows;
    const maxBytes =
      o.maxBytes ?? (this.client ? this.opts.maxBytes : undefined) ?? Number.MAX_SAFE_INTEGER;
    return this.run(sql, o, (result, ctl, type) =>
      readResult(result, StatementType[type], maxRows, maxBytes, ctl),
    );
  }

  /**
   * Streams a statement's rows to `sink` chunk by chunk without holding the whole result: the
   * memory-safe path for big results. `sink.rows` may return a promise (backpressure); the engine
   * waits for it before fetching the next chunk, but not past the statement timeout or a
   * cancellation, so a reader that stops reading cannot hold the connection. Stops after
   * `maxRows` and reports truncation.
   */
  async stream(sql: string, o: QueryOptions, sink: StreamSink): Promise<StreamSummary> {
    const maxRows = o.maxRows ?? this.opts.maxRows;
    return this.run(sql, o, (result, ctl, type) =>
      streamResult(result, StatementType[type], sink, ctl, maxRows),
    );
  }

  /** Ends the session: DuckDB rolls back an open transaction and drops temporary objects. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.drop();
  }
}

/**
 * Parses and binds exactly one statement: DuckDB would otherwise run all but the last one unseen
 * (and unguarded). The SQL layer splits scripts before they get here.
 */
async function prepareOne(conn: DuckDBConnection, sql: string) {
  const extracted = await conn.extractStatements(sql);
  if (extracted.count !== 1) {
    throw new ServiceError(
      ERROR_CODES.BAD_INPUT,
      `Expected one SQL statement, found ${extracted.count}`,
    );
  }
  return extracted.prepare(0);
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
