/**
 * One PostgreSQL integration (`CREATE DATABASE x WITH ENGINE = 'postgres'`): its parameters, a
 * small `pg` pool opened lazily, and the three ways the instance reads from it: a capped query
 * (pushed-down SELECTs and native queries), a chunked read through a server-side cursor (joins
 * and training data), and the table listing. Every failure becomes a ServiceError that names the
 * integration and what to fix, and never contains the password.
 *
 * Why a server-side cursor (DECLARE/FETCH in a transaction) rather than LIMIT: it keeps memory
 * bounded for reads of any size without rewriting the user's SQL, and works for any query,
 * including ones that end in their own LIMIT/ORDER BY or are not wrappable as a subquery.
 */
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import {
  ERROR_CODES,
  ServiceError,
  badInput,
  notFound,
  type ErrorCode,
  type ErrorPosition,
} from '../errors';
import type { JsonValue } from '../engine/values';
import { BinaryCopyDecoder, binaryRead, type ColumnBatch } from './pg-binary';
import { pgCopyStreams, pgLib } from './pg-lib';
import { duckTypeName, getTypeParser, rowToJson } from './pg-values';

/** Connect timeout: an unreachable host fails this fast instead of hanging the statement. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Rows fetched per round trip by chunked reads. */
export const DEFAULT_CHUNK_ROWS = 10_000;

export interface PostgresParams {
  host: string;
  port: number;
  user: string;
  password?: string;
  database: string;
  schema: string;
  sslmode?: 'disable' | 'allow' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';
  /** Seconds, as in libpq's connect_timeout; default CONNECT_TIMEOUT_MS. */
  connect_timeout?: number;
}

const ALLOWED = [
  'host',
  'port',
  'user',
  'password',
  'database',
  'schema',
  'sslmode',
  'connect_timeout',
] as const;
const REQUIRED = ['host', 'user', 'database'] as const;
const SSLMODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

/**
 * Checks PARAMETERS before anything connects, so each mistake gets its own message. `port` may
 * be a number or a numeric string (MindsDB examples use both); `password` may be omitted for
 * servers that trust the client.
 */
export function validatePostgresParams(raw: Record<string, unknown>): PostgresParams {
  const keys = Object.keys(raw);
  const unknown = keys.filter((k) => !(ALLOWED as readonly string[]).includes(k));
  if (unknown.length > 0) {
    throw badInput(
      `Unknown PARAMETERS for engine 'postgres': ${unknown.join(', ')}; the parameters are: ${ALLOWED.join(', ')}`,
    );
  }
  const missing = REQUIRED.filter((k) => raw[k] === undefined || raw[k] === null || raw[k] === '');
  if (missing.length > 0) {
    throw badInput(
      `Missing PARAMETERS for engine 'postgres': ${missing.join(', ')} (required: ${REQUIRED.join(', ')}; optional: port, password, schema, sslmode, connect_timeout)`,
    );
  }
  const str = (k: string): string | undefined => {
    const v = raw[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string')
      throw badInput(`Parameter '${k}' must be a string, got ${describe(v)}`);
    return v;
  };
  let port = 5432;
  if (raw.port !== undefined && raw.port !== null) {
    const p =
      typeof raw.port === 'string' && /^\s*\d+\s*$/.test(raw.port) ? Number(raw.port) : raw.port;
    if (typeof p !== 'number' || !Number.isInteger(p) || p < 1 || p > 65535) {
      throw badInput(
        `Parameter 'port' must be an integer between 1 and 65535, got ${describe(raw.port)}`,
      );
    }
    port = p;
  }
  let connectTimeout: number | undefined;
  if (raw.connect_timeout !== undefined && raw.connect_timeout !== null) {
    const t =
      typeof raw.connect_timeout === 'string' ? Number(raw.connect_timeout) : raw.connect_timeout;
    if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0 || t > 300) {
      throw badInput(
        `Parameter 'connect_timeout' must be a number of seconds between 1 and 300, got ${describe(raw.connect_timeout)}`,
      );
    }
    connectTimeout = t;
  }
  const sslmode = str('sslmode');
  if (sslmode !== undefined && !SSLMODES.includes(sslmode)) {
    throw badInput(`Parameter 'sslmode' must be one of ${SSLMODES.join(', ')}, got '${sslmode}'`);
  }
  const schema = str('schema') || 'public';
  return {
    host: str('host')!,
    port,
    user: str('user')!,
    password: str('password'),
    database: str('database')!,
    schema,
    ...(sslmode ? { sslmode: sslmode as PostgresParams['sslmode'] } : {}),
    ...(connectTimeout ? { connect_timeout: connectTimeout } : {}),
  };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `'${v}'`;
  return `${typeof v} ${String(v)}`;
}

