/**
 * Rows written into PostgreSQL as binary `COPY ... FROM STDIN (FORMAT binary)`, straight from
 * DuckDB's result vectors: what a scoring stream writes each batch's answer with
 * (sql/statements/saving-stream.ts). No row arrays, no converted values, no text of each number
 * for PostgreSQL to parse back.
 *
 * Only when every column's DuckDB type is written exactly as its target column's type receives
 * it (`binaryWriteKinds`): numbers into float8, integers into integer columns at least as wide,
 * booleans, text into text, varchar and char (PostgreSQL applies the column's length as it does
 * to COPY's text: a value too long is the same error). Anything else (numeric, dates, json, a
 * double into an integer column, ...) is left to COPY's text format, which casts as an INSERT does.
 * NaN and infinities are written as NULL, as the text format's answer has them (JSON has none).
 */
import type { DuckDBDataChunk, DuckDBVector } from '@duckdb/node-api';

/** How one column is written. */
type WriteKind = 'float8' | 'int8' | 'int4' | 'int2' | 'bool' | 'text';

const OID = {
  INT2: 21,
  INT4: 23,
  INT8: 20,
  FLOAT8: 701,
  BOOL: 16,
  TEXT: 25,
  VARCHAR: 1043,
  BPCHAR: 1042,
};

/** Target OIDs each DuckDB result type is written into exactly, and how. */
const EXACT: Record<string, Partial<Record<number, WriteKind>>> = {
  DOUBLE: { [OID.FLOAT8]: 'float8' },
  BIGINT: { [OID.INT8]: 'int8' },
  INTEGER: { [OID.INT4]: 'int4', [OID.INT8]: 'int8' },
  SMALLINT: { [OID.INT2]: 'int2', [OID.INT4]: 'int4', [OID.INT8]: 'int8' },
  TINYINT: { [OID.INT2]: 'int2', [OID.INT4]: 'int4', [OID.INT8]: 'int8' },
  BOOLEAN: { [OID.BOOL]: 'bool' },
  VARCHAR: { [OID.TEXT]: 'text', [OID.VARCHAR]: 'text', [OID.BPCHAR]: 'text' },
};

/**
 * How each column (DuckDB's result type, the target column's type OID) is written in binary, or
 * null when one of them must go through COPY's text format.
 */
export function binaryWriteKinds(
  duckTypes: readonly string[],
  targetOids: readonly number[],
): WriteKind[] | null {
  if (duckTypes.length === 0 || duckTypes.length !== targetOids.length) return null;
  const kinds: WriteKind[] = [];
  for (let j = 0; j < duckTypes.length; j++) {
    const k = EXACT[duckTypes[j].toUpperCase()]?.[targetOids[j]];
    if (!k) return null;
    kinds.push(k);
  }
  return kinds;
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** The signature, flags (0) and header extension length (0). */
const HEADER = Buffer.concat([SIGNATURE, Buffer.alloc(8)]);
const TRAILER = Buffer.from([0xff, 0xff]);

/** Fixed sizes of a value of each kind (text: its UTF-8 length). */
const SIZE: Record<WriteKind, number> = { float8: 8, int8: 8, int4: 4, int2: 2, bool: 1, text: 0 };

/**
 * One `COPY ... FROM STDIN (FORMAT binary)` stream's data, built chunk by chunk (`push`) from the
 * first `kinds.length` columns of DuckDB's result chunks; `finish` gives its buffers.
 */
export class BinaryCopyWriter {
  private readonly parts: Buffer[] = [HEADER];
  rows = 0;

  constructor(private readonly kinds: readonly WriteKind[]) {}

  push(chunk: DuckDBDataChunk): void {
    const n = chunk.rowCount;
    if (n === 0) return;
    const w = this.kinds.length;
    const vectors: DuckDBVector[] = [];
    for (let j = 0; j < w; j++) vectors.push(chunk.getColumnVector(j));
    // Each column's values once (text with its UTF-8 length), then the exact size.
    const values: unknown[][] = [];
    const lengths: (Int32Array | null)[] = [];
    let size = n * (2 + 4 * w);
    for (let j = 0; j < w; j++) {
      const v = vectors[j];
      const kind = this.kinds[j];
      const col = new Array<unknown>(n);
      let lens: Int32Array | null = null;
      if (kind === 'text') lens = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        let x = v.getItem(i) as unknown;
        if (kind === 'float8' && x !== null && !Number.isFinite(x)) x = null;
        col[i] = x;
        if (x === null) continue;
        if (lens) {
          const len = Buffer.byteLength(x as string, 'utf8');
          lens[i] = len;
          size += len;
        } else size += SIZE[kind];
      }
      values.push(col);
      lengths.push(lens);
    }
    const buf = Buffer.allocUnsafe(size);
    let p = 0;
    for (let i = 0; i < n; i++) {
      p = buf.writeInt16BE(w, p);
      for (let j = 0; j < w; j++) {
        const x = values[j][i];
        if (x === null) {
          p = buf.writeInt32BE(-1, p);
          continue;
        }
        const kind = this.kinds[j];
        if (kind === 'text') {
          const len = lengths[j]![i];
          p = buf.writeInt32BE(len, p);
          p += buf.write(x as string, p, len, 'utf8');
          continue;
        }
        p = buf.writeInt32BE(SIZE[kind], p);
        if (kind === 'float8') p = buf.writeDoubleBE(x as number, p);
        else if (kind === 'int8')
          p = buf.writeBigInt64BE(typeof x === 'bigint' ? x : BigInt(x as number), p);
        else if (kind === 'int4') p = buf.writeInt32BE(x as number, p);
        else if (kind === 'int2') p = buf.writeInt16BE(x as number, p);
        else buf[p++] = x ? 1 : 0;
      }
    }
    this.parts.push(buf);
    this.rows += n;
  }

  /** The stream's data: the header, the rows, the trailer. */
  finish(): Buffer[] {
    return [...this.parts, TRAILER];
  }
}
