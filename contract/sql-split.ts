/**
 * The one lexical scanner of the SQL the playground and the instance exchange, shared by the
 * server (which splits scripts and parses MindsDB's statements over these tokens) and the SPA
 * (which splits scripts and finds the statement under the cursor). Both sides must agree on where
 * a string, an identifier or a comment ends, or a `;` inside one would split a statement on one
 * side and not on the other.
 *
 * Lexical rules (the union of what DuckDB and MindsDB's MySQL dialect read):
 * - `'text'` with `''` as the escaped quote; `E'text'` also takes backslash escapes;
 * - `"name"` with `""`, and `` `name` `` with ``` `` ``` (identifiers, or strings by MindsDB's rule:
 *   the server decides);
 * - `$$text$$` and `$tag$text$tag$` (DuckDB and PostgreSQL dollar quoting);
 * - `-- line` and `/* block *\/` comments;
 * - `:name` parameters (not `::` casts), `$1`/`$name` placeholders, `@name` / `@@name` variables;
 * - a `.` right after a name is punctuation, so `model.2` is a name, a dot and a version number.
 * The scanner never throws: an unterminated string, identifier or comment becomes a token flagged
 * `unterminated` that runs to the end of the text.
 */

type SqlTokenKind =
  | 'word' // bare identifier or keyword
  | 'quoted' // "name" or `name`
  | 'string' // 'text', E'text', $$text$$
  | 'number'
  | 'param' // :name
  | 'placeholder' // $1, $name
  | 'variable' // @name, @@name
  | 'op' // punctuation and operators, `;` included
  | 'ws'
  | 'comment';

export interface SqlToken {
  kind: SqlTokenKind;
  /** Offsets into the scanned text: `text.slice(start, end)` is the token's source. */
  start: number;
  end: number;
  /** The quote character of a `quoted` token, or `'`/`$` for strings. */
  quote?: '"' | '`' | "'" | '$';
  unterminated?: boolean;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isWordStart = (c: number) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
const isWordPart = (c: number) => isWordStart(c) || isDigit(c) || c === 36;

const TWO_CHAR_OPS = new Set(['::', '<=', '>=', '<>', '!=', '||', '->', '=>', ':=', '**', '//']);

/** End of a quoted run starting at `i` (the opening quote) where a doubled quote escapes itself. */
function quotedEnd(text: string, i: number, q: number, backslash: boolean): [number, boolean] {
  let j = i + 1;
  const n = text.length;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (backslash && c === 92) {
      j += 2;
      continue;
    }
    if (c === q) {
      if (text.charCodeAt(j + 1) === q) {
        j += 2;
        continue;
      }
      return [j + 1, true];
    }
    j++;
  }
  return [n, false];
}

/** Scans SQL into tokens (whitespace and comments included, so the tokens tile the text). */
export function scanSql(text: string): SqlToken[] {
  const out: SqlToken[] = [];
  const n = text.length;
  let i = 0;
  let prev: SqlToken | undefined;
  const push = (t: SqlToken) => {
    out.push(t);
    if (t.kind !== 'ws' && t.kind !== 'comment') prev = t;
    i = t.end;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    const start = i;
    if (isSpace(c)) {
      let j = i + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      push({ kind: 'ws', start, end: j });
      continue;
    }
    if (c === 45 && text.charCodeAt(i + 1) === 45) {
      const nl = text.indexOf('\n', i);
      push({ kind: 'comment', start, end: nl < 0 ? n : nl });
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf('*/', i + 2);
      push({
        kind: 'comment',
        start,
        end: close < 0 ? n : close + 2,
        ...(close < 0 ? { unterminated: true } : {}),
      });
      continue;
    }
    if (c === 39) {
      // E'...' takes backslash escapes; the E is the previous word token, merged here.
      const e = prev && prev.end === i && prev.kind === 'word' && prev.end - prev.start === 1;
      const backslash = !!e && (text[i - 1] === 'E' || text[i - 1] === 'e');
      const [end, ok] = quotedEnd(text, i, 39, backslash);
      if (backslash) out.pop();
      push({
        kind: 'string',
        start: backslash ? i - 1 : start,
        end,
        quote: "'",
        ...(ok ? {} : { unterminated: true }),
      });
      continue;
    }
    if (c === 34 || c === 96) {
      const [end, ok] = quotedEnd(text, i, c, false);
      push({
        kind: 'quoted',
        start,
        end,
        quote: c === 34 ? '"' : '`',
        ...(ok ? {} : { unterminated: true }),
      });
      continue;
    }
    if (c === 36) {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64));
      const glued = i > 0 && isWordPart(text.charCodeAt(i - 1));
      if (m && !glued) {
        const close = text.indexOf(m[0], i + m[0].length);
        push({
          kind: 'string',
          start,
          end: close < 0 ? n : close + m[0].length,
          quote: '$',
          ...(close < 0 ? { unterminated: true } : {}),
        });
        continue;
      }
      if (!glued && (isWordStart(text.charCodeAt(i + 1)) || isDigit(text.charCodeAt(i + 1)))) {
        let j = i + 2;
        while (j < n && isWordPart(text.charCodeAt(j)) && text.charCodeAt(j) !== 36) j++;
        push({ kind: 'placeholder', start, end: j });
        continue;
      }
    }
    const afterName =
      prev &&
      prev.end === i &&
      (prev.kind === 'word' || prev.kind === 'quoted' || prev.kind === 'number');
    if (isDigit(c) || (c === 46 && isDigit(text.charCodeAt(i + 1)) && !afterName)) {
      let j = i;
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      // A fraction only when the digits after the dot do not start a name (`1.x` is not a number).
      if (text.charCodeAt(j) === 46 && !afterName && isDigit(text.charCodeAt(j + 1))) {
        j++;
        while (j < n && isDigit(text.charCodeAt(j))) j++;
      } else if (text.charCodeAt(j) === 46 && !afterName && !isWordStart(text.charCodeAt(j + 1)))
        j++;
      const e = text.charCodeAt(j);
      if ((e === 101 || e === 69) && /[0-9]|[+-][0-9]/.test(text.slice(j + 1, j + 3))) {
        j += 2;
        while (j < n && isDigit(text.charCodeAt(j))) j++;
      }
      // `1abc` is a name in DuckDB and MySQL alike.
      if (j < n && isWordStart(text.charCodeAt(j))) {
        while (j < n && isWordPart(text.charCodeAt(j))) j++;
        push({ kind: 'word', start, end: j });
      } else push({ kind: 'number', start, end: j });
      continue;
    }
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordPart(text.charCodeAt(j))) j++;
      push({ kind: 'word', start, end: j });
      continue;
    }
    if (c === 58 && text.charCodeAt(i + 1) !== 58 && text.charCodeAt(i - 1) !== 58) {
      if (isWordStart(text.charCodeAt(i + 1))) {
        let j = i + 2;
        while (j < n && isWordPart(text.charCodeAt(j))) j++;
        push({ kind: 'param', start, end: j });
        continue;
      }
    }
    if (c === 64) {
      const m = /^@@?(?:[A-Za-z_.$][A-Za-z_.$0-9]*|'[^']*'|"[^"]*"|`[^`]*`)/.exec(
        text.slice(i, i + 256),
      );
      if (m && m[0].length > (m[0].startsWith('@@') ? 2 : 1)) {
        push({ kind: 'variable', start, end: i + m[0].length });
        continue;
      }
    }
    const two = text.slice(i, i + 2);
    if (TWO_CHAR_OPS.has(two)) {
      push({ kind: 'op', start, end: i + 2 });
      continue;
    }
    push({ kind: 'op', start, end: i + 1 });
  }
  return out;
}

