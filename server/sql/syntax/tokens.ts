/**
 * The server's view of a statement's tokens (scanned by the scanner shared with the SPA), and the
 * cursor MindsDB's own statements are parsed with: keywords, dotted names with any quoting and
 * versions (`p.m.2`, `` `p`.`m`.`2` ``), literals, balanced parenthesised raw text. Errors name
 * what was expected and where, in the user's text.
 */
import { scanSql, tokenValue, type SqlToken } from '../../../contract/sql-split';
import { ERROR_CODES } from '../../errors';
import type { StatementSource } from './source';

export interface Tok extends SqlToken {
  /** Source text of the token. */
  raw: string;
  /** Decoded value: a name without quotes, a string's content. */
  value: string;
  /** Upper-cased text of a bare word ('' for anything else). */
  word: string;
}

/** Tokens of a text: all of them (they tile it) and the significant ones (no spaces, comments). */
export class Tokens {
  readonly all: SqlToken[];
  readonly sig: Tok[];

  constructor(readonly text: string) {
    this.all = scanSql(text);
    this.sig = [];
    for (const t of this.all) {
      if (t.kind === 'ws' || t.kind === 'comment') continue;
      const raw = text.slice(t.start, t.end);
      this.sig.push({
        ...t,
        raw,
        value: tokenValue(text, t),
        word: t.kind === 'word' ? raw.toUpperCase() : '',
      });
    }
  }

  /** Index of the significant token starting at (or containing) `offset`, or -1. */
  indexAt(offset: number): number {
    let lo = 0;
    let hi = this.sig.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const t = this.sig[mid];
      if (offset < t.start) hi = mid - 1;
      else if (offset >= t.end) lo = mid + 1;
      else return mid;
    }
    return -1;
  }
}

export const isOp = (t: Tok | undefined, op: string) => t?.kind === 'op' && t.raw === op;
export const isName = (t: Tok | undefined) => t?.kind === 'word' || t?.kind === 'quoted';

export type Literal = string | number | boolean | null;

export class Cursor {
  i = 0;

  constructor(
    readonly tokens: Tokens,
    readonly src: StatementSource,
    readonly params?: Record<string, unknown>,
  ) {}

  get sig() {
    return this.tokens.sig;
  }

  peek(k = 0): Tok | undefined {
    return this.sig[this.i + k];
  }

  done(): boolean {
    return this.i >= this.sig.length;
  }

  /** True when the next tokens are these keywords (bare words, any case). */
  isWord(...words: string[]): boolean {
    return words.every((w, k) => this.peek(k)?.word === w);
  }

  acceptWord(...words: string[]): boolean {
    if (!this.isWord(...words)) return false;
    this.i += words.length;
    return true;
  }

  expectWord(...words: string[]): void {
    if (!this.acceptWord(...words)) this.fail(`expected ${words.join(' ')}`);
  }

  isOp(op: string): boolean {
    return isOp(this.peek(), op);
  }

  acceptOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.i++;
    return true;
  }

  expectOp(op: string): void {
    if (!this.acceptOp(op)) this.fail(`expected '${op}'`);
  }

  /** One part of a name: a bare word, a quoted name, or (for versions) an integer. */
  namePart(allowNumber = false): string | undefined {
    const t = this.peek();
    if (!t) return undefined;
    if (isName(t) || (allowNumber && t.kind === 'number' && /^\d+$/.test(t.raw))) {
      this.i++;
      return t.value;
    }
    return undefined;
  }

  /** A dotted name: `p.m`, `` `p`.`m`.`2` ``, `"p".m.2.features`. */
  dottedName(what = 'name'): string[] {
    const first = this.namePart();
    if (first === undefined) this.fail(`expected a ${what}`);
    const parts = [first];
    while (this.isOp('.')) {
      this.i++;
      const p = this.namePart(true);
      if (p === undefined) this.fail(`expected a name after '.'`);
      parts.push(p);
    }
    return parts;
  }

  /**
   * A literal: a string ('x', or "x" by MindsDB's rule: a double-quoted value is a string), a
   * number (signed), TRUE/FALSE/NULL, or a :parameter's value.
   */
  literal(what = 'a value'): Literal {
    const t = this.peek();
    if (!t) return this.fail(`expected ${what}`);
    if (isOp(t, '-') || isOp(t, '+')) {
      const n = this.peek(1);
      if (n?.kind === 'number') {
        this.i += 2;
        return (isOp(t, '-') ? -1 : 1) * Number(n.raw);
      }
    }
    this.i++;
    if (t.kind === 'string' || (t.kind === 'quoted' && t.quote === '"')) return t.value;
    if (t.kind === 'number') return Number(t.raw);
    if (t.word === 'TRUE') return true;
    if (t.word === 'FALSE') return false;
    if (t.word === 'NULL') return null;
    if (t.kind === 'param') {
      const name = t.value;
      if (!this.params || !(name in this.params)) {
        this.i--;
        return this.fail(`parameter ':${name}' has no value in params`, ERROR_CODES.BAD_INPUT);
      }
      const v = this.params[name];
      return v === undefined || typeof v === 'object' ? JSON.stringify(v ?? null) : (v as Literal);
    }
    this.i--;
    return this.fail(`expected ${what}`);
  }

  /** The raw source between balanced parentheses (consumed, parentheses included). */
  parenthesized(): { text: string; start: number; end: number } {
    const open = this.peek();
    this.expectOp('(');
    let depth = 1;
    while (!this.done()) {
      const t = this.peek()!;
      if (isOp(t, '(')) depth++;
      else if (isOp(t, ')') && --depth === 0) {
        this.i++;
        const raw = this.tokens.text.slice(open!.end, t.start);
        const lead = raw.length - raw.trimStart().length;
        return { text: raw.trim(), start: open!.end + lead, end: t.start };
      }
      this.i++;
    }
    return this.fail(`the parenthesis opened here is never closed`, undefined, open!.start);
  }

  /** Source text from the current token to the end of the statement. */
  rest(): { text: string; start: number } {
    const t = this.peek();
    this.i = this.sig.length;
    if (!t) return { text: '', start: this.tokens.text.length };
    return { text: this.tokens.text.slice(t.start).trim(), start: t.start };
  }

  /** Offset of the current token in the statement (the end when done). */
  offset(): number {
    return this.peek()?.start ?? this.tokens.text.length;
  }

  fail(message: string, code: number = ERROR_CODES.SYNTAX, at?: number): never {
    const t = this.peek();
    const near =
      at !== undefined ? '' : t ? ` near '${t.raw.slice(0, 40)}'` : ' at the end of the statement';
    const msg = `${code === ERROR_CODES.SYNTAX ? 'Syntax error: ' : ''}${message}${near}`;
    throw this.src.error(code as never, msg, at ?? this.offset());
  }
}
