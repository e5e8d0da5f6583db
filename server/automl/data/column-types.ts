// Column type inference (Lightwood's "data types" stage): decides per column whether it is a
// number, a category, a date, free text or an identifier to drop, and how raw cells are parsed.

export type BaseType = 'integer' | 'float' | 'binary' | 'categorical' | 'datetime' | 'text';
export type InferredType = BaseType | 'identifier' | 'empty';

/**
 * How categorical values are keyed. Values arrive from SQL as numbers, numeric strings ("1") or
 * booleans depending on the source, so keys are canonicalised per column: a column whose values
 * are all numbers keys 1, "1" and "1.0" alike.
 */
export type ValueKind = 'number' | 'boolean' | 'string';

export interface ColumnProfile {
  name: string;
  type: InferredType;
  /** The data type underneath an identifier (e.g. integer for CustomerId); equals `type` otherwise. */
  dataType: BaseType | 'empty';
  valueKind: ValueKind;
  /** Exactly one distinct non-missing value: carries no information, dropped as an input. */
  constant: boolean;
  nMissing: number;
  nDistinct: number;
  /** Human-readable reason for identifier/constant decisions (shown nowhere yet; aids debugging). */
  reason: string;
  /** A small-range integer scale typed integer (a target with such values is still a class). */
  scale?: boolean;
}

const NUM_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
// "640,56" (decimal comma, as in two dirty rows of home_rentals) vs "1,234,567" (thousands groups).
const DECIMAL_COMMA_RE = /^[+-]?\d+,\d+$/;
const THOUSANDS_RE = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const MISSING_TOKENS = new Set(['nan', 'null', 'none', 'na', 'n/a', '#n/a', '-']);
const DATE_RE =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** NULL, undefined, NaN and blank strings ("" and " ", as in telco's TotalCharges) are missing. */
export function isMissing(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'number') return !Number.isFinite(v);
  if (typeof v === 'string') return v.trim() === '';
  return false;
}

/**
 * Parses a cell as a number; NaN when missing or not numeric. Accepts numeric strings with a
 * decimal comma ("640,56" -> 640.56) or thousands separators ("1,234" -> 1234), booleans as 1/0,
 * bigints, and common missing tokens ("NaN", "null", "N/A") in numeric columns.
 */
