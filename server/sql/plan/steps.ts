/**
 * What a planned query does before its final SQL runs, as typed steps (MindsDB's
 * `api/executor/planner/steps.py` is the model): fetch from an integration, load the instance's
 * own tables, run a view's or native query's own plan, predict a model on the distinct input rows
 * of a relation, forecast from a relation's history. Each step fills one TEMP table of the
 * request; the planner creates that table empty (its schema) while planning, so the final SQL and
 * the describes planning needs bind against it, and `execute.ts` fills it, step after step, in
 * the order they were planned. Nothing runs while planning: EXPLAIN prints these steps.
 */
import type { ModelRef } from '../../models/registry';
import type { OutputColumn } from '../../models/predict/columns';
import type { Rewrite, StatementSource } from '../syntax/source';
import type { OriginPlan } from './column-origins';
import type { SystemTable } from './names';

/** A planned query: its steps, then its final SQL (DuckDB, or one PostgreSQL integration). */
export interface PlannedQuery {
  /** What runs before `sql`, in order (execute.ts runs them). */
  steps: Step[];
  /** DuckDB in `db`'s catalog, or a PostgreSQL integration running the query whole. */
  target:
    { kind: 'duckdb'; db: string | undefined } | { kind: 'remote'; db: string; values: unknown[] };
  sql: string;
  /** `sql` mapped to the statement the user wrote. */
  rw: Rewrite;
  src: StatementSource;
  /** Which model each result column comes from (column-origins.ts), when any does. */
  origins?: OriginPlan | null;
  /**
   * Planned to score in batches (plan/stream.ts): the data side, read chunk by chunk into its
   * TEMP table, after which the steps that follow it and `sql` run again for each chunk.
   */
  stream?: StreamSource;
  /**
   * A single prediction's plain projection (plan/row-answer.ts): the executor may answer the row
   * from the predict step's values instead of running `sql` (which still stands for EXPLAIN and
   * for values DuckDB's CAST would change).
   */
  row?: RowAnswer;
}

/** Where a column of a row answer comes from: the step's i-th value, or a service constant. */
type RowSource = { value: number } | { constant: null | number };

/** The one-row answer of a single prediction's query (plan/row-answer.ts). */
export interface RowAnswer {
  /** The predict step's values, `$<into>_<i>` (PlanState.valuesName). */
  into: string;
  columns: { name: string; type: string; source: RowSource }[];
}

/** The data side of a query scored in batches. */
export type StreamSource =
  /** `steps[step]` is the fetch of a PostgreSQL table or native query (read through a cursor). */
  | { kind: 'fetch'; step: number; source: string }
  /** A table of the instance's DuckDB databases (`sql` selects all of it), read by rowid ranges. */
  | { kind: 'table'; sql: string; db: string | undefined; into: string; source: string };

/** Rows of a PostgreSQL integration: a table's needed columns and rows, or a native query. */
interface FetchStep {
  kind: 'fetch';
  db: string;
  /** What is read, as the user named it (`pg.home_rentals`, a native query). */
  source: string;
  /** PostgreSQL's SQL. */
  sql: string;
  /** The same without the pushed-down conditions, when PostgreSQL refuses those. */
  unfiltered?: string;
  into: string;
}

/** One of the instance's own tables (models, databases, ML engines, handlers). */
interface SystemStep {
  kind: 'system';
  table: SystemTable;
  project: string | null;
  into: string;
}

/** A stored view or a native query planned on its own (its own steps, then its SQL). */
interface SubplanStep {
  kind: 'subplan';
  /** `view mindsdb.v`, `native query on files`. */
  source: string;
  plan: PlannedQuery;
  into: string;
}

/** A model's input column read from a column of the input rows, or given one value. */
export type InputSource = { column: string; key: string } | { column: string; value: unknown };

