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
}

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
  if (c.bins.kind === 'number') {
    const x = `TRY_CAST(${src} AS DOUBLE)`;
    return `CASE WHEN isfinite(${x}) THEN ${x} END AS v${i}`;
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

/** The middle projection: categories learn whether training saw their key. */
function knownColumn(c: SqlColumn, i: number): string[] {
  if (c.bins.kind === 'number') return [`v${i}`];
  const known = c.bins.known;
  return [
    `k${i}`,
    `${known.length === 0 ? 'false' : `k${i} IN (${known.map(quoteString).join(', ')})`} AS known${i}`,
  ];
}

/**
 * Aggregates of one column. DuckDB counts numbers into the bins with histogram(v, edges) (a
 * binary search per value, ~6x faster than a CASE per bin) and categories with
 * histogram_exact(k, shown); missing, other and new come from plain counts. Which values are
 * new is read from the sample (./drift.ts): naming them over all rows (approx_top_k) cost more
 * than the rest of the statement.
 */
function aggregates(c: SqlColumn, i: number): string[] {
  const b = c.bins;
  if (b.kind === 'number') {
    const out = [
      `histogram(v${i}, ${doubles(b.edges)}) AS h${i}`,
      `count(v${i}) AS c${i}`,
      `sum(v${i}) AS s${i}`,
    ];
    if (b.range) {
      out.push(`count(*) FILTER (WHERE v${i} < ${num(b.range.min)}) AS lo${i}`);
      out.push(`count(*) FILTER (WHERE v${i} > ${num(b.range.max)}) AS hi${i}`);
    }
    return out;
  }
  return [
    `histogram_exact(k${i}, ${strings(b.shown)}) AS h${i}`,
    `count(k${i}) AS c${i}`,
    `count(*) FILTER (WHERE known${i}) AS kn${i}`,
  ];
}

/**
 * One statement counting every column of today's data over its bins: the row count, then per
 * column present its bin counts and what else the report needs. `query` is the user's query as
 * text; the engine runs exactly one statement, so it cannot smuggle another in.
 */
export function driftCountSql(columns: readonly SqlColumn[], query: string): string {
  const present = columns.map((c, i) => ({ c, i })).filter((x) => x.c.source !== null);
  const inner = present.map(({ c, i }) => valueColumn(c, i));
  const middle = present.flatMap(({ c, i }) => knownColumn(c, i));
  const outer = ['count(*) AS n', ...present.flatMap(({ c, i }) => aggregates(c, i))];
  const sel = (xs: string[]) => (xs.length === 0 ? '1 AS __one' : xs.join(',\n  '));
  return `SELECT ${outer.join(',\n  ')}
FROM (SELECT ${sel(middle)}
  FROM (SELECT ${sel(inner)}
    FROM (
${query}
) AS __today) AS __values) AS __keys`;
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
    const present = Number(at(`c${i}`) ?? 0);
    r.counts[missingBin(b)] = n - present;
    if (b.kind === 'number') {
      // Keys are the edges (values up to each), then Infinity (null in JSON) for values above.
      for (const [key, count] of histogramEntries(at(`h${i}`))) {
        const j = key === null ? -1 : b.edges.indexOf(Number(key));
        r.counts[j < 0 ? b.edges.length : j] += count;
      }
      r.sum = Number(at(`s${i}`) ?? 0);
      r.below = Number(at(`lo${i}`) ?? 0);
      r.above = Number(at(`hi${i}`) ?? 0);
      return r;
    }
    let shown = 0;
    for (const [key, count] of histogramEntries(at(`h${i}`))) {
      const j = b.shown.indexOf(String(key));
      if (j < 0) continue; // the others' entry: split below into other and new
      r.counts[j] += count;
      shown += count;
    }
    const known = Number(at(`kn${i}`) ?? 0);
    r.counts[otherBin(b)] = known - shown;
    r.counts[newBin(b)] = present - known;
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
