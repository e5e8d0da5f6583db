/**
 * The instance's catalog of databases: which DuckDB files are attached under which names, which
 * of them are projects (where models and views live), and the integrations created with
 * `CREATE DATABASE`. Persisted as `catalog.json` in DATA_DIR with atomic writes; DuckDB holds
 * the data itself.
 *
 * Names map one-to-one onto DuckDB catalogs: the main file `mindsdb.duckdb` is the default
 * project `mindsdb`, `files.duckdb` holds uploads, `example_db.duckdb` the demo data, and every
 * other project is `projects/<name>.duckdb`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Engine, type EngineOptions } from '../engine/duckdb';
import { ERROR_CODES, ServiceError, notFound } from '../errors';
import { assertValidName } from '../engine/names';
import { quoteIdent, quoteString } from '../engine/quote';
import { readJsonFile, sweepTempFiles, writeFileAtomic } from '../engine/atomic';

export const DEFAULT_PROJECT = 'mindsdb';
const SYSTEM_DATABASES = ['information_schema'] as const;

export type DatabaseType = 'system' | 'project' | 'data';

export interface DatabaseInfo {
  name: string;
  type: DatabaseType;
  engine: string | null;
}

export interface IntegrationRecord {
  name: string;
  engine: string;
  /** Connection parameters; secrets are never returned by listings. */
  parameters: Record<string, unknown>;
  created_at: string;
}

interface CatalogFile {
  version: 1;
  projects: { name: string; created_at: string }[];
  integrations: IntegrationRecord[];
}

export class Catalog {
  private state: CatalogFile;
  private readonly file: string;

  private constructor(
    readonly dataDir: string,
    readonly engine: Engine,
  ) {
    this.file = path.join(dataDir, 'catalog.json');
    this.state = readJsonFile<CatalogFile>(this.file) ?? {
      version: 1,
      projects: [{ name: DEFAULT_PROJECT, created_at: new Date().toISOString() }],
      integrations: [],
    };
  }

  /** Opens DATA_DIR: the main DuckDB file, the attached databases, the catalog file. */
  static async open(dataDir: string, engineOpts: EngineOptions): Promise<Catalog> {
    fs.mkdirSync(path.join(dataDir, 'projects'), { recursive: true });
    sweepTempFiles(dataDir);
    const engine = await Engine.open(path.join(dataDir, `${DEFAULT_PROJECT}.duckdb`), engineOpts);
    const catalog = new Catalog(dataDir, engine);
    await catalog.attach('example_db', path.join(dataDir, 'example_db.duckdb'));
    await catalog.attach('files', path.join(dataDir, 'files.duckdb'));
    for (const p of catalog.state.projects) {
      if (p.name !== DEFAULT_PROJECT) await catalog.attach(p.name, catalog.projectFile(p.name));
    }
    catalog.save();
    return catalog;
  }

  private projectFile(name: string) {
    return path.join(this.dataDir, 'projects', `${name}.duckdb`);
  }

  private async attach(name: string, file: string) {
    await this.engine.exec(`ATTACH IF NOT EXISTS ${quoteString(file)} AS ${quoteIdent(name)}`);
  }

  private save() {
    writeFileAtomic(this.file, JSON.stringify(this.state, null, 2));
  }

  listProjects(): string[] {
    return this.state.projects.map((p) => p.name);
  }

  projectInfo(name: string) {
    return this.state.projects.find((p) => p.name.toLowerCase() === name.toLowerCase());
  }

  isProject(name: string): boolean {
    return !!this.projectInfo(name);
  }

  /** Resolves a project name case-insensitively, or throws NOT_FOUND. */
  requireProject(name: string): string {
    const p = this.projectInfo(name);
    if (!p) throw notFound(`Project '${name}' does not exist`);
    return p.name;
  }

  async createProject(name: string, ifNotExists = false): Promise<void> {
    assertValidName('project', name);
    if (this.databaseInfo(name)) {
      if (ifNotExists) return;
      throw new ServiceError(ERROR_CODES.CONFLICT, `Database '${name}' already exists`);
    }
    await this.attach(name, this.projectFile(name));
    this.state.projects.push({ name, created_at: new Date().toISOString() });
    this.save();
  }

  async dropProject(name: string, ifExists = false): Promise<void> {
    const p = this.projectInfo(name);
    if (!p) {
      if (ifExists) return;
      throw notFound(`Project '${name}' does not exist`);
    }
    if (p.name === DEFAULT_PROJECT) {
      throw new ServiceError(
        ERROR_CODES.BAD_INPUT,
        `The default project '${DEFAULT_PROJECT}' cannot be dropped`,
      );
    }
    for (const hook of this.dropProjectHooks) await hook(p.name);
    await this.engine.exec(`DETACH ${quoteIdent(p.name)}`);
    this.state.projects = this.state.projects.filter((x) => x !== p);
    this.save();
    fs.rmSync(this.projectFile(p.name), { force: true });
    fs.rmSync(`${this.projectFile(p.name)}.wal`, { force: true });
  }

  /** Called before a project is dropped (the model layer removes its models). */
  readonly dropProjectHooks: ((project: string) => Promise<void>)[] = [];

  listIntegrations(): IntegrationRecord[] {
    return this.state.integrations;
  }

  integration(name: string): IntegrationRecord | undefined {
    return this.state.integrations.find((i) => i.name.toLowerCase() === name.toLowerCase());
  }

  addIntegration(rec: IntegrationRecord): void {
    this.state.integrations.push(rec);
    this.save();
  }

  removeIntegration(name: string): void {
    this.state.integrations = this.state.integrations.filter(
      (i) => i.name.toLowerCase() !== name.toLowerCase(),
    );
    this.save();
  }

  /** Every database a user can name, in the order the real service lists them. */
  listDatabases(): DatabaseInfo[] {
    return [
      ...SYSTEM_DATABASES.map((name) => ({ name, type: 'system' as const, engine: null })),
      ...this.state.projects.map((p) => ({ name: p.name, type: 'project' as const, engine: null })),
      { name: 'files', type: 'data' as const, engine: 'files' },
      { name: 'example_db', type: 'data' as const, engine: 'duckdb' },
      ...this.state.integrations.map((i) => ({
        name: i.name,
        type: 'data' as const,
        engine: i.engine,
      })),
    ];
  }

  databaseInfo(name: string): DatabaseInfo | undefined {
    const lower = name.toLowerCase();
    return this.listDatabases().find((d) => d.name.toLowerCase() === lower);
  }

  /** Resolves a database name case-insensitively to its canonical spelling, or throws NOT_FOUND. */
  requireDatabase(name: string): DatabaseInfo {
    const d = this.databaseInfo(name);
    if (!d) {
      throw notFound(
        `Database '${name}' does not exist; databases are: ${this.listDatabases()
          .map((x) => x.name)
          .join(', ')}`,
      );
    }
    return d;
  }

  async close(): Promise<void> {
    await this.engine.close();
  }
}
