/**
 * A predict body read straight into columns: `[{"a": 1, "b": "x"}, ...]` (or the real service's
 * `{"data": [...], "params": {...}}`) becomes one array per column, without a row object per
 * row. The generic path (JSON.parse, the checks of ./json-body.ts, then rows to columns) built
 * 10k objects and boxed every number of a 10-class 64-input model's 10k-row body; that, its
 * garbage and the copy into columns were most of the request's CPU.
 *
 * The reader takes only what it is sure of, and gives up (undefined) on anything else, which then
 * goes the generic way with its errors: rows that are not flat objects of strings, numbers,
 * booleans and nulls, a number beyond a 64-bit float, a `__proto__` or `constructor` key, JSON
 * it does not accept. What it answers is what the generic path answers: the same values (numbers
 * parsed as JSON.parse does, strings decoded as it does), a row's absent keys as null, a repeated
 * key's last value, the columns in the order of `columnsOfRows`.
 */

/** A body's rows as columns (null-prototype record: a column may be called anything). */
export class RowColumns {
  constructor(
    readonly n: number,
    readonly columns: Record<string, unknown[]>,
    /**
     * Where each cell's text starts in `body` when it is a number written as JavaScript writes
     * it (JSON.stringify of the value gives that text), else -1: the answer echoes the inputs,
     * and copying their text costs far less than turning 640k numbers back into text.
     */
    readonly text: { body: Uint8Array; at: Record<string, number[]> },
  ) {}
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** Powers of ten a double holds exactly (10^0 .. 10^22). */
const EXACT_POWERS = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/** Gave up: the body goes the generic way. */
class Unsure extends Error {}
const unsure = new Unsure();

class Reader {
  i = 0;
  /** Where the last cell read starts when it is a number in JavaScript's own text, else -1. */
  canonical = -1;
  constructor(readonly b: Buffer) {}

  ws(): number {
    const b = this.b;
    let i = this.i;
    let c = b[i];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i];
    this.i = i;
    return c;
  }

  expect(c: number): void {
    if (this.ws() !== c) throw unsure;
    this.i++;
  }

  /** A string at `i` (its opening quote): its end (after the closing quote) and whether plain. */
  scanString(): { start: number; end: number; plain: boolean } {
    const b = this.b;
    const start = this.i + 1;
    let i = start;
    let plain = true;
    for (;;) {
      const c = b[i];
      if (c === QUOTE) break;
      if (c === undefined || c < 0x20) throw unsure;
      if (c === BACKSLASH) {
        plain = false;
        i += 2;
        continue;
      }
      if (c >= 0x80) plain = false;
      i++;
    }
    this.i = i + 1;
    return { start, end: i, plain };
  }

  /** The string at `i`, decoded as JSON.parse decodes it. */
  string(): string {
    const { start, end, plain } = this.scanString();
    if (plain) return this.b.toString('latin1', start, end);
    // Escapes or UTF-8: JSON.parse judges and decodes them.
    try {
      return JSON.parse(this.b.toString('utf8', start - 1, end + 1)) as string;
    } catch {
      throw unsure;
    }
  }

