/**
 * POST /api/sql/classify: the instance's judgement of what SQL would do, asked before a shared
 * link runs anything. Ours only: a MindsDB server (INSTANCE_URL) answers 404, which comes back as
 * null, and the caller then asks the user as for any statement it cannot vouch for.
 */
import { Classification, type SqlContext } from '../../contract';
import { ApiError, isAbortError, requestJson } from './http';

export async function classifySql(
  query: string,
  context: SqlContext | undefined,
  signal?: AbortSignal,
): Promise<Classification | null> {
  try {
    return await requestJson('/api/sql/classify', Classification, {
      method: 'POST',
      body: context ? { query, context } : { query },
      signal,
    });
  } catch (e) {
    if (isAbortError(e)) throw e;
    if (e instanceof ApiError) return null;
    throw e;
  }
}
