/**
 * The instance's catalog of databases: which DuckDB files are attached under which names, which
 * of them are projects (where models and views live), and the integrations created with
 * `CREATE DATABASE`. Persisted as `catalog.json` in DATA_DIR with atomic writes (integration
 * parameters encrypted, see secrets.ts); DuckDB holds the data itself.
 *
 * Names map one-to-one onto DuckDB catalogs: the main file `mindsdb.duckdb` is the default
 * project `mindsdb`, `files.duckdb` holds uploads, `example_db.duckdb` the demo data, and every
 * other project is `projects/<name>.duckdb`.
 *
 * DATA_DIR layout (folders 0700, files 0600): `uploads/` and `exports/` are the only folders SQL
 * may read and write (with the default sandbox); everything else is the instance's own and
 * closed to SQL: the DuckDB files (readable only as DuckDB keeps open ones reachable, never
 * writable: engine/guard.ts), `projects/`, `models/`, `catalog.json`, `keys/` (the key that
 * encrypts integration secrets) and `sessions/` (revoked session tokens).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Engine, type EngineOptions } from '../engine/duckdb';
import { SHADOWING_FUNCTIONS } from '../engine/guard';
import { ERROR_CODES, ServiceError, notFound } from '../errors';
import { assertValidName } from '../engine/names';
import { quoteIdent } from '../engine/quote';
import {
  ensureDir,
  readJsonFile,
  restrictModes,
  sweepTempFiles,
  writeFileAtomic,
} from '../engine/atomic';
import { SecretBox, isSealed, type Sealed } from './secrets';

/** The folders of DATA_DIR that SQL may use (reads and writes) under the default sandbox. */
export const SQL_FOLDERS = ['uploads', 'exports'] as const;

export const DEFAULT_PROJECT = 'mindsdb';
const SYSTEM_DATABASES = ['information_schema'] as const;

type DatabaseType = 'system' | 'project' | 'data';

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
  /** Why the stored parameters cannot be read (a changed AUTH_SECRET, a lost key file). */
  unreadable?: string;
}

/** An integration as catalog.json stores it: parameters sealed. */
interface StoredIntegration {
  name: string;
  engine: string;
  parameters: Sealed | Record<string, unknown>;
  created_at: string;
}

interface CatalogFile {
  version: 1;
  projects: { name: string; created_at: string }[];
  integrations: StoredIntegration[];
}

export interface CatalogOptions {
  /** Derives the key that encrypts integration secrets (else DATA_DIR/keys/secrets.key). */
  authSecret?: string;
  /** A database that could not be attached at start. */
  onMountError?: (name: string, err: Error) => void;
}