/** A PostgreSQL identifier, always quoted (so case and odd characters survive). */
export const pgIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface RemoteResult {
  kind: 'table' | 'ok';
  columns: string[];
  types: string[];
  rows: JsonValue[][];
  truncated: boolean;
  affectedRows: number | null;
}

export interface RemoteQueryOptions {
  maxRows: number;
  timeoutMs: number;
  signal?: AbortSignal;
  values?: unknown[];
  /** Maps an offset in the SQL sent to an offset in what the user wrote, for error positions. */
  position?: (offset: number) => ErrorPosition;
}

export interface RemoteColumn {
  name: string;
  /** PostgreSQL type OID. */
  oid: number;
}

export interface ChunkReadOptions {
  chunkRows?: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export type ChunkHandler = (rows: JsonValue[][], columns: RemoteColumn[]) => void | Promise<void>;

type BatchHandler = (batch: ColumnBatch, columns: RemoteColumn[]) => Promise<void>;

/** Statements DECLARE ... CURSOR accepts; anything else runs directly. */
const isQuery = (sql: string) => /^\s*(\(|select\b|with\b|values\b|table\b)/i.test(sql);

/**
 * Errors thrown by the handler a chunked read hands its rows to (the instance loading a batch into
 * DuckDB, predicting, writing), remembered so that the transaction can tell them from its own.
 */
const consumerErrors = new WeakSet<object>();

/**
 * The reader's own failure (e.g. DuckDB refusing a batch): its error, not PostgreSQL's. What the
 * handler got from PostgreSQL or the network (writing the batch to PostgreSQL: an SQLSTATE or a
 * system error code, a dropped connection) is still read as PostgreSQL's.
 */
function ownError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !consumerErrors.has(err)) return false;
  const e = err as { code?: unknown; message?: unknown };
  return e.code === undefined && !/^Connection terminated/.test(String(e.message));
}

async function consumed(handle: () => Promise<void> | void): Promise<void> {
  try {
    await handle();
  } catch (err) {
    if (typeof err === 'object' && err !== null) consumerErrors.add(err);
    throw err;
  }
}

export class PostgresIntegration {
  private pool: pg.Pool | null = null;

  constructor(
    readonly name: string,
    readonly params: PostgresParams,
  ) {}

  private get connectTimeoutMs() {
    return this.params.connect_timeout ? this.params.connect_timeout * 1000 : CONNECT_TIMEOUT_MS;
  }

  private config(): pg.PoolConfig {
    const p = this.params;
    // Startup options: fixed date/time text formats so pg-values.ts parsers see one shape, and the
    // configured schema first on the search path so `pg.table` means `<schema>.table`.
    const searchPath = pgIdent(p.schema).replaceAll('\\', '\\\\').replaceAll(' ', '\\ ');
    return {
      host: p.host,
      port: p.port,
      user: p.user,
      password: p.password,
      database: p.database,
      ssl:
        !p.sslmode || p.sslmode === 'disable' || p.sslmode === 'allow' || p.sslmode === 'prefer'
          ? false
          : { rejectUnauthorized: p.sslmode === 'verify-ca' || p.sslmode === 'verify-full' },
      connectionTimeoutMillis: this.connectTimeoutMs,
      options: `-c search_path=${searchPath} -c DateStyle=ISO -c TimeZone=UTC -c IntervalStyle=postgres`,
      application_name: 'sql-model-playground',
      types: { getTypeParser: getTypeParser as pg.CustomTypesConfig['getTypeParser'] },
      max: 4,
      idleTimeoutMillis: 30_000,
      allowExitOnIdle: true,
      keepAlive: true,
    };
  }

