/**
 * Finding and rewriting relation references for integrations: which names in a statement are
 * tables (FROM / JOIN / comma lists, and the targets of INSERT INTO, UPDATE, DELETE FROM, CREATE /
 * ALTER / DROP TABLE), which are `db (native SQL)` queries, which are CTE names, and a small
 * text editor that applies replacements while remembering where each output character came from
 * (so a PostgreSQL error position points into what the user wrote).
 *
 * Token-level, not a full SQL parser, on purpose: the statement is handed on verbatim to DuckDB or
 * PostgreSQL except for the few spans we replace, so whatever either dialect accepts keeps working.
 */
import { NON_CALL } from './keywords';
import { Cursor } from './cursor';
import type { Token } from './lexer';
import { NOT_ALIAS } from './models-names';

export interface RelationRef {
  parts: string[];
  /** Significant-token indexes of the name's first and last token. */
  first: number;
  last: number;
  /** `db (native SQL)`: token indexes of the parentheses. */
  native?: { open: number; close: number };
  /** A table function call such as read_csv(...) (never an integration table). */
  call: boolean;
  alias: string | null;
  /** Index of the last token of the item (alias included). */
  end: number;
  /** Target of a write (INSERT INTO, UPDATE, DELETE FROM, CREATE/ALTER/DROP TABLE). */
  write: boolean;
  /** Parenthesis depth of the reference. */
  depth: number;
}

export const upper = (t: Token | undefined) =>
  t && t.kind === 'word' ? t.value.toUpperCase() : '';
export const isP = (t: Token | undefined, p: string) => t?.kind === 'punct' && t.text === p;

/** Keywords that end a FROM list at their depth. */
const END_FROM = new Set([
  'WHERE',
  'GROUP',
  'HAVING',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'WINDOW',
  'QUALIFY',
  'SET',
  'RETURNING',
  'VALUES',
  'SELECT',
  'FETCH',
  'FOR',
]);
/** Words that can follow FROM/JOIN/INTO/UPDATE/TABLE without being a name. */
const NOT_NAME = new Set([
  'SET',
  'SELECT',
  'VALUES',
  'DEFAULT',
  'OF',
  'NOWAIT',
  'SKIP',
  'FUNCTION',
  'WITH',
]);
const NOT_ALIAS_EXTRA = new Set([
  'AS',
  'ON',
  'SET',
  'VALUES',
  'SELECT',
  'DEFAULT',
  'BY',
  'TO',
  'RENAME',
  'ADD',
  'DROP',
  'ALTER',
  'CONFLICT',
]);

/** Index of the ')' matching the '(' at `open`, or -1. */
export function matchParen(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (isP(tokens[i], '(')) depth++;
    else if (isP(tokens[i], ')') && --depth === 0) return i;
  }
  return -1;
}

/**
 * Every relation reference of a statement, at any depth. `isIntegration` tells which one-part
 * names followed by '(' are native queries rather than table functions.
 */
