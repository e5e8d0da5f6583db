/**
 * PostgreSQL's binary COPY format (`COPY (query) TO STDOUT (FORMAT binary)`) decoded straight
 * into typed columns, batch by batch: numbers into Float64Array, int8/oid into BigInt64Array,
 * booleans into Uint8Array, text into string arrays. What a scoring stream reads a big table
 * through (plan/stream.ts): no row arrays, no text of every number parsed back, no per-value
 * objects for pg's row parser to build.
 *
 * Which columns it decodes (`binaryColumns`): integers, floats, numeric (cast to float8 in
 * PostgreSQL, as its text is read today), booleans and text types raw; dates, times, timestamps,
 * intervals, uuid and bytea as PostgreSQL's own text (the cast the cursor read's parsers keep).
 * Any other type (arrays, json, enums, ranges, ...) makes the caller read through the cursor.
 */
import type { JsonValue } from '../engine/values';
/** How one column is decoded. */
type Kind = 'int2' | 'int4' | 'oid' | 'int8' | 'float8' | 'bool' | 'text';

/** One decoded column of a batch; `nulls[i]` is 1 where row i is NULL (null: no NULLs). */
export type BatchColumn =
  | { kind: 'number'; values: Float64Array; nulls: Uint8Array | null }
  | { kind: 'bigint'; values: BigInt64Array; nulls: Uint8Array | null }
  | { kind: 'boolean'; values: Uint8Array; nulls: Uint8Array | null }
  | { kind: 'text'; values: (string | null)[] }
  /** A column read through the cursor (a type this decoder leaves to pg's parsers). */
  | { kind: 'json'; values: JsonValue[] };

/** Rows of a query as columns, in the query's order. */
export interface ColumnBatch {
  n: number;
  columns: BatchColumn[];
}

const OID_KIND: Record<number, { kind: Kind; cast?: string }> = {
  21: { kind: 'int2' },
  23: { kind: 'int4' },
  26: { kind: 'oid' },
  20: { kind: 'int8' },
  // float4's text is its shortest exact decimal (0.1, not 0.10000000149011612): what the cursor
  // read gives, so read through the text here too.
  700: { kind: 'float8', cast: 'text::float8' },
  701: { kind: 'float8' },
  // numeric -> float8 goes through the numeric's text in PostgreSQL, as JS's Number(text) does.
  1700: { kind: 'float8', cast: 'float8' },
  16: { kind: 'bool' },
  25: { kind: 'text' },
  1043: { kind: 'text' },
  1042: { kind: 'text' },
  19: { kind: 'text' },
  1082: { kind: 'text', cast: 'text' },
  1083: { kind: 'text', cast: 'text' },
  1266: { kind: 'text', cast: 'text' },
  1114: { kind: 'text', cast: 'text' },
  // Without the `+00` (TimeZone is UTC on these sessions): the instance's TIMESTAMP shape.
  1184: { kind: 'text', cast: `AT TIME ZONE 'UTC'` },
  1186: { kind: 'text', cast: 'text' },
  2950: { kind: 'text', cast: 'text' },
  17: { kind: 'text', cast: 'text' },
};

/** How a query's rows are read in binary (`binaryRead`). */
export interface BinaryRead {
  kinds: Kind[];
  /** The `COPY ... TO STDOUT (FORMAT binary)` statement. */
  copy: string;
}

