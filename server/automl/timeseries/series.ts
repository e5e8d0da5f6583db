// Rows -> series: finds the ORDER BY / GROUP BY / target columns, parses the order values (numbers
// or ISO dates), splits the rows into one series per group, sorts each by time and merges rows that
// share a timestamp within a group. Training and forecasting read their rows through here, so both
// see exactly the same series.

import type { CellValue } from '../api';
import {
  ISO_ZONE,
  isMissing,
  isMissingToken,
  parseIsoDatetime,
  parseNumber,
} from '../data/column-types';
import { type Table, cellAt } from '../data/table';
import { AutoMLError } from '../errors';
import { inferFrequency, seasonalPeriod } from './frequency';
import { fillMissing, periodFromData } from './stat/season';
import type { OrderFormat } from './types';

export interface Series {
  /** Canonical key of the group's values (see groupKey), '' without GROUP BY. */
  key: string;
  /** The GROUP BY values as the first row of the group had them. */
  labels: CellValue[];
  /** Order values, strictly ascending: epoch milliseconds for dates, else the numbers. */
  t: Float64Array;
  y: Float64Array;
}

export interface SeriesSet {
  series: Series[];
  orderFormat: OrderFormat;
  /** Rows merged into an earlier row of the same group and timestamp. */
  duplicates: number;
  /** Rows without an order value or without a target. */
  dropped: number;
  /** Of those, rows without a target between known ones of their group, whose value was filled. */
  interpolated: number;
  /** Every target value is a whole number. */
  integerTarget: boolean;
  /**
   * Per input row: its series (-1 for a dropped row) and its position in that series (rows merged
   * as duplicates share the position of the row they were merged into).
   */
  rowSeries: Int32Array;
  rowPos: Int32Array;
}

export interface SeriesColumns {
  target: string;
  orderBy: string;
  groupBy: string[];
}

/** A column's cells by row, whatever its storage. */
type Cells = (r: number) => unknown;

/** The index of `name` in `columns`: an exact match, else the one case-insensitive match. */
export function findColumn(columns: readonly string[], name: string): number {
  const exact = columns.indexOf(name);
  if (exact >= 0) return exact;
  const lower = name.toLowerCase();
  return columns.findIndex((c) => c.toLowerCase() === lower);
}

function requireColumn(
  columns: readonly string[],
  name: string,
  role: string,
  where: string,
): number {
  const j = findColumn(columns, name);
  if (j < 0) {
    throw new AutoMLError(
      `${role} column '${name}' is not in the ${where}; its columns are: ${columns.join(', ')}`,
      { column: name },
    );
  }
  return j;
}

const SHORT = (v: unknown) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 40 ? s.slice(0, 40) + '...' : s;
};

/**
 * Canonical key of a GROUP BY value: numbers and numeric strings alike ("2", 2 and 2.0 are one
 * group, whichever way the source typed the column), trimmed text, NULL as its own group.
 */
function groupKey(v: unknown): string {
  if (v === null || v === undefined) return '\u0000';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '\u0000';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  const s = String(v).trim();
  if (s === '') return '\u0000';
  const x = Number(s);
  return Number.isFinite(x) && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) ? String(x) : s;
}

/** The key of a group's values (one per GROUP BY column). */
function compositeKey(keys: string[]): string {
  return keys.join('\u0001');
}

