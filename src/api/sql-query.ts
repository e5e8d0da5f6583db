/** POST /api/sql/query: run one SQL statement with the tab's context. */
import { SqlQueryResponse, type SqlContext } from './contract';
import { requestJson } from './http';

export const SQL_RESPONSE_MARK = 'sql-response-end';

export interface RunSqlInput {
  query: string;
  context?: SqlContext;
  signal?: AbortSignal;
  /** Set a `performance` mark when the response body arrives (user runs; read by the UI bench). */
  markResponse?: boolean;
}

export function runSql({
  query,
  context,
  signal,
  markResponse,
}: RunSqlInput): Promise<SqlQueryResponse> {
  return requestJson('/api/sql/query', SqlQueryResponse, {
    method: 'POST',
    body: context ? { query, context } : { query },
    signal,
    onBodyReceived: markResponse
      ? () => {
          performance.clearMarks(SQL_RESPONSE_MARK);
          performance.mark(SQL_RESPONSE_MARK);
        }
      : undefined,
  });
}
