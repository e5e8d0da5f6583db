/**
 * Time-series models in the playground: their clauses read from the models table's
 * TRAINING_OPTIONS (`timeseries_settings`, as MindsDB writes it), the SQL the forecast view runs
 * (MindsDB's documented forms, so a real server answers too), the chart's points, and the
 * what-if scenario (the group's latest values changed by a share).
 */
import { quoteIdent, quoteString } from '../../../api/catalog-parse';
import type { ModelVersion } from '../api';

export interface TsSettings {
  orderBy: string;
  groupBy: string[];
  window: number;
  horizon: number;
}

const asInt = (v: unknown, dflt: number): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : dflt;
};

/** The clauses of a time-series version, or null for other models. */
export function timeseriesOf(v: ModelVersion | undefined | null): TsSettings | null {
  const ts = v?.trainingOptions?.timeseries_settings;
  if (!ts || typeof ts !== 'object') return null;
  const o = ts as Record<string, unknown>;
  const order = Array.isArray(o.order_by) ? o.order_by[0] : o.order_by;
  if (typeof order !== 'string' || !order) return null;
  const group = Array.isArray(o.group_by)
    ? o.group_by.filter((g): g is string => typeof g === 'string')
    : typeof o.group_by === 'string'
      ? [o.group_by]
      : [];
  return {
    orderBy: order,
    groupBy: group,
    window: asInt(o.window, 1),
    horizon: asInt(o.horizon, 1),
  };
}

export type GroupValue = string | number | boolean | null;

/** A SQL literal for a group value (NULL groups compare with IS NULL). */
function condition(alias: string, column: string, v: GroupValue): string {
  const col = `${alias}${quoteIdent(column)}`;
  if (v === null) return `${col} IS NULL`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${col} = ${String(v)}`;
  return `${col} = ${quoteString(v)}`;
}

function groupWhere(ts: TsSettings, group: GroupValue[] | null, alias = ''): string[] {
  if (!group) return [];
  return ts.groupBy.map((g, i) => condition(alias, g, group[i] ?? null));
}

export interface ForecastSqlInput {
  project: string;
  model: string;
  /** The training data as a FROM item without alias: a table name or `(SELECT ...)`. */
  relation: string;
  ts: TsSettings;
  target: string;
  /** One group's values (in GROUP BY order); null: every group. */
  group: GroupValue[] | null;
  /** Steps to show (LIMIT for one group). */
  horizon?: number;
}

/** MindsDB's forecast query: the model joined with its data, after the latest row. */
export function forecastSql(i: ForecastSqlInput): string {
  const t = quoteIdent(i.target);
  const o = quoteIdent(i.ts.orderBy);
  const cols = [
    `m.${o}`,
    ...i.ts.groupBy.map((g) => `m.${quoteIdent(g)}`),
    `m.${t}`,
    `m.${quoteIdent(`${i.target}_min`)}`,
    `m.${quoteIdent(`${i.target}_max`)}`,
  ];
  const where = [`t.${o} > LATEST`, ...groupWhere(i.ts, i.group, 't.')];
  const limit =
    i.group && i.horizon !== undefined && i.horizon < i.ts.horizon ? `\nLIMIT ${i.horizon}` : '';
  return (
    `SELECT ${cols.join(', ')}\nFROM ${i.relation} AS t\nJOIN ${quoteIdent(i.project)}.${quoteIdent(i.model)} AS m\n` +
    `WHERE ${where.join('\n  AND ')}${limit};`
  );
}

/** The latest `limit` rows of one group's history, oldest first. */
export function historySql(
  relation: string,
  ts: TsSettings,
  target: string,
  group: GroupValue[] | null,
  limit: number,
): string {
  const o = quoteIdent(ts.orderBy);
  const cols = [o, ...ts.groupBy.map(quoteIdent), quoteIdent(target)];
  const where = [`${o} IS NOT NULL`, ...groupWhere(ts, group)];
  return `SELECT * FROM (SELECT ${cols.join(', ')} FROM ${relation} AS h WHERE ${where.join(' AND ')} ORDER BY ${o} DESC LIMIT ${limit}) AS h ORDER BY ${o}`;
}

/** The distinct groups of the training data, sorted. */
export function groupsSql(relation: string, ts: TsSettings, limit = 500): string {
  const cols = ts.groupBy.map(quoteIdent);
  return `SELECT DISTINCT ${cols.join(', ')} FROM ${relation} AS g ORDER BY ${cols.map((_, i) => i + 1).join(', ')} LIMIT ${limit}`;
}

/** `type = house, bedrooms = 2` (the group selector's labels). */
export function groupLabel(ts: TsSettings, group: GroupValue[]): string {
  return ts.groupBy
    .map((g, i) => `${g} = ${group[i] === null ? 'NULL' : String(group[i])}`)
    .join(', ');
}

export interface ForecastRow {
  time: string;
  value: number | null;
  lower: number | null;
  upper: number | null;
}

export interface ChartPoint {
  x: string;
  history?: number;
  forecast?: number;
  /** [lower, upper] of the forecast's interval (recharts draws a range area from it). */
  band?: [number, number];
}

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/**
 * The chart's points: the history line, then the forecast line and band. The forecast line starts
 * at the last history point so the two lines meet.
 */
export function chartPoints(
  history: { time: string; value: unknown }[],
  forecast: ForecastRow[],
): ChartPoint[] {
  const points: ChartPoint[] = history.map((h) => ({ x: h.time, history: num(h.value) }));
  const last = points.at(-1);
  if (last && last.history !== undefined && forecast.length > 0) last.forecast = last.history;
  for (const f of forecast) {
    const p: ChartPoint = { x: f.time };
    const v = num(f.value);
    if (v !== undefined) p.forecast = v;
    const lo = num(f.lower);
    const hi = num(f.upper);
    if (lo !== undefined && hi !== undefined) p.band = [lo, hi];
    points.push(p);
  }
  return points;
}

/** Forecast rows of a SQL answer (`m.<order>, [groups], m.<target>, _min, _max`). */
export function forecastRows(
  columns: string[],
  data: unknown[][],
  ts: TsSettings,
  target: string,
): ForecastRow[] {
  const idx = (name: string) => columns.findIndex((c) => c.toLowerCase() === name.toLowerCase());
  const o = idx(ts.orderBy);
  const v = idx(target);
  const lo = idx(`${target}_min`);
  const hi = idx(`${target}_max`);
  return data.map((r) => ({
    time: String(r[o]),
    value: num(r[v]) ?? null,
    lower: lo >= 0 ? (num(r[lo]) ?? null) : null,
    upper: hi >= 0 ? (num(r[hi]) ?? null) : null,
  }));
}

/**
 * The what-if scenario: the group's history with its latest `rows` values changed by `percent`
 * (a shock to the level the model forecasts from). Rows are objects keyed by column name.
 */
export function shockHistory(
  history: Record<string, unknown>[],
  target: string,
  percent: number,
  rows: number,
): Record<string, unknown>[] {
  const from = Math.max(0, history.length - rows);
  return history.map((r, i) => {
    const v = num(r[target]);
    return i >= from && v !== undefined ? { ...r, [target]: (v * (100 + percent)) / 100 } : r;
  });
}
