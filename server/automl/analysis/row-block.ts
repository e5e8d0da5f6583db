// A block of encoded rows copied out of the training data, whose inputs the analysis overwrites
// (one column shuffled for permutation importance, columns forced to missing for the missing-input
// calibration) and re-scores, each contiguous run of rows with the model that did not train on it.

import type { Encoded } from '../data/encoded';
import type { LinearRows } from '../data/layout';
import { predictRaw } from '../gbm/predict';
import { predictLinearRows } from '../linear/linear';
import type { ScoreModel } from '../predict/score';

/** Rows [start, end) of a block are scored with `model`. */
export interface BlockPart {
  model: ScoreModel;
  start: number;
  end: number;
}

export class RowBlock {
  readonly n: number;
  readonly F: number;
  /** Row-major bins of the block (n x F). */
  readonly bins: Uint8Array;
  private readonly lin: LinearRows | null;
  /** Linear slots of each tree feature (same order as linearRows()). */
  private readonly featSlot: number[] = [];
  private readonly featWidth: number[] = [];

  constructor(
    private readonly enc: Encoded,
    /** Positions in the encoded data of the block's rows, in block order. */
    readonly rows: Int32Array,
  ) {
    const n = (this.n = rows.length);
    const F = (this.F = enc.binned.F);
    this.bins = new Uint8Array(n * F);
    for (let i = 0; i < n; i++)
      this.bins.set(enc.binned.bins.subarray(rows[i] * F, rows[i] * F + F), i * F);
    let s0 = 0;
    for (const f of enc.layout.features) {
      this.featSlot.push(s0);
      const w = f.isCat ? 1 : f.linMissDim >= 0 ? 2 : 1;
      this.featWidth.push(w);
      s0 += w;
    }
    const L = enc.linear;
    if (L) {
      const S = L.slots;
      const idx = new Int32Array(n * S);
      const val = new Float64Array(n * S);
      for (let i = 0; i < n; i++) {
        idx.set(L.idx.subarray(rows[i] * S, rows[i] * S + S), i * S);
        val.set(L.val.subarray(rows[i] * S, rows[i] * S + S), i * S);
      }
      this.lin = { n, slots: S, idx, val };
    } else this.lin = null;
  }

  /** Feature f of block row i takes the value of encoded row src[i]. */
  copyFeature(f: number, src: ArrayLike<number>): void {
    const { F, bins } = this;
    const from = this.enc.binned.bins;
    for (let i = 0; i < this.n; i++) bins[i * F + f] = from[src[i] * F + f];
    const L = this.enc.linear;
    const lin = this.lin;
    if (!L || !lin) return;
    const S = L.slots;
    for (let s = this.featSlot[f], e = s + this.featWidth[f]; s < e; s++) {
      for (let i = 0; i < this.n; i++) {
        lin.idx[i * S + s] = L.idx[src[i] * S + s];
        lin.val[i * S + s] = L.val[src[i] * S + s];
      }
    }
  }

  /** Feature f of every block row back to the row's own value. */
  restoreFeature(f: number): void {
    this.copyFeature(f, this.rows);
  }

  /**
   * Feature f of every block row set to `missing`: the encoding of an absent input (one row of
   * encode() on no columns), exactly as the predictor encodes it.
   */
  setMissing(f: number, missing: Encoded): void {
    const { F, bins } = this;
    const b = missing.binned.bins[f];
    for (let i = 0; i < this.n; i++) bins[i * F + f] = b;
    const lin = this.lin;
    const M = missing.linear;
    if (!lin || !M) return;
    const S = lin.slots;
    for (let s = this.featSlot[f], e = s + this.featWidth[f]; s < e; s++) {
      for (let i = 0; i < this.n; i++) {
        lin.idx[i * S + s] = M.idx[s];
        lin.val[i * S + s] = M.val[s];
      }
    }
  }

  /** Raw scores of the block's rows (n x K), each part with its model. */
  score(parts: BlockPart[], K: number, out = new Float64Array(this.n * K)): Float64Array {
    const F = this.F;
    out.fill(0);
    for (const p of parts) {
      const m = p.end - p.start;
      if (m <= 0) continue;
      const o = out.subarray(p.start * K, p.end * K);
      if (p.model.gbm) predictRaw(p.model.gbm, this.bins.subarray(p.start * F, p.end * F), F, m, o);
      if (p.model.linear) {
        const tmp = new Float64Array(this.n * K);
        const rows = Int32Array.from({ length: m }, (_, i) => p.start + i);
        predictLinearRows(p.model.linear, this.lin!, rows, tmp);
        for (let j = p.start * K; j < p.end * K; j++) out[j] += tmp[j];
      }
    }
    return out;
  }
}
