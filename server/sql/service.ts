/**
 * The SQL layer's entry point: splits a request's query into statements, routes each one to the
 * handler that owns it (model statements, SHOW, USE ...) or to DuckDB, carries the current
 * database from statement to statement, and returns the last statement's result. It knows nothing
 * about HTTP.
 */
import type { Catalog } from '../catalog/catalog';
import type { EngineResult } from '../engine/duckdb';
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
}