  private getPool(): pg.Pool {
    if (!this.pool) {
      this.pool = new (pgLib().Pool)(this.config());
      // An idle connection dropped by the server (restart, network) must not crash the process;
      // the pool replaces it on the next checkout.
      this.pool.on('error', () => undefined);
    }
    return this.pool;
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.getPool().connect();
    } catch (err) {
      throw this.connectError(err);
    }
  }

  /**
   * Connects once and checks the schema exists: what CREATE DATABASE runs before recording the
   * integration, so a wrong host, port, password or schema is reported and nothing is created.
   */
  async check(): Promise<void> {
    const client = await this.connect();
    try {
      const r = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [
        this.params.schema,
      ]);
      if (r.rowCount === 0) {
        throw notFound(
          `Schema '${this.params.schema}' does not exist in PostgreSQL database '${this.params.database}' (set "schema" in PARAMETERS; the default is public)`,
        );
      }
    } catch (err) {
      throw err instanceof ServiceError ? err : this.queryError(err);
    } finally {
      client.release();
    }
  }

  /**
   * Runs one statement with the row cap (a cursor fetching maxRows + 1 rows for queries) and the
   * statement timeout (SET LOCAL statement_timeout, so PostgreSQL itself stops the work).
   */
  async query(sql: string, o: RemoteQueryOptions): Promise<RemoteResult> {
    const cursor = isQuery(sql);
    const declare = 'DECLARE __playground_cursor NO SCROLL CURSOR FOR ';
    // PostgreSQL's error positions count from the start of the DECLARE.
    const position =
      o.position && cursor ? (offset: number) => o.position!(offset - declare.length) : o.position;
    return this.inTransaction(
      { ...o, position },
      async (client) => {
        if (cursor) {
          await client.query({ text: `${declare}${sql}`, values: o.values });
          const r = await client.query({
            text: `FETCH FORWARD ${o.maxRows + 1} FROM __playground_cursor`,
            rowMode: 'array',
          });
          await client.query('CLOSE __playground_cursor');
          const truncated = r.rows.length > o.maxRows;
          const rows = (truncated ? r.rows.slice(0, o.maxRows) : r.rows).map(rowToJson);
          return tableResult(r.fields, rows, truncated);
        }
        const r = await client.query({ text: sql, values: o.values, rowMode: 'array' });
        const last = Array.isArray(r) ? (r[r.length - 1] as pg.QueryArrayResult) : r;
        if (last.fields && last.fields.length > 0) {
          const truncated = last.rows.length > o.maxRows;
          return tableResult(
            last.fields,
            (truncated ? last.rows.slice(0, o.maxRows) : last.rows).map(rowToJson),
            truncated,
          );
        }
        return {
          kind: 'ok',
          columns: [],
          types: [],
          rows: [],
          truncated: false,
          affectedRows: last.rowCount ?? null,
        };
      },
      false,
    );
  }

  /**
   * Reads a query's rows in chunks through a server-side cursor, awaiting `onChunk` before the
   * next fetch (so a slow consumer holds at most one chunk in memory). Runs READ ONLY: training
   * and joins only read.
   */
  async readRows(
    sql: string,
    onChunk: ChunkHandler,
    o: ChunkReadOptions,
  ): Promise<{ columns: RemoteColumn[]; rowCount: number }> {
    const chunkRows = Math.max(1, Math.floor(o.chunkRows ?? DEFAULT_CHUNK_ROWS));
    return this.inTransaction(
      { timeoutMs: o.timeoutMs, signal: o.signal },
      async (client) => {
        await client.query(`DECLARE __playground_reader NO SCROLL CURSOR FOR ${sql}`);
        let columns: RemoteColumn[] = [];
        let rowCount = 0;
        const fetch = () => {
          const f = client.query({
            text: `FETCH FORWARD ${chunkRows} FROM __playground_reader`,
            rowMode: 'array',
          });
          // Awaited below; a rejection while `onChunk` runs surfaces there, not as unhandled.
          f.catch(() => undefined);
          return f;
        };
        let next = fetch();
        for (;;) {
          const r = await next;
          const more = r.rows.length >= chunkRows;
          // The next chunk is read in PostgreSQL while this one is handled here (two in memory).
          if (more) next = fetch();
          if (rowCount === 0) columns = r.fields.map((f) => ({ name: f.name, oid: f.dataTypeID }));
          if (r.rows.length > 0) {
            rowCount += r.rows.length;
            await consumed(() => onChunk(r.rows.map(rowToJson), columns));
          }
          if (!more) break;
          if (o.signal?.aborted)
            throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled');
        }
        await client.query('CLOSE __playground_reader');
        return { columns, rowCount };
      },
      true,
    );
  }

  /**
   * Reads a query's rows as typed columns in batches of `chunkRows`, awaiting `onBatch` before
   * more is decoded: `COPY (query) TO STDOUT (FORMAT binary)` decoded by pg-binary.ts (no text of
   * each value, no row arrays), or, when a column has a type that decoder leaves to pg's parsers,
   * the cursor read of `readRows` turned into columns. Runs READ ONLY.
   *
   * The COPY is one statement however long the read: the statement timeout bounds each wait for
   * PostgreSQL's next bytes (as it bounds each FETCH of the cursor read), not the whole read.
   * While `onBatch` runs nothing is read: the socket fills and PostgreSQL waits (bounded memory).
   */
  async readBatches(
    sql: string,
    onBatch: BatchHandler,
    o: ChunkReadOptions,
  ): Promise<{ columns: RemoteColumn[]; rowCount: number }> {
    const chunkRows = Math.max(1, Math.floor(o.chunkRows ?? DEFAULT_CHUNK_ROWS));
    const shape = await this.inTransaction(
      { timeoutMs: o.timeoutMs, signal: o.signal },
      async (client) => {
        const r = await client.query({
          text: `SELECT * FROM (${sql}\n) AS __q LIMIT 0`,
          rowMode: 'array',
        });
        return r.fields.map((f) => ({ name: f.name, oid: f.dataTypeID }));
      },
      true,
    );
    const plan = binaryRead(sql, shape);
    if (!plan) {
      return this.readRows(
        sql,
        (rows, columns) => onBatch(columnsOf(rows, columns.length), columns),
        o,
      );
    }
    return this.inTransaction(
      { timeoutMs: o.timeoutMs, signal: o.signal },
      async (client) => {
        await client.query('SET LOCAL statement_timeout = 0');
        const decoder = new BinaryCopyDecoder(plan.kinds, chunkRows);
        const stream = client.query(pgCopyStreams().to(plan.copy, { highWaterMark: 1 << 20 }));
        // Ended or failed: pg-copy-streams reports a server error with an 'error' event, not
        // by destroying the stream, so neither `finished` nor `destroyed` can tell.
        let over = false;
        const done = () => void (over = true);
        stream.once('end', done);
        stream.once('error', done);
        const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        let rowCount = 0;
        let stalled = false;
        const handle = async (batch: ColumnBatch) => {
          rowCount += batch.n;
          await consumed(() => onBatch(batch, shape));
          if (o.signal?.aborted)
            throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled');
        };
        try {
          for (;;) {
            const timer = setTimeout(() => {
              stalled = true;
              void this.cancelBackend(client);
            }, o.timeoutMs);
            let next: IteratorResult<Buffer>;
            try {
              next = await it.next();
            } finally {
              clearTimeout(timer);
            }
            if (next.done) break;
            for (const batch of decoder.push(next.value)) await handle(batch);
          }
          const last = decoder.end();
          if (last) await handle(last);
        } catch (err) {
          // The COPY may still be sending: cancel it and read it to its end, so the connection
          // takes the ROLLBACK (pg queues it behind the COPY).
          if (!over) {
            await this.cancelBackend(client);
            try {
              while (!(await it.next()).done);
            } catch {
              // The cancel's own error: what follows is the ROLLBACK.
            }
          }
          if (stalled && !(err instanceof ServiceError)) {
            throw new ServiceError(
              ERROR_CODES.TIMEOUT,
              `PostgreSQL sent no rows for longer than the statement timeout (${o.timeoutMs} ms) on integration '${this.name}'; the read was cancelled`,
            );
          }
          throw err;
        }
        return { columns: shape, rowCount };
      },
      true,
    );
  }

  /**
   * Runs `fn` in one read-write transaction on one connection: every statement it runs through
   * `exec` commits together when `fn` returns, and is rolled back when it throws or `signal`
   * aborts (the running statement is cancelled on the server). What a scoring stream writes its
   * batches through (server/sql/plan/stream.ts).
   */
  async writeTransaction<T>(
    fn: (
      exec: (
        sql: string,
        values?: unknown[],
      ) => Promise<{ rowCount: number | null; rows: JsonValue[][] }>,
      copyIn: (sql: string, data: string | readonly Buffer[]) => Promise<number>,
    ) => Promise<T>,
    o: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<T> {
    const check = () => {
      if (o.signal?.aborted)
        throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');
    };
    return this.inTransaction(
      o,
      (client) =>
        fn(
          async (sql, values) => {
            check();
            const r = await client.query({ text: sql, values, rowMode: 'array' });
            return { rowCount: r.rowCount ?? null, rows: r.rows.map(rowToJson) };
          },
          async (sql, data) => {
            check();
            // `COPY ... FROM STDIN`: PostgreSQL parses the rows straight into the table (no
            // statement text, parameters or casts per value, as an INSERT of arrays has); binary
            // data (buffers) is taken as it is.
            const stream = client.query(pgCopyStreams().from(sql));
            if (typeof data === 'string') stream.end(data);
            else {
              for (const part of data) stream.write(part);
              stream.end();
            }
            await finished(stream);
            return stream.rowCount;
          },
        ),
      false,
    );
  }

  /** The columns a query returns, without running it to completion (`LIMIT 0` on the server). */
  async columns(sql: string, timeoutMs: number): Promise<RemoteColumn[]> {
    return this.inTransaction(
      { timeoutMs },
      async (client) => {
        const r = await client.query({
          text: `SELECT * FROM (${sql}) AS __q LIMIT 0`,
          rowMode: 'array',
        });
        return r.fields.map((f) => ({ name: f.name, oid: f.dataTypeID }));
      },
      true,
    );
  }

  /** Tables and views of the configured schema, typed the way SHOW FULL TABLES shows them. */
  async listTables(timeoutMs: number): Promise<{ name: string; type: string }[]> {
    return this.inTransaction(
      { timeoutMs },
      async (client) => {
        const r = await client.query<{ table_name: string; table_type: string }>(
          `SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
          [this.params.schema],
        );
        return r.rows.map((row) => ({ name: row.table_name, type: row.table_type }));
      },
      true,
    );
  }

  async close(): Promise<void> {
    const p = this.pool;
    this.pool = null;
    await p?.end().catch(() => undefined);
  }

  /**
   * Checks out a client, runs `fn` in a transaction with the statement timeout, and returns the
   * client to the pool in a clean state. Cancelling (`signal`) asks the server to cancel the
   * running statement from a second connection, as psql's Ctrl+C does.
   */
  private async inTransaction<T>(
    o: { timeoutMs: number; signal?: AbortSignal; position?: (offset: number) => ErrorPosition },
    fn: (client: pg.PoolClient) => Promise<T>,
    readOnly: boolean,
  ): Promise<T> {
    if (o.signal?.aborted) throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled');
    const client = await this.connect();
    let cancelled = false;
    const onAbort = () => {
      cancelled = true;
      void this.cancelBackend(client);
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    let broken: Error | undefined;
    try {
      await client.query(readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
      await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(o.timeoutMs))}`);
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch (e) {
        broken = e as Error;
      }
      if (cancelled)
        throw new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');
      if (err instanceof ServiceError || ownError(err)) throw err;
      throw this.queryError(err, o.timeoutMs, o.position);
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
      client.release(broken);
    }
  }

  private async cancelBackend(client: pg.PoolClient): Promise<void> {
    const pid = (client as unknown as { processID?: number }).processID;
    if (!pid) return;
    const c = new (pgLib().Client)({ ...this.config(), options: undefined });
    try {
      await c.connect();
      await c.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch {
      // Best effort: the statement timeout still ends the work.
    } finally {
      await c.end().catch(() => undefined);
    }
  }

  private where() {
    return `PostgreSQL at ${this.params.host}:${this.params.port}`;
  }

  /** Errors while connecting: the network, the server, or the credentials. */
  connectError(err: unknown): ServiceError {
    if (err instanceof ServiceError) return err;
    const e = err as Error & { code?: string };
    const msg = e.message ?? String(err);
    const prefix = `Cannot connect to integration '${this.name}' (${this.where()}, database '${this.params.database}', user '${this.params.user}')`;
    // Whether the port is closed, filtered or answered by something that is not PostgreSQL gets
    // one message: CREATE DATABASE must not work as a port scanner of the instance's network.
    const unreachable = badInput(
      `${prefix}: no PostgreSQL server answered (connection refused, host unreachable, no answer within ${Math.round(this.connectTimeoutMs / 1000)} s, or not PostgreSQL); check the host, port, firewall and "sslmode", and that the server is running`,
    );
    switch (e.code) {
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return badInput(`${prefix}: host '${this.params.host}' not found`);
      case '28P01':
        return badInput(`${prefix}: password authentication failed; check "user" and "password"`);
      case '28000':
        return badInput(`${prefix}: the server rejected the login: ${msg}`);
      case '3D000':
        return notFound(
          `${prefix}: database '${this.params.database}' does not exist on the server`,
        );
      case '53300':
        return new ServiceError(ERROR_CODES.BUSY, `${prefix}: the server has too many connections`);
      default:
        break; // other codes, or none: told apart below
    }
    // A server error (SQLSTATE) means a PostgreSQL server answered: its message helps the user.
    if (e.code && /^[0-9A-Z]{5}$/.test(e.code)) return badInput(`${prefix}: ${msg}`);
    if (/SASL|SCRAM|password/i.test(msg)) return badInput(`${prefix}: ${msg}`);
    return unreachable;
  }

  /** Errors of a statement on the server, with PostgreSQL's SQLSTATE mapped to our codes. */
  queryError(
    err: unknown,
    timeoutMs?: number,
    position?: (offset: number) => ErrorPosition,
  ): ServiceError {
    if (err instanceof ServiceError) return err;
    const e = err as Error & { code?: string; position?: string };
    const code = e.code ?? '';
    if (!/^[0-9A-Z]{5}$/.test(code)) {
      // Not a server error: the connection dropped or never came up.
      return this.connectError(err);
    }
    if (code === '57014') {
      return new ServiceError(
        ERROR_CODES.TIMEOUT,
        `The statement ran longer than the statement timeout${timeoutMs ? ` (${timeoutMs} ms)` : ''} on integration '${this.name}' and was cancelled`,
      );
    }
    const at = e.position && position ? position(Number(e.position) - 1) : undefined;
    const text = `PostgreSQL error from '${this.name}': ${e.message}`;
    const fail = (c: ErrorCode) => new ServiceError(c, text, undefined, at);
    if (code === '42601') return fail(ERROR_CODES.SYNTAX);
    if (
      code === '42P01' ||
      code === '42703' ||
      code === '42883' ||
      code === '3F000' ||
      code === '42704'
    )
      return fail(ERROR_CODES.NOT_FOUND);
    if (code === '25006') return fail(ERROR_CODES.FORBIDDEN);
    if (code === '42501') return fail(ERROR_CODES.FORBIDDEN);
    if (
      code.startsWith('08') ||
      code.startsWith('28') ||
      code === '3D000' ||
      code.startsWith('57P')
    )
      return this.connectError(err);
    if (code === '54000' || code === '53200') return fail(ERROR_CODES.TOO_LARGE);
    return fail(ERROR_CODES.BAD_INPUT);
  }
}

/** Rows of the cursor read as a batch of columns (types left to the loader). */
function columnsOf(rows: JsonValue[][], width: number): ColumnBatch {
  const columns: ColumnBatch['columns'] = [];
  for (let j = 0; j < width; j++) {
    const values = new Array<JsonValue>(rows.length);
    for (let i = 0; i < rows.length; i++) values[i] = rows[i][j];
    columns.push({ kind: 'json', values });
  }
  return { n: rows.length, columns };
}

function tableResult(fields: pg.FieldDef[], rows: JsonValue[][], truncated: boolean): RemoteResult {
  return {
    kind: 'table',
    columns: fields.map((f) => f.name),
    types: fields.map((f) => duckTypeName(f.dataTypeID)),
    rows,
    truncated,
    affectedRows: null,
  };
}
