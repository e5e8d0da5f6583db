/**
 * Data sources created with `CREATE DATABASE ... WITH ENGINE = ...`: the registry that validates
 * and records them in the catalog, keeps their live connections, and answers the other layers'
 * one question: "is this database an integration, and how do I read from it?".
 *
 * Engines: `postgres` (remote: queries go to the server through `pg`) and `duckdb` (a DuckDB file
 * in DATA_DIR ATTACHed under the name, so DuckDB answers directly). Records persist in
 * catalog.json; PostgreSQL pools reopen lazily on first use after a restart.
 *
 * The model layer reads training data through its `RemoteDataSource` port (server/models/ports.ts),
 * which this registry fits: `isRemote`, `query` and the chunked `readRows`; server/instance.ts
 * hands the registry to the model registry.
 *
 * The SQL is PostgreSQL's own dialect (MindsDB's "native query": `FROM pg (SELECT ...)`).
 */
import net from 'node:net';
import type { Catalog, IntegrationRecord } from '../catalog/catalog';
import { assertValidName } from '../engine/names';
import { SHADOWING_FUNCTIONS } from '../engine/guard';
import { ERROR_CODES, ServiceError, badInput, notFound } from '../errors';
import { resolveDuckDBFile, validateDuckDBParams } from './duckdb-file';
import {
  DEFAULT_CHUNK_ROWS,
  PostgresIntegration,
  validatePostgresParams,
  type ChunkHandler,
  type RemoteColumn,
  type RemoteQueryOptions,
  type RemoteResult,
} from './postgres';

export { type ChunkHandler, type RemoteColumn } from './postgres';

const ENGINES = ['postgres', 'duckdb'] as const;
type IntegrationEngine = (typeof ENGINES)[number];

/** Engine aliases MindsDB users write. */
const ENGINE_ALIASES: Record<string, IntegrationEngine> = {
  postgres: 'postgres',
  postgresql: 'postgres',
  duckdb: 'duckdb',
};

/** The integration engine `name` (MindsDB's spelling) stands for; unknown ones are refused. */
export function integrationEngine(name: string): IntegrationEngine {
  const engine = ENGINE_ALIASES[name.toLowerCase()];
  if (!engine) {
    throw notFound(
      `Unknown engine '${name}': the '${name}' integration is not supported by this instance; it supports: ${ENGINES.join(', ')}`,
    );
  }
  return engine;
}

/** DuckDB catalog names an ATTACH cannot use, and names the instance keeps for itself. */
const RESERVED = [
  'memory',
  'system',
  'temp',
  'main',
  '__scratch',
  'files',
  'example_db',
  'information_schema',
  'mindsdb',
];

export interface CreateIntegrationSpec {
  name: string;
  engine: string;
  parameters: Record<string, unknown>;
  ifNotExists?: boolean;
}

export interface IntegrationDefaults {
  timeoutMs: number;
  maxRows: number;
  /** INTEGRATION_HOSTS: hosts PostgreSQL integrations may connect to; empty: any. */
  allowedHosts?: readonly string[];
}

/**
 * Whether `host` (as written in PARAMETERS) is on the allow-list: a name (case-insensitive), a
 * `*.domain` wildcard, an IP address, or a CIDR range for IP-address hosts. An empty list allows
 * every host.
 */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  const ipVersion = net.isIP(h);
  for (const raw of allowed) {
    const a = raw.trim().toLowerCase();
    if (a === h) return true;
    if (a.startsWith('*.') && !ipVersion && h.endsWith(a.slice(1))) return true;
    const cidr = /^(.+)\/(\d{1,3})$/.exec(a);
    if (cidr && ipVersion && net.isIP(cidr[1]) === ipVersion) {
      const list = new net.BlockList();
      list.addSubnet(cidr[1], Number(cidr[2]), ipVersion === 4 ? 'ipv4' : 'ipv6');
      if (list.check(h, ipVersion === 4 ? 'ipv4' : 'ipv6')) return true;
    }
  }
  return false;
}

