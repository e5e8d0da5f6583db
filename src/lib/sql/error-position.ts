/**
 * Error positions: reads "(line L, column C)" (or "at line L, column C") from a server error
 * message and maps it from the statement that was sent to the editor's full script.
 */
import { offsetAt, positionAt } from './split';

export interface ErrorPosition {
  line: number;
  column: number;
}

const PATTERNS = [
  /\(line (\d+), column (\d+)\)/i,
  /\bat line (\d+),? column (\d+)/i,
  /\bLINE (\d+):/,
];

/** The 1-based line/column an error message points at, if it names one. */
export function parseErrorPosition(message: string): ErrorPosition | undefined {
  for (const re of PATTERNS) {
    const m = re.exec(message);
    if (m) {
      const line = Number(m[1]);
      const column = m[2] === undefined ? 1 : Number(m[2]);
      if (line >= 1 && column >= 1) return { line, column };
    }
  }
  return undefined;
}

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
