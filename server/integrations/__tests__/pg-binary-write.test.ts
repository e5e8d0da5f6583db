/**
 * Binary COPY written from DuckDB's result vectors (pg-binary-write.ts), read back with the
 * binary COPY decoder (pg-binary.ts): every value as DuckDB's JSON answer has it (NaN and
 * infinities NULL), across chunks of 2,048 rows; which column pairs are written in binary and
 * which are left to COPY's text format. What PostgreSQL makes of it: scoring-stream.test.ts.
 * Also the columns a step reads from DuckDB's vectors (appendChunkColumns), against the
 * converter every result goes through.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBDataChunk } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendChunkColumns, toJsonValue, type JsonValue } from '../../engine/values';
import { BinaryCopyDecoder, type BatchColumn } from '../pg-binary';
import { BinaryCopyWriter, binaryWriteKinds } from '../pg-binary-write';

let db: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
});

afterAll(() => {
  conn?.closeSync();
  db?.closeSync();
});

/** 3,000 rows (two chunks) of every kind the writer takes, with NULLs and awkward values. */
const TYPED = `
  SELECT
    CASE WHEN i % 7 = 0 THEN NULL WHEN i = 1 THEN 'NaN'::DOUBLE WHEN i = 2 THEN 'inf'::DOUBLE
         WHEN i = 3 THEN '-inf'::DOUBLE ELSE i * 1.5 - 1000.125 END AS d,
    CASE WHEN i % 5 = 0 THEN NULL ELSE (i::BIGINT * 3074457345618258) - 4611686018427387904 END AS b,
    CASE WHEN i % 6 = 0 THEN NULL ELSE (i * 716)::INTEGER - 1073741824 END AS n,
    (i % 200 - 100)::SMALLINT AS s,
    (i % 100)::TINYINT AS t,
    CASE WHEN i % 3 = 0 THEN NULL ELSE i % 2 = 0 END AS f,
    CASE WHEN i % 11 = 0 THEN NULL WHEN i % 11 = 1 THEN '' WHEN i % 11 = 2 THEN E'tab\\tnew\\nline'
         WHEN i % 11 = 3 THEN 'ünï ✓ 漢字' WHEN i % 11 = 4 THEN repeat('x', 5000)
         ELSE 'v' || i END AS v
  FROM range(3000) r(i) ORDER BY i`;

async function chunks(sql: string): Promise<{ types: string[]; chunks: DuckDBDataChunk[] }> {
  const r = await conn.stream(sql);
  const out: DuckDBDataChunk[] = [];
  for (;;) {
    const c = await r.fetchChunk();
    if (!c || c.rowCount === 0) break;
    out.push(c);
  }
  return { types: r.columnTypes().map((t) => t.toString()), chunks: out };
}

/** Every value of a query as DuckDB's JSON answer has it, by column. */
async function answer(sql: string): Promise<JsonValue[][]> {
  const { chunks: cs } = await chunks(sql);
  const cols: JsonValue[][] = [];
  for (const c of cs) {
    c.convertColumns(toJsonValue).forEach((values, j) => {
      cols[j] ??= [];
      for (const v of values) cols[j].push(v ?? null);
    });
  }
  return cols;
}

/** A decoded column as JSON values (int8 as numbers: these fit). */
function json(c: BatchColumn): JsonValue[] {
  const out: JsonValue[] = [];
  for (let i = 0; i < c.values.length; i++) {
    if (c.kind === 'text' || c.kind === 'json') out.push(c.values[i]);
    else if (c.nulls?.[i]) out.push(null);
    else if (c.kind === 'bigint') out.push(Number(c.values[i]));
    else if (c.kind === 'boolean') out.push(c.values[i] === 1);
    else out.push(c.values[i]);
  }
  return out;
}

