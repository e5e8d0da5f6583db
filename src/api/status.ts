/** GET /api/status: version, reachability and auth of the target instance (polled). */
import { queryOptions } from '@tanstack/react-query';
import { StatusResponse } from '../../contract';
import { requestJson } from './http';
import { statusKeys } from './keys';

function fetchStatus(signal?: AbortSignal): Promise<StatusResponse> {
  return requestJson('/api/status', StatusResponse, { signal });
}

const STATUS_POLL_MS = 10_000;
/** While the instance cannot be reached, ask this often so the indicator recovers promptly. */
export const STATUS_RETRY_MS = 2_000;

export function statusQueryOptions() {
  return queryOptions({
    queryKey: statusKeys.all,
    queryFn: ({ signal }) => fetchStatus(signal),
    refetchInterval: (q) => (q.state.status === 'error' ? STATUS_RETRY_MS : STATUS_POLL_MS),
    retry: false,
    staleTime: 5_000,
  });
}

/** How often the running-query view asks for the progress of a scoring statement. */
const SCORING_POLL_MS = 1_000;

/**
 * The progress of statements scoring big tables in batches (`engine.scoring` of the status: rows
 * done of total, rate, time left), polled while a query runs; empty for an instance without it.
 */
export function scoringProgressQueryOptions() {
  return queryOptions({
    queryKey: statusKeys.scoring(),
    queryFn: async ({ signal }) => (await fetchStatus(signal)).engine?.scoring ?? [],
    refetchInterval: SCORING_POLL_MS,
    retry: false,
    staleTime: 0,
  });
}
