/**
 * The SQL layer's entry point: splits a request's query into statements, routes each one to the
 * handler that owns it (model statements, SHOW, USE ...) or to DuckDB, carries the current
 * database from statement to statement, and returns the last statement's result. It knows nothing
 * about HTTP.
 */
import type { Catalog } from '../catalog/catalog';
import type { EngineResult } from '../engine/duckdb';
import type { JsonValue } from '../engine/values';
import { ERROR_CODES, ServiceError } from '../errors';
import { lineColumn, splitStatements, significant, tokenize, type Token } from './lexer';
import type { ExecContext, Outcome, SqlResult, Statement, StatementHandler } from './types';

export interface ExecuteRequest {
  query: string;
  db?: string;
  params?: Record<string, unknown>;
  signal?: AbortSignal;
}

export type ExecuteResponse =
  | (SqlResult & { db: string })
  | { type: 'error'; error_code: number; error_message: string; db: string };

/** Turns an engine result into the wire's table/ok shape. */
export function toSqlResult(r: EngineResult): SqlResult {
  if (r.kind === 'ok') return { type: 'ok', affected_rows: r.affectedRows };
  return {
    type: 'table',
    column_names: r.columns,
    data: r.rows,
    ...(r.truncated ? { truncated: true } : {}),
    column_types: r.types,
  };
}

/**
 * Rewrites the dialect differences DuckDB does not accept: backtick identifiers become
 * double-quoted, `:name` parameters become DuckDB's `$name`. Lengths are preserved so error
 * positions still point at the user's text.
 */
export function toDuckDBSql(all: Token[], text: string, params?: Record<string, unknown>): string {
  let out = '';
  let last = 0;
  for (const t of all) {
    if (t.kind === 'ident' && t.quote === '`') {
      out += text.slice(last, t.start) + `"${t.value.replaceAll('"', '""')}"`;
      last = t.end;
    } else if (t.kind === 'param') {
      if (!params || !(t.value in params)) {
        throw new ServiceError(ERROR_CODES.BAD_INPUT, `Parameter ':${t.value}' has no value in params`);
      }
      out += text.slice(last, t.start) + `$${t.value}`;
      last = t.end;
    }
  }
  return out + text.slice(last);
}

/** Receives a streamed result: a header, row chunks, then the end; or ok; or an error. */
export interface ResultSink {
  header(columns: string[], types: string[], db: string): Promise<void> | void;
  rows(rows: JsonValue[][]): Promise<void> | void;
  end(rowCount: number, truncated: boolean): Promise<void> | void;
  ok(affectedRows: number | null, db: string): Promise<void> | void;
  error(code: number, message: string, db: string): Promise<void> | void;
}

export class SqlService {
  readonly handlers: StatementHandler[] = [];

  constructor(readonly catalog: Catalog) {}

  /** Registers handlers ahead of the ones already there. */
  use(...handlers: StatementHandler[]): this {
    this.handlers.unshift(...handlers);
    return this;
  }

  /** The catalog the engine should `USE` for a context database (system databases have none). */
  engineDb(db: string): string | undefined {
    const info = this.catalog.databaseInfo(db);
    if (!info || info.type === 'system') return undefined;
    return info.name;
  }

  async runOnEngine(st: Statement, ctx: ExecContext, sql = toDuckDBSql(st.all, st.text, ctx.params)): Promise<Outcome> {
    const usesParams = st.all.some((t) => t.kind === 'param');
    const r = await this.catalog.engine.query(sql, {
      db: this.engineDb(ctx.db),
      params: usesParams ? ctx.params : undefined,
      signal: ctx.signal,
      offsetInScript: st.offset,
      script: st.script,
    });
    return { result: toSqlResult(r) };
  }