export class IntegrationRegistry {
  private readonly live = new Map<string, PostgresIntegration>();

  constructor(
    readonly catalog: Catalog,
    readonly defaults: IntegrationDefaults,
  ) {}

  /** Re-attaches DuckDB-file integrations after a restart (PostgreSQL reconnects lazily). */
  async restore(onError: (name: string, err: Error) => void = () => undefined): Promise<void> {
    for (const rec of this.catalog.listIntegrations()) {
      if (rec.unreadable) {
        onError(rec.name, new Error(rec.unreadable));
        continue;
      }
      if (rec.engine !== 'duckdb') continue;
      try {
        await this.attachDuckDB(rec.name, rec.parameters);
      } catch (err) {
        onError(rec.name, err as Error);
      }
    }
  }

  private checkHost(name: string, host: string): void {
    if (!hostAllowed(host, this.defaults.allowedHosts ?? [])) {
      throw new ServiceError(
        ERROR_CODES.FORBIDDEN,
        `Integration '${name}' may not connect to '${host}': it is not in INTEGRATION_HOSTS`,
      );
    }
  }

  record(name: string): IntegrationRecord | undefined {
    return this.catalog.integration(name);
  }

  /** True for integrations whose data lives outside DuckDB (queries must go to the server). */
  isRemote(db: string): boolean {
    return this.record(db)?.engine === 'postgres';
  }

  /**
   * Validates the parameters, connects (PostgreSQL) or attaches (DuckDB file), and only then
   * records the integration, so a failed check leaves nothing behind.
   */
  create(spec: CreateIntegrationSpec): Promise<void> {
    // One change of the database list at a time: two CREATE DATABASE of one name cannot both pass.
    return this.catalog.changeDatabases(() => this.createNow(spec));
  }

  private async createNow(spec: CreateIntegrationSpec): Promise<void> {
    assertValidName('database', spec.name);
    const engine = integrationEngine(spec.engine);
    if (this.catalog.databaseInfo(spec.name)) {
      if (spec.ifNotExists) return;
      throw new ServiceError(ERROR_CODES.CONFLICT, `Database '${spec.name}' already exists`);
    }
    if (RESERVED.includes(spec.name.toLowerCase())) {
      throw badInput(`'${spec.name}' is a reserved database name; choose another`);
    }
    let parameters: Record<string, unknown>;
    if (engine === 'postgres') {
      const params = validatePostgresParams(spec.parameters);
      this.checkHost(spec.name, params.host);
      const integ = new PostgresIntegration(spec.name, params);
      try {
        await integ.check();
      } catch (err) {
        await integ.close();
        throw err;
      }
      this.live.set(spec.name.toLowerCase(), integ);
      parameters = { ...params };
    } else {
      const params = validateDuckDBParams(spec.parameters);
      await this.attachDuckDB(spec.name, { ...params }, true);
      parameters = { ...params };
    }
    try {
      this.catalog.addIntegration({
        name: spec.name,
        engine,
        parameters,
        created_at: new Date().toISOString(),
      });
    } catch (err) {
      this.live.delete(spec.name.toLowerCase());
      if (engine === 'duckdb') await this.catalog.engine.detach(spec.name).catch(() => undefined);
      throw err;
    }
  }

  drop(name: string, ifExists = false): Promise<void> {
    return this.catalog.changeDatabases(() => this.dropNow(name, ifExists));
  }

  private async dropNow(name: string, ifExists: boolean): Promise<void> {
    const rec = this.record(name);
    if (!rec) {
      // IF EXISTS does not make a built-in database droppable: it exists.
      const info = this.catalog.databaseInfo(name);
      if (info)
        throw badInput(`Database '${info.name}' is built into the instance and cannot be dropped`);
      if (ifExists) return;
      throw notFound(`Database '${name}' does not exist`);
    }
    if (rec.engine === 'duckdb') await this.catalog.engine.detach(rec.name);
    const integ = this.live.get(rec.name.toLowerCase());
    this.live.delete(rec.name.toLowerCase());
    this.catalog.removeIntegration(rec.name);
    await integ?.close();
  }

