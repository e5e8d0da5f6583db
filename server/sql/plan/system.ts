/**
 * The system tables the instance answers itself, as rows the planner loads into a request's TEMP
 * tables (so the user's own WHERE, joins and ORDER BY apply with DuckDB's semantics):
 * `<project>.models` / `models_versions` and `information_schema.models`, `databases`,
 * `ml_engines`, `handlers`; and the ML engines created with CREATE ML_ENGINE, which live in
 * DATA_DIR/ml_engines.json. Secrets (passwords) never appear in any of them.
 */
import path from 'node:path';
import { readJsonFile, writeFileAtomic } from '../../engine/atomic';
import type { Catalog } from '../../catalog/catalog';
import { ENGINE_NAME, MODEL_COLUMNS } from '../../models/models-table';
import type { ModelRegistry } from '../../models/registry';
import type { JsonValue } from '../../engine/values';
import { ERROR_CODES, ServiceError, badInput, notFound } from '../../errors';
import type { IntegrationRegistry } from '../../integrations';
import type { OutputColumn as VirtualColumn } from '../../models/predict/columns';
import type { SystemTable } from './names';

export interface Rows {
  columns: VirtualColumn[];
  rows: JsonValue[][];
}

const col = (name: string, type: VirtualColumn['type'] = 'VARCHAR'): VirtualColumn => ({
  name,
  type,
});

/** Handlers (MindsDB's engines) this instance has: one ML engine and two data engines. */
const HANDLERS: JsonValue[][] = [
  [
    ENGINE_NAME,
    'ml',
    'Lightwood',
    "The instance's built-in AutoML engine (gradient-boosted trees and linear models, conformal intervals), answering as lightwood",
    '1.0.0',
    null,
    true,
    null,
  ],
  [
    'postgres',
    'data',
    'PostgreSQL',
    'PostgreSQL and servers speaking its protocol; queries run there (native SQL, pushdown)',
    '1.0.0',
    JSON.stringify({
      host: { type: 'str' },
      port: { type: 'int' },
      user: { type: 'str' },
      password: { type: 'pwd' },
      database: { type: 'str' },
      schema: { type: 'str' },
      sslmode: { type: 'str' },
    }),
    true,
    null,
  ],
  [
    'duckdb',
    'data',
    'DuckDB',
    'A DuckDB file inside the data directory',
    '1.0.0',
    JSON.stringify({ database: { type: 'path' }, read_only: { type: 'bool' } }),
    true,
    null,
  ],
];

const SECRET = /pass|secret|token|key/i;

function publicParams(params: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(params).filter(([k]) => !SECRET.test(k))),
  );
}

export interface MlEngine {
  name: string;
  handler: string;
  /** Option names given in USING (values are not kept: they are usually API keys). */
  options: string[];
}

/** ML engines created with CREATE ML_ENGINE (all of them train with the built-in engine). */
export class MlEngineStore {
  private readonly file: string;
  private engines: MlEngine[];

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'ml_engines.json');
    this.engines = readJsonFile<{ engines: MlEngine[] }>(this.file)?.engines ?? [];
  }

  list(): MlEngine[] {
    return [{ name: ENGINE_NAME, handler: ENGINE_NAME, options: [] }, ...this.engines];
  }

  find(name: string): MlEngine | undefined {
    return this.list().find((e) => e.name.toLowerCase() === name.toLowerCase());
  }

  create(e: MlEngine, ifNotExists: boolean): boolean {
    if (this.find(e.name)) {
      if (ifNotExists) return false;
      throw new ServiceError(ERROR_CODES.CONFLICT, `ML engine '${e.name}' already exists`);
    }
    if (e.handler.toLowerCase() !== ENGINE_NAME) {
      throw badInput(
        `ML handler '${e.handler}' is not supported by this instance; its one ML handler is '${ENGINE_NAME}' (CREATE ML_ENGINE ${e.name} FROM ${ENGINE_NAME})`,
      );
    }
    this.engines.push({ ...e, handler: ENGINE_NAME });
    this.save();
    return true;
  }

  drop(name: string, ifExists: boolean): boolean {
    if (name.toLowerCase() === ENGINE_NAME) {
      throw badInput(`The built-in ML engine '${ENGINE_NAME}' cannot be dropped`);
    }
    const before = this.engines.length;
    this.engines = this.engines.filter((e) => e.name.toLowerCase() !== name.toLowerCase());
    if (this.engines.length === before) {
      if (ifExists) return false;
      throw notFound(`ML engine '${name}' does not exist`);
    }
    this.save();
    return true;
  }

  private save(): void {
    writeFileAtomic(this.file, JSON.stringify({ engines: this.engines }, null, 2));
  }
}

export interface SystemEnv {
  catalog: Catalog;
  models: ModelRegistry;
  integrations: IntegrationRegistry;
  mlEngines: MlEngineStore;
}

export function systemRows(env: SystemEnv, table: SystemTable, project: string | null): Rows {
  switch (table) {
    case 'models':
    case 'models_versions':
      return { columns: MODEL_COLUMNS, rows: env.models.rows(project) };
    case 'databases':
      return {
        columns: [col('NAME'), col('TYPE'), col('ENGINE'), col('CONNECTION_DATA', 'JSON')],
        rows: env.catalog.listDatabases().map((d) => {
          const rec = env.integrations.record(d.name);
          return [d.name, d.type, d.engine, rec ? publicParams(rec.parameters) : null];
        }),
      };
    case 'ml_engines':
      return {
        columns: [col('NAME'), col('HANDLER'), col('CONNECTION_DATA', 'JSON')],
        rows: env.mlEngines
          .list()
          .map((e) => [
            e.name,
            e.handler,
            JSON.stringify({ key: e.options, value: e.options.map(() => '') }),
          ]),
      };
    case 'handlers':
      return {
        columns: [
          col('NAME'),
          col('TYPE'),
          col('TITLE'),
          col('DESCRIPTION'),
          col('VERSION'),
          col('CONNECTION_ARGS', 'JSON'),
          col('IMPORT_SUCCESS', 'BOOLEAN'),
          col('IMPORT_ERROR'),
        ],
        rows: HANDLERS,
      };
  }
}
