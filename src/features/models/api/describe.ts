/**
 * GET /api/projects/{p}/models/{m}/describe?attribute=... (browsers cannot send a GET body).
 * A server that only answers SQL (404/405 on that route) is asked `DESCRIBE p.m[.attribute]`.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { qualifiedName } from '../../../api/catalog-parse';
import {
  DescribeCandidateRow,
  DescribeFeatureRow,
  DescribeProgressRow,
  DescribeSummaryRow,
} from '../../../../contract';
import { ApiError, requestJson } from '../../../api/http';
import { modelKeys } from '../../../api/keys';
import { describeTableToObjects } from './parse';
import { runSql } from '../../../api/sql-query';

const SCHEMAS = {
  '': z.array(DescribeSummaryRow),
  info: z.array(DescribeSummaryRow),
  features: z.array(DescribeFeatureRow),
  model: z.array(DescribeCandidateRow),
  progress: z.array(DescribeProgressRow),
} as const;

export type DescribeAttribute = keyof typeof SCHEMAS;
export type DescribeResult<A extends DescribeAttribute> = z.infer<(typeof SCHEMAS)[A]>;

function modelSegment(model: string, version?: number) {
  return version === undefined ? model : `${model}.${version}`;
}

async function describeBySql<A extends DescribeAttribute>(
  project: string,
  model: string,
  attribute: A,
  version: number | undefined,
  signal?: AbortSignal,
): Promise<DescribeResult<A>> {
  const target = `${qualifiedName([project, model])}${version === undefined ? '' : `.${version}`}`;
  const res = await runSql({
    query: `DESCRIBE ${target}${attribute ? `.${attribute}` : ''}`,
    signal,
  });
  if (res.type === 'error') throw new ApiError(res.error_message, 'http');
  if (res.type !== 'table') return [] as DescribeResult<A>;
  const parsed = SCHEMAS[attribute].safeParse(describeTableToObjects(res));
  if (!parsed.success) {
    throw new ApiError(
      `Unexpected DESCRIBE answer: ${parsed.error.issues[0]?.message ?? 'invalid shape'}`,
      'parse',
    );
  }
  return parsed.data as DescribeResult<A>;
}

export async function fetchDescribe<A extends DescribeAttribute>(
  project: string,
  model: string,
  attribute: A,
  { version, signal }: { version?: number; signal?: AbortSignal } = {},
): Promise<DescribeResult<A>> {
  const path =
    `/api/projects/${encodeURIComponent(project)}/models/` +
    `${encodeURIComponent(modelSegment(model, version))}/describe` +
    (attribute ? `?attribute=${encodeURIComponent(attribute)}` : '');
  try {
    return (await requestJson(path, SCHEMAS[attribute], { signal })) as DescribeResult<A>;
  } catch (e) {
    // No REST describe here (a server that only answers SQL): ask with SQL instead. A 404 from a
    // server that has the route (unknown model) fails the same way through SQL, with its message.
    if (e instanceof ApiError && (e.status === 404 || e.status === 405 || e.status === 501)) {
      return describeBySql(project, model, attribute, version, signal);
    }
    throw e;
  }
}

export function describeQueryOptions<A extends DescribeAttribute>(
  project: string,
  model: string,
  attribute: A,
  opts: { version?: number; enabled?: boolean; activeVersion?: number } = {},
) {
  return queryOptions({
    // The active version is part of the key so a completed retrain is described afresh.
    queryKey: [
      ...modelKeys.describe(project, model, attribute),
      opts.version ?? `active:${opts.activeVersion ?? ''}`,
    ] as const,
    queryFn: ({ signal }) =>
      fetchDescribe(project, model, attribute, { version: opts.version, signal }),
    enabled: opts.enabled ?? true,
    staleTime: 60_000,
    retry: false,
  });
}
