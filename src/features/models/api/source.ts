/**
 * What the predict form and the what-if sweep learn from a model's training data: the known
 * values of categorical inputs (`SELECT DISTINCT`), min/max of numeric ones, and one example row.
 * The models table does not say which database the training query ran in, so it is remembered
 * when the playground creates a model, else found by looking the query's table up in
 * information_schema.
 */
import { queryOptions } from '@tanstack/react-query';
import { parseColumns, qualifiedName, quoteIdent, quoteString } from '../../../api/catalog-parse';
import type { SqlContext } from '../../../../contract';
import { catalogKeys, modelKeys } from '../../../api/keys';
import { runSql } from '../../../api/sql-query';
import { defaultStore, readJson, writeJson } from '../../../lib/storage';

const STORAGE_KEY = 'smp.model-sources';

type Remembered = Record<string, string>;

function remembered(): Remembered {
  return readJson<Remembered>(
    defaultStore(),
    STORAGE_KEY,
    (v) => (v && typeof v === 'object' ? (v as Remembered) : undefined),
    {},
  );
}

/** Called after CREATE MODEL from the playground: the database its FROM query ran in. */
export function rememberModelSource(project: string, model: string, db: string) {
  writeJson(defaultStore(), STORAGE_KEY, { ...remembered(), [`${project}.${model}`]: db });
}

