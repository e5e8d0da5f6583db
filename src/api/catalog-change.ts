/**
 * Whether an SQL answer means the catalog changed (a database, project, table, view, model or
 * model version was created, dropped or altered), so open views must refresh. Decided by the
 * server's answer, never by reading the statement: our instance says so in `catalog_changed`; a
 * server without that field (a real MindsDB) gets the safe fallback: any `ok` answer, and a table
 * answer that is a row of the models table (what CREATE MODEL and RETRAIN return).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { SqlQueryResponse } from '../../contract';
import { catalogKeys } from './keys';

/** Columns every models-table answer has (MindsDB's `<project>.models`), in any letter case. */
const MODELS_TABLE_SIGNATURE = ['NAME', 'ENGINE', 'PROJECT', 'VERSION', 'STATUS', 'PREDICT'];

export function isModelsTableAnswer(columnNames: readonly string[]): boolean {
  const names = new Set(columnNames.map((c) => c.toUpperCase()));
  return MODELS_TABLE_SIGNATURE.every((c) => names.has(c));
}

export function changesCatalog(res: SqlQueryResponse): boolean {
  if (res.type === 'error') return false;
  if (res.catalog_changed !== undefined) return res.catalog_changed;
  if (res.type === 'ok') return true;
  return isModelsTableAnswer(res.column_names);
}

/** Refreshes everything under the catalog (explorer, models list, open model pages). */
export function refreshCatalog(qc: QueryClient): Promise<void> {
  return qc.invalidateQueries({ queryKey: catalogKeys.all });
}