function label(v: unknown): CellValue {
  if (v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return v as CellValue;
}

/** Milliseconds a zone ('Z', '+02:00', '-0530') is ahead of UTC. */
function zoneOffset(zone: string): number {
  if (zone === 'Z') return 0;
  const m = /^([+-])(\d\d):?(\d\d)$/.exec(zone);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
}

/**
 * Parses the order column. Numbers (and numeric text) sort as numbers; ISO dates / timestamps as
 * epoch milliseconds (zone-less values read as UTC). With `expected` (forecasting), the values must
 * be of the kind the model was trained on. NULL is NaN (the row is dropped).
 */
function parseOrder(
  cells: Cells,
  n: number,
  column: string,
  expected?: OrderFormat,
): { t: Float64Array; format: OrderFormat } {
  const t = new Float64Array(n);
  let sawNumber = false;
  let sawDate = false;
  let format: OrderFormat | null = expected ?? null;
  // Zoned ISO text: the zones the rows write, whether one has milliseconds with a Z, and which rows
  // (their times move to the zone's wall clock when it is one zone: see OrderFormat).
  const zones = new Set<string>();
  let millisZ = false;
  const zoned: number[] = [];
  const wantNumber = expected === 'number';
  const unsortable = (v: unknown, r: number, why: string): never => {
    throw new AutoMLError(
      `ORDER BY column '${column}' cannot be sorted: ${SHORT(v)} in row ${r} ${why}`,
      { column, row: r },
    );
  };
  for (let r = 0; r < n; r++) {
    const v = cells(r);
    if (isMissing(v)) {
      t[r] = NaN;
      continue;
    }
    if (typeof v === 'boolean') unsortable(v, r, 'is a boolean, not a number or a date/time');
    let x = NaN;
    let isDate = false;
    if (typeof v === 'number' || typeof v === 'bigint') x = Number(v);
    else if (v instanceof Date) {
      x = v.getTime();
      isDate = true;
      format ??= 'iso';
      zones.add('date object');
    } else if (typeof v === 'string') {
      const s = v.trim();
      x = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) ? Number(s) : NaN;
      if (Number.isNaN(x)) {
        x = parseIsoDatetime(s);
        isDate = !Number.isNaN(x);
        const zone = isDate && s.length > 10 ? ISO_ZONE.exec(s) : null;
        if (zone) {
          zones.add(zone[0]);
          if (/\.\d+Z$/.test(s)) millisZ = true;
          zoned.push(r);
        }
        if (isDate && !expected) {
          const f: OrderFormat =
            s.length === 10 ? 'date' : !s.includes('T') ? 'datetime' : zone ? 'iso' : 'isolocal';
          // Mixed date and timestamp text is written back as timestamps.
          if (format === null || (format === 'date' && f !== 'date')) format = f;
        }
      }
    }
    if (Number.isNaN(x)) {
      unsortable(
        v,
        r,
        "is neither a number nor an ISO date/time (expected e.g. 2024-01-31 or 2024-01-31 12:00:00; convert other spellings in the query, e.g. strptime(col, '%b %d %Y') AS col)",
      );
    }
    if (expected && (wantNumber ? isDate : !isDate)) {
      unsortable(v, r, `is not ${wantNumber ? 'a number' : 'a date/time'} like the training data`);
    }
    if (isDate) sawDate = true;
    else sawNumber = true;
    if (sawDate && sawNumber)
      unsortable(v, r, 'mixes with values of another kind (numbers and dates)');
    t[r] = x;
  }
  if (!expected && !sawDate && !sawNumber) {
    throw new AutoMLError(`ORDER BY column '${column}' has no values`, { column });
  }
  if (!expected && format === 'iso' && zones.size === 1 && !millisZ) {
    const [zone] = zones;
    if (zone !== 'date object') format = `iso${zone}` as OrderFormat;
  }
  if (format !== null && format !== 'iso' && format.startsWith('iso') && format !== 'isolocal') {
    // One zone: each zoned time at that zone's wall clock (zone-less text is one already).
    const offset = zoneOffset(format.slice(3));
    for (const r of zoned) t[r] += offset;
  }
  return { t, format: format ?? (sawDate ? 'datetime' : 'number') };
}

/** Target values as numbers (NaN = missing); anything else is the user's error, not a silent NaN. */
function parseTarget(cells: Cells, n: number, column: string): Float64Array {
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const v = cells(r);
    if (isMissing(v) || isMissingToken(v)) {
      y[r] = NaN;
      continue;
    }
    const x = typeof v === 'boolean' ? NaN : parseNumber(v);
    if (Number.isNaN(x)) {
      throw new AutoMLError(
        `time-series forecasting predicts numbers, but target '${column}' holds ${SHORT(v)} in row ${r}`,
        { column, row: r },
      );
    }
    y[r] = x;
  }
  return y;
}

function tableCells(table: Table, j: number): Cells {
  const c = table.data[j];
  if (c.kind === 'number') {
    const { values, nulls } = c;
    return (r) => (nulls && nulls[r] ? null : values[r]);
  }
  return (r) => cellAt(c, r);
}

/**
 * The series of a table. `where` names the data in errors ('training data', 'forecast input');
 * `orderFormat` (forecasting) is the kind the model was trained on.
 */
