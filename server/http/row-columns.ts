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
 *
 * A column that has a number in every row is a Float64Array (the same values, -0 included): no
 * boxed number per cell and nothing on the JavaScript heap, which the garbage collector would
 * copy while the request lives (a 10-class 64-input model's 10k-row body made 48 MB of garbage
 * read into arrays, most of a request's collection time).
 */
import type { InputCells, InputText } from '../models/predict/batch';

/** A body's rows as columns (null-prototype record: a column may be called anything). */
export class RowColumns {
  constructor(
    readonly n: number,
    /** A column's cells: a Float64Array when every row has a number there, else an array. */
    readonly columns: Record<string, InputCells>,
    /**
     * Where each cell's text starts in `body` when it is a number written as JavaScript writes
     * it (JSON.stringify of the value gives that text), else -1, and which rows are written as
     * the answer echoes them (`InputText.rows`): the answer echoes the inputs, and copying their
     * text costs far less than turning 640k numbers back into text.
     */
    readonly text: InputText,
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

/** What `Reader.cell` answers for a number, whose value is then in `Reader.num` (not boxed). */
const NUMBER = Symbol('number');

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

class Reader {
  i = 0;
  /** The last number read (a field, so that no number is boxed on its way to a column). */
  num = 0;
  /** Where the last cell read starts when it is a number in JavaScript's own text, else -1. */
  canonical = -1;
  /** Whether the last cell's text is what JSON.stringify writes for its value. */
  exact = false;
  /** Of the last string scanned: where its text ends (the closing quote), escapes, non-ASCII. */
  end = 0;
  escaped = false;
  ascii = true;
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

  /** Scans the string whose opening quote is at `i`; `i` then is after its closing quote. */
  scanString(): void {
    const b = this.b;
    let i = this.i + 1;
    let escaped = false;
    let ascii = true;
    for (;;) {
      const c = b[i];
      if (c === QUOTE) break;
      if (c === undefined || c < 0x20) throw unsure;
      if (c === BACKSLASH) {
        escaped = true;
        i += 2;
        continue;
      }
      if (c >= 0x80) ascii = false;
      i++;
    }
    this.end = i;
    this.escaped = escaped;
    this.ascii = ascii;
    this.i = i + 1;
  }

  /** The string at `i`, decoded as JSON.parse decodes it. */
  string(): string {
    const start = this.i + 1;
    this.scanString();
    const end = this.end;
    if (!this.escaped && this.ascii) return this.b.toString('latin1', start, end);
    // Escapes or UTF-8: JSON.parse judges and decodes them.
    try {
      return JSON.parse(this.b.toString('utf8', start - 1, end + 1)) as string;
    } catch {
      throw unsure;
    }
  }

  /**
   * A number at `i` by JSON's grammar, into `num`. Up to 15 significant digits and a power of
   * ten up to 22 it is one exact multiplication or division, hence the correctly rounded double
   * JSON.parse gives; anything else is parsed by Number from its text.
   */
  number(): void {
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
    // An exponent, or more digits than one exact division takes: Number reads the text.
    if (c === 0x65 || c === 0x45 || digits > 15 || scale > 22) return this.numberText(start, i);
    this.i = i;
    const v = scale === 0 ? mant : mant / EXACT_POWERS[scale];
    // Up to 15 significant digits, a double's shortest text has exactly these digits: it is
    // the text JavaScript writes unless it is -0, has a fraction ending in 0, or is below
    // 1e-6 (written with an exponent).
    if (!(mant === 0 ? neg || scale > 0 : (scale > 0 && b[i - 1] === ZERO) || v < 1e-6)) {
      this.canonical = start;
      this.exact = true;
    }
    this.num = neg ? -v : v;
  }

  /**
   * The number from `start` whose digits end at `i` (an exponent may follow), parsed by Number:
   * apart from `number`, which then stays small enough for V8 to inline.
   */
  numberText(start: number, i: number): void {
    const b = this.b;
    let c = b[i];
    if (c === 0x65 || c === 0x45) {
      c = b[++i];
      if (c === PLUS || c === MINUS) c = b[++i];
      if (!(c >= ZERO && c <= NINE)) throw unsure;
      do c = b[++i];
      while (c >= ZERO && c <= NINE);
    }
    this.i = i;
    const v = Number(b.toString('latin1', start, i));
    if (!Number.isFinite(v)) throw unsure;
    this.num = v;
  }

  /**
   * A cell: a string, boolean or null, or NUMBER with the number in `num`; anything else gives
   * up. `exact` and `canonical` say how its text relates to JSON.stringify's.
   */
  cell(): unknown {
    this.canonical = -1;
    this.exact = false;
    const c = this.ws();
    const b = this.b;
    const i = this.i;
    if (c === QUOTE) {
      const s = this.string();
      // A string's text without escapes is JSON.stringify's (the body is valid UTF-8).
      this.exact = !this.escaped;
      return s;
    }
    if (c === MINUS || (c >= ZERO && c <= NINE)) {
      this.number();
      return NUMBER;
    }
    this.exact = true;
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

/**
 * A column being filled. Its cells are numbers in `nums` while every row so far has a number
 * there (only a key of the first row can be such a column), else `values` (rows before its first
 * key null).
 */
interface Column {
  name: string;
  /** The key's raw bytes between its quotes, compared before any string is made. */
  raw: Buffer;
  /** Whether `raw` is JSON.stringify's text of the name (no escapes). */
  plain: boolean;
  nums: Float64Array | null;
  values: unknown[] | null;
  /** RowColumns.text's `at` of each row. */
  at: Int32Array;
  /** Where the key's opening quote is in each row that has it (0 in the others). */
  keyAt: Int32Array;
  /** Rows given a cell so far (the last row with this key, plus one). */
  filled: number;
}

/** The keys a row may not have on this path (Fastify's parser refuses them: the generic way). */
const REFUSED_KEYS = new Set(['__proto__', 'constructor']);

/** A copy of `a` with room for `cap` entries (the rest `fill`). */
function grown<T extends Float64Array | Int32Array>(a: T, cap: number, fill: number): T {
  const out = new (a.constructor as new (n: number) => T)(cap);
  out.set(a);
  if (fill !== 0) out.fill(fill, a.length);
  return out;
}

/** A column's numbers so far as an array, when a cell that is not a number comes. */
function toValues(col: Column): unknown[] {
  const values: unknown[] = Array.from(col.nums!.subarray(0, col.filled));
  col.nums = null;
  col.values = values;
  return values;
}

/** Reads `[{...}, ...]` at the reader's position into columns. */
function readRows(r: Reader): RowColumns {
  const b = r.b;
  r.expect(OPEN_BRACKET);
  const cols: Column[] = [];
  const byName = new Map<string, number>();
  let n = 0;
  // Room for this many rows in every column's typed arrays; set from the first row's size.
  let cap = 16;
  let close = new Int32Array(cap);
  let keys = new Int32Array(cap);
  const grow = (rows: number) => {
    cap = rows;
    close = grown(close, cap, 0);
    keys = grown(keys, cap, 0);
    for (const col of cols) {
      if (col.nums) col.nums = grown(col.nums, cap, 0);
      col.at = grown(col.at, cap, -1);
      col.keyAt = grown(col.keyAt, cap, 0);
    }
  };
  if (r.ws() === CLOSE_BRACKET) throw unsure; // An empty body: the generic way answers it.
  for (;;) {
    r.expect(OPEN_BRACE);
    const row = n++;
    if (row === cap) grow(2 * cap);
    const rowOpen = r.i - 1;
    // Whether the row is written as the answer echoes it (InputText.rows).
    let exact = true;
    let next = 0;
    let c0 = b[r.i];
    if (isSpace(c0)) {
      c0 = r.ws();
      exact = false;
    }
    if (c0 !== CLOSE_BRACE) {
      for (;;) {
        let k = b[r.i];
        if (isSpace(k)) {
          k = r.ws();
          exact = false;
        }
        if (k !== QUOTE) throw unsure;
        const keyAt = r.i;
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
            let q = 0;
            while (q < len && b[s + q] === raw[q]) q++;
            if (q === len) {
              c = next;
              r.i = s + len + 1;
              if (!guess.plain) exact = false;
            }
          }
        }
        if (c < 0) {
          const at = r.i;
          const name = r.string();
          if (r.escaped) exact = false;
          if (REFUSED_KEYS.has(name)) throw unsure;
          c = byName.get(name) ?? -1;
          if (c < 0) {
            c = cols.length;
            byName.set(name, c);
            const starts = new Int32Array(cap).fill(-1);
            cols.push({
              name,
              raw: Buffer.from(b.subarray(at + 1, r.i - 1)),
              plain: !r.escaped,
              // Only a key of the first row can have a number in every row.
              nums: row === 0 ? new Float64Array(cap) : null,
              values: row === 0 ? null : new Array<unknown>(row).fill(null),
              at: starts,
              keyAt: new Int32Array(cap),
              filled: row,
            });
          }
          if (c !== next) exact = false;
        }
        if (b[r.i] === COLON) r.i++;
        else {
          r.expect(COLON);
          exact = false;
        }
        if (isSpace(b[r.i])) exact = false;
        const v = r.cell();
        if (!r.exact) exact = false;
        const col = cols[c];
        col.at[row] = r.canonical;
        col.keyAt[row] = keyAt;
        if (v === NUMBER && col.nums !== null) {
          // In order, or a repeated key of this row (its last value stands, as in JSON.parse).
          if (col.filled >= row) {
            col.nums[row] = r.num;
            col.filled = row + 1;
          } else {
            // A row without this key: the column is not numbers only.
            const values = toValues(col);
            while (values.length < row) values.push(null);
            values.push(r.num);
            col.filled = row + 1;
          }
        } else {
          const cell = v === NUMBER ? r.num : v;
          const values = col.values ?? toValues(col);
          // A repeated key keeps its last value, as JSON.parse does.
          if (values.length > row) values[row] = cell;
          else {
            while (values.length < row) values.push(null);
            values.push(cell);
          }
          col.filled = row + 1;
        }
        next = c + 1;
        let d = b[r.i];
        if (isSpace(d)) {
          d = r.ws();
          exact = false;
        }
        r.i++;
        if (d === CLOSE_BRACE) break;
        if (d !== COMMA) throw unsure;
      }
    } else r.i++;
    close[row] = r.i - 1;
    keys[row] = exact ? next : -1;
    if (row === 0) {
      // Room for as many rows as the body holds if they are the size of the first: no column
      // outgrows it unless rows get shorter (then it doubles). A row of k keys takes at least
      // 5k bytes, so the arrays stay within a few times the body's size.
      const rest = b.length - r.i;
      grow(Math.max(cap, Math.ceil((rest / (r.i - rowOpen)) * 1.1) + 2));
    }
    const d = r.ws();
    r.i++;
    if (d === CLOSE_BRACKET) break;
    if (d !== COMMA) throw unsure;
  }
  const columns: Record<string, InputCells> = Object.create(null);
  const at: Record<string, Int32Array> = Object.create(null);
  const keyAt: Record<string, Int32Array> = Object.create(null);
  for (const col of cols) {
    if (col.nums !== null && col.filled < n) toValues(col);
    if (col.nums !== null) columns[col.name] = col.nums.subarray(0, n);
    else {
      const values = col.values!;
      while (values.length < n) values.push(null);
      columns[col.name] = values;
    }
    at[col.name] = col.at.subarray(0, n);
    keyAt[col.name] = col.keyAt.subarray(0, n);
  }
  return new RowColumns(n, columns, {
    body: b,
    at,
    rows: {
      close: close.subarray(0, n),
      keys: keys.subarray(0, n),
      keyAt,
    },
  });
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
  // Positions are kept as 32-bit integers.
  if (body.length > 0x7fffffff) return undefined;
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