  async execute(req: ExecuteRequest): Promise<ExecuteResponse> {
    let db = this.catalog.databaseInfo(req.db ?? 'mindsdb')?.name ?? req.db ?? 'mindsdb';
    try {
      if (req.db !== undefined) this.catalog.requireDatabase(req.db);
      const spans = splitStatements(req.query);
      if (spans.length === 0) {
        throw new ServiceError(ERROR_CODES.BAD_INPUT, 'The query holds no SQL statement (only whitespace or comments)');
      }
      let last: SqlResult = { type: 'ok', affected_rows: null };
      for (const span of spans) {
        const all = tokenize(span.text);
        const bad = all.find((t) => t.unterminated);
        if (bad) {
          const kind = bad.kind === 'string' ? 'string' : bad.kind === 'comment' ? 'comment' : 'quoted identifier';
          const pos = lineColumn(req.query, span.start + bad.start);
          throw new ServiceError(ERROR_CODES.SYNTAX, `Unterminated ${kind} starting at line ${pos.line}, column ${pos.column}`);
        }
        const st: Statement = { text: span.text, all, tokens: significant(all), offset: span.start, script: req.query };
        const ctx: ExecContext = { db, params: req.params, signal: req.signal };
        const handler = this.handlers.find((h) => h.match(st));
        const outcome = handler ? await handler.run(st, ctx) : await this.runOnEngine(st, ctx);
        last = outcome.result;
        if (outcome.db) db = outcome.db;
      }
      return { ...last, db };
    } catch (err) {
      if (err instanceof ServiceError) {
        return { type: 'error', error_code: err.code, error_message: err.message, db };
      }
      throw err;
    }
  }

  /**
   * Like `execute`, but the last statement's rows go to `sink` chunk by chunk when DuckDB runs it
   * (the memory-safe path behind `response_format: "jsonlines"`). Statements the instance answers
   * itself are small and are emitted as one chunk.
   */
  async executeStream(req: ExecuteRequest, sink: ResultSink, maxRows: number): Promise<void> {
    let db = this.catalog.databaseInfo(req.db ?? 'mindsdb')?.name ?? req.db ?? 'mindsdb';
    const spans = splitStatements(req.query);
    const head = spans.slice(0, -1);
    const last = spans.at(-1);
    if (!last) {
      await sink.error(ERROR_CODES.BAD_INPUT, 'The query holds no SQL statement (only whitespace or comments)', db);
      return;
    }
    if (head.length > 0) {
      const before = await this.execute({ ...req, query: req.query.slice(0, last.start) });
      if (before.type === 'error') {
        await sink.error(before.error_code, before.error_message, before.db);
        return;
      }
      db = before.db;
    }
    try {
      if (req.db !== undefined && head.length === 0) this.catalog.requireDatabase(req.db);
      const all = tokenize(last.text);
      const st: Statement = { text: last.text, all, tokens: significant(all), offset: last.start, script: req.query };
      const handler = this.handlers.find((h) => h.match(st)) ?? all.find((t) => t.unterminated);
      if (handler) {
        const r = await this.execute({ ...req, query: last.text, db });
        if (r.type === 'error') return void (await sink.error(r.error_code, r.error_message, r.db));
        if (r.type === 'ok') return void (await sink.ok(r.affected_rows ?? null, r.db));
        await sink.header(r.column_names, r.column_types ?? [], r.db);
        if (r.data.length) await sink.rows(r.data);
        await sink.end(r.data.length, !!r.truncated);
        return;
      }
      let headerSent = false;
      const { rowCount, truncated } = await this.catalog.engine.stream(
        toDuckDBSql(st.all, st.text, req.params),
        {
          db: this.engineDb(db),
          params: st.all.some((t) => t.kind === 'param') ? req.params : undefined,
          signal: req.signal,
          maxRows,
          offsetInScript: st.offset,
          script: st.script,
        },
        {
          header: (columns, types) => {
            headerSent = true;
            return sink.header(columns, types, db);
          },
          rows: (rows) => sink.rows(rows),
          ok: (n) => sink.ok(n, db),
        },
      );
      if (headerSent) await sink.end(rowCount, truncated);
    } catch (err) {
      if (err instanceof ServiceError) return void (await sink.error(err.code, err.message, db));
      throw err;
    }
  }
}
