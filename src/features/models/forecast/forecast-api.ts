/**
 * What a time-series model's forecast view reads, all through SQL (so a real MindsDB answers
 * too): the model's training data as a FROM item, its groups, one group's recent history, and
 * the forecast (`... JOIN model WHERE t.<time> > LATEST`). The what-if scenario posts a changed
 * history to the REST predict, which answers a time-series model with its forecast.
 */
import { queryOptions } from '@tanstack/react-query';
import type { SqlContext } from '../../../../contract';
import { modelKeys } from '../../../api/keys';
import {
  forecastRows,
  forecastSql,
  groupsSql,
  historySql,
  type ForecastRow,
  type GroupValue,
  type TsSettings,
} from './timeseries';
import { resolveTrainingSource, sqlTable } from '../api';

/** The training data as a FROM item without an alias, and the database it runs in. */
export interface ForecastSource {
  relation: string;
  context?: SqlContext;
}

/** Rows a history query reads (the chart shows the recent part of a group). */
export const HISTORY_ROWS = 48;

async function fetchForecastSource(
  project: string,
  model: string,
  selectQuery: string,
  signal?: AbortSignal,
): Promise<ForecastSource | null> {
  const src = await resolveTrainingSource(project, model, selectQuery, signal);
  if (!src) return null;
  return { relation: src.from.replace(/\s+AS\s+__training_data$/i, ''), context: src.context };
}

export function forecastSourceQueryOptions(
  project: string,
  model: string,
  selectQuery: string | null | undefined,
) {
  return queryOptions({
    queryKey: modelKeys.forecast(project, model, 'source', selectQuery ?? ''),
    queryFn: ({ signal }) => fetchForecastSource(project, model, selectQuery ?? '', signal),
    enabled: !!selectQuery,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function groupsQueryOptions(
  project: string,
  model: string,
  ts: TsSettings,
  source: ForecastSource | null | undefined,
) {
  return queryOptions({
    queryKey: modelKeys.forecast(project, model, 'groups', source?.relation ?? ''),
    queryFn: async ({ signal }): Promise<GroupValue[][]> => {
      if (ts.groupBy.length === 0) return [[]];
      const t = await sqlTable(groupsSql(source!.relation, ts), source!.context, signal);
      return t.data as GroupValue[][];
    },
    enabled: !!source,
    staleTime: 60_000,
    retry: false,
  });
}

export interface ForecastData {
  /** The group's recent history, oldest first (objects keyed by column). */
  history: Record<string, unknown>[];
  forecast: ForecastRow[];
  /** The forecast query as it ran (shown, and openable in the SQL editor). */
  sql: string;
}

async function fetchForecast(
  project: string,
  model: string,
  ts: TsSettings,
  target: string,
  source: ForecastSource,
  group: GroupValue[] | null,
  horizon: number,
  signal?: AbortSignal,
): Promise<ForecastData> {
  const sql = forecastSql({
    project,
    model,
    relation: source.relation,
    ts,
    target,
    group,
    horizon,
  });
  const [h, f] = await Promise.all([
    sqlTable(
      historySql(source.relation, ts, target, group, Math.max(HISTORY_ROWS, 2 * ts.window)),
      source.context,
      signal,
    ),
    sqlTable(sql, source.context, signal),
  ]);
  return {
    history: h.data.map((r) => Object.fromEntries(h.column_names.map((c, i) => [c, r[i]]))),
    forecast: forecastRows(f.column_names, f.data, ts, target).slice(0, horizon),
    sql,
  };
}

/** Forecasts of the model's active version (SQL names a model without its version). */
export function forecastQueryOptions(
  project: string,
  model: string,
  ts: TsSettings,
  target: string,
  source: ForecastSource | null | undefined,
  group: GroupValue[] | null,
  horizon: number,
) {
  return queryOptions({
    queryKey: modelKeys.forecast(project, model, 'data', JSON.stringify(group), horizon),
    queryFn: ({ signal }) =>
      fetchForecast(project, model, ts, target, source!, group, horizon, signal),
    enabled: !!source && !!group,
    staleTime: 30_000,
    retry: false,
  });
}
