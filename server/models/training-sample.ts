/**
 * Training on sources larger than the row budget (issue 28): the sample is drawn where the data
 * lives. PostgreSQL (an integration) or DuckDB (files, the instance's tables) counts the FROM
 * query's rows and, past the budget, runs it again under `WHERE random() < rate`, so only the
 * sampled rows travel and no one reads every row into the instance first. Numeric targets get
 * one rate (Bernoulli); classes get one rate each (stratified), so a rare class keeps at least
 * MIN_CLASS_ROWS rows (or all it has) while the others share the rest of the budget in
 * proportion; the engine then moves probabilities back to the source's class shares
 * (automl `correctClassSampling`).
 *
 * The budget: TRAINING_ROW_BUDGET (default 1,000,000 rows), or `USING sample_rows = n` per model
 * (`sample_rows = 0`: never sample). Time-series models are never sampled: a forecast needs every
 * row of each series.
 */
import { isClassTarget } from '../automl/index';
import { quoteIdent, quoteString } from '../engine/quote';
import type { JsonValue } from '../engine/values';
import { badInput } from '../errors';
import type { ModelCatalog, RemoteDataSource } from './ports';

export const DEFAULT_ROW_BUDGET = 1_000_000;
/** A class keeps at least this many expected rows (or all it has), budget permitting. */
const MIN_CLASS_ROWS = 2_000;
/** Target values read to tell classes from numbers before the per-class counts. */
const PILOT_ROWS = 20_000;
/** More distinct values than this is no classifier (the engine's limit is 100 classes). */
const MAX_CLASSES = 100;

/** How a version's training rows were drawn (kept in its record; DESCRIBE and the card show it). */
export interface TrainingSample {
  /** Rows the FROM query returns. */
  rowsAvailable: number;
  /** Rows the sample delivered (those with a target value, drawn at random). */
  rowsUsed: number;
  budget: number;
  method: 'bernoulli' | 'stratified';
  /** Where the sample was drawn. */
  source: 'postgres' | 'duckdb';
  /** Stratified: each class, its rows in the source and the rate it was drawn at. */
  classes?: { value: JsonValue; rows: number; rate: number }[];
  /** Bernoulli: the rate every row was drawn at. */
  rate?: number;
}

/** Runs a query where the data lives and returns its rows (at most `maxRows`). */
export interface SampleSource {
  kind: 'postgres' | 'duckdb';
  rows(sql: string, maxRows: number): Promise<JsonValue[][]>;
}

/** The row budget of a model: `USING sample_rows` (0: never sample), else the instance's. */
export function rowBudget(using: Record<string, unknown>, instanceBudget: number): number {
  const key = Object.keys(using).find((k) => k.toLowerCase() === 'sample_rows');
  if (key === undefined) return instanceBudget;
  const raw = using[key];
  const v = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || (v > 0 && v < 100)) {
    throw badInput(
      `USING sample_rows must be a whole number of rows (at least 100), or 0 to read every row; got ${JSON.stringify(raw)}`,
    );
  }
  return v === 0 ? Infinity : v;
}

/** A value as an SQL literal (PostgreSQL and DuckDB alike; other types cast from the string). */
function literal(v: JsonValue): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : quoteString(String(v));
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return quoteString(typeof v === 'string' ? v : JSON.stringify(v));
}

const toCount = (v: JsonValue | undefined): number => Number(v ?? 0);

/**
 * The rates per class: classes under MIN_CLASS_ROWS expected rows are drawn at
 * min(1, MIN_CLASS_ROWS / rows) (with a budget too small for that, an equal share), the others at
 * one rate that fills the rest of the budget.
 */
export function classRates(
  counts: { value: JsonValue; rows: number }[],
  budget: number,
): { value: JsonValue; rows: number; rate: number }[] {
  const floor = Math.min(MIN_CLASS_ROWS, Math.floor(budget / (2 * Math.max(1, counts.length))));
  const fixed = new Map<number, number>();
  // Water-filling: a class whose proportional share falls under the floor is fixed at the floor
  // (or all its rows); the proportional rate of the rest is recomputed until none falls under.
  for (;;) {
    let fixedRows = 0;
    let freeRows = 0;
    counts.forEach((c, i) => {
      if (fixed.has(i)) fixedRows += fixed.get(i)!;
      else freeRows += c.rows;
    });
    const p = freeRows > 0 ? Math.min(1, Math.max(0, budget - fixedRows) / freeRows) : 1;
    let changed = false;
    counts.forEach((c, i) => {
      if (!fixed.has(i) && c.rows * p < floor) {
        fixed.set(i, Math.min(c.rows, floor));
        changed = true;
      }
    });
    if (!changed) {
      return counts.map((c, i) => ({
        ...c,
        rate: fixed.has(i) ? Math.min(1, fixed.get(i)! / c.rows) : p,
      }));
    }
  }
}

