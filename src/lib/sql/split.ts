/**
 * SQL script scanning for the editor: splits a script into statements at top-level semicolons and
 * finds the statement under the cursor, respecting strings, quoted identifiers, dollar-quoted
 * strings and comments (a `;` inside any of those does not end a statement).
 */

export interface Statement {
  /** The statement's SQL as sent to the server: trimmed, without the terminating semicolon. */
  sql: string;
  /** Offset of `sql` in the script (its first character). */
  start: number;
  /** Offset just past `sql` in the script. */
  end: number;
  /** Offset where this segment of the script begins (just past the previous semicolon). */
  segmentStart: number;
  /** Offset of the terminating semicolon, or the script length when there is none. */
  segmentEnd: number;
  /** True when the segment holds something besides whitespace and comments. */
  hasCode: boolean;
  /** Set when the scan hit the end of the script inside a string, identifier or comment. */
  unterminated?: 'string' | 'identifier' | 'comment';
}

type Unterminated = Statement['unterminated'];

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** Splits a script into segments, one per `;`-terminated statement (blank segments included). */
export function scanSegments(text: string): Statement[] {
  const out: Statement[] = [];
  let segStart = 0;
  let codeStart = -1; // first offset of code or comment that belongs to the statement text
  let codeEnd = -1;
  let hasCode = false;
  let unterminated: Unterminated;
  let i = 0;
  const n = text.length;

  const mark = (from: number, to: number, code: boolean) => {
    if (codeStart < 0) codeStart = from;
    codeEnd = to;
    if (code) hasCode = true;
  };
  const flush = (segEnd: number) => {
    const start = codeStart < 0 ? segEnd : codeStart;
    const end = codeStart < 0 ? segEnd : codeEnd;
    out.push({
      sql: text.slice(start, end),
      start,
      end,
      segmentStart: segStart,
      segmentEnd: segEnd,
      hasCode,
      ...(unterminated ? { unterminated } : {}),
    });
    codeStart = -1;
    codeEnd = -1;
    hasCode = false;
    unterminated = undefined;
  };

  while (i < n) {
    const c = text[i];
    if (c === ';') {
      flush(i);
      i += 1;
      segStart = i;
      continue;
    }
    if (isSpace(c)) {
      i += 1;
      continue;
    }
    if (c === '-' && text[i + 1] === '-') {
      const nl = text.indexOf('\n', i);
      const stop = nl < 0 ? n : nl;
      mark(i, stop, false);
      i = stop;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const stop = close < 0 ? n : close + 2;
      if (close < 0) unterminated = 'comment';
      mark(i, stop, false);
      i = stop;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let closed = false;
      while (j < n) {
        if (text[j] === c) {
          if (text[j + 1] === c) {
            j += 2; // doubled quote escapes itself
            continue;
          }
          closed = true;
          break;
        }
        if (c === "'" && text[j] === '\\' && /[eE]/.test(text[i - 1] ?? '')) {
          j += 2; // E'...' strings use backslash escapes
          continue;
        }
        j += 1;
      }
      const stop = closed ? j + 1 : n;
      if (!closed) unterminated = c === "'" ? 'string' : 'identifier';
      mark(i, stop, true);
      i = stop;
      continue;
    }
    if (c === '$') {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64));
      if (m && !/[A-Za-z0-9_]/.test(text[i - 1] ?? '')) {
        const tag = m[0];
        const close = text.indexOf(tag, i + tag.length);
        const stop = close < 0 ? n : close + tag.length;
        if (close < 0) unterminated = 'string';
        mark(i, stop, true);
        i = stop;
        continue;
      }
    }
    mark(i, i + 1, true);
    i += 1;
  }
  flush(n);
  return out;
}

/** The statements of a script that hold code (comment-only and blank segments dropped). */
export function splitStatements(text: string): Statement[] {
  return scanSegments(text).filter((s) => s.hasCode);
}

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