  /**
   * A number at `i` by JSON's grammar. Up to 15 significant digits and a power of ten up to 22
   * it is one exact multiplication or division, hence the correctly rounded double JSON.parse
   * gives; anything else is parsed by Number from its text.
   */
  number(): number {
    const b = this.b;
    const start = this.i;
    let i = start;
    let neg = false;
    if (b[i] === MINUS) {
      neg = true;
      i++;
    }
    let mant = 0;
    let digits = 0;
    let c = b[i];
    if (c === ZERO) {
      c = b[++i];
    } else if (c > ZERO && c <= NINE) {
      do {
        mant = mant * 10 + (c - ZERO);
        digits++;
        c = b[++i];
      } while (c >= ZERO && c <= NINE);
    } else throw unsure;
    let scale = 0;
    if (c === DOT) {
      c = b[++i];
      if (!(c >= ZERO && c <= NINE)) throw unsure;
      do {
        mant = mant * 10 + (c - ZERO);
        if (mant !== 0) digits++;
        scale++;
        c = b[++i];
      } while (c >= ZERO && c <= NINE);
    }
    let exact = digits <= 15;
    if (c === 0x65 || c === 0x45) {
      c = b[++i];
      if (c === PLUS || c === MINUS) c = b[++i];
      if (!(c >= ZERO && c <= NINE)) throw unsure;
      do c = b[++i];
      while (c >= ZERO && c <= NINE);
      exact = false;
    }
    this.i = i;
    if (exact && scale <= 22) {
      const v = scale === 0 ? mant : mant / EXACT_POWERS[scale];
      // Up to 15 significant digits, a double's shortest text has exactly these digits: it is
      // the text JavaScript writes unless it is -0, has a fraction ending in 0, or is below
      // 1e-6 (written with an exponent).
      if (!(mant === 0 ? neg || scale > 0 : (scale > 0 && b[i - 1] === ZERO) || v < 1e-6))
        this.canonical = start;
      return neg ? -v : v;
    }
    const v = Number(b.toString('latin1', start, i));
    if (!Number.isFinite(v)) throw unsure;
    return v;
  }

  /** A cell: a string, number, boolean or null; anything else gives up. */
  cell(): unknown {
    this.canonical = -1;
    const c = this.ws();
    const b = this.b;
    const i = this.i;
    if (c === QUOTE) return this.string();
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.number();
    if (c === 0x74 && b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65) {
      this.i = i + 4;
      return true;
    }
    if (
      c === 0x66 &&
      b[i + 1] === 0x61 &&
      b[i + 2] === 0x6c &&
      b[i + 3] === 0x73 &&
      b[i + 4] === 0x65
    ) {
      this.i = i + 5;
      return false;
    }
    if (c === 0x6e && b[i + 1] === 0x75 && b[i + 2] === 0x6c && b[i + 3] === 0x6c) {
      this.i = i + 4;
      return null;
    }
    throw unsure;
  }