export function buildSeries(
  table: Table,
  cols: SeriesColumns,
  where: string,
  orderFormat?: OrderFormat,
): SeriesSet {
  const names = table.columns;
  const n = table.rowCount;
  const jOrder = requireColumn(names, cols.orderBy, 'ORDER BY', where);
  const jTarget = requireColumn(names, cols.target, 'target', where);
  const jGroups = cols.groupBy.map((g) => requireColumn(names, g, 'GROUP BY', where));
  const { t, format } = parseOrder(tableCells(table, jOrder), n, names[jOrder], orderFormat);
  const y = parseTarget(tableCells(table, jTarget), n, names[jTarget]);
  const groupCells = jGroups.map((j) => tableCells(table, j));

  // Group id per row (first-appearance order), -1 for dropped rows.
  const gid = new Int32Array(n).fill(-1);
  const ids = new Map<string, number>();
  const labels: CellValue[][] = [];
  const keys: string[] = [];
  let dropped = 0;
  const parts = new Array<string>(groupCells.length);
  // Rows with a time but no target: their times stay in their group's series (see fillGaps).
  const blanks: number[] = [];
  for (let r = 0; r < n; r++) {
    if (Number.isNaN(t[r]) || Number.isNaN(y[r])) {
      dropped++;
      if (!Number.isNaN(t[r])) blanks.push(r);
      continue;
    }
    for (let g = 0; g < groupCells.length; g++) parts[g] = groupKey(groupCells[g](r));
    const key = compositeKey(parts);
    let id = ids.get(key);
    if (id === undefined) {
      id = keys.length;
      ids.set(key, id);
      keys.push(key);
      labels.push(groupCells.map((c) => label(c(r))));
    }
    gid[r] = id;
  }
  const G = keys.length;
  const blankRows: number[][] = keys.map(() => []);
  for (const r of blanks) {
    for (let g = 0; g < groupCells.length; g++) parts[g] = groupKey(groupCells[g](r));
    const id = ids.get(compositeKey(parts));
    if (id !== undefined) blankRows[id].push(r);
  }
  let interpolated = 0;
  const count = new Int32Array(G + 1);
  for (let r = 0; r < n; r++) if (gid[r] >= 0) count[gid[r] + 1]++;
  for (let g = 0; g < G; g++) count[g + 1] += count[g];
  const rows = new Int32Array(count[G]);
  const fill = count.slice(0, G);
  for (let r = 0; r < n; r++) if (gid[r] >= 0) rows[fill[gid[r]]++] = r;

  let duplicates = 0;
  let integerTarget = true;
  const series: Series[] = [];
  const rowPos = new Int32Array(n).fill(-1);
  for (let g = 0; g < G; g++) {
    // Stable sort by time (rows are in input order within the group).
    const idx = Array.from(rows.subarray(count[g], count[g + 1]));
    idx.sort((a, b) => t[a] - t[b] || a - b);
    const ts: number[] = [];
    const ys: number[] = [];
    let m = 0;
    for (let i = 0; i < idx.length; i++) {
      const r = idx[i];
      if (!Number.isInteger(y[r])) integerTarget = false;
      if (ts.length > 0 && ts[ts.length - 1] === t[r]) {
        // Same group, same timestamp: the documented rule is the mean of their targets.
        rowPos[r] = ts.length - 1;
        m++;
        ys[ys.length - 1] += (y[r] - ys[ys.length - 1]) / m;
        duplicates++;
        continue;
      }
      rowPos[r] = ts.length;
      ts.push(t[r]);
      ys.push(y[r]);
      m = 1;
    }
    const filled = fillGaps(
      ts,
      ys,
      blankRows[g].map((r) => t[r]),
      format,
    );
    if (filled) {
      interpolated += filled.count;
      for (const r of idx) rowPos[r] = filled.at[rowPos[r]];
      // A filled row is a row of its group again: it gets the forecast made for it.
      for (const r of blankRows[g]) {
        const i = filled.holes.get(t[r]);
        if (i !== undefined) {
          gid[r] = g;
          rowPos[r] = i;
        }
      }
    }
    series.push({
      key: keys[g],
      labels: labels[g],
      t: Float64Array.from(filled?.t ?? ts),
      y: filled?.y ?? Float64Array.from(ys),
    });
  }
  return {
    series,
    orderFormat: format,
    duplicates,
    dropped,
    interpolated,
    integerTarget,
    rowSeries: gid,
    rowPos,
  };
}

/**
 * A NULL target between two known values of its group is a missing value at a known time, not a
 * missing time: the time stays in the series, its value filled from the known ones (stat/season.ts
 * fillMissing, at the period of the group's calendar; for a numeric order, the period its data
 * show), so the rows after it keep their place in the season. Before the first known value and
 * after the last there is nothing to fill from: those rows stay dropped (a forecast starts after
 * the last known value). `ts`, `ys`: the group's known rows, ascending; `blanks`: the times of its
 * rows without a target. Null when none is filled; else the series, per known row its new
 * position, and per filled time its position.
 */
function fillGaps(
  ts: number[],
  ys: number[],
  blanks: number[],
  format: OrderFormat,
): {
  t: number[];
  y: Float64Array;
  at: Int32Array;
  holes: Map<number, number>;
  count: number;
} | null {
  if (blanks.length === 0 || ts.length < 2) return null;
  const first = ts[0];
  const last = ts[ts.length - 1];
  const known = new Set(ts);
  const inner = [...new Set(blanks)].filter((b) => b > first && b < last && !known.has(b));
  if (inner.length === 0) return null;
  inner.sort((a, b) => a - b);
  const t: number[] = [];
  const y = new Float64Array(ts.length + inner.length);
  const at = new Int32Array(ts.length);
  const holes = new Map<number, number>();
  for (let i = 0, j = 0; i < ts.length || j < inner.length;) {
    if (j >= inner.length || (i < ts.length && ts[i] < inner[j])) {
      at[i] = t.length;
      y[t.length] = ys[i];
      t.push(ts[i++]);
    } else {
      holes.set(inner[j], t.length);
      y[t.length] = NaN;
      t.push(inner[j++]);
    }
  }
  const freq = inferFrequency(Float64Array.from(t), format)?.freq;
  let period = freq ? seasonalPeriod(freq) : 1;
  if (freq?.unit === 'number') {
    const linear = Float64Array.from(y);
    fillMissing(linear, 1);
    period = periodFromData([linear]);
  }
  fillMissing(y, period);
  return { t, y, at, holes, count: inner.length };
}
