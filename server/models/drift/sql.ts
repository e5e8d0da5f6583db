/**
 * The drift bins written as SQL, so DuckDB counts today's data in one pass with bounded memory
 * (per column a histogram over its ~25 bins, never the rows themselves), and a
 * deterministic sample of it (the rows with the smallest hash of their inputs: the same data
 * gives the same sample whatever the thread count). Values are read as ./bins.ts reads them in
 * memory; __tests__/sql.test.ts runs both on the same data.
 */
import { quoteIdent, quoteString } from '../../engine/quote';
import type { JsonValue } from '../../engine/values';
import {
  type BinnedColumn,
  type DriftBins,
  emptyBinned,
  missingBin,
  newBin,
  otherBin,
} from './bins';

/** A column to count: its bins and its name in today's data (null: the data lacks it). */
export interface SqlColumn {
  bins: DriftBins;
  source: string | null;
  /** DuckDB's type of the source column, when known: numbers skip the reading of text. */
  sourceType?: string;
}

/** Integer types: every value is a finite number. */
const INTEGER = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/i;
/** Other number types: cast to DOUBLE as TRY_CAST would, without reading text. */
const NUMERIC = /^(FLOAT|DOUBLE|REAL|DECIMAL(\(\d+,\s*\d+\))?)$/i;

/** A double literal that reads back as exactly `x`. */
const num = (x: number) => {
  const s = String(x);
  return /e|\./i.test(s) ? `CAST('${s}' AS DOUBLE)` : `${s}::DOUBLE`;
};

const doubles = (xs: readonly number[]) =>
  xs.length === 0 ? '[]::DOUBLE[]' : `[${xs.map(num).join(', ')}]::DOUBLE[]`;
const strings = (xs: readonly string[]) =>
  xs.length === 0 ? '[]::VARCHAR[]' : `[${xs.map(quoteString).join(', ')}]`;

const TRUE_WORDS = "('true', 't', '1', 'yes', 'y')";
const FALSE_WORDS = "('false', 'f', '0', 'no', 'n')";

/**
 * The inner projection of one column, as the in-memory binning reads a cell: a finite number, or
 * the category key the model uses (trimmed text; yes/no words as booleans; numbers as JavaScript
 * writes them, so '0007' and 7.0 are the key '7').
 */
function valueColumn(c: SqlColumn, i: number): string {
  const src = `__today.${quoteIdent(c.source!)}`;
  const type = c.sourceType ?? '';
  if (c.bins.kind === 'number') {
    if (INTEGER.test(type)) return `CAST(${src} AS DOUBLE) AS v${i}`;
    const x = NUMERIC.test(type) ? `CAST(${src} AS DOUBLE)` : `TRY_CAST(${src} AS DOUBLE)`;
    return `CASE WHEN isfinite(${x}) THEN ${x} END AS v${i}`;
  }
  // An integer column keyed as a number: its text is the key ('7'), no parsing needed (the
  // general form below, on the text of an integer, gives the same).
  if (c.bins.valueKind === 'number' && INTEGER.test(type)) {
    return `CASE WHEN ${src} BETWEEN -999999999999999 AND 999999999999999 THEN CAST(${src} AS VARCHAR) ELSE CAST(CAST(${src} AS DOUBLE) AS VARCHAR) END AS k${i}`;
  }
  const text = `NULLIF(trim(CAST(${src} AS VARCHAR)), '')`;
  if (c.bins.valueKind === 'boolean') {
    return `CASE WHEN lower(${text}) IN ${TRUE_WORDS} THEN 'true' WHEN lower(${text}) IN ${FALSE_WORDS} THEN 'false' ELSE ${text} END AS k${i}`;
  }
  if (c.bins.valueKind === 'number') {
    const n = `TRY_CAST(${text} AS DOUBLE)`;
    return `CASE WHEN ${n} IS NULL THEN ${text} WHEN ${n} = trunc(${n}) AND abs(${n}) < 1e15 THEN CAST(CAST(${n} AS BIGINT) AS VARCHAR) ELSE CAST(${n} AS VARCHAR) END AS k${i}`;
  }
  return `${text} AS k${i}`;
}

/**
 * The edges numbers are counted over: the bins' edges, and around the training range the largest
 * double below its minimum and its maximum, so the values outside the range are read from the
 * same histogram (a `count(*) FILTER` per bound cost as much as all the histograms together).
 */
function countEdges(b: Extract<DriftBins, { kind: 'number' }>): number[] {
  const extra = b.range ? [below(b.range.min), b.range.max] : [];
  return [...new Set([...b.edges, ...extra])].filter(Number.isFinite).sort((x, y) => x - y);
}

