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

/** How often the running-query view asks for the engine's state (queue place, scoring progress). */
const RUNNING_POLL_MS = 1_000;

/**
 * The engine's part of the status while a query runs: the progress of statements scoring big
 * tables in batches (`scoring`: rows done of total, rate, time left) and the requests waiting for
 * a connection (`queue`: each tracked query's place in line). Empty for an instance without them.
 */
export function runningEngineQueryOptions() {
  return queryOptions({
    queryKey: statusKeys.running(),
    queryFn: async ({ signal }) => {
      const engine = (await fetchStatus(signal)).engine;
      return { scoring: engine?.scoring ?? [], queue: engine?.queue ?? [] };
    },
    refetchInterval: RUNNING_POLL_MS,
    retry: false,
    staleTime: 0,
  });
}
