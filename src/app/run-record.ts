/** Pure helpers turning a finished run into a history entry and an editor marker. */
import type { HistoryEntry } from '../features/history/history-store';
import type { EditorMarker } from '../features/sql-editor/SqlEditor';
import type { RunRequest } from '../features/sql-editor/run-plan';
import { markerRange, toScriptPosition } from '../lib/sql/error-position';
import type { ScriptOutcome } from '../lib/sql/execute-script';

export function historyEntryFor(
  req: RunRequest,
  o: ScriptOutcome,
  db: string,
  at: number,
): Omit<HistoryEntry, 'id'> {
  const sql =
    req.statements.length === 1
      ? req.statements[0].sql
      : req.statements.map((s) => `${s.sql};`).join('\n');
  const last = o.last?.response;
  const error = o.error?.response.error_message ?? o.failure?.message;
  return {
    sql,
    db,
    at,
    durationMs: Math.round(o.durationMs),
    status: error ? 'error' : o.cancelled ? 'cancelled' : 'ok',
    ...(last?.type === 'table' ? { rowCount: last.data.length } : {}),
    ...(last?.type === 'ok' ? { affectedRows: last.affected_rows ?? null } : {}),
    ...(error ? { error } : {}),
  };
}

/** The marker for an SQL error at the position the server sent with it, mapped into the script. */
export function markerFor(req: RunRequest, o: ScriptOutcome): EditorMarker | undefined {
  if (!o.error) return undefined;
  const msg = o.error.response.error_message;
  const st = o.error.statement;
  const pos = o.error.response.error_position;
  if (!pos) {
    // No position (not about a place, or a server that sends none): underline the statement's
    // first line so the error is still visible in place.
    const at = toScriptPosition(req.script, st.start, st.sql, { line: 1, column: 1 });
    const firstLine = st.sql.split('\n')[0];
    return {
      startLine: at.line,
      startColumn: at.column,
      endLine: at.line,
      endColumn: at.column + Math.max(1, firstLine.length),
      message: msg,
    };
  }
  const abs = toScriptPosition(req.script, st.start, st.sql, pos);
  return { ...markerRange(req.script, abs), message: msg };
}
