/**
 * Feeds editor autocomplete from the react-query cache (databases, tables, columns, models) and
 * warms that cache in the background when suggestions are asked for. Failures just mean fewer
 * suggestions.
 */
import type { QueryClient } from '@tanstack/react-query';
import {
  allColumnsQueryOptions,
  databasesQueryOptions,
  modelsQueryOptions,
  tablesQueryOptions,
} from '../api/catalog';
import type { CompletionSource } from '../features/sql-editor/monaco-setup';
import type { CatalogSnapshot } from '../features/sql-editor/completion';
import { activeTab } from '../features/tabs/tab-store';
import { tabStore } from './stores';

export function createCompletionSource(qc: QueryClient): CompletionSource {
  let warming: Promise<void> | undefined;
  let warmedAt = 0;
  const warm = async () => {
    const dbs = await qc.fetchQuery(databasesQueryOptions()).catch(() => []);
    await Promise.allSettled([
      qc.prefetchQuery(allColumnsQueryOptions()),
      ...dbs.map((d) => qc.prefetchQuery(tablesQueryOptions(d.name))),
      ...dbs
        .filter((d) => d.type === 'project')
        .map((d) => qc.prefetchQuery(modelsQueryOptions(d.name))),
    ]);
  };
  return {
    catalog(): CatalogSnapshot {
      const databases = qc.getQueryData(databasesQueryOptions().queryKey) ?? [];
      return {
        databases,
        tables: databases.flatMap(
          (d) => qc.getQueryData(tablesQueryOptions(d.name).queryKey) ?? [],
        ),
        columns: qc.getQueryData(allColumnsQueryOptions().queryKey) ?? [],
        models: databases.flatMap(
          (d) => qc.getQueryData(modelsQueryOptions(d.name).queryKey) ?? [],
        ),
      };
    },
    db: () => activeTab(tabStore.get()).db,
    touch() {
      if (warming || Date.now() - warmedAt < 30_000) return;
      warming = warm().finally(() => {
        warming = undefined;
        warmedAt = Date.now();
      });
    },
  };
}
