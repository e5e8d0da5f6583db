/**
 * POST .../diff (issue 27): the row-by-row difference between this version and another version
 * or model on the same rows. A computation without side effects, so it is a query (POST only
 * because the rows' query travels in the body), parsed with contract/monitoring.ts; keys from
 * `modelKeys.monitoring`.
 */
import { queryOptions } from '@tanstack/react-query';
import { DiffReport, type DiffRequest } from '../../../../../contract';
import { requestJson } from '../../../../api/http';
import { modelKeys } from '../../../../api/keys';

export interface DiffTarget {
  project: string;
  model: string;
  /** A pinned version; absent: the active one. */
  version?: number;
}

function diffPath({ project, model, version }: DiffTarget): string {
  const m = version === undefined ? model : `${model}.${version}`;
  return `/api/projects/${encodeURIComponent(project)}/models/${encodeURIComponent(m)}/diff`;
}

export const diffQuery = (t: DiffTarget, body: DiffRequest) =>
  queryOptions({
    queryKey: modelKeys.monitoring(t.project, t.model, t.version, 'diff', {
      against: body.against,
      query: body.query,
      db: body.db,
      limit: body.limit,
    }),
    queryFn: ({ signal }) => requestJson(diffPath(t), DiffReport, { method: 'POST', body, signal }),
    staleTime: 10 * 60_000,
  });
