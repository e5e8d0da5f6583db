/** Query-key factories, general to specific; invalidate through these, never literal arrays. */
export const statusKeys = {
  all: ['status'] as const,
};

export const catalogKeys = {
  all: ['catalog'] as const,
  databases: () => [...catalogKeys.all, 'databases'] as const,
  tables: (db: string) => [...catalogKeys.all, 'tables', db] as const,
  columns: () => [...catalogKeys.all, 'columns'] as const,
  tableColumns: (db: string, schema: string | undefined, table: string) =>
    [...catalogKeys.columns(), db, schema ?? '', table] as const,
  models: (project: string) => [...catalogKeys.all, 'models', project] as const,
};

export const fileKeys = {
  all: ['files'] as const,
  list: () => [...fileKeys.all, 'list'] as const,
};