describe('BinaryCopyWriter', () => {
  it('writes each value as the JSON answer has it, across chunks, into float8, int8, int4, int2, bool and text columns', async () => {
    const { types, chunks: cs } = await chunks(TYPED);
    expect(types).toEqual([
      'DOUBLE',
      'BIGINT',
      'INTEGER',
      'SMALLINT',
      'TINYINT',
      'BOOLEAN',
      'VARCHAR',
    ]);
    expect(cs.length).toBeGreaterThan(1);
    // TINYINT into an int8 column: widened, as PostgreSQL's text input would read it.
    const kinds = binaryWriteKinds(types, [701, 20, 23, 21, 20, 16, 1043]);
    expect(kinds).toEqual(['float8', 'int8', 'int4', 'int2', 'int8', 'bool', 'text']);
    const writer = new BinaryCopyWriter(kinds!);
    for (const c of cs) writer.push(c);
    expect(writer.rows).toBe(3000);
    const decoder = new BinaryCopyDecoder(kinds!, 10_000);
    const data = Buffer.concat(writer.finish());
    // Fed in odd-sized pieces, as a socket would.
    const batches = [];
    for (let at = 0; at < data.length; at += 4093)
      batches.push(...decoder.push(data.subarray(at, at + 4093)));
    const last = decoder.end();
    if (last) batches.push(last);
    expect(batches).toHaveLength(1);
    expect(batches[0].n).toBe(3000);
    const expected = await answer(TYPED);
    // The big integers are past 2^53 in the answer (decimal strings): compared as BigInts.
    const bigs = batches[0].columns[1];
    expect(bigs.kind).toBe('bigint');
    const nulls = bigs.kind === 'bigint' ? bigs.nulls : null;
    expect(
      Array.from(bigs.values as BigInt64Array, (v, i) => (nulls?.[i] ? null : String(v))),
    ).toEqual(expected[1].map((v) => (v === null ? null : String(v))));
    batches[0].columns.forEach((c, j) => {
      if (j !== 1) expect(json(c)).toEqual(expected[j]);
    });
    // NaN and the infinities are NULL, as the answer has them.
    expect(expected[0].slice(1, 4)).toEqual([null, null, null]);
  });

  it('writes NULL for NaN and the infinities, byte for byte (the decoder would hide them)', async () => {
    const { types, chunks: cs } = await chunks(`SELECT d, f FROM (${TYPED}) AS q LIMIT 5`);
    const writer = new BinaryCopyWriter(binaryWriteKinds(types, [701, 16])!);
    for (const c of cs) writer.push(c);
    const field = (b: Buffer | null) => {
      const len = Buffer.alloc(4);
      len.writeInt32BE(b ? b.length : -1);
      return b ? Buffer.concat([len, b]) : len;
    };
    const dbl = (v: number) => {
      const b = Buffer.alloc(8);
      b.writeDoubleBE(v);
      return b;
    };
    const row = (d: Buffer | null, f: Buffer | null) =>
      Buffer.concat([Buffer.from([0, 2]), field(d), field(f)]);
    // i = 0..4: d NULL, NaN, inf, -inf, 4 * 1.5 - 1000.125; f NULL, false, true, NULL, true.
    const expected = Buffer.concat([
      Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
      Buffer.alloc(8),
      row(null, null),
      row(null, Buffer.from([0])),
      row(null, Buffer.from([1])),
      row(null, null),
      row(dbl(-994.125), Buffer.from([1])),
      Buffer.from([0xff, 0xff]),
    ]);
    expect(Buffer.concat(writer.finish()).equals(expected)).toBe(true);
  });

  it('leaves to the text format every pair that is not written exactly as the target reads it', () => {
    const no = [
      [['DOUBLE'], [1700]], // numeric
      [['DOUBLE'], [20]], // a double into bigint: PostgreSQL's cast (and its errors)
      [['BIGINT'], [23]], // narrowing
      [['INTEGER'], [21]],
      [['VARCHAR'], [3802]], // jsonb
      [['JSON'], [25]],
      [['DATE'], [1082]],
      [['TIMESTAMP'], [1114]],
      [['UBIGINT'], [1700]],
      [['DOUBLE'], [0]], // a column the target does not have
      [['DOUBLE', 'VARCHAR'], [701]],
      [[], []],
    ] as const;
    for (const [types, oids] of no) expect(binaryWriteKinds(types, oids)).toBeNull();
    expect(binaryWriteKinds(['double', 'varchar', 'varchar'], [701, 25, 1042])).toEqual([
      'float8',
      'text',
      'text',
    ]);
  });
});

describe('appendChunkColumns', () => {
  it('reads the values the result converter gives, plain types and others (dates, decimals, lists, huge integers)', async () => {
    const sql = `${TYPED.replace(
      'FROM range',
      `, DATE '2024-01-01' + (i % 40)::INTEGER AS day, (i / 8)::DECIMAL(10, 3) AS dec,
         [i, i + 1] AS l, 18446744073709551615::UBIGINT - i AS u, (i * 1.25)::FLOAT AS fl,
         i::UINTEGER AS ui FROM range`,
    )}`;
    const { chunks: cs } = await chunks(sql);
    const values: JsonValue[][] = cs[0].convertColumns(toJsonValue).map(() => []);
    for (const c of cs) appendChunkColumns(c, values);
    expect(values[0]).toHaveLength(3000);
    expect(values).toEqual(await answer(sql));
  });
});
