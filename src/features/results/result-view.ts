/** What the results panel shows for a tab, derived from its last run. */
import type { SqlOkResponse, SqlTableResponse } from '../../../contract';
import type { ScriptOutcome } from '../../lib/sql/execute-script';
import { formatCount, formatDuration } from '../../lib/format';
import { errorWords, type ErrorWords } from './error-words';

export type ResultState =
  | { kind: 'idle' }
  | { kind: 'running'; startedAt: number; done: number; total: number }
  | { kind: 'notice'; text: string }
  | { kind: 'done'; outcome: ScriptOutcome; id: string };

/** The status line under the grid: rows, elapsed time, truncated marker. */
export function statusText(
  response: SqlTableResponse | SqlOkResponse,
  durationMs: number,
  shownRows?: number,
): string {
  if (response.type === 'ok') {
    const affected =
      response.affected_rows === null || response.affected_rows === undefined
        ? 'Statement executed'
        : `${formatCount(response.affected_rows, 'row')} affected`;
    return `${affected} · ${formatDuration(durationMs)}`;
  }
  const n = response.data.length;
  const rows =
    shownRows !== undefined
      ? `${shownRows.toLocaleString('en-US')} of ${formatCount(n, 'row')}`
      : formatCount(n, 'row');
  const cols = formatCount(response.column_names.length, 'column');
  return `${rows} · ${cols} · ${formatDuration(durationMs)}${response.truncated ? ' · truncated by the server' : ''}`;
}

/** Summary of a script run ("3 of 5 statements ran"). */
export function scriptSummary(o: ScriptOutcome): string | undefined {
  if (o.total <= 1) return undefined;
  const ran = o.results.length;
  if (o.error || o.failure)
    return `Stopped at statement ${ran + (o.failure ? 1 : 0)} of ${o.total}`;
  if (o.cancelled) return `Cancelled after ${ran} of ${o.total} statements`;
  return `${o.total} statements ran in ${formatDuration(o.durationMs)}`;
}

/** What stopped a run, for its banner: the message, its words (SQL errors), the statement. */
export function outcomeProblem(
  o: ScriptOutcome,
): { text: string; words: ErrorWords | undefined; sql: string | undefined } | undefined {
  if (o.error) {
    const r = o.error.response;
    return {
      text: r.error_message,
      words: errorWords(r.error_code, r.error_message, r.error_position),
      sql: o.error.statement.sql,
    };
  }
  if (o.failure) return { text: o.failure.message, words: undefined, sql: o.failure.statement.sql };
  return undefined;
}