/** The largest double below `x`. */
function below(x: number): number {
  if (!Number.isFinite(x)) return x;
  if (x === 0) return -Number.MIN_VALUE;
  const f = new Float64Array([x]);
  const bits = new BigInt64Array(f.buffer);
  bits[0] += x > 0 ? -1n : 1n;
  return f[0];
}

/**
 * Aggregates of one column: one histogram each (plus the sum of numbers), every other count read
 * from it. DuckDB counts numbers into the edges with histogram(v, edges) (a binary search per
 * value, ~6x faster than a CASE per bin) and categories with histogram_exact(k, known): each key
 * training saw, and the others (never seen) under the key ''. Which values are new is read from
 * the sample (./drift.ts): naming them over all rows (approx_top_k) cost more than the rest of the
 * statement.
 */
function aggregates(c: SqlColumn, i: number): string[] {
  const b = c.bins;
  if (b.kind === 'number') {
    return [`histogram(v${i}, ${doubles(countEdges(b))}) AS h${i}`, `sum(v${i}) AS s${i}`];
  }
  return [`histogram_exact(k${i}, ${strings(b.known)}) AS h${i}`];
}

/**
 * One statement counting every column of today's data over its bins: the row count, then per
 * column present its bin counts and what else the report needs. `query` is the user's query as
 * text; the engine runs exactly one statement, so it cannot smuggle another in.
 */
export function driftCountSql(columns: readonly SqlColumn[], query: string): string {
  const present = columns.map((c, i) => ({ c, i })).filter((x) => x.c.source !== null);
  const inner = present.map(({ c, i }) => valueColumn(c, i));
  const outer = ['count(*) AS n', ...present.flatMap(({ c, i }) => aggregates(c, i))];
  const sel = (xs: string[]) => (xs.length === 0 ? '1 AS __one' : xs.join(',\n  '));
  return `SELECT ${outer.join(',\n  ')}
FROM (SELECT ${sel(inner)}
  FROM (
${query}
) AS __today) AS __values`;
}

/** The entries of a histogram as DuckDB's JSON converter gives them (a list of {key, value}). */
function histogramEntries(h: JsonValue): [JsonValue, number][] {
  if (!Array.isArray(h)) return [];
  return h.map((e) => {
    const o = e as { key: JsonValue; value: JsonValue };
    return [o.key, Number(o.value)];
  });
}

/** Reads the one row `driftCountSql` answers into each column's counts (in `columns` order). */
export function readDriftCounts(
  columns: readonly SqlColumn[],
  names: readonly string[],
  row: readonly JsonValue[],
): { n: number; columns: BinnedColumn[] } {
  const at = (name: string) => {
    const j = names.indexOf(name);
    return j < 0 ? null : row[j];
  };
  const n = Number(at('n'));
  const out = columns.map((c, i) => {
    const b = c.bins;
    const r = emptyBinned(b);
    if (c.source === null) {
      r.counts[missingBin(b)] = n;
      return r;
    }
    const entries = histogramEntries(at(`h${i}`));
    const present = entries.reduce((sum, [, count]) => sum + count, 0);
    r.counts[missingBin(b)] = n - present;
    if (b.kind === 'number') {
      // Keys are the edges counted over (values up to each, above the one before), then
      // Infinity (null in JSON) for values above the last.
      const low = b.range ? below(b.range.min) : -Infinity;
      const high = b.range ? b.range.max : Infinity;
      for (const [key, count] of entries) {
        const x = key === null ? Infinity : Number(key);
        const j = b.edges.findIndex((e) => e >= x);
        r.counts[j < 0 ? b.edges.length : j] += count;
        if (x <= low) r.below += count;
        else if (x > high) r.above += count;
      }
      r.sum = Number(at(`s${i}`) ?? 0);
      return r;
    }
    const index = new Map(b.shown.map((k, j) => [k, j]));
    for (const [key, count] of entries) {
      // '' is never a key (blank text is missing): it is histogram_exact's bucket of the others.
      if (key === '') r.counts[newBin(b)] += count;
      else r.counts[index.get(String(key)) ?? otherBin(b)] += count;
    }
    return r;
  });
  return { n, columns: out };
}

/**
 * A deterministic sample of today's data: the `limit` rows with the smallest hash of the named
 * columns (DuckDB keeps a top-N heap, so memory stays at `limit` rows).
 */
export function sampleSql(sources: readonly string[], query: string, limit: number): string {
  const cols = sources.map((s) => `__today.${quoteIdent(s)}`);
  return `SELECT ${cols.join(', ')}
FROM (
${query}
) AS __today
ORDER BY hash(${cols.join(', ')})
LIMIT ${Math.max(0, Math.floor(limit))}`;
}