export function parseNumber(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (typeof v === 'string') return parseNumericString(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return Number(v);
  return NaN;
}

function parseNumericString(raw: string): number {
  const s = raw.trim();
  if (s === '') return NaN;
  if (NUM_RE.test(s)) return Number(s);
  if (THOUSANDS_RE.test(s)) return Number(s.replace(/,/g, ''));
  if (DECIMAL_COMMA_RE.test(s)) return Number(s.replace(',', '.'));
  return NaN;
}

/** True for strings that mean "no value" in a numeric column (so they are not cast errors). */
export function isMissingToken(v: unknown): boolean {
  return typeof v === 'string' && MISSING_TOKENS.has(v.trim().toLowerCase());
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
// Dates written with the month's name, as exports from spreadsheets and sites write them:
// "Jun 12 1998", "June 12, 1998", "Sept. 3 2001" and "12 Jun 1998", "12-Jun-1998".
const MONTH_FIRST_RE = /^([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/i;
const DAY_FIRST_RE = /^(\d{1,2})[\s-]([a-z]{3,9})\.?[\s-],?\s*(\d{4})$/i;

/** The month (0-11) a name or its abbreviation (3 letters or more, "sept" too) names; -1 if none. */
function monthOf(name: string): number {
  const n = name.toLowerCase();
  return MONTHS.findIndex((m) => m === n || (n.length >= 3 && m.startsWith(n)));
}

/** Epoch milliseconds (UTC) of a date written with its month's name; NaN otherwise. */
function parseNamedMonthDate(s: string): number {
  const m = MONTH_FIRST_RE.exec(s);
  const d = m ? null : DAY_FIRST_RE.exec(s);
  const [monthName, day, year] = m ? [m[1], m[2], m[3]] : d ? [d[2], d[1], d[3]] : [];
  if (monthName === undefined) return NaN;
  const month = monthOf(monthName);
  const dd = Number(day);
  const t = Date.UTC(Number(year), month, dd);
  // Rejects "Feb 30": the date must land on the day and month written.
  if (month < 0 || new Date(t).getUTCDate() !== dd) return NaN;
  return t;
}

/** The zone an ISO timestamp ends with: 'Z', '+02:00' or '-0530'. */
export const ISO_ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * Epoch milliseconds of an ISO date / timestamp string, a date written with its month's name
 * ("Jun 12 1998"), or a Date; NaN otherwise.
 */
export function parseDatetime(v: unknown): number {
  const t = parseIsoDatetime(v);
  return Number.isNaN(t) && typeof v === 'string' ? parseNamedMonthDate(v.trim()) : t;
}

/**
 * Epoch milliseconds of an ISO date / timestamp string (or a Date); NaN otherwise. The ORDER BY
 * of a time series takes only these: its values are also sorted and compared by the SQL engine,
 * where "Apr 1 2000" would come before "Jan 1 2000".
 */
export function parseIsoDatetime(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v !== 'string') return NaN;
  const s = v.trim();
  if (!DATE_RE.test(s)) return NaN;
  // "YYYY-MM-DD HH:MM" is not ISO for Date.parse in every engine; normalise the separator.
  // Timestamps without a zone are read as UTC so features do not depend on the server's TZ.
  let iso = s.length > 10 ? s.slice(0, 10) + 'T' + s.slice(11) : s;
  if (iso.length > 10 && !ISO_ZONE.test(iso)) iso += 'Z';
  return Date.parse(iso);
}

/** Canonical category key of a cell for a column of the given kind; null when missing. */
export function categoryKey(v: unknown, kind: ValueKind): string | null {
  if (isMissing(v)) return null;
  if (kind === 'number') {
    const x = parseNumber(v);
    if (!Number.isNaN(x)) return String(x);
  } else if (kind === 'boolean') {
    const b = parseBoolean(v);
    if (b !== null) return b ? 'true' : 'false';
  }
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return String(v);
}

/**
 * A cell of a boolean column as a boolean. Yes / no count too: DuckDB's CSV reader types a Yes/No
 * column BOOLEAN, so a model trained on it must understand the 'Yes' a user types at prediction.
 */
function parseBoolean(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : null;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true' || s === 't' || s === '1' || s === 'yes' || s === 'y') return true;
    if (s === 'false' || s === 'f' || s === '0' || s === 'no' || s === 'n') return false;
  }
  return null;
}

/** The value a category key stands for, in the column's original type (1, true or 'Yes'). */
export function keyToLabel(key: string, kind: ValueKind): string | number | boolean {
  if (kind === 'number') return Number(key);
  if (kind === 'boolean') return key === 'true';
  return key;
}

/**
 * Names that announce an identifier: id, user_id, CustomerId, customerID, uuid, RowNumber.
 * A name alone never drops a column; it lowers the uniqueness bar for integers.
 */
export function looksLikeIdName(name: string): boolean {
  if (/^(?:id|uuid|guid|index|row_?number|row_?id)$/i.test(name)) return true;
  if (/(?:^|[_\s.-])(?:id|uuid|guid)$/i.test(name)) return true;
  return /[a-z0-9](?:Id|ID|Uuid|UUID)$/.test(name) || /^RowNumber$/i.test(name);
}

/** Share of non-missing values that must parse for a column to count as numeric / datetime. */
const PARSE_SHARE = 0.99;
/**
 * Small-range integer columns with at most this many values are a scale (rooms 0-3, a 1-5
 * rating: typed integer, so trees split them in order and the linear model reads them as a
 * number) unless there is evidence that they are codes: a code-like name, or values that leave
 * most of their range unused (1, 4, 9).
 */
const MAX_INT_CATEGORIES = 10;
const CODE_NAME_RE =
  /(?:^|[_\s.-])(?:code|type|kind|class|category|cat|group|status|segment|zip|postal|cluster|label|flag)s?$|[a-z](?:Code|Type|Kind|Class|Category|Group|Status)$/i;

/** A cell that is not a boolean: a number (numeric text included), a date, or other text. */
type TextFacts =
  | { kind: 'number'; x: number }
  | { kind: 'date' | 'text'; key: string; chars: number; words: number };

function textFacts(v: unknown): TextFacts {
  const x = typeof v === 'number' ? v : parseNumber(v);
  if (!Number.isNaN(x)) return { kind: 'number', x };
  const s = typeof v === 'string' ? v.trim() : String(v);
  // A missing-value token counts as text here; if the column turns out numeric it is missing.
  const date = !isMissingToken(s) && !Number.isNaN(parseDatetime(s));
  return { kind: date ? 'date' : 'text', key: s, chars: s.length, words: countWords(s) };
}

/**
 * Infers a column's type from its values (all of them: one pass, O(n) with a hash map of
 * distinct values). Rules, in order, and why:
 * - no non-missing value -> empty; one distinct value -> constant (both dropped as inputs);
 * - >= 99 % numbers (numeric strings included) -> numeric family: 2 values -> binary;
 *   (>= 99 % integral values count as integers) integers with <= 10 values in a small
 *   non-negative range are a scale (integer: number_of_rooms 0-3) unless their name or gaps say
 *   codes (categorical: plan_code 1, 4, 9); unique integers that are sequential (RowNumber, id) or
 *   carry an id-like name with > 98 % unique values (CustomerId) -> identifier;
 * - >= 99 % ISO dates/timestamps -> datetime;
 * - strings: 2 values -> binary; long multi-word strings -> text; > 98 % unique short strings
 *   (customerID) -> identifier; high-cardinality strings where most values occur once
 *   (Surname: 2932 values, 53 % of them singletons) -> identifier, because codes that almost
 *   never repeat cannot generalise; otherwise categorical.
 */
export function inferColumnType(name: string, values: ArrayLike<unknown>): ColumnProfile {
  if (values instanceof Float64Array) return inferNumberColumn(name, values);
  const n = values.length;
  let nMissing = 0;
  let nNum = 0;
  let nBool = 0;
  let nDate = 0;
  let nStr = 0;
  let nonInt = 0;
  let minV = Infinity;
  let maxV = -Infinity;
  let words = 0;
  let chars = 0;
  // Distinct values: numbers (also numeric strings: "1" and 1 are one value) keyed by the number,
  // everything else by its trimmed text. The keys cannot collide (a numeric text is a number).
  const numCounts = new Map<number, number>();
  const counts = new Map<string, number>();
  const nums = new Float64Array(n);
  let nNums = 0;

  // What a text says, worked out once per distinct text (a categorical column repeats a few
  // texts thousands of times; parsing each as a number and a date again cost a 200k-row table 50 ms).
  const texts = new Map<string, TextFacts>();
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (isMissing(v)) {
      nMissing++;
      continue;
    }
    let key: string;
    if (typeof v === 'boolean') {
      nBool++;
      key = v ? 'true' : 'false';
    } else {
      // A number as it is; anything else by what its text says (a string's once per text).
      let t: TextFacts | null = null;
      if (typeof v === 'string') {
        t = texts.get(v) ?? null;
        if (!t) texts.set(v, (t = textFacts(v)));
      } else if (typeof v !== 'number' || Number.isNaN(v)) t = textFacts(v);
      if (!t || t.kind === 'number') {
        const x = t ? t.x : (v as number);
        nNum++;
        nums[nNums++] = x;
        if (!Number.isInteger(x)) nonInt++;
        if (x < minV) minV = x;
        if (x > maxV) maxV = x;
        numCounts.set(x, (numCounts.get(x) ?? 0) + 1);
        continue;
      }
      key = t.key;
      if (t.kind === 'date') nDate++;
      else nStr++;
      chars += t.chars;
      words += t.words;
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }

  const nn = n - nMissing;
  const nDistinct = numCounts.size + counts.size;
  const base = { name, nMissing, nDistinct, reason: '' };
  if (nn === 0) return emptyProfile(base);
  const uniqueRatio = nDistinct / nn;
  const constant = nDistinct === 1;

  if (nBool === nn) {
    return { ...base, type: 'binary', dataType: 'binary', valueKind: 'boolean', constant };
  }

  if (nNum >= PARSE_SHARE * nn) {
    return numericProfile(base, {
      name,
      nNum,
      numKeys: numCounts.size,
      nonInt,
      minV,
      maxV,
      nums: nums.subarray(0, nNums),
      nn,
      uniqueRatio,
      constant,
    });
  }

  if (nDate >= PARSE_SHARE * nn) {
    return { ...base, type: 'datetime', dataType: 'datetime', valueKind: 'string', constant };
  }

  const valueKind: ValueKind = 'string';
  if (nDistinct === 2) {
    return { ...base, type: 'binary', dataType: 'binary', valueKind, constant };
  }
  const nText = nStr + nDate;
  const meanWords = nText > 0 ? words / nText : 0;
  const meanChars = nText > 0 ? chars / nText : 0;
  if ((meanWords >= 4 || meanChars >= 40) && (nDistinct > 50 || uniqueRatio > 0.2)) {
    return { ...base, type: 'text', dataType: 'text', valueKind, constant };
  }
  if (nn >= 20 && uniqueRatio > 0.98) {
    return {
      ...base,
      type: 'identifier',
      dataType: 'categorical',
      valueKind,
      constant,
      reason: 'unique short strings',
    };
  }
  if (nDistinct >= 100 && uniqueRatio >= 0.2) {
    let singletons = 0;
    for (const c of counts.values()) if (c === 1) singletons++;
    for (const c of numCounts.values()) if (c === 1) singletons++;
    if (singletons / nDistinct >= 0.4) {
      return {
        ...base,
        type: 'identifier',
        dataType: 'categorical',
        valueKind,
        constant,
        reason: 'high-cardinality values that rarely repeat',
      };
    }
  }
  return { ...base, type: 'categorical', dataType: 'categorical', valueKind, constant };
}

type ProfileBase = Pick<ColumnProfile, 'name' | 'nMissing' | 'nDistinct' | 'reason'>;

/** A column with no values at all. */
function emptyProfile(base: ProfileBase): ColumnProfile {
  return {
    ...base,
    type: 'empty',
    dataType: 'empty',
    valueKind: 'string',
    constant: true,
    reason: 'no values',
  };
}

/** The numeric family's rules of inferColumnType (see there), from the column's tallies. */
function numericProfile(
  base: ProfileBase,
  t: {
    name: string;
    nNum: number;
    numKeys: number;
    nonInt: number;
    minV: number;
    maxV: number;
    nums: Float64Array;
    nn: number;
    uniqueRatio: number;
    constant: boolean;
  },
): ColumnProfile {
  const { name, nNum, numKeys, nonInt, minV, maxV, nn, uniqueRatio, constant } = t;
  const valueKind: ValueKind = 'number';
  if (numKeys <= 2) {
    return { ...base, type: 'binary', dataType: 'binary', valueKind, constant };
  }
  // Integers with a stray decimal (two "640,56" cells among 5037 sqft values) stay integers.
  if (nonInt <= 0.01 * nNum) {
    if (numKeys <= MAX_INT_CATEGORIES && minV >= 0 && maxV - minV < 2 * MAX_INT_CATEGORIES) {
      const sparse = numKeys >= 3 && numKeys * 2 <= maxV - minV + 1;
      if (sparse || CODE_NAME_RE.test(name)) {
        return { ...base, type: 'categorical', dataType: 'categorical', valueKind, constant };
      }
      return { ...base, type: 'integer', dataType: 'integer', valueKind, constant, scale: true };
    }
    const unique = numKeys === nNum;
    if (nn >= 20 && unique && isSequential(t.nums)) {
      return {
        ...base,
        type: 'identifier',
        dataType: 'integer',
        valueKind,
        constant,
        reason: 'unique sequential integers',
      };
    }
    if (nn >= 20 && looksLikeIdName(name) && uniqueRatio > 0.98) {
      return {
        ...base,
        type: 'identifier',
        dataType: 'integer',
        valueKind,
        constant,
        reason: 'id-like name and unique values',
      };
    }
    return { ...base, type: 'integer', dataType: 'integer', valueKind, constant };
  }
  return { ...base, type: 'float', dataType: 'float', valueKind, constant };
}

/**
 * inferColumnType of a typed number column (NaN / infinities missing): the same profile, with the
 * distinct values counted on a sorted copy instead of a hash map (a 200k-row float column has
 * ~200k distinct keys, and a Map of them costs several times the sort).
 */
function inferNumberColumn(name: string, values: Float64Array): ColumnProfile {
  const n = values.length;
  const nums = new Float64Array(n);
  let nNums = 0;
  let nonInt = 0;
  let minV = Infinity;
  let maxV = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = values[i];
    if (!Number.isFinite(x)) continue;
    nums[nNums++] = x;
    if (!Number.isInteger(x)) nonInt++;
    if (x < minV) minV = x;
    if (x > maxV) maxV = x;
  }
  const nn = nNums;
  const present = nums.subarray(0, nNums);
  const numKeys = countDistinct(present);
  const base = { name, nMissing: n - nn, nDistinct: numKeys, reason: '' };
  if (nn === 0) return emptyProfile(base);
  return numericProfile(base, {
    name,
    nNum: nn,
    numKeys,
    nonInt,
    minV,
    maxV,
    nums: present,
    nn,
    uniqueRatio: numKeys / nn,
    constant: numKeys === 1,
  });
}

function countWords(s: string): number {
  let w = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const space = c === 32 || c === 9 || c === 10 || c === 13;
    if (!space && !inWord) w++;
    inWord = !space;
  }
  return w;
}

