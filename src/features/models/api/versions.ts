/**
 * A model's versions and live status from `SELECT * FROM <project>.models WHERE name = '...'`
 * (SQL, so it works against real servers too). Polled every second while it trains.
 */
import { queryOptions } from '@tanstack/react-query';
import { qualifiedName, quoteString } from '../../../api/catalog-parse';
import { modelKeys } from '../../../api/keys';
import { isBusyStatus, parseModelVersions, type ModelVersion } from './parse';
import { runSql } from '../../../api/sql-query';

const TRAINING_POLL_MS = 1_000;

async function fetchModelVersions(
  project: string,
  model: string,
  signal?: AbortSignal,
): Promise<ModelVersion[]> {
  const res = await runSql({
    query: `SELECT * FROM ${qualifiedName([project, 'models'])} WHERE name = ${quoteString(model)}`,
    signal,
  });
  if (res.type === 'error') throw new Error(res.error_message);
  if (res.type !== 'table') return [];
  return parseModelVersions(project, res);
}

export function modelVersionsQueryOptions(project: string, model: string) {
  return queryOptions({
    queryKey: modelKeys.versions(project, model),
    queryFn: ({ signal }) => fetchModelVersions(project, model, signal),
    retry: 1,
    refetchInterval: (q) =>
      q.state.data?.some((v) => isBusyStatus(v.status)) ? TRAINING_POLL_MS : false,
  });
}
