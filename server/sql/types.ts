/** Types shared by the statement handlers of the SQL layer. */
import type { EngineSession } from '../engine/duckdb';
import type { JsonValue } from '../engine/values';
import type { Token } from './lexer';

export interface Statement {
  /** The statement's text, trimmed, without the trailing semicolon. */
  text: string;
  /** All tokens of `text` (offsets relative to `text`). */
  all: Token[];
  /** Tokens without whitespace and comments. */
  tokens: Token[];
  /** Where `text` starts in the script the user sent. */
  offset: number;
  script: string;
}

export interface ExecContext {
  /** Current database (the request's context.db, after earlier USE statements of the script). */
  db: string;
  params?: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * The request's own engine connection: user SQL runs here, so one request's statements share
   * temporary objects and nothing of them reaches another request (see engine/duckdb.ts).
   */
  session: EngineSession;
}

export type SqlResult =
  | {
      type: 'table';
      column_names: string[];
      data: JsonValue[][];
      truncated?: boolean;
      column_types?: string[];
    }
  | { type: 'ok'; affected_rows?: number | null };

export interface Outcome {
  result: SqlResult;
  /** The current database after the statement (USE changes it). */
  db?: string;
}

/**
 * One kind of statement the instance handles itself. `match` looks only at the leading tokens;
 * handlers are tried in order and the first match runs. Unmatched statements go to DuckDB.
 */
export interface StatementHandler {
  name: string;
  match(st: Statement): boolean;
  run(st: Statement, ctx: ExecContext): Promise<Outcome>;
}