  /** The live PostgreSQL integration for a database name (opened on first use). */
  postgres(db: string): PostgresIntegration {
    const rec = this.record(db);
    if (!rec) throw notFound(`Database '${db}' does not exist`);
    if (rec.engine !== 'postgres')
      throw badInput(`Database '${rec.name}' is not a PostgreSQL integration`);
    if (rec.unreadable)
      throw new ServiceError(ERROR_CODES.BAD_INPUT, `Integration '${rec.name}': ${rec.unreadable}`);
    const key = rec.name.toLowerCase();
    let integ = this.live.get(key);
    if (!integ) {
      const params = validatePostgresParams(rec.parameters);
      this.checkHost(rec.name, params.host);
      integ = new PostgresIntegration(rec.name, params);
      this.live.set(key, integ);
    }
    return integ;
  }

  /** Runs native SQL on a remote integration with the row cap and statement timeout. */
  async query(db: string, sql: string, o: Partial<RemoteQueryOptions> = {}): Promise<RemoteResult> {
    return this.postgres(db).query(sql, {
      ...o,
      maxRows: o.maxRows ?? this.defaults.maxRows,
      timeoutMs: o.timeoutMs ?? this.defaults.timeoutMs,
    });
  }

  /**
   * Reads the rows of native SQL on a remote integration in chunks of `chunkRows` (default 10,000)
   * through a server-side cursor; `onChunk` is awaited before the next chunk is fetched, so memory
   * stays bounded by one chunk. The timeout applies to each fetch. Returns the columns (name and
   * PostgreSQL type OID) and the number of rows read.
   */
  async readRows(
    db: string,
    sql: string,
    onChunk: ChunkHandler,
    o: { chunkRows?: number; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<{ columns: RemoteColumn[]; rowCount: number }> {
    return this.postgres(db).readRows(sql, onChunk, {
      chunkRows: o.chunkRows ?? DEFAULT_CHUNK_ROWS,
      timeoutMs: o.timeoutMs ?? this.defaults.timeoutMs,
      signal: o.signal,
    });
  }

  /** Tables of a remote integration's schema (SHOW TABLES); null for any other database. */
  async listTables(db: string): Promise<{ name: string; type: string }[] | null> {
    if (!this.isRemote(db)) return null;
    return this.postgres(db).listTables(this.defaults.timeoutMs);
  }

  async close(): Promise<void> {
    const all = [...this.live.values()];
    this.live.clear();
    await Promise.all(all.map((i) => i.close()));
  }

  /**
   * Attaches a DuckDB file. A file that defines macros named like built-in functions is refused:
   * with it as the current database, `round` or `upper` would mean its macro for every client.
   */
  private async attachDuckDB(
    name: string,
    raw: Record<string, unknown>,
    /** CREATE DATABASE may create a missing file (in uploads/); a restart re-attaches only. */
    create = false,
  ): Promise<void> {
    const params = validateDuckDBParams(raw);
    const file = resolveDuckDBFile(
      this.catalog.dataDir,
      params.database,
      create && !params.read_only,
    );
    const engine = this.catalog.engine;
    try {
      await engine.attach({ name, path: file, readOnly: params.read_only });
    } catch (err) {
      if (err instanceof ServiceError && err.code === ERROR_CODES.FORBIDDEN) throw err;
      const msg = err instanceof Error ? err.message : String(err);
      throw badInput(`Cannot attach DuckDB file '${params.database}' as '${name}': ${msg}`);
    }
    const shadowing = await engine.rows(
      `SELECT schema_name, function_name FROM (${SHADOWING_FUNCTIONS}) WHERE database_name = $db`,
      { db: name },
    );
    if (shadowing.length > 0) {
      await engine.detach(name);
      throw new ServiceError(
        ERROR_CODES.FORBIDDEN,
        `DuckDB file '${params.database}' defines macros named like built-in functions (${shadowing.map((r) => r.join('.')).join(', ')}); they would change those functions for every client`,
      );
    }
  }
}
