/**
 * The drift bins written as SQL, so DuckDB counts today's data in one pass with bounded memory
 * (a histogram over at most ~25 bin numbers per column; never the rows themselves), and a
 * deterministic sample of it (the rows with the smallest hash of their inputs: the same data
 * gives the same sample whatever the thread count). Values are read as ./bins.ts reads them in
 * memory; __tests__/sql.test.ts runs both on the same data.
 */
import { quoteIdent, quoteString } from '../../engine/quote';
import type { JsonValue } from '../../engine/values';
import {
  type BinnedColumn,
  type CategoryBins,
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

/** How many never-seen categories a report names per column. */
const NEW_VALUES_NAMED = 10;

/** A double literal that reads back as exactly `x`. */
const num = (x: number) => {
  const s = String(x);
  return /e|\./i.test(s) ? `CAST('${s}' AS DOUBLE)` : `${s}::DOUBLE`;
};

const isNumericKey = (k: string) =>
  k.trim() !== '' && Number.isFinite(Number(k)) && String(Number(k)) === k;

/** SQL matching a category key: numbers compare as numbers in number-kind columns. */
function keyMatch(b: CategoryBins, i: number, keys: readonly string[]): string {
  const nums = b.valueKind === 'number' ? keys.filter(isNumericKey) : [];
  const strs = b.valueKind === 'number' ? keys.filter((k) => !isNumericKey(k)) : keys;
  const parts: string[] = [];
  if (nums.length === 1) parts.push(`n${i} = ${num(Number(nums[0]))}`);
  else if (nums.length > 1) parts.push(`n${i} IN (${nums.map((k) => num(Number(k))).join(', ')})`);
  if (strs.length === 1) parts.push(`k${i} = ${quoteString(strs[0])}`);
  else if (strs.length > 1) parts.push(`k${i} IN (${strs.map(quoteString).join(', ')})`);
  return parts.length === 0 ? 'false' : parts.join(' OR ');
}

const TRUE_WORDS = "('true', 't', '1', 'yes', 'y')";
const FALSE_WORDS = "('false', 'f', '0', 'no', 'n')";

/** The inner projection of one column: its typed value(s), as the in-memory binning reads cells. */
function valueColumns(c: SqlColumn, i: number): string[] {
  const src = `__today.${quoteIdent(c.source!)}`;
  if (c.bins.kind === 'number') return [`TRY_CAST(${src} AS DOUBLE) AS x${i}`];
  const text = `NULLIF(trim(CAST(${src} AS VARCHAR)), '')`;
  if (c.bins.valueKind === 'boolean') {
    return [
      `CASE WHEN lower(${text}) IN ${TRUE_WORDS} THEN 'true' WHEN lower(${text}) IN ${FALSE_WORDS} THEN 'false' ELSE ${text} END AS k${i}`,
    ];
  }
  if (c.bins.valueKind === 'number')
    return [`${text} AS k${i}`, `TRY_CAST(${text} AS DOUBLE) AS n${i}`];
  return [`${text} AS k${i}`];
}

/** The middle projection: each column's bin number (and its finite value or key). */
function binColumns(c: SqlColumn, i: number): string[] {
  const b = c.bins;
  // Numbers are binned in the outer aggregate, from this finite value.
  if (b.kind === 'number') return [`CASE WHEN isfinite(x${i}) THEN x${i} END AS v${i}`];
  const arms = b.shown.map((k, j) => `WHEN ${keyMatch(b, i, [k])} THEN ${j}`).join(' ');
  const knownRest = b.known.filter((k) => !b.shown.includes(k));
  return [
    `k${i}`,
    ...(b.valueKind === 'number' ? [`n${i}`] : []),
    `CASE WHEN k${i} IS NULL THEN ${missingBin(b)} ${arms} WHEN ${keyMatch(b, i, knownRest)} THEN ${otherBin(b)} ELSE ${newBin(b)} END AS b${i}`,
  ];
}

function numericBinExpr(b: DriftBins & { kind: 'number' }, i: number): string {
  const arms = b.edges.map((e, j) => `WHEN v${i} < ${num(e)} THEN ${j}`).join(' ');
  return `CASE WHEN v${i} IS NULL THEN ${missingBin(b)} ${arms} ELSE ${b.edges.length} END`;
}

/** Aggregates of one column over the binned rows. */
function aggregates(c: SqlColumn, i: number): string[] {
  const b = c.bins;
  if (b.kind === 'number') {
    const out = [`histogram(${numericBinExpr(b, i)}) AS h${i}`, `sum(v${i}) AS s${i}`];
    if (b.range) {
      out.push(`count(*) FILTER (WHERE v${i} < ${num(b.range.min)}) AS lo${i}`);
      out.push(`count(*) FILTER (WHERE v${i} > ${num(b.range.max)}) AS hi${i}`);
    }
    return out;
  }
  // Never-seen values by their key: number-kind ones as the model keys them ('0007' is 7).
  const key =
    b.valueKind === 'number'
      ? `CASE WHEN n${i} IS NULL THEN k${i} WHEN n${i} = trunc(n${i}) AND abs(n${i}) < 1e15 THEN CAST(CAST(n${i} AS BIGINT) AS VARCHAR) ELSE CAST(n${i} AS VARCHAR) END`
      : `k${i}`;
  const fresh = `CASE WHEN b${i} = ${newBin(b)} THEN ${key} END`;
  return [
    `histogram(b${i}) AS h${i}`,
    `approx_top_k(${fresh}, ${NEW_VALUES_NAMED}) AS t${i}`,
    `approx_count_distinct(${fresh}) AS d${i}`,
  ];
}

/**
 * One statement counting every column of today's data over its bins: the row count, then per
 * column present its histogram of bin numbers and what else the report needs. `query` is the
 * user's query as text; the engine runs exactly one statement, so it cannot smuggle another.
 */
export function driftCountSql(columns: readonly SqlColumn[], query: string): string {
  const present = columns.map((c, i) => ({ c, i })).filter((x) => x.c.source !== null);
  const inner = present.flatMap(({ c, i }) => valueColumns(c, i));
  const middle = present.flatMap(({ c, i }) => binColumns(c, i));
  const outer = ['count(*) AS n', ...present.flatMap(({ c, i }) => aggregates(c, i))];
  const sel = (xs: string[]) => (xs.length === 0 ? '1 AS __one' : xs.join(',\n  '));
  return `SELECT ${outer.join(',\n  ')}
FROM (SELECT ${sel(middle)}
  FROM (SELECT ${sel(inner)}
    FROM (
${query}
) AS __today) AS __values) AS __bins`;
}

/** The rows of a `histogram()` as DuckDB's JSON converter gives them (entries or an object). */
function histogramEntries(h: JsonValue): [number, number][] {
  if (h === null) return [];
  if (Array.isArray(h)) {
    return h.map((e) => {
      const o = e as { key: JsonValue; value: JsonValue };
      return [Number(o.key), Number(o.value)];
    });
  }
  if (typeof h === 'object') return Object.entries(h).map(([k, v]) => [Number(k), Number(v)]);
  return [];
}

/** Reads the one row `driftCountSql` answers into each column's counts (in `columns` order). */
export function readDriftCounts(
  columns: readonly SqlColumn[],
  names: readonly string[],
  row: readonly JsonValue[],
): { n: number; columns: (BinnedColumn & { newDistinct: number })[] } {
  const at = (name: string) => {
    const j = names.indexOf(name);
    return j < 0 ? null : row[j];
  };
  const n = Number(at('n'));
  const out = columns.map((c, i) => {
    const r = { ...emptyBinned(c.bins), newDistinct: 0 };
    if (c.source === null) {
      r.counts[missingBin(c.bins)] = n;
      return r;
    }
    for (const [bin, count] of histogramEntries(at(`h${i}`))) r.counts[bin] += count;
    if (c.bins.kind === 'number') {
      r.sum = Number(at(`s${i}`) ?? 0);
      r.below = Number(at(`lo${i}`) ?? 0);
      r.above = Number(at(`hi${i}`) ?? 0);
    } else {
      const top = at(`t${i}`);
      if (Array.isArray(top)) for (const k of top) if (k !== null) r.newValues.set(String(k), 0);
      r.newDistinct = Number(at(`d${i}`) ?? 0);
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
