// The SQL form of the drift bins counts what the in-memory form counts, on the same cells, in the
// real DuckDB (through the engine, so the histogram's JSON shape is the one the service reads).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/duckdb';
import { binCells, categoryBins, numericBins, type DriftBins } from '../bins';
import { driftCountSql, readDriftCounts, sampleSql, type SqlColumn } from '../sql';

let engine: Engine;

beforeAll(async () => {
  engine = await Engine.open(':memory:', {
    connections: 2,
    queueLimit: 8,
    timeoutMs: 30_000,
    maxRows: 100_000,
  });
  await engine.exec(`CREATE TABLE today (
    price DOUBLE, rooms VARCHAR, city VARCHAR, flag BOOLEAN, code INTEGER, other INTEGER)`);
  await engine.exec(`INSERT INTO today VALUES
    (10, '1', 'Paris', true, 1, 0), (20.5, '2', ' Paris ', false, 2, 0), (NULL, ' 3 ', 'Lyon', NULL, 3, 0),
    (5, 'x', '', true, 7, 0), ('nan', NULL, 'Nice', false, 1, 0), (1000, '2', NULL, true, 2, 0),
    (-3, '0007', 'Brest', true, 4, 0), (20.5, '', 'Brest', false, 1, 0), ('inf', '1.0', 'Lyon', true, 2, 0)`);
});

afterAll(() => engine.close());

const cells: Record<string, unknown[]> = {
  price: [10, 20.5, null, 5, NaN, 1000, -3, 20.5, Infinity],
  rooms: ['1', '2', ' 3 ', 'x', null, '2', '0007', '', '1.0'],
  city: ['Paris', ' Paris ', 'Lyon', '', 'Nice', null, 'Brest', 'Brest', 'Lyon'],
  flag: [true, false, null, true, false, true, true, false, true],
  code: [1, 2, 3, 7, 1, 2, 4, 1, 2],
};

describe('drift counts in SQL', () => {
  const bins: DriftBins[] = [
    numericBins('price', [0, 5, 10, 15, 20, 25, 30], { min: 0, max: 30 }),
    // Rooms are number-kind categories kept as text in today's table.
    categoryBins('rooms', 'number', ['1', '2', '2', '3'], ['1', '2', '3', '4']),
    categoryBins('city', 'string', ['Paris', 'Paris', 'Lyon'], ['Paris', 'Lyon', 'Nice']),
    categoryBins('flag', 'boolean', ['true', 'false'], ['true', 'false']),
    numericBins('code', [1, 1, 2, 2, 3, 3]),
  ];

  it('counts each bin as the in-memory binning does', async () => {
    const columns: SqlColumn[] = bins.map((b) => ({ bins: b, source: b.column }));
    const r = await engine.query(driftCountSql(columns, 'SELECT * FROM today'));
    const got = readDriftCounts(columns, r.columns, r.rows[0]);
    expect(got.n).toBe(9);
    bins.forEach((b, i) => {
      const mem = binCells(b, cells[b.column]);
      expect(got.columns[i].counts, b.column).toEqual(mem.counts);
      if (b.kind === 'number') {
        expect(got.columns[i].below).toBe(mem.below);
        expect(got.columns[i].above).toBe(mem.above);
        expect(got.columns[i].sum).toBeCloseTo(mem.sum, 9);
      }
    });
    // Pinned: price edges [0, 5, 10, 15, 20, 25] (bins up to each edge): -3 | 5 | 10 | - | - |
    // 20.5 x2 | 1000, and NULL, NaN, Infinity missing.
    expect(got.columns[0].counts).toEqual([1, 1, 1, 0, 0, 2, 1, 3]);
    expect(got.columns[0]).toMatchObject({ below: 1, above: 1 });
    // rooms: '0007' is 7 (never seen), 'x' is new, '1.0' is 1.
    expect(got.columns[1].counts).toEqual([2, 2, 1, 0, 2, 2]);
    // In memory the never-seen keys are named, as the model keys them.
    expect(binCells(bins[1], cells.rooms).newValues).toEqual(
      new Map([
        ['x', 1],
        ['7', 1],
      ]),
    );
  });

  it('reads the values outside the training range from the histogram, bounds exact', async () => {
    // 5 is the minimum and 20.5 the maximum, both in today's data: neither is outside.
    const b = numericBins('price', [5, 7, 10, 20.5], { min: 5, max: 20.5 });
    const columns: SqlColumn[] = [{ bins: b, source: 'price' }];
    const r = await engine.query(driftCountSql(columns, 'SELECT * FROM today'));
    const got = readDriftCounts(columns, r.columns, r.rows[0]).columns[0];
    const mem = binCells(b, cells.price);
    expect(got.counts).toEqual(mem.counts);
    expect({ below: got.below, above: got.above }).toEqual({ below: 1, above: 1 });
    expect({ below: mem.below, above: mem.above }).toEqual({ below: 1, above: 1 });
  });

  it('counts the same when it knows the columns are numbers (no text read)', async () => {
    const typed = [
      ...bins,
      // An integer column keyed as a number-kind category: its text is its key.
      categoryBins('code', 'number', ['1', '2', '3'], ['1', '2', '3']),
    ];
    const t = await engine.query('SELECT * FROM today LIMIT 0');
    const type = (c: string) => t.types[t.columns.indexOf(c)];
    expect([type('price'), type('code')]).toEqual(['DOUBLE', 'INTEGER']);
    const plain: SqlColumn[] = typed.map((b) => ({ bins: b, source: b.column }));
    const known: SqlColumn[] = typed.map((b) => ({
      bins: b,
      source: b.column,
      sourceType: type(b.column),
    }));
    const count = async (cols: SqlColumn[]) => {
      const sql = driftCountSql(cols, 'SELECT * FROM today');
      const r = await engine.query(sql);
      return { sql, got: readDriftCounts(cols, r.columns, r.rows[0]) };
    };
    const a = await count(plain);
    const b = await count(known);
    expect(b.sql).not.toEqual(a.sql);
    expect(b.sql).not.toContain('TRY_CAST(__today."code"');
    expect(b.got).toEqual(a.got);
    expect(b.got.columns[5].counts).toEqual(binCells(typed[5], cells.code).counts);
  });

  it('counts a column the data lacks as missing in every row', async () => {
    const columns: SqlColumn[] = [
      { bins: bins[0], source: null },
      { bins: bins[2], source: 'city' },
    ];
    const r = await engine.query(driftCountSql(columns, 'SELECT city FROM today'));
    const got = readDriftCounts(columns, r.columns, r.rows[0]);
    expect(got.columns[0].counts).toEqual([0, 0, 0, 0, 0, 0, 0, 9]);
  });

  it('samples the same rows twice, in hash order, at most the limit', async () => {
    const sql = sampleSql(['price', 'city'], 'SELECT * FROM today', 4);
    const a = await engine.query(sql);
    const b = await engine.query(sql);
    expect(a.rows).toHaveLength(4);
    expect(b.rows).toEqual(a.rows);
  });
});
