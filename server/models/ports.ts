/**
 * What the model layer needs from the rest of the instance, as interfaces it owns: the names of
 * projects and databases (server/catalog's `Catalog` fits `ModelCatalog`) and the databases whose
 * data lives outside DuckDB (server/integrations' `IntegrationRegistry` fits `RemoteDataSource`).
 * server/instance.ts wires them in, so the model layer imports neither.
 */
import type { Engine } from '../engine/duckdb';
import type { JsonValue } from '../engine/values';

export interface ModelCatalog {
  /** DATA_DIR: model records and artifacts live in its `models/` folder. */
  readonly dataDir: string;
  /** DuckDB, where FROM queries on the instance's own databases run. */
  readonly engine: Engine;
  /** A project's canonical spelling, or NOT_FOUND. */
  requireProject(name: string): string;
  /** A project's canonical spelling, or undefined. */
  projectInfo(name: string): { name: string } | undefined;
  /** A database's canonical spelling and type ('system' ones run with no default database). */
  requireDatabase(name: string): { name: string; type: string };
}

/**
 * Databases whose data lives outside DuckDB (PostgreSQL integrations): a FROM query naming one
 * runs there, in its own SQL dialect (MindsDB's "native query"). DuckDB-file integrations are
 * ATTACHed, so they are DuckDB's, not this port's.
 */
export interface RemoteDataSource {
  isRemote(db: string): boolean;
  /**
   * The whole result, capped at `maxRows` (training uses it for the `LIMIT 0` check and the
   * sample's counts).
   */
  query(
    db: string,
    sql: string,
    o: { maxRows: number; timeoutMs?: number; signal?: AbortSignal },
  ): Promise<{ columns: string[]; rows: JsonValue[][] }>;
  /**
   * The rows in chunks through a server-side cursor; `onChunk` is awaited before the next chunk
   * is fetched, so memory stays bounded by one chunk. The timeout applies to each fetch.
   */
  readRows(
    db: string,
    sql: string,
    onChunk: (rows: JsonValue[][], columns: { name: string }[]) => void | Promise<void>,
    o: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<{ columns: { name: string }[] }>;
}
