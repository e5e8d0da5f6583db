/**
 * Catalog queries for the explorer and autocomplete. They use SQL a real MindsDB server also
 * answers (through POST /api/sql/query), so they work against any compatible target.
 */
import { queryOptions } from '@tanstack/react-query';
import type { SqlQueryResponse } from '../../contract';
import {
  parseColumns,
  parseDatabases,
  parseModels,
  parseTables,
  qualifiedName,
  quoteString,
  type ColumnInfo,
} from './catalog-parse';
import { catalogKeys, modelKeys } from './keys';
import { runSql } from './sql-query';

async function table(query: string, signal?: AbortSignal) {
  const res: SqlQueryResponse = await runSql({ query, signal });
  if (res.type === 'error') throw new Error(res.error_message);
  if (res.type !== 'table') return { column_names: [], data: [] };
  return res;
}

const CATALOG_STALE_MS = 60_000;

export function databasesQueryOptions() {
  return queryOptions({
    queryKey: catalogKeys.databases(),
    queryFn: async ({ signal }) => parseDatabases(await table('SHOW FULL DATABASES', signal)),
    staleTime: CATALOG_STALE_MS,
    retry: 1,
  });
}

export function tablesQueryOptions(db: string) {
  return queryOptions({
    queryKey: catalogKeys.tables(db),
    queryFn: async ({ signal }) =>
      parseTables(db, await table(`SHOW FULL TABLES FROM ${qualifiedName([db])}`, signal)),
    staleTime: CATALOG_STALE_MS,
    retry: false,
  });
}

const COLUMNS_SQL =
  'SELECT TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM information_schema.columns';

/** Every column the instance lists (for autocomplete). */
export function allColumnsQueryOptions() {
  return queryOptions({
    queryKey: catalogKeys.columns(),
    queryFn: async ({ signal }) => parseColumns(await table(COLUMNS_SQL, signal)),
    staleTime: CATALOG_STALE_MS,
    retry: false,
  });
}

function filterTableColumns(
  cols: ColumnInfo[],
  db: string,
  schema: string | undefined,
  tableName: string,
): ColumnInfo[] {
  return cols.filter(
    (c) => c.table === tableName && c.db === db && (schema === undefined || c.schema === schema),
  );
}

/** The columns of one table (explorer). */
export function tableColumnsQueryOptions(
  db: string,
  schema: string | undefined,
  tableName: string,
) {
  return queryOptions({
    queryKey: catalogKeys.tableColumns(db, schema, tableName),
    queryFn: async ({ signal }) =>
      filterTableColumns(
        parseColumns(
          await table(`${COLUMNS_SQL} WHERE TABLE_NAME = ${quoteString(tableName)}`, signal),
        ),
        db,
        schema,
        tableName,
      ),
    staleTime: CATALOG_STALE_MS,
    retry: false,
  });
}

/** Models of a project from `<project>.models` (empty when the server has none). */
export function modelsQueryOptions(project: string) {
  return queryOptions({
    queryKey: modelKeys.list(project),
    queryFn: async ({ signal }) =>
      parseModels(
        project,
        await table(`SELECT * FROM ${qualifiedName([project, 'models'])}`, signal),
      ),
    staleTime: 5_000,
    retry: false,
    // Training models change status: poll while any is in progress.
    refetchInterval: (q) =>
      q.state.data?.some((m) => /generating|training|creating/i.test(m.status)) ? 3_000 : false,
  });
}
