/**
 * Tables named like a model's training table with a suffix (`home_rentals_this_month` beside
 * `home_rentals`), in any database: the drift tab offers them as today's data. One SQL query on
 * information_schema, so MindsDB servers answer too.
 */
import { queryOptions } from '@tanstack/react-query';
import { quoteString } from '../../../../api/catalog-parse';
import { modelKeys } from '../../../../api/keys';
import { runSql } from '../../../../api/sql-query';
import type { SimilarTable } from './drift-view';

async function fetchSimilarTables(base: string, signal?: AbortSignal): Promise<SimilarTable[]> {
  const like = quoteString(`${base.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}\\_%`);
  const res = await runSql({
    query: `SELECT table_catalog, table_schema, table_name FROM information_schema.tables WHERE lower(table_name) LIKE ${like} ESCAPE '\\' LIMIT 50`,
    signal,
  });
  if (res.type === 'error') throw new Error(res.error_message);
  if (res.type !== 'table') return [];
  return res.data.map((r) => ({ db: String(r[0]), schema: String(r[1]), name: String(r[2]) }));
}

export const similarTablesQuery = (project: string, model: string, base: string) =>
  queryOptions({
    queryKey: modelKeys.monitoring(project, model, undefined, 'drift', { similar: base }),
    queryFn: ({ signal }) => fetchSimilarTables(base, signal),
    staleTime: 5 * 60_000,
  });
