/** Query-key factories for models and projects, general to specific (invalidate through these). */
export const modelKeys = {
  all: ['models'] as const,
  project: (project: string) => [...modelKeys.all, project] as const,
  detail: (project: string, model: string) => [...modelKeys.project(project), model] as const,
  versions: (project: string, model: string) =>
    [...modelKeys.detail(project, model), 'versions'] as const,
  describe: (project: string, model: string, attribute: string | undefined) =>
    [...modelKeys.detail(project, model), 'describe', attribute ?? ''] as const,
  source: (project: string, model: string) =>
    [...modelKeys.detail(project, model), 'source'] as const,
  flavor: () => [...modelKeys.all, '__instance_flavor'] as const,
  queryColumns: (db: string, query: string) =>
    [...modelKeys.all, '__query_columns', db, query] as const,
};

export const projectKeys = {
  all: ['projects'] as const,
  list: () => [...projectKeys.all, 'list'] as const,
};
