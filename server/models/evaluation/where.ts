/**
 * A WHERE the user wrote, judged on a version's held-out rows. The rows of the last few versions
 * asked are kept as tables of a DuckDB of their own (in memory, closed to files like the
 * instance's SQL, no database attached), so a WHERE costs one scan instead of loading 50,000
 * rows per question (bench/evaluation.ts: 884 ms under load before). The WHERE runs through a
 * client session's guard (one statement, timeout, result cap) and sees nothing of the instance:
 * only held-out rows, which the evaluation views show anyway. MindsDB's backtick identifiers are
 * read as DuckDB's double-quoted ones, so a slice's own WHERE round-trips.
 */
import { type CellValue, type ColumnarData, type ModelEvidence, cellAt } from '../../automl/index';
import { Engine } from '../../engine/duckdb';
import { quoteIdent } from '../../engine/quote';
import { loadTempTable, type ScratchType } from '../../engine/scratch';
import type { JsonValue } from '../../engine/values';
import { ERROR_CODES, ServiceError, badInput } from '../../errors';

const ROW = '__evaluation_row';

/** Held-out tables kept (the least recently asked is dropped first): 50k rows are a few MB each. */
const KEPT = 4;

/** Backtick identifiers as double-quoted ones (outside string literals). */
function duckWhere(where: string): string {
  let out = '';
  let i = 0;
  while (i < where.length) {
    const ch = where[i];
    if (ch === "'") {
      const end = closing(where, i, "'");
      out += where.slice(i, end);
      i = end;
    } else if (ch === '`') {
      const end = closing(where, i, '`');
      const name = where.slice(i + 1, end - 1).replace(/``/g, '`');
      out += quoteIdent(name);
      i = end;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** The index after the quote that closes the one at `start` (doubled quotes escape). */
function closing(s: string, start: number, q: string): number {
  let i = start + 1;
  while (i < s.length) {
    if (s[i] === q) {
      if (s[i + 1] === q) i += 2;
      else return i + 1;
    } else i++;
  }
  throw badInput(`The WHERE has an unterminated ${q === "'" ? 'string' : 'quoted identifier'}`);
}

function scratchType(c: ColumnarData['data'][number]): ScratchType {
  if (c.kind === 'number') return 'DOUBLE';
  if (c.kind === 'boolean') return 'BOOLEAN';
  if (c.kind === 'mixed') {
    const kinds = new Set(Array.from(c.values, (v) => (v === null ? 'null' : typeof v)));
    kinds.delete('null');
    if (kinds.size === 1 && kinds.has('number')) return 'DOUBLE';
    if (kinds.size === 1 && kinds.has('boolean')) return 'BOOLEAN';
  }
  return 'VARCHAR';
}

export interface HeldOutTableOptions {
  /** A WHERE's statement timeout (the instance's QUERY_TIMEOUT_MS). */
  timeoutMs: number;
}

/** The held-out rows of recently asked versions, as DuckDB tables a WHERE is judged on. */
export class HeldOutTables {
  private engine: Promise<Engine> | null = null;
  /** Table of each evidence (a version's evidence read again is a new object: a new table). */
  private readonly tables = new WeakMap<ModelEvidence, Promise<string>>();
  /** Live tables, least recently asked first. */
  private readonly live: string[] = [];
  private counter = 0;
  private closed = false;

  constructor(private readonly opts: HeldOutTableOptions) {}

  private open(): Promise<Engine> {
    if (this.closed)
      return Promise.reject(new ServiceError(ERROR_CODES.BUSY, 'The instance is shutting down'));
    this.engine ??= (async () => {
      const e = await Engine.open(':memory:', {
        connections: 2,
        queueLimit: 64,
        timeoutMs: this.opts.timeoutMs,
        maxRows: Number.MAX_SAFE_INTEGER,
      });
      // No file is readable or writable from a WHERE, and a WHERE cannot change that.
      await e.sandbox([]);
      return e;
    })();
    return this.engine;
  }

  private async table(e: ModelEvidence): Promise<string> {
    let p = this.tables.get(e);
    if (!p) {
      const name = `held_out_${++this.counter}`;
      p = this.load(name, e.heldOut.rows);
      this.tables.set(e, p);
      // A failed load is not kept: the next question tries again.
      p.catch(() => this.tables.delete(e));
    }
    const name = await p;
    const at = this.live.indexOf(name);
    if (at >= 0) this.live.splice(at, 1);
    this.live.push(name);
    while (this.live.length > KEPT) {
      const old = this.live.shift()!;
      const engine = await this.open();
      await engine.exec(`DROP TABLE IF EXISTS ${quoteIdent(old)}`);
    }
    return name;
  }

  private async load(name: string, rows: ColumnarData): Promise<string> {
    const engine = await this.open();
    const n = rows.rowCount;
    const columns = [
      { name: ROW, type: 'BIGINT' as ScratchType },
      ...rows.columns.map((c, j) => ({ name: c, type: scratchType(rows.data[j]) })),
    ];
    const values: JsonValue[][] = [
      Array.from({ length: n }, (_, i) => i),
      ...rows.data.map((c) =>
        Array.from({ length: n }, (_, i): JsonValue => {
          const v: CellValue = cellAt(c, i);
          return typeof v === 'number' && !Number.isFinite(v) ? null : v;
        }),
      ),
    ];
    await engine.session(async (s) => {
      await loadTempTable(s, 'rows', columns, values, n);
      await s.raw((conn) =>
        conn.run(`CREATE TABLE main.${quoteIdent(name)} AS SELECT * FROM temp.main."rows"`),
      );
    });
    return name;
  }

  /**
   * Loads `e`'s held-out table without waiting for it: the slices view calls it, so the table is
   * ready by the time the presenter has typed a WHERE (its first load costs ~100 ms idle).
   */
  prepare(e: ModelEvidence): void {
    if (this.closed || this.tables.has(e)) return;
    this.table(e).catch(() => undefined);
  }

  /** 1 for each held-out row of `e` the WHERE keeps. */
  async mask(e: ModelEvidence, where: string): Promise<Uint8Array> {
    if (this.closed) throw new ServiceError(ERROR_CODES.BUSY, 'The instance is shutting down');
    const text = where.trim().replace(/;\s*$/, '');
    if (text === '') throw badInput('The WHERE is empty');
    const sql = duckWhere(text);
    const table = await this.table(e);
    const engine = await this.open();
    const n = e.heldOut.rows.rowCount;
    const mask = new Uint8Array(n);
    await engine.session(
      async (s) => {
        let result;
        try {
          result = await s.query(
            `SELECT ${quoteIdent(ROW)} FROM ${quoteIdent(table)} WHERE (${sql})`,
            { maxRows: n + 1 },
          );
        } catch (err) {
          // The user's SQL is wrong (a column the rows lack, a syntax error): say so as bad input.
          if (err instanceof ServiceError && err.httpStatus < 500)
            throw badInput(`The WHERE cannot be judged on the held-out rows: ${err.message}`);
          throw err;
        }
        if (result.kind !== 'table') throw badInput('The WHERE must select rows');
        for (const r of result.rows) mask[Number(r[0])] = 1;
      },
      { limited: true },
    );
    return mask;
  }

  async close(): Promise<void> {
    this.closed = true;
    const e = this.engine;
    this.engine = null;
    if (e) await (await e).close();
  }
}