export function scanRelations(
  tokens: Token[],
  src: string,
  isIntegration: (name: string) => boolean,
): RelationRef[] {
  const out: RelationRef[] = [];
  const calls: boolean[] = [];
  const fromList: boolean[] = [false];
  let depth = 0;

  /** Parses one item starting at token `j`; returns the index of the last token consumed. */
  const item = (j: number, write: boolean): number => {
    let k = j;
    while (upper(tokens[k]) === 'LATERAL' || upper(tokens[k]) === 'ONLY') k++;
    const t = tokens[k];
    if (
      !t ||
      (t.kind !== 'word' && t.kind !== 'ident') ||
      (t.kind === 'word' && NOT_NAME.has(upper(t)))
    )
      return j - 1;
    const c = new Cursor(tokens, src);
    c.i = k;
    let parts: string[];
    try {
      parts = c.dottedName('table name');
    } catch {
      return j - 1;
    }
    const last = c.i - 1;
    let end = last;
    let call = false;
    let native: RelationRef['native'];
    if (!write && isP(tokens[last + 1], '(')) {
      const close = matchParen(tokens, last + 1);
      if (parts.length === 1 && isIntegration(parts[0]) && close > 0) {
        native = { open: last + 1, close };
        end = close;
      } else {
        call = true;
      }
    }
    let alias: string | null = null;
    // Write targets take no alias here (`CREATE TABLE t AS SELECT` must not read `AS` as one).
    if (!call && !write) {
      const a = tokens[end + 1];
      if (
        upper(a) === 'AS' &&
        tokens[end + 2] &&
        (tokens[end + 2].kind === 'word' || tokens[end + 2].kind === 'ident')
      ) {
        alias = tokens[end + 2].value;
        end += 2;
      } else if (
        a &&
        (a.kind === 'ident' ||
          (a.kind === 'word' && !NOT_ALIAS.has(upper(a)) && !NOT_ALIAS_EXTRA.has(upper(a))))
      ) {
        alias = a.value;
        end += 1;
      }
    }
    out.push({ parts, first: k, last, native, call, alias, end: call ? last : end, write, depth });
    // Native SQL is PostgreSQL's business: skip over it. Table function arguments are scanned.
    return call ? last : end;
  };

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (isP(t, '(')) {
      const prev = tokens[i - 1];
      calls.push(
        !!prev && (prev.kind === 'ident' || (prev.kind === 'word' && !NON_CALL.has(upper(prev)))),
      );
      depth++;
      fromList[depth] = false;
      continue;
    }
    if (isP(t, ')')) {
      calls.pop();
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (calls[calls.length - 1]) continue;
    const kw = upper(t);
    if (isP(t, ',') && fromList[depth]) {
      i = item(i + 1, false);
      continue;
    }
    if (END_FROM.has(kw)) fromList[depth] = false;
    if (kw === 'FROM') {
      // `a IS [NOT] DISTINCT FROM b` compares values.
      if (upper(tokens[i - 1]) === 'DISTINCT' && ['IS', 'NOT'].includes(upper(tokens[i - 2])))
        continue;
      fromList[depth] = true;
      i = item(i + 1, upper(tokens[i - 1]) === 'DELETE');
    } else if (kw === 'JOIN') {
      i = item(i + 1, false);
    } else if (kw === 'INTO' || kw === 'UPDATE') {
      i = item(i + 1, true);
    } else if (kw === 'TABLE') {
      let j = i + 1;
      if (upper(tokens[j]) === 'IF') j += upper(tokens[j + 1]) === 'NOT' ? 3 : 2;
      i = item(j, true);
    }
  }
  return out;
}

/** Names defined by WITH (`name AS (`, `name(cols) AS (`), lower-cased. */
export function cteNames(tokens: Token[]): Set<string> {
  const names = new Set<string>();
  if (!tokens.some((t) => upper(t) === 'WITH')) return names;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'word' && t.kind !== 'ident') continue;
    let j = i + 1;
    if (isP(tokens[j], '(')) {
      const close = matchParen(tokens, j);
      if (close < 0) continue;
      j = close + 1;
    }
    if (upper(tokens[j]) !== 'AS') continue;
    let k = j + 1;
    if (upper(tokens[k]) === 'NOT') k++;
    if (upper(tokens[k]) === 'MATERIALIZED') k++;
    if (isP(tokens[k], '(')) names.add(t.value.toLowerCase());
  }
  return names;
}

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies non-overlapping edits to `src`. `toSource` maps an offset in the result back to the
 * source (inserted text maps to where it was inserted).
 */
export function applyEdits(
  src: string,
  edits: Edit[],
): { text: string; toSource: (offset: number) => number } {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const segments: { outStart: number; srcStart: number; copied: boolean; len: number }[] = [];
  let out = '';
  let last = 0;
  for (const e of sorted) {
    if (e.start < last) continue; // overlapping: the first edit wins
    segments.push({ outStart: out.length, srcStart: last, copied: true, len: e.start - last });
    out += src.slice(last, e.start);
    segments.push({ outStart: out.length, srcStart: e.start, copied: false, len: e.text.length });
    out += e.text;
    last = e.end;
  }
  segments.push({ outStart: out.length, srcStart: last, copied: true, len: src.length - last });
  out += src.slice(last);
  return {
    text: out,
    toSource(offset: number) {
      for (const s of segments) {
        if (s.len > 0 && offset >= s.outStart && offset < s.outStart + s.len) {
          return s.copied ? s.srcStart + (offset - s.outStart) : s.srcStart;
        }
      }
      return src.length;
    },
  };
}

/** Edits that turn backtick identifiers into double-quoted ones inside [from, to). */
export function backtickEdits(all: Token[], from: number, to: number): Edit[] {
  return all
    .filter((t) => t.kind === 'ident' && t.quote === '`' && t.start >= from && t.end <= to)
    .map((t) => ({ start: t.start, end: t.end, text: `"${t.value.replaceAll('"', '""')}"` }));
}
