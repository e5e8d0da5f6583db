/**
 * Which metric each model's `accuracy` is (`r2_score`, `balanced_accuracy_score`), from the REST
 * model list's `accuracy_metric` (this instance's extension), so lists label it by its name. The
 * SQL models table the lists read has no such column (it keeps MindsDB's 19).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ModelInfo } from '../../../../contract';
import { requestJson } from '../../../api/http';
import { modelKeys } from '../../../api/keys';

const Listing = z.array(
  ModelInfo.pick({ name: true, version: true, active: true, accuracy_metric: true })
    .partial({ version: true, active: true })
    .loose(),
);

/** `name` -> metric of its active version, and `name.version` -> metric of each version. */
export type MetricNames = Record<string, string>;

async function fetchMetricNames(project: string, signal?: AbortSignal): Promise<MetricNames> {
  const list = await requestJson(`/api/projects/${encodeURIComponent(project)}/models`, Listing, {
    signal,
  });
  const out: MetricNames = {};
  for (const m of list) {
    if (!m.accuracy_metric) continue;
    if (m.version !== undefined) out[`${m.name}.${m.version}`] = m.accuracy_metric;
    if (m.active !== false || !(m.name in out)) out[m.name] = m.accuracy_metric;
  }
  return out;
}

/**
 * `stamp` changes when what is listed changes (a version completes), so the names are asked for
 * again: a model's metric is only known once it is trained.
 */
export function metricNamesQueryOptions(project: string, stamp = '') {
  return queryOptions({
    queryKey: [...modelKeys.list(project), 'metric-names', stamp] as const,
    queryFn: ({ signal }) => fetchMetricNames(project, signal),
    staleTime: 30_000,
    // A server without the listing (or without the field) leaves the label generic.
    retry: false,
  });
}

/** The metric name of one model version's `accuracy` (undefined while unknown). */
export function useMetricName(
  project: string,
  model: string,
  version: number | undefined,
  status: string | undefined,
) {
  const q = useQuery({
    ...metricNamesQueryOptions(project, `${model}.${version ?? ''}:${status ?? ''}`),
    enabled: status === 'complete',
  });
  return version !== undefined
    ? (q.data?.[`${model}.${version}`] ?? q.data?.[model])
    : q.data?.[model];
}
