/**
 * A cursor over the significant tokens of one statement, with the few parsing moves the model
 * statements need: keywords, dotted names with any quoting (`a`.`b`, "a".b, versions as numbers),
 * literals, and "the rest of the statement as source text".
 */
import { syntaxError } from '../errors';
import type { Token } from './lexer';

export class Cursor {
  i = 0;
  constructor(
    readonly tokens: Token[],
    readonly src: string,
  ) {}

  peek(k = 0): Token | undefined {
    return this.tokens[this.i + k];
  }

  done(): boolean {
    return this.i >= this.tokens.length;
  }

  /** True when the next tokens are these keywords (case-insensitive bare words). */
  isWord(...words: string[]): boolean {
    return words.every((w, k) => {
      const t = this.peek(k);
      return t?.kind === 'word' && t.value.toUpperCase() === w;
    });
  }

  acceptWord(...words: string[]): boolean {
    if (!this.isWord(...words)) return false;
    this.i += words.length;
    return true;
  }

  expectWord(...words: string[]): void {
    if (!this.acceptWord(...words)) this.fail(`expected ${words.join(' ')}`);
  }

  isPunct(p: string): boolean {
    const t = this.peek();
    return t?.kind === 'punct' && t.text === p;
  }

  acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.i++;
    return true;
  }

  expectPunct(p: string): void {
    if (!this.acceptPunct(p)) this.fail(`expected '${p}'`);
  }

  /** An identifier part: bare word, quoted identifier, or (for versions) a number. */
  namePart(allowNumber = false): string | undefined {
    const t = this.peek();
    if (!t) return undefined;
    if (
      t.kind === 'word' ||
      t.kind === 'ident' ||
      (allowNumber && t.kind === 'number' && /^\d+$/.test(t.text))
    ) {
      this.i++;
      return t.value;
    }
    return undefined;
  }

  /**
   * A dotted name such as `p.m`, `p`.`m`.`2`, `"p"."m".2`. The lexer reads `m.2` after a dot as
   * a number `.2`; that case is split back into a version part here.
   */
  dottedName(what = 'name'): string[] {
    const first = this.namePart();
    if (first === undefined) this.fail(`expected a ${what}`);
    const parts = [first!];
    for (;;) {
      const t = this.peek();
      if (t?.kind === 'number' && /^\.\d+$/.test(t.text)) {
        parts.push(t.text.slice(1));
        this.i++;
        continue;
      }
      if (!this.isPunct('.')) break;
      this.i++;
      const p = this.namePart(true);
      if (p === undefined) this.fail(`expected a name after '.'`);
      parts.push(p!);
    }
    return parts;
  }

  /** A literal value: string, number, TRUE/FALSE/NULL, or a double-quoted string (MySQL style). */
  literal(): string | number | boolean | null {
    const t = this.peek();
    if (!t) this.fail('expected a value');
    let neg = false;
    if (t!.kind === 'punct' && t!.text === '-' && this.peek(1)?.kind === 'number') {
      neg = true;
      this.i++;
    }
    const v = this.peek()!;
    this.i++;
    if (v.kind === 'string' || (v.kind === 'ident' && v.quote === '"')) return v.value;
    if (v.kind === 'number') return (neg ? -1 : 1) * Number(v.text.replaceAll('_', ''));
    if (v.kind === 'word') {
      const u = v.value.toUpperCase();
      if (u === 'TRUE') return true;
      if (u === 'FALSE') return false;
      if (u === 'NULL') return null;
    }
    this.i--;
    return this.fail(`expected a value, found '${v.text}'`);
  }

  /** Source text from the current token to the end of the statement. */
  rest(): string {
    const t = this.peek();
    if (!t) return '';
    this.i = this.tokens.length;
    return this.src.slice(t.start).trim();
  }

  /** Source text of a balanced parenthesised group, without the outer parentheses. */
  parenthesized(): string {
    const open = this.peek();
    this.expectPunct('(');
    let depth = 1;
    while (!this.done()) {
      const t = this.peek()!;
      if (t.kind === 'punct' && t.text === '(') depth++;
      if (t.kind === 'punct' && t.text === ')') {
        depth--;
        if (depth === 0) {
          this.i++;
          return this.src.slice(open!.end, t.start).trim();
        }
      }
      this.i++;
    }
    return this.fail(`unbalanced parentheses`);
  }

  fail(message: string): never {
    const t = this.peek();
    const where = t ? ` near '${t.text.slice(0, 40)}'` : ' at the end of the statement';
    throw syntaxError(`Syntax error: ${message}${where}`);
  }
}
