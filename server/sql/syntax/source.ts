/**
 * SQL text the instance rewrote from what the user wrote, with the way back: every rewrite keeps
 * a map from offsets in the new text to offsets in the statement as written, so an error DuckDB or
 * PostgreSQL reports in the rewritten text is shown at the user's own line and column.
 */
import { lineColumn } from '../../engine/position';
import { ServiceError, type ErrorCode, type ErrorPosition } from '../../errors';

export interface Rewrite {
  text: string;
  /** Maps an offset in `text` to an offset in the original statement. */
  toSource(offset: number): number;
}

export interface Edit {
  start: number;
  end: number;
  text: string;
}

export const unchanged = (text: string): Rewrite => ({ text, toSource: (o) => o });

/**
 * Applies non-overlapping edits (offsets into `base.text`); insertions at the same offset keep
 * their order. Text an edit inserts maps back to where the replaced span started.
 */
export function applyEdits(base: Rewrite, edits: readonly Edit[]): Rewrite {
  if (edits.length === 0) return base;
  const sorted = edits
    .map((e, i) => ({ ...e, i }))
    .sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i);
  const src = base.text;
  // [outStart, srcStart, copied]: output runs either copied from `src` or inserted.
  const runs: { out: number; src: number; copied: boolean }[] = [];
  let out = '';
  let last = 0;
  for (const e of sorted) {
    if (e.start < last) {
      throw new Error(`overlapping rewrites at ${e.start} (previous edit ends at ${last})`);
    }
    runs.push({ out: out.length, src: last, copied: true });
    out += src.slice(last, e.start);
    runs.push({ out: out.length, src: e.start, copied: false });
    out += e.text;
    last = e.end;
  }
  runs.push({ out: out.length, src: last, copied: true });
  out += src.slice(last);
  return {
    text: out,
    toSource(offset: number) {
      let lo = 0;
      let hi = runs.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (runs[mid].out <= offset) lo = mid;
        else hi = mid - 1;
      }
      // Several runs may start at the same output offset (empty copies): take the last one.
      const r = runs[lo];
      return base.toSource(r.copied ? r.src + (offset - r.out) : r.src);
    },
  };
}

/** Where a statement sits in the script the user sent: turns statement offsets into positions. */
export class StatementSource {
  constructor(
    /** The statement as written (trimmed, no trailing semicolon). */
    readonly text: string,
    /** Offset of `text` in `script`. */
    readonly offset: number,
    readonly script: string,
  ) {}

  /** The script position of an offset in the statement. */
  position(offsetInStatement: number): ErrorPosition {
    return lineColumn(this.script, this.offset + Math.max(0, offsetInStatement));
  }

  /** An error located at an offset in the statement (the position is data, not text). */
  error(code: ErrorCode, message: string, offsetInStatement?: number): ServiceError {
    return new ServiceError(
      code,
      message,
      undefined,
      offsetInStatement === undefined ? undefined : this.position(offsetInStatement),
    );
  }

  /** Maps offsets of rewritten SQL to offsets in the script (for the engine's error positions). */
  scriptOffset(rw: Rewrite): (offsetInSql: number) => number {
    return (o) => this.offset + rw.toSource(o);
  }
}
