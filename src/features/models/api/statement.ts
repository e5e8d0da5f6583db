/**
 * Model statements over SQL (CREATE MODEL, RETRAIN, DROP MODEL): they work on any compatible
 * server. An SQL error becomes a thrown Error with the server's message.
 */
import { mutationOptions } from '@tanstack/react-query';
import type { SqlQueryResponse } from '../../../../contract';
import { runSql } from '../../../api/sql-query';

async function runModelStatement(query: string, signal?: AbortSignal): Promise<SqlQueryResponse> {
  const res = await runSql({ query, signal });
  if (res.type === 'error') throw new Error(res.error_message);
  return res;
}

export function modelStatementMutationOptions() {
  return mutationOptions({
    mutationFn: (query: string) => runModelStatement(query),
  });
}
