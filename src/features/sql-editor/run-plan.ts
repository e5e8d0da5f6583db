/**
 * What a run shortcut executes: Ctrl/Cmd+Enter runs the selection (split into statements) or the
 * statement under the cursor; Ctrl/Cmd+Shift+Enter runs the whole script; Explain
 * (Ctrl/Cmd+Shift+E) asks the instance how it would run the selection or the statement under the
 * cursor (`EXPLAIN <statement>`: the plan's steps, then DuckDB's plan). Offsets stay relative to
 * the full editor text so errors can be marked in place.
 */
import { splitStatements, statementAtCursor, type Statement } from '../../lib/sql/split';

export type RunMode = 'current' | 'script' | 'explain';

export interface RunRequest {
  mode: RunMode;
  script: string;
  statements: Statement[];
  /** Why nothing runs, when `statements` is empty. */
  emptyReason?: string;
}

function shift(s: Statement, by: number): Statement {
  return {
    ...s,
    start: s.start + by,
    end: s.end + by,
    segmentStart: s.segmentStart + by,
    segmentEnd: s.segmentEnd + by,
  };
}

const EXPLAIN = 'EXPLAIN ';

/** A query (SELECT, WITH, FROM, VALUES), not already an EXPLAIN: what Explain has a plan for. */
function explainable(s: Statement): boolean {
  const body = s.sql.replace(/^(\s|--[^\n]*\n?|\/\*[\s\S]*?\*\/)*/, '');
  return /^(select|with|from|values)\b|^\(/i.test(body);
}

/**
 * `EXPLAIN <statement>`, placed so the server's error positions (in the sent text) still land on
 * the user's text: the statement starts that many characters earlier in the script's coordinates.
 */
function explained(s: Statement): Statement {
  return { ...s, sql: EXPLAIN + s.sql, start: s.start - EXPLAIN.length };
}

export function planRun(
  script: string,
  mode: RunMode,
  cursorOffset: number,
  selection?: { start: number; end: number },
): RunRequest {
  let statements: Statement[];
  if (mode === 'script') {
    statements = splitStatements(script);
  } else if (selection && selection.end > selection.start) {
    statements = splitStatements(script.slice(selection.start, selection.end)).map((s) =>
      shift(s, selection.start),
    );
  } else {
    const s = statementAtCursor(script, cursorOffset);
    statements = s ? [s] : [];
  }
  if (mode === 'explain') statements = statements.filter(explainable).map(explained);
  if (statements.length > 0) return { mode, script, statements };
  const emptyReason =
    script.trim() === ''
      ? 'The editor is empty: write a query first (or pick an example).'
      : mode === 'explain'
        ? 'There is no query to explain here: Explain shows the plan of a SELECT (or WITH) query.'
        : selection && selection.end > selection.start
          ? 'The selection holds no SQL statement (only whitespace or comments).'
          : 'There is no SQL statement to run: the editor holds only comments.';
  return { mode, script, statements, emptyReason };
}