/**
 * Distinct values of finite numbers as a Map counts them (SameValueZero: -0 and 0 are one key), in
 * an open-addressing hash table of their bits: a 100k-value column in ~1 ms, where sorting a copy
 * took ~8 (a Map of numbers ~30).
 */
export function countDistinct(xs: Float64Array): number {
  const n = xs.length;
  if (n === 0) return 0;
  let cap = 16;
  while (cap < 2 * n) cap *= 2;
  const mask = cap - 1;
  // Slot i holds a value's two 32-bit halves; `used` marks taken slots.
  const lo = new Int32Array(cap);
  const hi = new Int32Array(cap);
  const used = new Uint8Array(cap);
  const cell = new Float64Array(1);
  const bits = new Int32Array(cell.buffer);
  let count = 0;
  for (let i = 0; i < n; i++) {
    cell[0] = xs[i] + 0; // -0 + 0 is +0
    const a = bits[0];
    const b = bits[1];
    // murmur3's finaliser of both halves: the high bits (all that differs between small
    // integers) reach the low ones the slot is taken from.
    let j = fmix32(a ^ fmix32(b)) & mask;
    for (;;) {
      if (!used[j]) {
        used[j] = 1;
        lo[j] = a;
        hi[j] = b;
        count++;
        break;
      }
      if (lo[j] === a && hi[j] === b) break;
      j = (j + 1) & mask;
    }
  }
  return count;
}

function fmix32(x: number): number {
  let h = x ^ (x >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function isSequential(nums: Float64Array): boolean {
  if (nums.length < 2) return false;
  const s = Float64Array.from(nums).sort();
  for (let i = 1; i < s.length; i++) if (s[i] - s[i - 1] !== 1) return false;
  return true;
}