/** The plan of a binary read of these columns, or null when one of them needs the cursor. */
export function binaryRead(sql: string, columns: readonly { oid: number }[]): BinaryRead | null {
  const specs = columns.map((c) => OID_KIND[c.oid]);
  if (columns.length === 0 || specs.some((s) => !s)) return null;
  const kinds = specs.map((s) => s.kind);
  if (!specs.some((s) => s.cast)) {
    return { kinds, copy: `COPY (${sql}\n) TO STDOUT (FORMAT binary)` };
  }
  // Columns renamed by position: a query may return two columns of one name.
  const names = columns.map((_, i) => `"c${i}"`);
  const list = specs.map((s, i) => {
    if (!s.cast) return names[i];
    if (s.cast.startsWith('AT ')) return `(${names[i]} ${s.cast})::text`;
    return `${names[i]}::${s.cast}`;
  });
  return {
    kinds,
    copy: `COPY (SELECT ${list.join(', ')} FROM (${sql}\n) AS __mdb_q (${names.join(', ')})) TO STDOUT (FORMAT binary)`,
  };
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** A column being filled, sized for one batch. */
class Builder {
  nums: Float64Array | null = null;
  bigs: BigInt64Array | null = null;
  bools: Uint8Array | null = null;
  texts: (string | null)[] | null = null;
  nulls: Uint8Array | null = null;

  constructor(
    readonly kind: Kind,
    readonly size: number,
  ) {
    if (kind === 'int8' || kind === 'oid') this.bigs = new BigInt64Array(size);
    else if (kind === 'bool') this.bools = new Uint8Array(size);
    else if (kind === 'text') this.texts = new Array<string | null>(size);
    else this.nums = new Float64Array(size);
  }

  setNull(i: number) {
    if (this.texts) {
      this.texts[i] = null;
      return;
    }
    (this.nulls ??= new Uint8Array(this.size))[i] = 1;
  }

  column(n: number): BatchColumn {
    const nulls = this.nulls ? this.nulls.subarray(0, n) : null;
    if (this.texts)
      return { kind: 'text', values: n === this.size ? this.texts : this.texts.slice(0, n) };
    if (this.bigs) return { kind: 'bigint', values: this.bigs.subarray(0, n), nulls };
    if (this.bools) return { kind: 'boolean', values: this.bools.subarray(0, n), nulls };
    return { kind: 'number', values: this.nums!.subarray(0, n), nulls };
  }
}

const badData = (what: string) => new Error(`PostgreSQL's binary COPY data: ${what}`);

/**
 * Decodes a binary COPY stream given in byte chunks of any size (`push`), returning each batch of
 * `batchRows` rows as soon as it is complete; `end` returns the last, shorter one.
 */
export class BinaryCopyDecoder {
  private rest: Buffer | null = null;
  private header = false;
  private done = false;
  private builders: Builder[];
  private n = 0;

  constructor(
    private readonly kinds: readonly Kind[],
    private readonly batchRows: number,
  ) {
    this.builders = this.fresh();
  }

  private fresh(): Builder[] {
    return this.kinds.map((k) => new Builder(k, this.batchRows));
  }

  private take(): ColumnBatch {
    const batch = { n: this.n, columns: this.builders.map((b) => b.column(this.n)) };
    this.builders = this.fresh();
    this.n = 0;
    return batch;
  }

  push(chunk: Buffer): ColumnBatch[] {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    const out: ColumnBatch[] = [];
    let pos = 0;
    if (!this.header) {
      if (buf.length < 19) {
        this.rest = buf;
        return out;
      }
      if (!buf.subarray(0, 11).equals(SIGNATURE)) throw badData('no PGCOPY signature');
      const ext = buf.readUInt32BE(15);
      if (buf.length < 19 + ext) {
        this.rest = buf;
        return out;
      }
      pos = 19 + ext;
      this.header = true;
    }
    const width = this.kinds.length;
    while (!this.done && pos + 2 <= buf.length) {
      const count = buf.readInt16BE(pos);
      if (count === -1) {
        this.done = true;
        pos += 2;
        break;
      }
      if (count !== width) throw badData(`a row of ${count} values, expected ${width}`);
      const end = this.rowEnd(buf, pos + 2);
      if (end < 0) break;
      this.decodeRow(buf, pos + 2);
      pos = end;
      if (this.n === this.batchRows) out.push(this.take());
    }
    if (pos < buf.length && !this.done) this.rest = buf.subarray(pos);
    return out;
  }

  /** The offset after the row starting at `at`, or -1 when it is not all in `buf` yet. */
  private rowEnd(buf: Buffer, at: number): number {
    let p = at;
    for (let j = 0; j < this.kinds.length; j++) {
      if (p + 4 > buf.length) return -1;
      const len = buf.readInt32BE(p);
      p += 4 + (len > 0 ? len : 0);
      if (p > buf.length) return -1;
    }
    return p;
  }

  private decodeRow(buf: Buffer, at: number): void {
    const i = this.n;
    let p = at;
    for (let j = 0; j < this.kinds.length; j++) {
      const b = this.builders[j];
      const len = buf.readInt32BE(p);
      p += 4;
      if (len < 0) {
        b.setNull(i);
        continue;
      }
      switch (b.kind) {
        case 'int2':
          b.nums![i] = buf.readInt16BE(p);
          break;
        case 'int4':
          b.nums![i] = buf.readInt32BE(p);
          break;
        case 'oid':
          b.bigs![i] = BigInt(buf.readUInt32BE(p));
          break;
        case 'int8':
          b.bigs![i] = buf.readBigInt64BE(p);
          break;
        case 'float8': {
          // NaN and infinities have no JSON shape: NULL, as the cursor read makes them.
          const x = buf.readDoubleBE(p);
          if (Number.isFinite(x)) b.nums![i] = x;
          else b.setNull(i);
          break;
        }
        case 'bool':
          b.bools![i] = buf[p] === 0 ? 0 : 1;
          break;
        case 'text':
          b.texts![i] = buf.toString('utf8', p, p + len);
          break;
      }
      p += len;
    }
    this.n++;
  }

  /** The last batch (rows after the last full one), or null; throws if the data was cut short. */
  end(): ColumnBatch | null {
    if (!this.done && (this.header || this.rest)) throw badData('it ended before its trailer');
    return this.n > 0 ? this.take() : null;
  }
}
