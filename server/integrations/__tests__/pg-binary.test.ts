/**
 * The binary COPY decoder on hand-built data (PostgreSQL's format, documented in the COPY page):
 * typed columns, NULLs, batch boundaries, rows and UTF-8 text split across the stream's chunks,
 * and data cut short. What PostgreSQL itself sends is tested in postgres.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { BinaryCopyDecoder, binaryRead, type ColumnBatch } from '../pg-binary';

type Cell = Buffer | null;

const header = () => Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);

function row(cells: Cell[]): Buffer {
  const parts: Buffer[] = [Buffer.alloc(2)];
  parts[0].writeInt16BE(cells.length);
  for (const c of cells) {
    const len = Buffer.alloc(4);
    len.writeInt32BE(c ? c.length : -1);
    parts.push(len);
    if (c) parts.push(c);
  }
  return Buffer.concat(parts);
}

const trailer = () => Buffer.from([0xff, 0xff]);

const int2 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(v);
  return b;
};
const int4 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
};
const int8 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(v);
  return b;
};
const oid = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return b;
};
const float8 = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(v);
  return b;
};
const bool = (v: boolean) => Buffer.from([v ? 1 : 0]);
const text = (s: string) => Buffer.from(s, 'utf8');

/** Every column kind, in the order of `COLUMNS`' OIDs: int2, int4, oid, int8, float8, bool, text. */
const COLUMNS = [21, 23, 26, 20, 701, 16, 25].map((o) => ({ oid: o }));

const ROWS: Cell[][] = [
  [
    int2(-7),
    int4(2_000_000_000),
    oid(4_000_000_000),
    int8(9_007_199_254_740_993n),
    float8(0.1),
    bool(true),
    text('red'),
  ],
  [null, null, null, null, null, null, null],
  [int2(32767), int4(-1), oid(0), int8(-1n), float8(Number.NaN), bool(false), text('é☃ tab\there')],
  [int2(0), int4(0), oid(1), int8(0n), float8(Number.POSITIVE_INFINITY), bool(true), text('')],
  [int2(1), int4(5), oid(2), int8(3n), float8(-2.5e-300), bool(false), text('x'.repeat(300))],
];

const stream = () => Buffer.concat([header(), ...ROWS.map(row), trailer()]);

function decode(pieces: Buffer[], batchRows: number): ColumnBatch[] {
  const read = binaryRead('SELECT 1', COLUMNS)!;
  const d = new BinaryCopyDecoder(read.kinds, batchRows);
  const out = pieces.flatMap((p) => d.push(p));
  const last = d.end();
  return last ? [...out, last] : out;
}

/** A batch back as rows of plain values (null for NULL). */
function rows(batches: ColumnBatch[]): unknown[][] {
  const out: unknown[][] = [];
  for (const b of batches) {
    for (let i = 0; i < b.n; i++) {
      out.push(
        b.columns.map((c) => {
          if (c.kind === 'text' || c.kind === 'json') return c.values[i];
          if (c.nulls?.[i]) return null;
          return c.kind === 'boolean' ? c.values[i] === 1 : c.values[i];
        }),
      );
    }
  }
  return out;
}

const EXPECTED = [
  [-7, 2_000_000_000, 4_000_000_000n, 9_007_199_254_740_993n, 0.1, true, 'red'],
  [null, null, null, null, null, null, null],
  // NaN and infinities have no JSON shape: NULL, as pg's text parsers make them.
  [32767, -1, 0n, -1n, null, false, 'é☃ tab\there'],
  [0, 0, 1n, 0n, null, true, ''],
  [1, 5, 2n, 3n, -2.5e-300, false, 'x'.repeat(300)],
];

describe('binary COPY decoder', () => {
  it('decodes every column kind into typed columns, NULLs included, in the rows order', () => {
    const batches = decode([stream()], 100);
    expect(batches).toHaveLength(1);
    expect(batches[0].columns.map((c) => c.kind)).toEqual([
      'number',
      'number',
      'bigint',
      'bigint',
      'number',
      'boolean',
      'text',
    ]);
    expect(batches[0].columns[0].kind === 'number' && batches[0].columns[0].values).toBeInstanceOf(
      Float64Array,
    );
    expect(rows(batches)).toEqual(EXPECTED);
  });

  it('cuts batches of the given size and keeps the last short one', () => {
    const batches = decode([stream()], 2);
    expect(batches.map((b) => b.n)).toEqual([2, 2, 1]);
    expect(rows(batches)).toEqual(EXPECTED);
  });

  it('gives the same rows whatever the chunks the socket delivers (a byte at a time)', () => {
    const all = stream();
    const bytes = [...all].map((b) => Buffer.from([b]));
    expect(rows(decode(bytes, 3))).toEqual(EXPECTED);
    // Cut inside a UTF-8 character and inside a length word.
    const at = all.indexOf(Buffer.from('☃')) + 1;
    expect(rows(decode([all.subarray(0, at), all.subarray(at)], 3))).toEqual(EXPECTED);
    expect(rows(decode([all.subarray(0, 21), all.subarray(21)], 3))).toEqual(EXPECTED);
  });

  it('refuses data cut short, a row of the wrong width, and data that is not binary COPY', () => {
    const all = stream();
    expect(() => decode([all.subarray(0, all.length - 2)], 10)).toThrow(/ended before its trailer/);
    const wide = Buffer.concat([header(), row([int2(1)]), trailer()]);
    expect(() => decode([wide], 10)).toThrow(/a row of 1 values, expected 7/);
    expect(() => decode([Buffer.from('1\tred\n'.repeat(10))], 10)).toThrow(/no PGCOPY signature/);
  });
});

describe('binaryRead', () => {
  it('copies plain columns as they are and casts the ones read as PostgreSQL text', () => {
    expect(binaryRead('SELECT a FROM t', [{ oid: 23 }, { oid: 25 }])?.copy).toBe(
      'COPY (SELECT a FROM t\n) TO STDOUT (FORMAT binary)',
    );
    // numeric, float4, date, timestamptz: renamed by position (a query may repeat a name).
    expect(
      binaryRead('SELECT * FROM t', [{ oid: 1700 }, { oid: 700 }, { oid: 1082 }, { oid: 1184 }])
        ?.copy,
    ).toBe(
      `COPY (SELECT "c0"::float8, "c1"::text::float8, "c2"::text, ("c3" AT TIME ZONE 'UTC')::text FROM (SELECT * FROM t\n) AS __mdb_q ("c0", "c1", "c2", "c3")) TO STDOUT (FORMAT binary)`,
    );
  });

  it('leaves json, arrays and unknown types to the cursor read', () => {
    expect(binaryRead('SELECT 1', [{ oid: 23 }, { oid: 3802 }])).toBeNull();
    expect(binaryRead('SELECT 1', [{ oid: 1007 }])).toBeNull();
    expect(binaryRead('SELECT 1', [])).toBeNull();
  });
});