/** Predict model M on the distinct input rows of relation R (or on one row of values). */
export interface PredictStep {
  kind: 'predict';
  model: ModelRef;
  /** `project.model` for messages. */
  label: string;
  /**
   * The distinct input rows: SQL selecting the input columns of the data relation, loaded into
   * `inputs` (null: every input is a value, one row).
   */
  relation: string | null;
  inputs: string | null;
  /**
   * Positional (scoring in batches): `relation` is every data row, this column its position;
   * each row is predicted in turn and `into` gets the position beside its predictions (no
   * distinct rows, no `inputs` table).
   */
  rows?: string;
  sources: InputSource[];
  /** Compute `_explain`'s contributions (the query reads that column). */
  explain: boolean;
  /** Output columns the statement never reads: left null (not computed, not loaded). */
  unread?: string[];
  /** The DuckDB database `relation` runs in. */
  db: string | undefined;
  /**
   * One prediction with its inputs and MindsDB's service columns (`FROM model WHERE ...`): no
   * TEMP table, the step gives its values to the parameters `$<into>_<i>` the planned relation
   * reads (PlanState.valuesName).
   */
  single: boolean;
  outputs: OutputColumn[];
  into: string;
}

/** Forecast a time-series model from the history rows of a relation (plan/forecast.ts). */
export interface ForecastStep {
  kind: 'forecast';
  model: ModelRef;
  label: string;
  /** SQL of the history rows (numbered, with each group's latest time), loaded into `history`. */
  relation: string;
  history: string;
  /** The DuckDB database `relation` runs in. */
  db: string | undefined;
  /** Backtest every history row (MindsDB's rows of known times). */
  withHistory: boolean;
  orderColumn: string;
  groupColumns: string[];
  targetColumn: string;
  window: number;
  /** The answer's columns (as planned: ORDER BY / GROUP BY columns typed like the data's). */
  outputs: { name: string; type: string }[];
  into: string;
}

/** One forecast from one history row (`FROM model WHERE t = ... AND y = ...`, WINDOW 1). */
interface ForecastRowStep {
  kind: 'forecast-row';
  model: ModelRef;
  label: string;
  row: Record<string, unknown>;
  into: string;
}

/** MindsDB's service columns of a single prediction's row. */
export const SERVICE_COLUMNS = [
  { name: '__service_row_id', type: 'BIGINT' as const },
  { name: 'select_data_query', type: 'VARCHAR' as const },
  { name: 'when_data', type: 'VARCHAR' as const },
];

export type Step =
  FetchStep | SystemStep | SubplanStep | PredictStep | ForecastStep | ForecastRowStep;

/** A step as EXPLAIN shows it: what it does, and what it reads. */
export function describeStep(s: Step): { action: string; detail: string } {
  switch (s.kind) {
    case 'fetch':
      return { action: `fetch from ${s.db}`, detail: `${s.source}: ${s.sql}` };
    case 'system':
      return {
        action: 'load instance table',
        detail: s.project ? `${s.project}.${s.table}` : `information_schema.${s.table}`,
      };
    case 'subplan':
      return { action: `run ${s.source}`, detail: s.plan.sql };
    case 'predict':
      return s.relation
        ? {
            action: `predict ${s.label}`,
            detail: `on ${s.rows ? 'every row, by position,' : 'the distinct input rows'} of: ${s.relation}${s.explain ? ' (with explanations)' : ''}`,
          }
        : {
            action: `predict ${s.label}`,
            detail: `one row: ${JSON.stringify(
              Object.fromEntries(s.sources.map((x) => [x.column, 'value' in x ? x.value : null])),
            )}`,
          };
    case 'forecast':
      return {
        action: `forecast ${s.label}`,
        detail: `from the history rows of: ${s.relation}${s.withHistory ? ' (and a one-step forecast of each history row)' : ''}`,
      };
    case 'forecast-row':
      return { action: `forecast ${s.label}`, detail: `from one row: ${JSON.stringify(s.row)}` };
  }
}
