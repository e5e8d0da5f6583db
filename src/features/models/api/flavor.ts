/**
 * Which kind of instance the playground talks to, from GET /api/status: our local instance
 * (`provider: "sql-model-playground"`) takes the spec's predict array; a real MindsDB server
 * (`mindsdb_version`) gets its `{"data": [...]}` form.
 */
import { queryOptions } from '@tanstack/react-query';
import { InstanceFlavorStatus } from '../../../../contract';
import { requestJson } from '../../../api/http';
import { statusKeys } from '../../../api/keys';

export type InstanceFlavor = 'playground' | 'mindsdb' | 'unknown';

export function instanceFlavor(status: InstanceFlavorStatus | undefined): InstanceFlavor {
  if (!status) return 'unknown';
  if (status.provider === 'sql-model-playground') return 'playground';
  if (status.mindsdb_version !== undefined) return 'mindsdb';
  return 'unknown';
}

async function fetchInstanceFlavor(signal?: AbortSignal): Promise<{
  flavor: InstanceFlavor;
  version: string | null;
}> {
  const s = await requestJson('/api/status', InstanceFlavorStatus, { signal });
  return { flavor: instanceFlavor(s), version: s.mindsdb_version ?? s.version ?? null };
}

export function instanceFlavorQueryOptions() {
  return queryOptions({
    queryKey: statusKeys.flavor(),
    queryFn: ({ signal }) => fetchInstanceFlavor(signal),
    staleTime: 60_000,
    retry: 1,
  });
}
