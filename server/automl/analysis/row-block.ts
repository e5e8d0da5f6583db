// A block of encoded rows copied out of the training data, whose inputs the analysis overwrites
// (one column shuffled for permutation importance, columns forced to missing for the missing-input
// calibration) and re-scores, each contiguous run of rows with the model that did not train on it.

import type { Encoded } from '../data/encoded';
import { type LinearRows, slotWidth } from '../data/layout';
import { type CompiledLeafTree, compileLeafTrees, predictRawFast } from '../gbm/compile';
import { type GBMModel, leafDimOf } from '../gbm/model';
import { leafOf } from '../gbm/predict';
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
    readonly enc: Encoded,
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
      const w = slotWidth(f);
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
      if (p.model.gbm)
        predictRawFast(p.model.gbm, this.bins.subarray(p.start * F, p.end * F), F, m, o);
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

/** Leaf ids kept per block (trees x rows) for incremental scoring; beyond, parts re-score fully. */
const MAX_CACHED_LEAVES = 10_000_000;

/**
 * Scores a block again and again after some of its features changed (a shuffled column, columns
 * forced to missing): only the trees that split on a changed feature are walked again, the others
 * keep their leaf from the first pass. Permutation importance on a 64-column table touches about a
 * fifth of the trees per column instead of all of them.
 */
export class BlockScorer {
  private readonly base: Float64Array;
  /** The linear parts' share of `base`. */
  private readonly baseLinear: Float64Array;
  /** Per part: leaf node of each (tree, row) (tree-major), or null when too large to keep. */
  private readonly leaves: (Int32Array | null)[];
  /** Per part: for each tree feature, the trees that split on it. */
  private readonly treesOf: (Int32Array[] | null)[];

  constructor(
    private readonly block: RowBlock,
    private readonly parts: BlockPart[],
    private readonly K: number,
  ) {
    this.base = block.score(parts, K);
    this.baseLinear = block.score(
      parts.map((p) => ({ ...p, model: { gbm: null, linear: p.model.linear } })),
      K,
    );
    this.leaves = parts.map((p) => {
      const g = p.model.gbm;
      const m = p.end - p.start;
      if (!g || g.nTrees * m > MAX_CACHED_LEAVES) return null;
      const ids = new Int32Array(g.nTrees * m);
      for (let t = 0; t < g.nTrees; t++) this.leavesOf(g, t, p.start, m, ids, t * m);
      return ids;
    });
    this.treesOf = parts.map((p, j) => {
      const g = p.model.gbm;
      if (!g || !this.leaves[j]) return null;
      const lists: number[][] = Array.from({ length: block.F }, () => []);
      for (let t = 0; t < g.nTrees; t++) {
        const s = g.roots[t];
        const e = t + 1 < g.nTrees ? g.roots[t + 1] : g.feat.length;
        const seen = new Set<number>();
        for (let i = s; i < e; i++) if (g.feat[i] >= 0) seen.add(g.feat[i]);
        for (const f of seen) lists[f].push(t);
      }
      return lists.map((l) => Int32Array.from(l));
    });
  }

  /** Leaf ids of tree t for block rows [start, start + m) into out[o ...]. */
  private leavesOf(g: GBMModel, t: number, start: number, m: number, out: Int32Array, o: number) {
    const F = this.block.F;
    const bins = this.block.bins;
    const compiled = leafTrees(g, m);
    if (compiled) {
      compiled[t](bins.subarray(start * F), F, m, out, o, g.catBits);
      return;
    }
    const root = g.roots[t];
    for (let i = 0; i < m; i++) {
      out[o + i] = leafOf(
        g.feat,
        g.thr,
        g.isCatNode,
        g.left,
        g.right,
        g.catBits,
        bins,
        (start + i) * F,
        root,
      );
    }
  }

  /** Raw scores of the block as its bins (and linear rows) are now; `changed`: the features that differ from the first pass. */
  score(changed: number[], out: Float64Array): Float64Array {
    const { block, K } = this;
    out.set(this.base);
    this.parts.forEach((p, j) => {
      const g = p.model.gbm;
      const ids = this.leaves[j];
      const lists = this.treesOf[j];
      const m = p.end - p.start;
      if (m <= 0) return;
      if (!ids || !lists) {
        // Not cached: this part is scored in full.
        const sub = block.score([p], K);
        for (let x = p.start * K; x < p.end * K; x++) out[x] = sub[x];
        return;
      }
      if (p.model.linear) {
        // The linear part is cheap to redo: swap its first-pass share for the current one.
        const lin = block.score([{ ...p, model: { gbm: null, linear: p.model.linear } }], K);
        for (let x = p.start * K; x < p.end * K; x++) out[x] += lin[x] - this.baseLinear[x];
      }
      const mark = new Uint8Array(g!.nTrees);
      for (const f of changed) for (const t of lists[f]) mark[t] = 1;
      const now = new Int32Array(m);
      const D = leafDimOf(g!);
      const v = g!.value;
      for (let t = 0; t < g!.nTrees; t++) {
        if (!mark[t]) continue;
        const k = t % K;
        this.leavesOf(g!, t, p.start, m, now, 0);
        for (let i = 0; i < m; i++) {
          const o = (p.start + i) * K;
          const a = now[i];
          const b = ids[t * m + i];
          if (D === 1) out[o + k] += v[a] - v[b];
          else for (let j = 0; j < D; j++) out[o + j] += v[a * D + j] - v[b * D + j];
        }
      }
    });
    return out;
  }
}

/** Leaf-id trees compiled per model, once the block is large enough to pay for compiling. */
const leafCache = new WeakMap<GBMModel, CompiledLeafTree[] | false>();

function leafTrees(g: GBMModel, m: number): CompiledLeafTree[] | null {
  let c = leafCache.get(g);
  if (c === undefined) {
    if (m < 20_000) return null;
    try {
      c = compileLeafTrees(g);
    } catch {
      c = false;
    }
    leafCache.set(g, c);
  }
  return c || null;
}
