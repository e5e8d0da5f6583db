/**
 * The one query-key tree of the SPA, general to specific; invalidate through these factories,
 * never literal arrays. Everything a catalog-changing statement can affect (databases, tables,
 * columns, files, projects, models and each model's details) lives under `catalogKeys.all`, and a
 * project's model list and its models' details share `modelKeys.project(p)`, so one invalidation
 * refreshes the explorer, the models list and an open model page together.
 */
export const statusKeys = {
  all: ['status'] as const,
  /** Which kind of instance answers (ours or a real MindsDB server), read from /api/status. */
  flavor: () => [...statusKeys.all, 'flavor'] as const,
  /** The engine while a query runs: scoring progress and places in line (polled). */
  running: () => [...statusKeys.all, 'running'] as const,
};

export const catalogKeys = {
  all: ['catalog'] as const,
  databases: () => [...catalogKeys.all, 'databases'] as const,
  tables: (db: string) => [...catalogKeys.all, 'tables', db] as const,
  columns: () => [...catalogKeys.all, 'columns'] as const,
  tableColumns: (db: string, schema: string | undefined, table: string) =>
    [...catalogKeys.columns(), db, schema ?? '', table] as const,
  /** Columns of a free query (`LIMIT 0`), e.g. a training query being written. */
  queryColumns: (db: string, query: string) =>
    [...catalogKeys.all, 'query-columns', db, query] as const,
  projects: () => [...catalogKeys.all, 'projects'] as const,
};

export const modelKeys = {
  all: [...catalogKeys.all, 'models'] as const,
  project: (project: string) => [...modelKeys.all, project] as const,
  list: (project: string) => [...modelKeys.project(project), 'list'] as const,
  detail: (project: string, model: string) =>
    [...modelKeys.project(project), 'model', model] as const,
  versions: (project: string, model: string) =>
    [...modelKeys.detail(project, model), 'versions'] as const,
  describe: (project: string, model: string, attribute: string | undefined) =>
    [...modelKeys.detail(project, model), 'describe', attribute ?? ''] as const,
  source: (project: string, model: string) =>
    [...modelKeys.detail(project, model), 'source'] as const,
  /** An evaluation view of a version (`view`: leaderboard, threshold, ...; `params`: its query). */
  evaluation: (
    project: string,
    model: string,
    version: number | undefined,
    view: string,
    params: Record<string, string | number | undefined> = {},
  ) =>
    [...modelKeys.detail(project, model), 'evaluation', version ?? 'active', view, params] as const,
  /** A time-series model's forecast view: its groups, a group's history, a forecast. */
  forecast: (project: string, model: string, ...parts: (string | number)[]) =>
    [...modelKeys.detail(project, model), 'forecast', ...parts] as const,
  /** A version's monitoring report (drift, effects or a diff: issue 27) with its parameters. */
  monitoring: (
    project: string,
    model: string,
    version: number | undefined,
    report: 'drift' | 'effects' | 'diff',
    params: Record<string, string | number | undefined> = {},
  ) =>
    [
      ...modelKeys.detail(project, model),
      'monitoring',
      version ?? 'active',
      report,
      params,
    ] as const,
};

export const fileKeys = {
  all: [...catalogKeys.all, 'files'] as const,
  list: () => [...fileKeys.all, 'list'] as const,
};
