/**
 * `CREATE DATABASE x WITH ENGINE = 'duckdb', PARAMETERS = {"database": "<file>.duckdb"}`: a DuckDB
 * file inside DATA_DIR, ATTACHed under the integration's name, so DuckDB itself answers queries on
 * it (no copying, full SQL). The path check is the security boundary: the instance may run with
 * a shared DATA_DIR, and a user must not reach files outside it (`../`, absolute paths, symlinks)
 * nor re-attach the instance's own databases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, ServiceError, badInput, notFound } from '../errors';

export interface DuckDBFileParams {
  database: string;
  read_only: boolean;
}

const ALLOWED = ['database', 'read_only'];

export function validateDuckDBParams(raw: Record<string, unknown>): DuckDBFileParams {
  const unknown = Object.keys(raw).filter((k) => !ALLOWED.includes(k));
  if (unknown.length > 0) {
    throw badInput(
      `Unknown PARAMETERS for engine 'duckdb': ${unknown.join(', ')}; the parameters are: ${ALLOWED.join(', ')}`,
    );
  }
  if (raw.database === undefined || raw.database === null || raw.database === '') {
    throw badInput(
      `Missing PARAMETERS for engine 'duckdb': database (a .duckdb file inside the data directory)`,
    );
  }
  if (typeof raw.database !== 'string')
    throw badInput(`Parameter 'database' must be a string (a file name)`);
  const ro = raw.read_only ?? false;
  if (typeof ro !== 'boolean') throw badInput(`Parameter 'read_only' must be true or false`);
  return { database: raw.database, read_only: ro };
}

/** Files and folders of DATA_DIR that belong to the instance itself. */
function isOwnFile(dataDir: string, file: string): boolean {
  const parts = path.relative(dataDir, file).split(path.sep);
  if (parts[0] === 'uploads' && parts[1] === '.incoming') return true;
  return [
    'mindsdb.duckdb',
    'files.duckdb',
    'example_db.duckdb',
    'catalog.json',
    'projects',
    'models',
    'keys',
    'sessions',
  ].includes(parts[0]);
}

/**
 * Resolves `database` to a file inside DATA_DIR, following symlinks before checking, so a link
 * pointing outside is refused as well. A relative name is looked up in `uploads/` first: that is
 * where a running, sandboxed instance can attach files (engine/duckdb.ts). A file that does not
 * exist yet is created there when `create` allows it (MindsDB's DuckDB handler creates the
 * database file it is given; DuckDB's ATTACH creates it), never outside `uploads/`.
 */
export function resolveDuckDBFile(dataDir: string, database: string, create = false): string {
  if (database.includes('\0')) throw badInput(`Parameter 'database' is not a valid file name`);
  const root = fs.realpathSync(dataDir);
  const escapes = (p: string) => {
    const rel = path.relative(root, p);
    return rel === '' || rel.startsWith('..') || path.isAbsolute(rel);
  };
  const inUploads = path.resolve(root, 'uploads', database);
  const candidate =
    !path.isAbsolute(database) && !escapes(inUploads) && fs.existsSync(inUploads)
      ? inUploads
      : path.resolve(root, database);
  if (escapes(candidate)) {
    throw new ServiceError(
      ERROR_CODES.FORBIDDEN,
      `Parameter 'database' must name a DuckDB file inside the data directory; '${database}' is outside it`,
    );
  }
  if (!fs.existsSync(candidate)) {
    if (
      create &&
      !path.isAbsolute(database) &&
      !escapes(inUploads) &&
      !isOwnFile(root, inUploads)
    ) {
      const uploads = path.join(root, 'uploads');
      fs.mkdirSync(path.dirname(inUploads), { recursive: true });
      // The folder just made may not lead elsewhere through a link on the way.
      const parent = fs.realpathSync(path.dirname(inUploads));
      if (parent !== uploads && !parent.startsWith(uploads + path.sep)) {
        throw new ServiceError(
          ERROR_CODES.FORBIDDEN,
          `'${database}' would be created outside the uploads folder of the data directory`,
        );
      }
      return path.join(parent, path.basename(inUploads));
    }
    throw notFound(
      create
        ? `DuckDB file '${database}' not found; a new database file is created only under a relative name (in the uploads folder)`
        : `DuckDB file '${database}' not found in the data directory (a read-only database must exist)`,
    );
  }
  const real = fs.realpathSync(candidate);
  if (escapes(real)) {
    throw new ServiceError(
      ERROR_CODES.FORBIDDEN,
      `'${database}' links to a file outside the data directory`,
    );
  }
  if (!fs.statSync(real).isFile()) throw badInput(`'${database}' is not a file`);
  if (isOwnFile(root, real)) {
    throw badInput(
      `'${database}' is one of the instance's own databases; it is already available under its own name`,
    );
  }
  return real;
}
