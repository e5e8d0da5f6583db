/**
 * Feeds editor autocomplete from the react-query cache (databases, tables, columns, models and the
 * columns of models a statement reads) and warms that cache in the background when suggestions
 * are asked for. Failures just mean fewer suggestions.
 */
import type { QueryClient } from '@tanstack/react-query';
import {
  allColumnsQueryOptions,
  databasesQueryOptions,
  modelsQueryOptions,
  tablesQueryOptions,
} from '../api/catalog';
import { describeQueryOptions } from '../features/models/api';
import type { CompletionSource } from '../features/sql-editor/monaco-setup';
import {
  referencedModels,
  type CatalogSnapshot,
  type ModelColumns,
} from '../features/sql-editor/completion';
import { activeTab } from '../features/tabs/tab-store';
import { tabStore } from './stores';

const featuresOf = (project: string, model: string) =>
  describeQueryOptions(project, model, 'features');

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
  const touch = () => {
    if (!warming && Date.now() - warmedAt >= 30_000) {
      warming = warm().finally(() => {
        warming = undefined;
        warmedAt = Date.now();
      });
    }
    return warming;
  };
  const db = () => activeTab(tabStore.get()).db;

  const source: CompletionSource = {
    catalog(): CatalogSnapshot {
      const databases = qc.getQueryData(databasesQueryOptions().queryKey) ?? [];
      const models = databases.flatMap(
        (d) => qc.getQueryData(modelsQueryOptions(d.name).queryKey) ?? [],
      );
      const modelColumns: ModelColumns[] = [];
      for (const m of models) {
        const features = qc.getQueryData(featuresOf(m.project, m.name).queryKey);
        if (features) {
          modelColumns.push({
            project: m.project,
            model: m.name,
            columns: features.map((f) => ({ name: f.column, type: f.type, role: f.role })),
          });
        }
      }
      return {
        databases,
        tables: databases.flatMap(
          (d) => qc.getQueryData(tablesQueryOptions(d.name).queryKey) ?? [],
        ),
        columns: qc.getQueryData(allColumnsQueryOptions().queryKey) ?? [],
        models,
        modelColumns,
      };
    },
    db,
    touch: () => void touch(),
    async ensure(statement) {
      // The models the statement reads must be known, then their columns (DESCRIBE features).
      await touch();
      const refs = referencedModels(statement, source.catalog(), db());
      await Promise.allSettled(
        [...new Set(refs.values())].map((m) => qc.fetchQuery(featuresOf(m.project, m.name))),
      );
    },
  };
  return source;
}
