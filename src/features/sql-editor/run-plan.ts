/**
 * What a run shortcut executes: Ctrl/Cmd+Enter runs the selection (split into statements) or the
 * statement under the cursor; Ctrl/Cmd+Shift+Enter runs the whole script. Offsets stay relative to
 * the full editor text so errors can be marked in place.
 */
import { splitStatements, statementAtCursor, type Statement } from '../../lib/sql/split';

export type RunMode = 'current' | 'script';

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
  if (statements.length > 0) return { mode, script, statements };
  const emptyReason =
    script.trim() === ''
      ? 'The editor is empty: write a query first (or pick an example).'
      : selection && selection.end > selection.start
        ? 'The selection holds no SQL statement (only whitespace or comments).'
        : 'There is no SQL statement to run: the editor holds only comments.';
  return { mode, script, statements, emptyReason };
}
