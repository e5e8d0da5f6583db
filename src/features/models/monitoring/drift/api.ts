/**
 * The drift endpoints (issue 27): GET .../drift (the version's latest report, none yet: null) and
 * POST .../drift (compute one for a query of today's data, which also becomes the latest). Parsed
 * with contract/monitoring.ts; keys from `modelKeys.monitoring`.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { DriftReport, type DriftRequest } from '../../../../../contract';
import { ApiError, requestJson } from '../../../../api/http';
import { modelKeys } from '../../../../api/keys';

export interface DriftTarget {
  project: string;
  model: string;
  /** A pinned version; absent: the active one. */
  version?: number;
}

function driftPath({ project, model, version }: DriftTarget): string {
  const m = version === undefined ? model : `${model}.${version}`;
  return `/api/projects/${encodeURIComponent(project)}/models/${encodeURIComponent(m)}/drift`;
}

/** The latest report of the version, or null when none was computed yet (the route's 404). */
async function fetchLatestDrift(t: DriftTarget, signal?: AbortSignal): Promise<DriftReport | null> {
  try {
    return await requestJson(driftPath(t), DriftReport, { signal });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

export const latestDriftQuery = (t: DriftTarget) =>
  queryOptions({
    queryKey: modelKeys.monitoring(t.project, t.model, t.version, 'drift'),
    queryFn: ({ signal }) => fetchLatestDrift(t, signal),
    staleTime: 60_000,
  });

function computeDrift(
  t: DriftTarget,
  body: DriftRequest,
  signal?: AbortSignal,
): Promise<DriftReport> {
  return requestJson(driftPath(t), DriftReport, { method: 'POST', body, signal });
}

/** Computes a report; it becomes the latest, so the latest query shows it without a refetch. */
export const computeDriftMutation = (t: DriftTarget, client: QueryClient) => ({
  mutationFn: (body: DriftRequest) => computeDrift(t, body),
  onSuccess: (report: DriftReport) => client.setQueryData(latestDriftQuery(t).queryKey, report),
});
