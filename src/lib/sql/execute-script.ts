/**
 * Runs statements one after another, threading the returned `context` (so `USE x` applies to the
 * statements after it), stopping at the first error or abort. The executor is injected, so this is
 * the same for one statement (Ctrl+Enter) and a whole script (Ctrl+Shift+Enter).
 */
import type { SqlOkResponse, SqlQueryResponse, SqlTableResponse } from '../../../contract';
import type { Statement } from './split';

interface StatementResult {
  statement: Statement;
  response: SqlQueryResponse;
  durationMs: number;
}

export interface ScriptOutcome {
  /** Statements in the script. */
  total: number;
  /** Results of the statements that ran, in order. */
  results: StatementResult[];
  /** The last successful table/ok result (shown in the grid). */
  last?: StatementResult & { response: SqlTableResponse | SqlOkResponse };
  /** The SQL error that stopped the script, with the statement it came from. */
  error?: StatementResult & { response: Extract<SqlQueryResponse, { type: 'error' }> };
  /** A transport failure (instance down, HTTP 500, ...) with the statement it came from. */
  failure?: { statement: Statement; message: string };
  cancelled: boolean;
  db: string;
  durationMs: number;
}

export type Executor = (sql: string, db: string, signal: AbortSignal) => Promise<SqlQueryResponse>;

export async function executeScript(
  statements: Statement[],
  db: string,
  exec: Executor,
  signal: AbortSignal,
  onProgress?: (done: number, total: number) => void,
  now: () => number = () => performance.now(),
): Promise<ScriptOutcome> {
  const t0 = now();
  const out: ScriptOutcome = {
    total: statements.length,
    results: [],
    cancelled: false,
    db,
    durationMs: 0,
  };
  for (const statement of statements) {
    if (signal.aborted) {
      out.cancelled = true;
      break;
    }
    const s0 = now();
    let response: SqlQueryResponse;
    try {
      response = await exec(statement.sql, out.db, signal);
    } catch (e) {
      if (signal.aborted || (e instanceof Error && e.name === 'AbortError')) out.cancelled = true;
      else out.failure = { statement, message: e instanceof Error ? e.message : String(e) };
      break;
    }
    const result = { statement, response, durationMs: now() - s0 };
    out.results.push(result);
    out.db = response.context.db || out.db;
    onProgress?.(out.results.length, statements.length);
    if (response.type === 'error') {
      out.error = { ...result, response };
      break;
    }
    out.last = { ...result, response };
  }
  out.durationMs = now() - t0;
  return out;
}