  /** Skips any JSON value (not judged: its text is parsed by JSON.parse afterwards). */
  skipValue(): void {
    let depth = 0;
    const b = this.b;
    do {
      const c = this.ws();
      if (c === undefined) throw unsure;
      if (c === QUOTE) {
        this.scanString();
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
      this.i++;
      // Scalars: up to the next delimiter.
      if (depth === 0 && c !== CLOSE_BRACE && c !== CLOSE_BRACKET) {
        let d = b[this.i];
        while (
          d !== undefined &&
          d !== COMMA &&
          d !== CLOSE_BRACE &&
          d !== CLOSE_BRACKET &&
          d !== 0x20 &&
          d !== 0x0a &&
          d !== 0x0d &&
          d !== 0x09
        )
          d = b[++this.i];
      }
    } while (depth > 0);
  }
}

/** A column being filled: its values so far (rows before its first key are null). */
interface Column {
  name: string;
  /** The key's raw bytes between its quotes, compared before any string is made. */
  raw: Buffer;
  values: unknown[];
  /** RowColumns.text's `at` of each value. */
  at: number[];
}

/** The keys a row may not have on this path (Fastify's parser refuses them: the generic way). */
const REFUSED_KEYS = new Set(['__proto__', 'constructor']);

/** Reads `[{...}, ...]` at the reader's position into columns. */
function readRows(r: Reader): RowColumns {
  const b = r.b;
  r.expect(OPEN_BRACKET);
  const cols: Column[] = [];
  const byName = new Map<string, number>();
  let n = 0;
  if (r.ws() === CLOSE_BRACKET) throw unsure; // An empty body: the generic way answers it.
  for (;;) {
    r.expect(OPEN_BRACE);
    const row = n++;
    let next = 0;
    if (r.ws() !== CLOSE_BRACE) {
      for (;;) {
        if (r.ws() !== QUOTE) throw unsure;
        // The key that followed the previous one in the row before, compared byte for byte.
        let c = -1;
        const guess = cols[next];
        if (guess !== undefined) {
          const raw = guess.raw;
          const s = r.i + 1;
          const len = raw.length;
          // The same bytes as a key already read (a whole JSON string's content) are that key.
          // Compared here, not by Buffer.compare: a call into C++ per cell cost more than this.
          if (b[s + len] === QUOTE) {
            let k = 0;
            while (k < len && b[s + k] === raw[k]) k++;
            if (k === len) {
              c = next;
              r.i = s + len + 1;
            }
          }
        }
        if (c < 0) {
          const at = r.i;
          const name = r.string();
          if (REFUSED_KEYS.has(name)) throw unsure;
          c = byName.get(name) ?? -1;
          if (c < 0) {
            c = cols.length;
            byName.set(name, c);
            const values: unknown[] = [];
            const starts: number[] = [];
            for (let k = 0; k < row; k++) {
              values.push(null);
              starts.push(-1);
            }
            cols.push({ name, raw: Buffer.from(b.subarray(at + 1, r.i - 1)), values, at: starts });
          }
        }
        r.expect(COLON);
        const v = r.cell();
        const { values, at: starts } = cols[c];
        // A repeated key keeps its last value, as JSON.parse does.
        if (values.length > row) {
          values[row] = v;
          starts[row] = r.canonical;
        } else {
          while (values.length < row) {
            values.push(null);
            starts.push(-1);
          }
          values.push(v);
          starts.push(r.canonical);
        }
        next = c + 1;
        const d = r.ws();
        r.i++;
        if (d === CLOSE_BRACE) break;
        if (d !== COMMA) throw unsure;
      }
    } else r.i++;
    const d = r.ws();
    r.i++;
    if (d === CLOSE_BRACKET) break;
    if (d !== COMMA) throw unsure;
  }
  const columns: Record<string, unknown[]> = Object.create(null);
  const at: Record<string, number[]> = Object.create(null);
  for (const col of cols) {
    while (col.values.length < n) {
      col.values.push(null);
      col.at.push(-1);
    }
    columns[col.name] = col.values;
    at[col.name] = col.at;
  }
  return new RowColumns(n, columns, { body: b, at });
}

/**
 * The body as columns: a JSON array of row objects, or an object whose `data` is one (its other
 * keys parsed by `parseOther`, which answers undefined for a value it does not take). Undefined
 * when the reader is not sure: the body then goes the generic way.
 */
export function readRowColumns(
  body: Buffer,
  parseOther: (text: string) => { value: unknown } | undefined,
): RowColumns | { data: RowColumns; [key: string]: unknown } | undefined {
  const r = new Reader(body);
  // A byte order mark, as the generic way drops it.
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) r.i = 3;
  try {
    const first = r.ws();
    let out: RowColumns | { data: RowColumns; [key: string]: unknown };
    if (first === OPEN_BRACKET) out = readRows(r);
    else if (first === OPEN_BRACE) {
      r.i++;
      const envelope: Record<string, unknown> = {};
      let rows: RowColumns | null = null;
      if (r.ws() === CLOSE_BRACE) throw unsure;
      for (;;) {
        if (r.ws() !== QUOTE) throw unsure;
        const key = r.string();
        if (REFUSED_KEYS.has(key) || Object.prototype.hasOwnProperty.call(envelope, key))
          throw unsure;
        r.expect(COLON);
        if (key === 'data') {
          if (r.ws() !== OPEN_BRACKET) throw unsure;
          envelope[key] = rows = readRows(r);
        } else {
          r.ws();
          const start = r.i;
          r.skipValue();
          const parsed = parseOther(body.toString('utf8', start, r.i));
          if (!parsed) throw unsure;
          envelope[key] = parsed.value;
        }
        const d = r.ws();
        r.i++;
        if (d === CLOSE_BRACE) break;
        if (d !== COMMA) throw unsure;
      }
      if (!rows) throw unsure;
      out = envelope as { data: RowColumns };
    } else return undefined;
    if (r.ws() !== undefined) return undefined;
    return out;
  } catch (err) {
    if (err instanceof Unsure) return undefined;
    throw err;
  }
}
