/**
 * Error positions: the server sends where an SQL error is as data (`error_position`, line and
 * column of the statement it was sent); these map it into the editor's full script and pick the
 * range to underline. Nothing here reads positions out of message text.
 */
import type { ErrorPosition } from '../../../contract';
import { offsetAt, positionAt } from './split';

/**
 * Maps a position inside a statement (as sent, starting at `statementStart` in `script`) to a
 * line/column in the whole script.
 */
export function toScriptPosition(
  script: string,
  statementStart: number,
  statementSql: string,
  pos: ErrorPosition,
): ErrorPosition {
  const inStatement = offsetAt(statementSql, pos.line, pos.column);
  return positionAt(script, statementStart + inStatement);
}

/** The range to underline: from the error position to the end of the word there. */
export function markerRange(
  script: string,
  pos: ErrorPosition,
): { startLine: number; startColumn: number; endLine: number; endColumn: number } {
  const off = offsetAt(script, pos.line, pos.column);
  let end = off;
  while (end < script.length && /[\w$."`'']/.test(script[end]) && script[end] !== '\n') end += 1;
  if (end === off) end = Math.min(off + 1, script.length);
  const endPos = positionAt(script, end);
  return {
    startLine: pos.line,
    startColumn: pos.column,
    endLine: endPos.line,
    endColumn: endPos.line === pos.line ? Math.max(endPos.column, pos.column + 1) : endPos.column,
  };
}
