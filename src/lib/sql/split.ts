/**
 * SQL script scanning for the editor: splitting a script into statements and finding the statement
 * under the cursor. The scanner itself is shared with the instance (`contract/sql-split.ts`), so the
 * editor and the server agree on where every statement ends.
 */
import { scanSegments, splitStatements, type SqlSegment } from '../../../contract/sql-split';

export type Statement = SqlSegment;

export { splitStatements };

/**
 * The statement under the cursor: the segment containing `offset` (a cursor just after a `;`
 * still belongs to the statement it ends); when that segment is blank, the nearest statement
 * before it, else the nearest after it. Undefined when the script holds no statement.
 */
export function statementAtCursor(text: string, offset: number): Statement | undefined {
  const segs = scanSegments(text);
  let idx = segs.findIndex((s) => offset >= s.segmentStart && offset <= s.segmentEnd);
  if (idx < 0) idx = segs.length - 1;
  const seg = segs[idx];
  if (seg.hasCode && offset >= seg.start) return seg;
  // In the blank lead-in of a segment: a cursor still on the line of the previous `;` (e.g. just
  // after `SELECT 1;|`) means the statement that semicolon ends.
  const prev = segs[idx - 1];
  if (prev?.hasCode && !text.slice(prev.segmentEnd, offset).includes('\n')) return prev;
  if (seg.hasCode) return seg;
  for (let k = idx - 1; k >= 0; k--) if (segs[k].hasCode) return segs[k];
  for (let k = idx + 1; k < segs.length; k++) if (segs[k].hasCode) return segs[k];
  return undefined;
}

/** True when the text holds no SQL besides whitespace and comments. */
export function isBlankSql(text: string): boolean {
  return splitStatements(text).length === 0;
}

/** Converts a 1-based line/column in `text` to an offset (clamped to the text). */
export function offsetAt(text: string, line: number, column: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return text.length;
    off = nl + 1;
  }
  const lineEnd = text.indexOf('\n', off);
  const max = lineEnd < 0 ? text.length : lineEnd;
  return Math.min(off + Math.max(column - 1, 0), max);
}

/** Converts an offset in `text` to a 1-based line/column. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  const o = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < o; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: o - lineStart + 1 };
}