/** The decoded value of a token: a name without its quotes, a string's content, a bare word. */
export function tokenValue(text: string, t: SqlToken): string {
  const raw = text.slice(t.start, t.end);
  if (t.kind === 'quoted') {
    const q = t.quote!;
    const body = t.unterminated ? raw.slice(1) : raw.slice(1, -1);
    return body.replaceAll(q + q, q);
  }
  if (t.kind === 'string') {
    if (t.quote === '$') {
      const tag = /^\$[^$]*\$/.exec(raw)![0];
      return t.unterminated ? raw.slice(tag.length) : raw.slice(tag.length, -tag.length);
    }
    const backslash = raw[0] !== "'";
    const body = raw.slice(backslash ? 2 : 1, t.unterminated ? undefined : -1);
    if (!backslash) return body.replaceAll("''", "'");
    return body
      .replaceAll("''", "'")
      .replace(/\\(.)/g, (_, ch: string) =>
        ch === 'n' ? '\n' : ch === 't' ? '\t' : ch === 'r' ? '\r' : ch,
      );
  }
  if (t.kind === 'param') return raw.slice(1);
  return raw;
}

/** One `;`-terminated segment of a script. */
export interface SqlSegment {
  /** The statement's SQL: trimmed, without the terminating semicolon. */
  sql: string;
  /** Offset of `sql` in the script (its first character). */
  start: number;
  /** Offset just past `sql` in the script. */
  end: number;
  /** Offset where this segment begins (just past the previous semicolon). */
  segmentStart: number;
  /** Offset of the terminating semicolon, or the script length when there is none. */
  segmentEnd: number;
  /** True when the segment holds something besides whitespace and comments. */
  hasCode: boolean;
  /** Set when the scan hit the end of the script inside a string, identifier or comment. */
  unterminated?: 'string' | 'identifier' | 'comment';
  /** Where the unterminated string, identifier or comment starts. */
  unterminatedAt?: number;
}

/** Splits a script into segments, one per `;`-terminated statement (blank segments included). */
export function scanSegments(text: string, tokens: SqlToken[] = scanSql(text)): SqlSegment[] {
  const out: SqlSegment[] = [];
  let segStart = 0;
  let first = -1;
  let last = -1;
  let hasCode = false;
  let open: SqlToken | undefined;
  const flush = (segEnd: number) => {
    const start = first < 0 ? segEnd : first;
    const end = first < 0 ? segEnd : last;
    const seg: SqlSegment = {
      sql: text.slice(start, end),
      start,
      end,
      segmentStart: segStart,
      segmentEnd: segEnd,
      hasCode,
    };
    if (open) {
      seg.unterminated =
        open.kind === 'comment' ? 'comment' : open.kind === 'quoted' ? 'identifier' : 'string';
      seg.unterminatedAt = open.start;
    }
    out.push(seg);
    first = -1;
    last = -1;
    hasCode = false;
    open = undefined;
  };
  for (const t of tokens) {
    if (t.kind === 'op' && t.end - t.start === 1 && text.charCodeAt(t.start) === 59) {
      flush(t.start);
      segStart = t.end;
      continue;
    }
    if (t.kind === 'ws') continue;
    if (first < 0) first = t.start;
    last = t.end;
    if (t.kind !== 'comment') hasCode = true;
    if (t.unterminated) open = t;
  }
  flush(text.length);
  return out;
}

/** The statements of a script that hold code (comment-only and blank segments dropped). */
export function splitStatements(text: string): SqlSegment[] {
  return scanSegments(text).filter((s) => s.hasCode);
}
