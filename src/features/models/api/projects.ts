/**
 * Projects (where models live): GET /api/projects, or, on a server without it, the databases of
 * type `project` from SHOW FULL DATABASES.
 */
import { queryOptions } from '@tanstack/react-query';
import { parseDatabases } from '../../../api/catalog-parse';
import { ProjectList } from '../../../../contract';
import { ApiError, requestJson } from '../../../api/http';
import { catalogKeys } from '../../../api/keys';
import { runSql } from '../../../api/sql-query';

async function fetchProjects(signal?: AbortSignal): Promise<string[]> {
  try {
    const list = await requestJson('/api/projects', ProjectList, { signal });
    return list.map((p) => p.name);
  } catch (e) {
    if (!(e instanceof ApiError) || e.kind === 'network') throw e;
    const res = await runSql({ query: 'SHOW FULL DATABASES', signal });
    if (res.type !== 'table') throw e;
    return parseDatabases(res)
      .filter((d) => d.type === 'project')
      .map((d) => d.name);
  }
}

export function projectsQueryOptions() {
  return queryOptions({
    queryKey: catalogKeys.projects(),
    queryFn: ({ signal }) => fetchProjects(signal),
    staleTime: 60_000,
    retry: 1,
  });
}
