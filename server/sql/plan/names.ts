/**
 * What a table reference means, decided in one place and in one order: CTE names first (a CTE
 * named like a model or a system table shadows it), then the projects' models and system tables,
 * then databases (PostgreSQL integrations, the instance's own DuckDB databases), with the current
 * database (`context.db`) filling in bare names. Model names carry versions: `p.m.2`, `m.2`.
 *
 * MindsDB's rule for a quoted name with dots (`` `example_db.demo_data.home_rentals` ``,
 * `` `pg.public`.planets ``): its dotted parts are separate name parts, as MindsDB's identifier
 * reader splits them.
 */
import type { Catalog } from '../../catalog/catalog';
import type { ModelRef, ModelRegistry } from '../../models/registry';
import type { IntegrationRegistry } from '../../integrations';
import { badInput } from '../../errors';
import { NATIVE_PREFIX } from '../syntax/dialect';
import type { Scope } from '../syntax/tree';
import type { StoredView, ViewStore } from './views';

/** System tables the instance answers itself. */
export type SystemTable = 'models' | 'models_versions' | 'databases' | 'ml_engines' | 'handlers';

export type Resolved =
  | { kind: 'cte' }
  | { kind: 'native'; index: number }
  | { kind: 'model'; ref: ModelRef }
  | { kind: 'system'; table: SystemTable; project: string | null }
  | { kind: 'view'; view: StoredView }
  | { kind: 'remote'; db: string; name: string[] }
  | { kind: 'local' };

export interface NameEnv {
  catalog: Catalog;
  models: ModelRegistry;
  integrations: IntegrationRegistry;
  views: ViewStore;
}

const PROJECT_TABLES = new Set(['models', 'models_versions']);
const INFORMATION_SCHEMA_TABLES = new Set(['models', 'databases', 'ml_engines', 'handlers']);
const isVersion = (s: string) => /^\d+$/.test(s);

/**
 * MindsDB's tables of features this instance does not have (jobs, triggers, agents, ...), in a
 * project or information_schema, with the feature each one belongs to: reading one is refused
 * naming the feature, not reported as a missing table.
 */
const FEATURE_TABLES: Record<string, string> = {
  jobs: 'jobs',
  jobs_history: 'jobs',
  triggers: 'triggers',
  chatbots: 'chatbots',
  agents: 'agents',
  skills: 'skills',
  knowledge_bases: 'knowledge bases',
};

function refuseFeatureTable(where: string, table: string): never {
  throw badInput(
    `${where}.${table} is not supported by this instance (this instance has no ${FEATURE_TABLES[table.toLowerCase()]})`,
  );
}

/** Splits quoted parts holding dots, as MindsDB reads `` `db.schema.table` ``. */
export function splitParts(parts: string[]): string[] {
  return parts.flatMap((p) => (p.includes('.') ? p.split('.').filter((x) => x !== '') : [p]));
}

export function resolveTable(env: NameEnv, rawParts: string[], scope: Scope, db: string): Resolved {
  const { catalog, integrations } = env;
  if (rawParts.length === 1 && rawParts[0].startsWith(NATIVE_PREFIX)) {
    return { kind: 'native', index: Number(rawParts[0].slice(NATIVE_PREFIX.length)) };
  }
  const parts = splitParts(rawParts);
  if (parts.length === 1 && scope.names.has(parts[0].toLowerCase())) return { kind: 'cte' };
  const current = catalog.databaseInfo(db);
  const currentProject = current?.type === 'project' ? current.name : null;

  const inProject = (project: string, name: string, version?: string): Resolved | null => {
    const lower = name.toLowerCase();
    if (version === undefined && PROJECT_TABLES.has(lower)) {
      return { kind: 'system', table: lower as SystemTable, project };
    }
    // `predictors`: the models table's name before MindsDB 23 (its older tutorials read it).
    if (version === undefined && lower === 'predictors' && !env.models.exists(project, name)) {
      return { kind: 'system', table: 'models', project };
    }
    if (env.models.exists(project, name)) {
      const canonical = env.models.versions(project, name)[0].name;
      return {
        kind: 'model',
        ref: {
          project,
          name: canonical,
          version: version === undefined ? undefined : Number(version),
        },
      };
    }
    return null;
  };
  const local = (): Resolved => localRef(env, parts, current?.name ?? db);
  const projectTable = (project: string, name: string): Resolved => {
    const r = inProject(project, name) ?? local();
    if (r.kind === 'local' && FEATURE_TABLES[name.toLowerCase()]) refuseFeatureTable(project, name);
    return r;
  };

  if (parts.length === 1) {
    const [name] = parts;
    if (integrations.isRemote(name) && !(current && integrations.isRemote(current.name))) {
      throw badInput(
        `'${name}' is a database; name one of its tables (${name}.table) or send a native query: SELECT * FROM ${name} (SELECT ...)`,
      );
    }
    if (currentProject) return projectTable(currentProject, name);
    if (current?.type === 'system' && INFORMATION_SCHEMA_TABLES.has(name.toLowerCase())) {
      return { kind: 'system', table: name.toLowerCase() as SystemTable, project: null };
    }
    if (current?.type === 'system' && FEATURE_TABLES[name.toLowerCase()]) {
      refuseFeatureTable(current.name, name);
    }
    if (current && integrations.isRemote(current.name)) {
      return { kind: 'remote', db: current.name, name: parts };
    }
    return local();
  }

  const [a, b] = parts;
  const project = catalog.projectInfo(a)?.name;
  if (parts.length === 2) {
    if (project) return projectTable(project, b);
    if (a.toLowerCase() === 'information_schema') {
      if (INFORMATION_SCHEMA_TABLES.has(b.toLowerCase())) {
        return { kind: 'system', table: b.toLowerCase() as SystemTable, project: null };
      }
      if (FEATURE_TABLES[b.toLowerCase()]) refuseFeatureTable(a, b);
    }
    // MindsDB's `log` database (log.jobs_history, log.llm_log), unless one of that name exists.
    if (a.toLowerCase() === 'log' && !catalog.databaseInfo(a)) {
      throw badInput(
        `The log database (${a}.${b}) is not supported by this instance (this instance keeps no job or LLM logs)`,
      );
    }
    if (integrations.isRemote(a))
      return { kind: 'remote', db: integrations.record(a)!.name, name: [b] };
    // `m.2` in a project: a version of a model of the current project.
    if (currentProject && isVersion(b)) {
      const r = inProject(currentProject, a, b);
      if (r) return r;
    }
    if (current && integrations.isRemote(current.name) && !catalog.databaseInfo(a)) {
      return { kind: 'remote', db: current.name, name: parts };
    }
    return local();
  }

  if (parts.length === 3) {
    if (project && isVersion(parts[2])) return inProject(project, b, parts[2]) ?? local();
    if (integrations.isRemote(a)) {
      return { kind: 'remote', db: integrations.record(a)!.name, name: parts.slice(1) };
    }
  }
  return local();
}

/** A name DuckDB resolves itself, unless it is one of the instance's stored views. */
function localRef(env: NameEnv, parts: string[], current: string): Resolved {
  let catalog = current;
  let schema = 'main';
  let name = parts[parts.length - 1];
  if (parts.length === 2) {
    if (env.catalog.databaseInfo(parts[0])) catalog = parts[0];
    else schema = parts[0];
  } else if (parts.length === 3) {
    [catalog, schema, name] = parts;
  } else if (parts.length > 3) return { kind: 'local' };
  const view = env.views.find(env.catalog.databaseInfo(catalog)?.name ?? catalog, name, schema);
  return view ? { kind: 'view', view } : { kind: 'local' };
}
