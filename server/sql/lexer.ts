/**
 * A small SQL lexer: enough to split scripts, find the statements that belong to the model layer
 * (CREATE MODEL, DESCRIBE, RETRAIN, SHOW ...), rewrite identifiers and parameters, and leave
 * everything else byte for byte to DuckDB. It never throws: unterminated strings and comments
 * become a token flagged `unterminated` so callers can report them with a position.
 */

export type TokenKind =
  | 'word' // bare identifier or keyword
  | 'ident' // quoted identifier: `x` or "x"
  | 'string' // 'text' (also E'..', $$..$$ is not supported by the model layer and passes through)
  | 'number'
  | 'param' // :name
  | 'punct'
  | 'ws'
  | 'comment';

export interface Token {
  kind: TokenKind;
  /** Raw source text of the token. */
  text: string;
  /** Decoded value: identifier name without quotes, string content without quotes. */
  value: string;
  start: number;
  end: number;
  /** The quote used by an `ident` token. */
  quote?: '`' | '"';
  unterminated?: boolean;
}

const isWordStart = (c: string) => /[A-Za-z_\u0080-\uffff]/.test(c);
const isWordPart = (c: string) => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

function readQuoted(
  src: string,
  i: number,
  quote: string,
): { end: number; value: string; ok: boolean } {
  let value = '';
  let j = i + 1;
  while (j < src.length) {
    const c = src[j];
    if (c === quote) {
      if (src[j + 1] === quote) {
        value += quote;
        j += 2;
        continue;
      }
      return { end: j + 1, value, ok: true };
    }
    if (c === '\\' && quote === '`' && src[j + 1] === '`') {
      value += '`';
      j += 2;
      continue;
    }
    value += c;
    j++;
  }
  return { end: src.length, value, ok: false };
}

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const start = i;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      while (i < src.length && /\s/.test(src[i])) i++;
      out.push({ kind: 'ws', text: src.slice(start, i), value: ' ', start, end: i });
      continue;
    }
    if (c === '-' && src[i + 1] === '-') {
      const nl = src.indexOf('\n', i);
      i = nl === -1 ? src.length : nl;
      out.push({ kind: 'comment', text: src.slice(start, i), value: '', start, end: i });
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(src[i - 1]))) {
      // MySQL-style line comment, as MindSB's editor accepts them.
      const nl = src.indexOf('\n', i);
      i = nl === -1 ? src.length : nl;
      out.push({ kind: 'comment', text: src.slice(start, i), value: '', start, end: i });
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const close = src.indexOf('*/', i + 2);
      i = close === -1 ? src.length : close + 2;
      out.push({
        kind: 'comment',
        text: src.slice(start, i),
        value: '',
        start,
        end: i,
        unterminated: close === -1 || undefined,
      });
      continue;
    }
    if (c === "'") {
      const q = readQuoted(src, i, "'");
      i = q.end;
      out.push({
        kind: 'string',
        text: src.slice(start, i),
        value: q.value,
        start,
        end: i,
        unterminated: !q.ok || undefined,
      });
      continue;
    }
    if (c === '"' || c === '`') {
      const q = readQuoted(src, i, c);
      i = q.end;
      out.push({
        kind: 'ident',
        text: src.slice(start, i),
        value: q.value,
        start,
        end: i,
        quote: c,
        unterminated: !q.ok || undefined,
      });
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      while (i < src.length && (isDigit(src[i]) || src[i] === '.' || src[i] === '_')) i++;
      if ((src[i] === 'e' || src[i] === 'E') && /[0-9+-]/.test(src[i + 1] ?? '')) {
        i += 2;
        while (i < src.length && isDigit(src[i])) i++;
      }
      // `1abc` is an identifier in some dialects; keep digits-then-letters together as a word.
      if (i < src.length && isWordStart(src[i])) {
        while (i < src.length && isWordPart(src[i])) i++;
        out.push({
          kind: 'word',
          text: src.slice(start, i),
          value: src.slice(start, i),
          start,
          end: i,
        });
        continue;
      }
      out.push({
        kind: 'number',
        text: src.slice(start, i),
        value: src.slice(start, i),
        start,
        end: i,
      });
      continue;
    }
    if (isWordStart(c)) {
      while (i < src.length && isWordPart(src[i])) i++;
      out.push({
        kind: 'word',
        text: src.slice(start, i),
        value: src.slice(start, i),
        start,
        end: i,
      });
      continue;
    }
    if (c === ':' && src[i + 1] !== ':' && src[i - 1] !== ':' && isWordStart(src[i + 1] ?? '')) {
      i++;
      while (i < src.length && isWordPart(src[i])) i++;
      out.push({
        kind: 'param',
        text: src.slice(start, i),
        value: src.slice(start + 1, i),
        start,
        end: i,
      });
      continue;
    }
    // Multi-character operators matter only for not splitting them; keep them as one token.
    const two = src.slice(i, i + 2);
    if (['::', '<=', '>=', '<>', '!=', '||', '->', '=>'].includes(two)) {
      i += 2;
      out.push({ kind: 'punct', text: two, value: two, start, end: i });
      continue;
    }
    i++;
    out.push({ kind: 'punct', text: c, value: c, start, end: i });
  }
  return out;
}

/** Tokens that carry meaning (no whitespace or comments). */
export const significant = (tokens: Token[]) =>
  tokens.filter((t) => t.kind !== 'ws' && t.kind !== 'comment');

export { lineColumn } from '../engine/position';

export interface StatementSpan {
  text: string;
  start: number;
  end: number;
}

/**
 * Splits a script on top-level semicolons, dropping statements that hold only whitespace and
 * comments. Offsets point into the original script so errors can be located in it.
 */
export function splitStatements(src: string): StatementSpan[] {
  const tokens = tokenize(src);
  const out: StatementSpan[] = [];
  let start = 0;
  let hasContent = false;
  const flush = (end: number) => {
    if (hasContent) {
      const raw = src.slice(start, end);
      const lead = raw.length - raw.trimStart().length;
      const text = raw.trim();
      out.push({ text, start: start + lead, end: start + lead + text.length });
    }
    hasContent = false;
  };
  for (const t of tokens) {
    if (t.kind === 'punct' && t.text === ';') {
      flush(t.start);
      start = t.end;
      continue;
    }
    if (t.kind !== 'ws' && t.kind !== 'comment') hasContent = true;
  }
  flush(src.length);
  return out;
}

export { quoteIdent, quoteString } from '../engine/quote';
