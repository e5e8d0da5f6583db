// Parsing raw cells into numbers: numeric columns, dates (and their calendar parts) and text
// statistics. Strict mode is for prediction inputs, where an uncastable value is a user error.

import { AutoMLError } from '../errors';
import { isMissing, isMissingToken, parseDatetime, parseNumber } from './column-types';

export const DATETIME_PARTS = ['year', 'month', 'day', 'dayofweek', 'hour', 'epoch_days'] as const;
export const TEXT_PARTS = ['length', 'words'] as const;

/**
 * Numbers of a column, NaN for missing. In strict mode (prediction inputs) a value that is neither
 * missing nor a number is a user error naming the column and row; in training such rare values
 * (<= 1 % by type inference) are treated as missing.
 */
export function parseNumericColumn(
  values: ArrayLike<unknown>,
  n: number,
  strict: boolean,
  column: string,
): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === 'number') {
      out[i] = Number.isFinite(v) ? v : NaN;
      continue;
    }
    if (isMissing(v)) {
      out[i] = NaN;
      continue;
    }
    const x = parseNumber(v);
    if (Number.isNaN(x) && strict && !isMissingToken(v)) {
      throw new AutoMLError(
        `column '${column}' in row ${i}: cannot convert ${describeValue(v)} to a number`,
        { column, row: i },
      );
    }
    out[i] = x;
  }
  return out;
}

function describeValue(v: unknown): string {
  if (typeof v === 'string') return `'${v.length > 40 ? v.slice(0, 40) + '...' : v}'`;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Epoch milliseconds per row, NaN for missing; strict mode rejects non-dates. */
export function parseDatetimeColumn(
  values: ArrayLike<unknown>,
  n: number,
  strict: boolean,
  column: string,
): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (isMissing(v)) {
      out[i] = NaN;
      continue;
    }
    const t = parseDatetime(v);
    if (Number.isNaN(t) && strict) {
      throw new AutoMLError(
        `column '${column}' in row ${i}: cannot convert ${describeValue(v)} to a date/time (expected ISO format like 2024-01-31 or 2024-01-31 12:00:00)`,
        { column, row: i },
      );
    }
    out[i] = t;
  }
  return out;
}

/** Days since 1970-01-01 -> civil date (proleptic Gregorian), without allocating a Date. */
function civilFromDays(days: number, out: Int32Array): void {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  out[0] = yoe + era * 400 + (m <= 2 ? 1 : 0);
  out[1] = m;
  out[2] = d;
}

export function datetimeParts(ms: Float64Array, n: number): Float64Array[] {
  const parts = DATETIME_PARTS.map(() => new Float64Array(n));
  const ymd = new Int32Array(3);
  for (let i = 0; i < n; i++) {
    const t = ms[i];
    if (Number.isNaN(t)) {
      for (const p of parts) p[i] = NaN;
      continue;
    }
    const days = Math.floor(t / 86_400_000);
    civilFromDays(days, ymd);
    parts[0][i] = ymd[0];
    parts[1][i] = ymd[1];
    parts[2][i] = ymd[2];
    parts[3][i] = (((days + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
    parts[4][i] = (t - days * 86_400_000) / 3_600_000;
    parts[5][i] = t / 86_400_000;
  }
  return parts;
}

export function textParts(values: ArrayLike<unknown>, n: number): Float64Array[] {
  const len = new Float64Array(n);
  const words = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (isMissing(v)) {
      len[i] = NaN;
      words[i] = NaN;
      continue;
    }
    const s = typeof v === 'string' ? v : String(v);
    len[i] = s.length;
    let w = 0;
    let inWord = false;
    for (let j = 0; j < s.length; j++) {
      const c = s.charCodeAt(j);
      const sp = c === 32 || c === 9 || c === 10 || c === 13;
      if (!sp && !inWord) w++;
      inWord = !sp;
    }
    words[i] = w;
  }
  return [len, words];
}