/**
 * The Bernoulli rate that delivers about `budget` of `rows` rows: a little under budget / rows,
 * so the draw (standard deviation about sqrt(budget)) rarely exceeds the budget; the reader stops
 * at the budget when it does.
 */
function rateFor(budget: number, rows: number): number {
  return Math.min(1, (budget * (1 - 3 / Math.sqrt(budget))) / rows);
}

/**
 * The sampled query of a FROM query over `budget` rows, or null when it fits (read it whole).
 * Runs two or three aggregate queries in the source: the row count, then for classifiers a pilot
 * of target values and the rows per class.
 */
export async function planSample(
  src: SampleSource,
  select: string,
  target: string,
  budget: number,
): Promise<{ sql: string; sample: TrainingSample } | null> {
  if (!Number.isFinite(budget)) return null;
  const from = `(\n${select}\n) AS __training_data`;
  const t = quoteIdent(target);
  const [[total]] = await src.rows(`SELECT count(*) FROM ${from}`, 1);
  const rowsAvailable = toCount(total);
  if (rowsAvailable <= budget) return null;
  const pilotRate = Math.min(1, PILOT_ROWS / rowsAvailable);
  const pilot = await src.rows(
    `SELECT ${t} FROM ${from} WHERE random() < ${pilotRate}`,
    4 * PILOT_ROWS,
  );
  const base = { rowsAvailable, rowsUsed: 0, budget, source: src.kind };
  if (
    isClassTarget(
      target,
      pilot.map((r) => r[0]),
    )
  ) {
    const groups = await src.rows(
      `SELECT ${t}, count(*) FROM ${from} WHERE ${t} IS NOT NULL GROUP BY 1`,
      MAX_CLASSES + 1,
    );
    if (groups.length <= MAX_CLASSES) {
      const budgetLeft = budget * (1 - 3 / Math.sqrt(budget));
      const classes = classRates(
        groups.map(([value, n]) => ({ value, rows: toCount(n) })),
        budgetLeft,
      );
      const when = classes.map((c) => `WHEN ${literal(c.value)} THEN ${c.rate}`).join(' ');
      return {
        sql: `SELECT * FROM ${from} WHERE ${t} IS NOT NULL AND random() < CASE ${t} ${when} ELSE 0 END`,
        sample: { ...base, method: 'stratified', classes },
      };
    }
  }
  const rate = rateFor(budget, rowsAvailable);
  return {
    sql: `SELECT * FROM ${from} WHERE ${t} IS NOT NULL AND random() < ${rate}`,
    sample: { ...base, method: 'bernoulli', rate },
  };
}

/** One line for DESCRIBE, the model page and the card: what the model was trained on. */
export function sampleSentence(s: TrainingSample): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const where = s.source === 'postgres' ? 'in PostgreSQL' : 'in DuckDB';
  const how =
    s.method === 'stratified'
      ? `a random sample drawn ${where}, stratified by class (each class at its own rate; rare classes kept whole or at ${n(MIN_CLASS_ROWS)} rows)`
      : `a random sample drawn ${where} (each row with probability ${s.rate!.toPrecision(3)})`;
  return `Trained on ${n(s.rowsUsed)} of ${n(s.rowsAvailable)} rows: ${how}, because the source is larger than the row budget of ${n(s.budget)} rows (USING sample_rows, TRAINING_ROW_BUDGET).`;
}

/** The SampleSource of a database: its integration (PostgreSQL) or DuckDB. */
export function sampleSourceOf(
  catalog: ModelCatalog,
  remote: RemoteDataSource,
  db: string,
  timeoutMs: number,
  /** Ends the counting and sampling reads (DROP MODEL). */
  signal?: AbortSignal,
  /** What the reads are for, in the status's list of long-running work. */
  label?: string,
): SampleSource {
  if (remote.isRemote(db)) {
    return {
      kind: 'postgres',
      rows: async (sql, maxRows) =>
        (await remote.query(db, sql, { maxRows, timeoutMs, signal })).rows,
    };
  }
  const info = catalog.requireDatabase(db);
  return {
    kind: 'duckdb',
    rows: async (sql, maxRows) =>
      (
        await catalog.engine.query(sql, {
          db: info.type === 'system' ? undefined : info.name,
          maxRows,
          timeoutMs,
          signal,
          label,
        })
      ).rows,
  };
}

/** DESCRIBE's `training_data`: the sample as JSON (REST) or its sentence (SQL), null when whole. */
export function trainingDataInfo(s: TrainingSample | undefined, form: 'json' | 'text'): JsonValue {
  if (!s) return null;
  if (form === 'text') return sampleSentence(s);
  return {
    rows_used: s.rowsUsed,
    rows_available: s.rowsAvailable,
    budget: s.budget,
    method: s.method,
    drawn_in: s.source,
    ...(s.rate !== undefined ? { rate: s.rate } : {}),
    ...(s.classes ? { classes: s.classes } : {}),
    summary: sampleSentence(s),
  };
}
