/**
 * Computed relations (predictions, model inputs, system tables) loaded into a request's TEMP
 * table: in order (rowids are the row positions, across DuckDB's row groups), with their types,
 * and columns without a single value (a join's unread prediction columns) are never handed to the
 * appender value by value (issue 22, item 6: writing those nulls held the event loop's thread for
 * a second beside eight model joins).
 */
import { DuckDBDataChunk } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Engine } from '../duckdb';
import { loadTempTable } from '../scratch';
import type { JsonValue } from '../values';

let engine: Engine;

beforeAll(async () => {
  engine = await Engine.open(':memory:', {
    connections: 1,
    queueLimit: 10,
    shortLane: 0,
    timeoutMs: 60_000,
    maxRows: 10,
  });
});

afterAll(async () => {
  await engine.close();
});

describe('loadTempTable', () => {
  it('keeps positions and types, and adds columns of nulls without writing them', async () => {
    // Past two of DuckDB's row groups (122,880 rows each).
    const n = 250_000;
    const columns = [
      { name: 'pos', type: 'BIGINT' as const },
      { name: 'unread', type: 'DOUBLE' as const },
      { name: 'label', type: 'VARCHAR' as const },
      { name: 'when', type: 'TIMESTAMP' as const },
      { name: 'flag', type: 'BOOLEAN' as const },
    ];
    const values: JsonValue[][] = [
      Array.from({ length: n }, (_, i) => i),
      new Array<JsonValue>(n).fill(null),
      Array.from({ length: n }, (_, i) => `r${i % 7}`),
      Array.from({ length: n }, (_, i) => (i % 3 === 0 ? '2026-11-27 08:00:00' : null)),
      new Array<JsonValue>(n).fill(null),
    ];
    const spy = vi.spyOn(DuckDBDataChunk.prototype, 'setColumnValues');
    let handed: number[] = [];
    let shape: unknown[][] = [];
    let checks: unknown[] = [];
    try {
      await engine.session(async (s) => {
        await loadTempTable(s, 'loaded', columns, values, n);
        handed = [...new Set(spy.mock.calls.map(([j]) => j))].sort();
        const desc = await s.query(
          `SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'loaded' ORDER BY column_index`,
        );
        shape = desc.rows;
        const r = await s.query(`SELECT count(*), count(*) FILTER (WHERE rowid <> pos),
          count(unread), count(flag), count("when"), count(*) FILTER (WHERE label <> 'r' || (pos % 7)),
          (SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'loaded%') FROM temp.main.loaded`);
        checks = r.rows[0];
      });
    } finally {
      spy.mockRestore();
    }
    // Only the columns with values went through the appender (`pos`, `label`, `when`, in the
    // staging table's order).
    expect(handed).toEqual([0, 1, 2]);
    expect(shape).toEqual([
      ['pos', 'BIGINT'],
      ['unread', 'DOUBLE'],
      ['label', 'VARCHAR'],
      ['when', 'TIMESTAMP'],
      ['flag', 'BOOLEAN'],
    ]);
    expect(checks.map(Number)).toEqual([n, 0, 0, 0, Math.ceil(n / 3), 0, 1]);
  });
});
