/** Shapes the catalog into the explorer's tree: databases -> schemas -> tables, projects -> models/views. */
import type { DatabaseInfo, ModelInfo, TableInfo } from '../../api/catalog-parse';
import { qualifiedName } from '../../api/catalog-parse';

export interface SchemaGroup {
  schema: string | undefined;
  tables: TableInfo[];
}

/** Groups a database's tables by schema; schema-less tables come first, each group sorted. */
export function groupBySchema(tables: TableInfo[]): SchemaGroup[] {
  const groups = new Map<string, TableInfo[]>();
  for (const t of tables) {
    if (t.kind === 'model') continue;
    const k = t.schema ?? '';
    groups.set(k, [...(groups.get(k) ?? []), t]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))
    .map(([schema, ts]) => ({
      schema: schema || undefined,
      tables: [...ts].sort((x, y) => x.name.localeCompare(y.name)),
    }));
}

/** Models of a project: from `<project>.models` when it answered, else from the MODEL tables. */
export function projectModels(
  project: string,
  models: ModelInfo[] | undefined,
  tables: TableInfo[],
): ModelInfo[] {
  if (models && models.length > 0) return models;
  return tables
    .filter((t) => t.kind === 'model')
    .map((t) => ({ project, name: t.name, status: 'unknown' }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Order in the sidebar: projects first, then data databases, system databases last. */
export function sortDatabases(dbs: DatabaseInfo[]): DatabaseInfo[] {
  const rank = (d: DatabaseInfo) => (d.type === 'project' ? 0 : d.type === 'system' ? 2 : 1);
  return [...dbs].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

export function tableRef(t: Pick<TableInfo, 'db' | 'schema' | 'name'>): string {
  return qualifiedName([t.db, t.schema, t.name]);
}

export function selectStarSql(t: Pick<TableInfo, 'db' | 'schema' | 'name'>): string {
  return `SELECT * FROM ${tableRef(t)} LIMIT 100;`;
}

/** A database's icon and the word beside its name (a project says so; a data one its engine). */
export function databaseLook(db: Pick<DatabaseInfo, 'type' | 'engine'>): {
  icon: string;
  detail: string | undefined;
} {
  if (db.type === 'project') return { icon: 'project', detail: 'project' };
  return { icon: db.type === 'system' ? 'system' : 'db', detail: db.engine ?? undefined };
}

/** A node's left padding in px: a level a step, the first one flush with the chevrons. */
export const indent = (level: number) => 6 + (level - 1) * 14;

/** A node's tooltip: its own, else how to insert its name when it has one. */
export function nodeTitle(label: string, insertText?: string, title?: string): string {
  return title ?? (insertText ? `${label} · double-click or drag to insert` : label);
}

/** A model's tooltip: its error, else what it predicts. */
export function modelTitle(m: Pick<ModelInfo, 'error' | 'predict'>): string | undefined {
  return m.error ? `Error: ${m.error}` : m.predict ? `Predicts ${m.predict}` : undefined;
}