export class Catalog {
  private state: {
    projects: CatalogFile['projects'];
    integrations: (IntegrationRecord & { sealed?: Sealed })[];
  };
  private readonly file: string;
  private readonly box: SecretBox;
  /** Serialises changes of the database list (CREATE/DROP PROJECT, integrations). */
  private changes: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly dataDir: string,
    readonly engine: Engine,
    opts: CatalogOptions,
  ) {
    this.file = path.join(dataDir, 'catalog.json');
    this.box = new SecretBox(path.join(dataDir, 'keys', 'secrets.key'), opts.authSecret);
    const stored = readJsonFile<CatalogFile>(this.file);
    this.state = {
      projects: stored?.projects ?? [
        { name: DEFAULT_PROJECT, created_at: new Date().toISOString() },
      ],
      integrations: (stored?.integrations ?? []).map((i) => this.unseal(i)),
    };
  }

  private unseal(i: StoredIntegration): IntegrationRecord & { sealed?: Sealed } {
    if (!isSealed(i.parameters)) return { ...i, parameters: i.parameters };
    try {
      return { ...i, parameters: this.box.open(i.parameters) as Record<string, unknown> };
    } catch (err) {
      return {
        ...i,
        parameters: {},
        sealed: i.parameters,
        unreadable: `its stored connection parameters cannot be decrypted: ${(err as Error).message}. Drop it and create it again`,
      };
    }
  }

  /**
   * Opens DATA_DIR: the main DuckDB file, the attached databases, the catalog file. An existing
   * DATA_DIR of an older version is brought up to date: modes tightened, integration parameters
   * encrypted, macros that shadow built-in functions dropped.
   */
  static async open(
    dataDir: string,
    engineOpts: EngineOptions,
    opts: CatalogOptions = {},
  ): Promise<Catalog> {
    ensureDir(dataDir);
    restrictModes(dataDir);
    for (const d of ['projects', ...SQL_FOLDERS]) ensureDir(path.join(dataDir, d));
    sweepTempFiles(dataDir);
    const engine = await Engine.open(path.join(dataDir, `${DEFAULT_PROJECT}.duckdb`), engineOpts);
    const catalog = new Catalog(dataDir, engine, opts);
    await engine.attach({ name: 'example_db', path: path.join(dataDir, 'example_db.duckdb') });
    await engine.attach({ name: 'files', path: path.join(dataDir, 'files.duckdb') });
    for (const p of catalog.state.projects) {
      if (p.name === DEFAULT_PROJECT) continue;
      try {
        await engine.attach({ name: p.name, path: catalog.projectFile(p.name) });
      } catch (err) {
        opts.onMountError?.(p.name, err as Error);
      }
    }
    await catalog.dropShadowingMacros((m) => opts.onMountError?.(m, new Error('dropped')));
    const stored = readJsonFile<CatalogFile>(catalog.file);
    // First start, or an older catalog with parameters in clear: write it (sealed) now. A full
    // disk must not stop the instance from starting on what it has.
    if (!stored || stored.integrations.some((i) => !isSealed(i.parameters))) {
      try {
        catalog.save();
      } catch (err) {
        if (stored) opts.onMountError?.('catalog.json', err as Error);
        else throw err;
      }
    }
    return catalog;
  }

  /**
   * Drops user macros named like DuckDB built-ins (left by a version that allowed them): they
   * changed those functions for every client. New ones are refused (engine/guard.ts).
   */
  private async dropShadowingMacros(report: (what: string) => void): Promise<void> {
    const rows = await this.engine.rows(
      `SELECT DISTINCT s.database_name, s.schema_name, s.function_name, f.function_type
       FROM (${SHADOWING_FUNCTIONS}) s JOIN duckdb_functions() f
         ON f.database_name = s.database_name AND f.schema_name = s.schema_name
        AND f.function_name = s.function_name AND NOT f.internal`,
    );
    for (const [db, schema, name, type] of rows.map((r) => r.map(String))) {
      const what = `${quoteIdent(db)}.${quoteIdent(schema)}.${quoteIdent(name)}`;
      try {
        await this.engine.exec(
          `DROP MACRO ${type === 'table_macro' ? 'TABLE ' : ''}IF EXISTS ${what}`,
        );
        report(`macro ${db}.${schema}.${name} (it shadowed a built-in function)`);
      } catch {
        // a read-only database: the guard still stops it from spreading
      }
    }
  }

  private projectFile(name: string) {
    return path.join(this.dataDir, 'projects', `${name}.duckdb`);
  }

  /** Runs changes of the database list one at a time. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.changes.then(fn);
    this.changes = run.catch(() => undefined);
    return run;
  }

  private save() {
    const body: CatalogFile = {
      version: 1,
      projects: this.state.projects,
      integrations: this.state.integrations.map((i) => ({
        name: i.name,
        engine: i.engine,
        parameters: i.sealed ?? this.box.seal(i.parameters),
        created_at: i.created_at,
      })),
    };
    writeFileAtomic(this.file, JSON.stringify(body, null, 2));
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

  /**
   * Creates a project. Concurrent creations of one name run one after the other, so exactly one
   * succeeds and the others find it existing. A project file left by an interrupted earlier
   * attempt is replaced. Nothing is recorded unless the file is attached.
   */
  createProject(name: string, ifNotExists = false): Promise<void> {
    assertValidName('project', name);
    return this.serial(async () => {
      if (this.databaseInfo(name)) {
        if (ifNotExists) return;
        throw new ServiceError(ERROR_CODES.CONFLICT, `Database '${name}' already exists`);
      }
      const file = this.projectFile(name);
      const removeFiles = () => {
        fs.rmSync(file, { force: true });
        fs.rmSync(`${file}.wal`, { force: true });
      };
      removeFiles();
      try {
        await this.engine.attach({ name, path: file });
      } catch (err) {
        // A full disk, most likely: leave no half-made project file behind.
        removeFiles();
        throw err;
      }
      this.state.projects.push({ name, created_at: new Date().toISOString() });
      try {
        this.save();
      } catch (err) {
        this.state.projects.pop();
        await this.engine.detach(name).catch(() => undefined);
        removeFiles();
        throw err;
      }
    });
  }

  /**
   * Drops a project. Like MindsDB, a project that still holds models or views is refused unless
   * `cascade` (the caller's explicit intent) says to drop them with it; its tables go with it.
   */
  dropProject(name: string, ifExists = false, cascade = false): Promise<void> {
    return this.serial(async () => {
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
      if (!cascade) {
        const held = this.projectContents.flatMap((f) => f(p.name));
        const views = await this.engine.rows(
          `SELECT table_name FROM information_schema.tables WHERE table_catalog = $db AND table_type = 'VIEW' ORDER BY 1`,
          { db: p.name },
        );
        held.push(...views.map((v) => `view '${p.name}.${String(v[0])}'`));
        if (held.length > 0) {
          throw new ServiceError(
            ERROR_CODES.CONFLICT,
            `Project '${p.name}' can not be deleted, because it contains: ${held.join(', ')}; drop them first`,
          );
        }
      }
      for (const hook of this.dropProjectHooks) await hook(p.name);
      await this.engine.detach(p.name);
      this.state.projects = this.state.projects.filter((x) => x !== p);
      this.save();
      fs.rmSync(this.projectFile(p.name), { force: true });
      fs.rmSync(`${this.projectFile(p.name)}.wal`, { force: true });
    });
  }

  /** Called before a project is dropped (the model layer removes its models). */
  readonly dropProjectHooks: ((project: string) => Promise<void>)[] = [];
  /** What a project holds that a plain DROP PROJECT must not remove silently (models). */
  readonly projectContents: ((project: string) => string[])[] = [];

  listIntegrations(): IntegrationRecord[] {
    return this.state.integrations;
  }

  integration(name: string): IntegrationRecord | undefined {
    return this.state.integrations.find((i) => i.name.toLowerCase() === name.toLowerCase());
  }

  /** Runs a change of the integrations one at a time with project changes. */
  changeDatabases<T>(fn: () => Promise<T>): Promise<T> {
    return this.serial(fn);
  }

  addIntegration(rec: IntegrationRecord): void {
    this.state.integrations.push(rec);
    try {
      this.save();
    } catch (err) {
      this.state.integrations.pop();
      throw err;
    }
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
