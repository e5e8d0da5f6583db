/**
 * PostgreSQL integration bench: a throwaway PostgreSQL server (the tests' helper) with a 1M-row
 * table made by generate_series, read back through the chunked server-side-cursor reader the model
 * layer uses for training data, and copied into DuckDB the way a join with a local table does.
 * Reports rows/s and peak RSS growth; the point of the chunked reader is that memory stays
 * bounded by one chunk whatever the table size, so RSS growth should not scale with the rows.
 *
 * Training from an integration is timed when the model layer supports `CREATE MODEL ... FROM pg`;
 * until then only the reads are reported (a progress line says so).
 */
import { startPgServer } from '../server/integrations/__tests__/pg-server';
import { readIntegrationRows, integrationsOf } from '../server/integrations';
import { loadRemoteIntoScratch } from '../server/integrations/load';
import { dropScratchTables, scratchTable } from '../server/engine/scratch';
import { loadConfig } from '../server/config';
import { createInstance } from '../server/instance';
import { tempDataDir } from '../server/test/harness';
import fs from 'node:fs';
import { progress, type BenchLine } from './types';

/** Rows in the bench table; PG_BENCH_ROWS overrides (e.g. to check memory stays flat with 3M). */
const ROWS = Number(process.env.PG_BENCH_ROWS ?? 1_000_000);

/** Samples RSS every 20 ms while `fn` runs; returns the peak growth over the starting RSS. */
async function withPeakRss<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; peakMb: number; seconds: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peakMb: (peak - base) / 1024 / 1024, seconds: (performance.now() - t0) / 1000 };
  } finally {
    clearInterval(timer);
  }
}

export async function runPgBench(): Promise<BenchLine[]> {
  progress('starting PostgreSQL');
  const pgs = await startPgServer({ seed: false });
  const dataDir = tempDataDir();
  const instance = await createInstance(loadConfig({}, { DATA_DIR: dataDir, PORT: 0 }));
  try {
    const admin = await pgs.admin();
    progress(`loading ${ROWS.toLocaleString('en-US')} rows with generate_series`);
    try {
      await admin.query(`CREATE TABLE bench_rows AS
      SELECT g AS id, g % 100 AS k, (g::int8 * 7919 % 10007) / 10007.0::float8 AS x, md5(g::text) AS s, g % 3 = 0 AS flag,
             date '2020-01-01' + (g % 1000) AS d
      FROM generate_series(1, ${ROWS}) AS g`);
      await admin.query(`ALTER TABLE bench_rows OWNER TO ${pgs.user}`);
    } finally {
      await admin.end();
    }
    const params = JSON.stringify({
      host: pgs.host,
      port: pgs.port,
      user: pgs.user,
      password: pgs.password,
      database: pgs.database,
    });
    const created = await instance.sql.execute({
      query: `CREATE DATABASE bench_pg WITH ENGINE = 'postgres', PARAMETERS = ${params}`,
    });
    if (created.type === 'error') throw new Error(created.error_message);

    progress('reading through the chunked reader (10,000-row FETCHes)');
    let checksum = 0;
    const read = await withPeakRss(() =>
      readIntegrationRows(instance.catalog, 'bench_pg', 'SELECT * FROM bench_rows', (rows) => {
        for (const r of rows) checksum += r[1] as number;
      }),
    );
    if (read.value.rowCount !== ROWS)
      throw new Error(`read ${read.value.rowCount} rows, expected ${ROWS}`);
    const readRate = ROWS / read.seconds;
    progress(
      `read ${ROWS} rows in ${read.seconds.toFixed(2)} s, peak RSS +${read.peakMb.toFixed(0)} MB (checksum ${checksum})`,
    );

    progress('copying into DuckDB as a join does');
    const table = scratchTable('bench');
    const integ = integrationsOf(instance.catalog).postgres('bench_pg');
    const copy = await withPeakRss(() =>
      loadRemoteIntoScratch(instance.catalog.engine, integ, 'SELECT * FROM bench_rows', table, {
        timeoutMs: 600_000,
      }),
    );
    await dropScratchTables(instance.catalog.engine, [table]);
    progress(
      `copied ${copy.value} rows in ${copy.seconds.toFixed(2)} s, peak RSS +${copy.peakMb.toFixed(0)} MB`,
    );
    progress(
      'training from an integration: not timed (the model layer does not read from integrations yet)',
    );

    return [
      {
        name: 'pg: 1M-row chunked read (s)',
        value: read.seconds,
        unit: 's',
        target: 'report',
        pass: true,
      },
      {
        name: 'pg: chunked read rate',
        value: readRate,
        unit: 'rows/s',
        target: '>= 250k',
        pass: readRate >= 250_000,
      },
      {
        name: 'pg: chunked read peak RSS growth',
        value: read.peakMb,
        unit: 'MB',
        target: '<= 100',
        pass: read.peakMb <= 100,
      },
      {
        name: 'pg: 1M rows into DuckDB (join path)',
        value: ROWS / copy.seconds,
        unit: 'rows/s',
        target: '>= 100k',
        pass: ROWS / copy.seconds >= 100_000,
      },
      {
        name: 'pg: join-path copy peak RSS growth',
        value: copy.peakMb,
        unit: 'MB',
        target: '<= 300',
        pass: copy.peakMb <= 300,
      },
    ];
  } finally {
    await instance.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pgs.stop();
  }
}
