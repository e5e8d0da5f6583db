/**
 * Reading the data a monitoring view compares, where it lives: its columns, its counts over the
 * drift bins and a deterministic sample of its rows. On DuckDB (the instance's databases) the
 * engine counts in one statement and keeps a top-N heap for the sample, so memory stays bounded
 * by the bins and the sample whatever the query returns; on an integration (PostgreSQL) the rows
 * stream through the same binning in memory, one chunk at a time. The user's query runs as a
 * client statement (guarded, one statement, the statement timeout).
 */
import crypto from 'node:crypto';
import type { CellValue } from '../../automl/index';
import type { JsonValue } from '../../engine/values';
import { ServiceError } from '../../errors';
import type { ModelCatalog, RemoteDataSource } from '../ports';
import { addCells, emptyBinned, type BinnedColumn } from './bins';
import { driftCountSql, readDriftCounts, sampleSql, type SqlColumn } from './sql';

export interface QuerySource {
  /** The database the query runs in. */
  db: string;
  query: string;
}

/** Columns of sampled rows, keyed by the source's column names. */
export interface Sample {
  columns: Record<string, CellValue[]>;
  n: number;
}

export interface DataAccess {
  catalog: ModelCatalog;
  remote: RemoteDataSource;
}

/** How long one monitoring query may run (the same bound as a training FROM query). */
const QUERY_TIMEOUT_MS = 10 * 60_000;

/** Names a failure as the query's, so the user knows which text to fix. */
function queryFailed(err: unknown, what: string): never {
  if (err instanceof ServiceError) {
    throw new ServiceError(
      err.code,
      `${what} failed: ${err.message.replace(/ \(line \d+, column \d+\)$/, '')}`,
      err.httpStatus,
    );
  }
  throw err;
}

/** The DuckDB catalog a query runs in (none for system databases). */
function engineDb(a: DataAccess, db: string): string | undefined {
  const info = a.catalog.requireDatabase(db);
  return info.type === 'system' ? undefined : info.name;
}

/** The query's column names and, on DuckDB, their types, without reading its rows. */
export async function queryColumns(
  a: DataAccess,
  src: QuerySource,
  what: string,
): Promise<{ names: string[]; types: (string | undefined)[] }> {
  const sql = `SELECT * FROM (\n${src.query}\n) AS __today LIMIT 0`;
  try {
    if (a.remote.isRemote(src.db)) {
      const names = (await a.remote.query(src.db, sql, { maxRows: 0 })).columns;
      return { names, types: names.map(() => undefined) };
    }
    const r = await a.catalog.engine.query(sql, {
      db: engineDb(a, src.db),
      maxRows: 0,
      timeoutMs: QUERY_TIMEOUT_MS,
    });
    return { names: r.columns, types: r.types };
  } catch (err) {
    return queryFailed(err, what);
  }
}

const toSample = (names: readonly string[], rows: readonly JsonValue[][]): Sample => {
  const columns: Record<string, CellValue[]> = {};
  names.forEach((c, j) => (columns[c] = rows.map((r) => r[j] as CellValue)));
  return { columns, n: rows.length };
};

/** A row's place in the deterministic sample (the same rule as DuckDB's hash order, not its value). */
const rowHash = (row: readonly JsonValue[]) =>
  crypto.createHash('sha1').update(JSON.stringify(row)).digest().readUInt32BE(0);

/**
 * The counts of `columns` over all rows of the query and a sample of at most `sampleSize` rows
 * of `sampled` (source column names). On DuckDB the count runs while the sample is read and
 * `withSample` works on it (the engine counts in its own threads; predicting the sample is most
 * of the JavaScript's share), so the answer takes the longer of the two, not their sum.
 */
export async function countAndSample<T>(
  a: DataAccess,
  src: QuerySource,
  columns: readonly SqlColumn[],
  sampled: readonly string[],
  sampleSize: number,
  what: string,
  withSample: (sample: Sample) => T,
): Promise<{ n: number; counts: BinnedColumn[]; sample: Sample; derived: T }> {
  try {
    if (a.remote.isRemote(src.db)) {
      const r = await remoteCountAndSample(a, src, columns, sampled, sampleSize);
      return { ...r, derived: withSample(r.sample) };
    }
    const db = engineDb(a, src.db);
    const counting = a.catalog.engine.query(driftCountSql(columns, src.query), {
      db,
      maxRows: 1,
      timeoutMs: QUERY_TIMEOUT_MS,
    });
    // Its failure is awaited below; until then it must not count as unhandled.
    counting.catch(() => undefined);
    let sample: Sample = { columns: {}, n: 0 };
    if (sampled.length > 0 && sampleSize > 0) {
      const s = await a.catalog.engine.query(sampleSql(sampled, src.query, sampleSize), {
        db,
        maxRows: sampleSize,
        timeoutMs: QUERY_TIMEOUT_MS,
      });
      sample = toSample(sampled, s.rows);
    }
    const derived = withSample(sample);
    const counted = await counting;
    const { n, columns: counts } = readDriftCounts(columns, counted.columns, counted.rows[0]);
    return { n, counts, sample, derived };
  } catch (err) {
    return queryFailed(err, what);
  }
}

/** The same on an integration: the rows stream through the in-memory binning chunk by chunk. */
async function remoteCountAndSample(
  a: DataAccess,
  src: QuerySource,
  columns: readonly SqlColumn[],
  sampled: readonly string[],
  sampleSize: number,
) {
  const counts = columns.map((c) => emptyBinned(c.bins));
  let n = 0;
  let kept: { h: number; row: JsonValue[] }[] = [];
  await a.remote.readRows(
    src.db,
    src.query,
    (chunk, cols) => {
      const names = cols.map((c) => c.name);
      n += chunk.length;
      columns.forEach((c, i) => {
        const j = c.source === null ? -1 : names.indexOf(c.source);
        if (j < 0) {
          counts[i].counts[counts[i].counts.length - 1] += chunk.length;
          return;
        }
        addCells(
          c.bins,
          chunk.map((r) => r[j]),
          counts[i],
        );
      });
      const idx = sampled.map((s) => names.indexOf(s));
      for (const r of chunk) {
        const row = idx.map((j) => (j < 0 ? null : r[j]));
        kept.push({ h: rowHash(row), row });
      }
      if (kept.length > 2 * sampleSize) kept = smallest(kept, sampleSize);
    },
    { timeoutMs: QUERY_TIMEOUT_MS },
  );
  kept = smallest(kept, sampleSize);
  return {
    n,
    counts,
    sample: toSample(
      sampled,
      kept.map((k) => k.row),
    ),
  };
}

function smallest<T extends { h: number }>(xs: T[], k: number): T[] {
  return xs.sort((x, y) => x.h - y.h).slice(0, k);
}

/** A deterministic sample of a query's rows (the reference when a version kept none). */
export async function querySample(
  a: DataAccess,
  src: QuerySource,
  sampleSize: number,
  what: string,
): Promise<Sample> {
  const { names } = await queryColumns(a, src, what);
  return (await countAndSample(a, src, [], names, sampleSize, what, () => null)).sample;
}
