/**
 * A few rows of a model's training data (the first N of its training query, in the database it
 * ran in), for predictions on the same rows in the compare view. Plain SQL, so any server answers.
 */
import { queryOptions } from '@tanstack/react-query';
import { modelKeys } from '../../../api/keys';
import { runSql } from '../../../api/sql-query';
import { resolveTrainingSource } from '../api';

async function fetchTrainingRows(
  project: string,
  model: string,
  selectQuery: string,
  limit: number,
  signal?: AbortSignal,
): Promise<Record<string, unknown>[]> {
  const source = await resolveTrainingSource(project, model, selectQuery, signal);
  if (!source) throw new Error(`Could not tell which database ${model}’s training query ran in`);
  const res = await runSql({
    query: `SELECT * FROM ${source.from} LIMIT ${Math.max(1, Math.floor(limit))}`,
    context: source.context,
    signal,
  });
  if (res.type === 'error') throw new Error(res.error_message);
  if (res.type !== 'table') return [];
  return res.data.map((r) => Object.fromEntries(res.column_names.map((c, i) => [c, r[i]])));
}

export function trainingRowsQueryOptions(
  project: string,
  model: string,
  selectQuery: string | null | undefined,
  limit: number,
) {
  return queryOptions({
    queryKey: [...modelKeys.source(project, model), 'rows', selectQuery ?? '', limit] as const,
    queryFn: ({ signal }) => fetchTrainingRows(project, model, selectQuery ?? '', limit, signal),
    enabled: !!selectQuery,
    staleTime: 5 * 60_000,
    retry: false,
  });
}