const SIMPLE_SELECT = /^\s*SELECT\s+\*\s+FROM\s+([A-Za-z0-9_.`"]+)\s*;?\s*$/i;
const FROM_TABLE = /\bFROM\s+([A-Za-z0-9_.`"]+)/i;

function refParts(ref: string): string[] {
  return ref.split('.').map((p) => p.replace(/^[`"]|[`"]$/g, ''));
}

export interface TrainingSource {
  db: string;
  /** `FROM` clause text: the qualified table for `SELECT * FROM t`, else a subquery. */
  from: string;
  context?: SqlContext;
}

/** A query's table answer (no rows for other answers); an error answer throws its message. */
export async function sqlTable(query: string, context?: SqlContext, signal?: AbortSignal) {
  const res = await runSql({ query, context, signal });
  if (res.type === 'error') throw new Error(res.error_message);
  if (res.type !== 'table') return { column_names: [] as string[], data: [] as unknown[][] };
  return res;
}

export async function resolveTrainingSource(
  project: string,
  model: string,
  selectQuery: string,
  signal?: AbortSignal,
): Promise<TrainingSource | null> {
  const ref = FROM_TABLE.exec(selectQuery)?.[1];
  let db: string | undefined = remembered()[`${project}.${model}`];
  if (!db && ref) {
    const parts = refParts(ref);
    const name = parts[parts.length - 1];
    const schema = parts.length >= 2 ? parts[parts.length - 2] : undefined;
    const cols = parseColumns(
      await sqlTable(
        `SELECT TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME FROM information_schema.columns WHERE TABLE_NAME = ${quoteString(name)}`,
        undefined,
        signal,
      ),
    );
    db = cols.find((c) => schema === undefined || c.schema === schema || c.db === schema)?.db;
  }
  if (!db) return null;
  const simple = SIMPLE_SELECT.exec(selectQuery)?.[1];
  if (simple) return { db, from: qualifiedName([db, ...refParts(simple)]) };
  return {
    db,
    from: `(${selectQuery.trim().replace(/;\s*$/, '')}) AS __training_data`,
    context: { db },
  };
}

export interface TrainingStats {
  source: TrainingSource | null;
  /** Known values of categorical/binary inputs (at most 100, sorted). */
  options: Record<string, (string | number | boolean)[]>;
  /** [min, max] of numeric inputs. */
  ranges: Record<string, [number, number]>;
  /** One training row, to fill the form with a realistic example. */
  example: Record<string, unknown> | null;
}

async function fetchTrainingStats(
  project: string,
  model: string,
  selectQuery: string,
  columns: { name: string; kind: string }[],
  signal?: AbortSignal,
): Promise<TrainingStats> {
  const stats: TrainingStats = { source: null, options: {}, ranges: {}, example: null };
  const source = await resolveTrainingSource(project, model, selectQuery, signal).catch(() => null);
  if (!source) return stats;
  stats.source = source;
  const choice = columns.filter((c) => c.kind === 'choice');
  const numeric = columns.filter((c) => c.kind === 'number');
  const jobs: Promise<void>[] = choice.map(async (c) => {
    const col = quoteIdent(c.name);
    const t = await sqlTable(
      `SELECT DISTINCT ${col} FROM ${source.from} WHERE ${col} IS NOT NULL ORDER BY 1 LIMIT 100`,
      source.context,
      signal,
    );
    stats.options[c.name] = t.data
      .map((r) => r[0])
      .filter(
        (v): v is string | number | boolean =>
          typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
      );
  });
  if (numeric.length > 0) {
    jobs.push(
      (async () => {
        const sel = numeric
          .map((c) => `min(${quoteIdent(c.name)}), max(${quoteIdent(c.name)})`)
          .join(', ');
        const t = await sqlTable(`SELECT ${sel} FROM ${source.from}`, source.context, signal);
        const row = t.data[0] ?? [];
        numeric.forEach((c, i) => {
          const lo = Number(row[2 * i]);
          const hi = Number(row[2 * i + 1]);
          if (row[2 * i] != null && Number.isFinite(lo) && Number.isFinite(hi))
            stats.ranges[c.name] = [lo, hi];
        });
      })(),
    );
  }
  jobs.push(
    (async () => {
      const t = await sqlTable(`SELECT * FROM ${source.from} LIMIT 1`, source.context, signal);
      const row = t.data[0];
      if (row) stats.example = Object.fromEntries(t.column_names.map((c, i) => [c, row[i]]));
    })(),
  );
  await Promise.allSettled(jobs);
  return stats;
}

export function trainingStatsQueryOptions(
  project: string,
  model: string,
  selectQuery: string | null | undefined,
  columns: { name: string; kind: string }[],
) {
  return queryOptions({
    queryKey: [
      ...modelKeys.source(project, model),
      selectQuery ?? '',
      columns.map((c) => `${c.name}:${c.kind}`).join(','),
    ] as const,
    queryFn: ({ signal }) => fetchTrainingStats(project, model, selectQuery ?? '', columns, signal),
    enabled: !!selectQuery && columns.length > 0,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Columns (and types, when the server reports them) of a free training query: `LIMIT 0`. */
async function fetchQueryColumns(
  db: string,
  query: string,
  signal?: AbortSignal,
): Promise<{ name: string; dataType: string }[]> {
  const res = await runSql({
    query: `SELECT * FROM (${query.trim().replace(/;\s*$/, '')}) AS __training_data LIMIT 0`,
    context: { db },
    signal,
  });
  if (res.type === 'error') throw new Error(res.error_message);
  if (res.type !== 'table') return [];
  return res.column_names.map((name, i) => ({ name, dataType: res.column_types?.[i] ?? '' }));
}

export function queryColumnsQueryOptions(db: string, query: string) {
  return queryOptions({
    queryKey: catalogKeys.queryColumns(db, query),
    queryFn: ({ signal }) => fetchQueryColumns(db, query, signal),
    enabled: !!db && query.trim().length > 0,
    staleTime: 60_000,
    retry: false,
  });
}

/** Where a model's training query runs (its database), for statements that train it again. */
export function trainingSourceQueryOptions(
  project: string,
  model: string,
  selectQuery: string | null | undefined,
) {
  return queryOptions({
    queryKey: [...modelKeys.source(project, model), 'where', selectQuery ?? ''] as const,
    queryFn: ({ signal }) => resolveTrainingSource(project, model, selectQuery ?? '', signal),
    enabled: !!selectQuery,
    staleTime: 5 * 60_000,
    retry: false,
  });
}
