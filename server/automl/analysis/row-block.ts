// A block of encoded rows copied out of the training data, whose inputs the analysis overwrites
// (one column shuffled for permutation importance, columns forced to missing for the missing-input
// calibration) and re-scores, each contiguous run of rows with the model that did not train on it.

import type { Encoded } from '../data/encoded';
import { type LinearRows, slotWidth } from '../data/layout';
import { predictRawFast } from '../gbm/compile';
import { leafDimOf } from '../gbm/model';
import { leafOf, pathLeaves } from '../gbm/predict';
import { predictLinearRows } from '../linear/linear';
import type { ScoreModel } from '../predict/score';

/** Rows [start, end) of a block are scored with `model`. */
export interface BlockPart {
  model: ScoreModel;
  start: number;
  end: number;
}

/**
 * A block's rows as plain typed arrays (structured-cloneable): what another thread needs to
 * rebuild the block and re-score it (analysis/tasks.ts).
 */
export interface BlockData {
  n: number;
  F: number;
  /** Row-major bins (n x F), as encoded. */
  bins: Uint8Array;
  /** The linear model's sparse rows, when the table has a linear encoding. */
  lin: LinearRows | null;
  /** Linear slots of each tree feature: first slot and count (same order as linearRows()). */
  featSlot: number[];
  featWidth: number[];
}

/** The encoding of an absent input (one row of encode() on no columns) as plain arrays. */
export interface MissingRow {
  /** One bin per tree feature. */
  bins: Uint8Array;
  /** Linear slots (idx, val), when the table has a linear encoding. */
  idx: Int32Array | null;
  val: Float64Array | null;
}

export function missingRow(missing: Encoded): MissingRow {
  return {
    bins: missing.binned.bins.slice(0, missing.binned.F),
    idx: missing.linear ? missing.linear.idx.slice(0, missing.linear.slots) : null,
    val: missing.linear ? missing.linear.val.slice(0, missing.linear.slots) : null,
  };
}

/**
 * A block of rows whose inputs are overwritten (a column permuted across the block's rows, columns
 * forced to missing) and re-scored; `data` keeps the rows as encoded, to restore from. A block may
 * cover a range [start, end) of the data's rows only (a share of the work for one thread); its
 * row i is then the data's row start + i, and permutations still draw from all the data's rows.
 */
export class Block {
  readonly n: number;
  readonly F: number;
  /** Row-major bins of the block (n x F), as currently overwritten. */
  readonly bins: Uint8Array;
  private readonly lin: LinearRows | null;

  constructor(
    readonly data: BlockData,
    readonly start = 0,
    end = data.n,
  ) {
    const F = (this.F = data.F);
    const n = (this.n = end - start);
    this.bins = data.bins.slice(start * F, end * F);
    const L = data.lin;
    this.lin = L
      ? {
          n,
          slots: L.slots,
          idx: L.idx.slice(start * L.slots, end * L.slots),
          val: L.val.slice(start * L.slots, end * L.slots),
        }
      : null;
  }

  /** Feature f of block row i takes the value (as encoded) of the data's row perm[i]. */
  permuteFeature(f: number, perm: ArrayLike<number>): void {
    this.copyFrom(f, (i) => perm[i]);
  }

  /** Feature f of every block row back to the row's own value. */
  restoreFeature(f: number): void {
    const start = this.start;
    this.copyFrom(f, (i) => start + i);
  }

  private copyFrom(f: number, src: (i: number) => number): void {
    const { F, bins, n } = this;
    const from = this.data.bins;
    for (let i = 0; i < n; i++) bins[i * F + f] = from[src(i) * F + f];
    const L = this.data.lin;
    const lin = this.lin;
    if (!L || !lin) return;
    const S = L.slots;
    for (let s = this.data.featSlot[f], e = s + this.data.featWidth[f]; s < e; s++) {
      for (let i = 0; i < n; i++) {
        lin.idx[i * S + s] = L.idx[src(i) * S + s];
        lin.val[i * S + s] = L.val[src(i) * S + s];
      }
    }
  }

  /** Feature f of every block row set to its encoding of an absent input, as the predictor does. */
  setMissing(f: number, missing: MissingRow): void {
    const { F, bins, n } = this;
    const b = missing.bins[f];
    for (let i = 0; i < n; i++) bins[i * F + f] = b;
    const lin = this.lin;
    if (!lin || !missing.idx || !missing.val) return;
    const S = lin.slots;
    for (let s = this.data.featSlot[f], e = s + this.data.featWidth[f]; s < e; s++) {
      for (let i = 0; i < n; i++) {
        lin.idx[i * S + s] = missing.idx[s];
        lin.val[i * S + s] = missing.val[s];
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

/** Parts of a block's rows [start, end), renumbered from 0 (empty parts dropped). */
export function partsInRange(parts: BlockPart[], start: number, end: number): BlockPart[] {
  return parts
    .map((p) => ({
      model: p.model,
      start: Math.max(p.start, start) - start,
      end: Math.min(p.end, end) - start,
    }))
    .filter((p) => p.end > p.start);
}

/** A block's work is shared in at most this many row ranges of at least CHUNK_MIN_ROWS rows. */
const MAX_CHUNKS = 8;
const CHUNK_MIN_ROWS = 128;

/**
 * The row ranges a block's work is shared in (threads/ shareTasks): always the same for a
 * block size, whatever the number of threads, so sums over them are too. Several per thread, so
 * the training thread takes more of them while the model thread is slow (its code is cold: each
 * training starts its own).
 */
export function blockChunks(n: number): [number, number][] {
  const k = Math.max(1, Math.min(MAX_CHUNKS, Math.floor(n / CHUNK_MIN_ROWS)));
  return Array.from({ length: k }, (_, c): [number, number] => [
    Math.floor((c * n) / k),
    Math.floor(((c + 1) * n) / k),
  ]);
}

/** The bins of `rows` (positions in the encoded data), row-major (rows x F). */
export function rowBins(enc: Encoded, rows: Int32Array): Uint8Array {
  const F = enc.binned.F;
  const bins = new Uint8Array(rows.length * F);
  for (let i = 0; i < rows.length; i++)
    bins.set(enc.binned.bins.subarray(rows[i] * F, rows[i] * F + F), i * F);
  return bins;
}

/** The rows of `rows` (positions in the encoded data) copied out as a block's data. */
function blockData(enc: Encoded, rows: Int32Array): BlockData {
  const n = rows.length;
  const F = enc.binned.F;
  const bins = rowBins(enc, rows);
  const featSlot: number[] = [];
  const featWidth: number[] = [];
  let s0 = 0;
  for (const f of enc.layout.features) {
    featSlot.push(s0);
    const w = slotWidth(f);
    featWidth.push(w);
    s0 += w;
  }
  const L = enc.linear;
  let lin: LinearRows | null = null;
  if (L) {
    const S = L.slots;
    const idx = new Int32Array(n * S);
    const val = new Float64Array(n * S);
    for (let i = 0; i < n; i++) {
      idx.set(L.idx.subarray(rows[i] * S, rows[i] * S + S), i * S);
      val.set(L.val.subarray(rows[i] * S, rows[i] * S + S), i * S);
    }
    lin = { n, slots: S, idx, val };
  }
  return { n, F, bins, lin, featSlot, featWidth };
}

/** A block of encoded rows copied out of the training data (positions `rows`). */
export class RowBlock extends Block {
  constructor(
    readonly enc: Encoded,
    /** Positions in the encoded data of the block's rows, in block order. */
    readonly rows: Int32Array,
  ) {
    super(blockData(enc, rows));
  }
}

/** Leaf ids kept per block (trees x rows) for incremental scoring; beyond, parts re-score fully. */
const MAX_CACHED_LEAVES = 10_000_000;

/**
 * Scores a block again and again after some of its features changed (a shuffled column, columns
 * forced to missing): only the trees that split on a changed feature are walked again, and in
 * them only the rows whose path tests a changed feature (gbm/predict.ts pathLeaves); the others
 * keep their leaf from the first pass. Permutation importance on a 9-column table re-walks about
 * half the (tree, row) paths of the trees it touches instead of all of them.
 */
export class BlockScorer {
  private readonly base: Float64Array;
  /** The linear parts' share of `base`. */
  private readonly baseLinear: Float64Array;
  /** Per part: leaf node of each (tree, row) (tree-major), or null when too large to keep. */
  private readonly leaves: (Int32Array | null)[];
  /** Per part: the features (bit f & 31) each (tree, row) path tests, as `leaves`. */
  private readonly masks: (Int32Array | null)[];
  /** Per part: for each tree feature, the trees that split on it. */
  private readonly treesOf: (Int32Array[] | null)[];

  constructor(
    private readonly block: Block,
    private readonly parts: BlockPart[],
    private readonly K: number,
  ) {
    this.base = block.score(parts, K);
    this.baseLinear = block.score(
      parts.map((p) => ({ ...p, model: { gbm: null, linear: p.model.linear } })),
      K,
    );
    const F = block.F;
    this.masks = parts.map(() => null);
    this.leaves = parts.map((p, j) => {
      const g = p.model.gbm;
      const m = p.end - p.start;
      if (!g || g.nTrees * m > MAX_CACHED_LEAVES) return null;
      const ids = new Int32Array(g.nTrees * m);
      const masks = new Int32Array(g.nTrees * m);
      const bins = block.bins.subarray(p.start * F);
      for (let t = 0; t < g.nTrees; t++) pathLeaves(g, g.roots[t], bins, F, m, ids, masks, t * m);
      this.masks[j] = masks;
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

  /** Raw scores of the block as its bins (and linear rows) are now; `changed`: the features that differ from the first pass. */
  score(changed: number[], out: Float64Array): Float64Array {
    const { block, K } = this;
    const F = block.F;
    const bins = block.bins;
    out.set(this.base);
    let changedMask = 0;
    for (const f of changed) changedMask |= 1 << (f & 31);
    this.parts.forEach((p, j) => {
      const g = p.model.gbm;
      const ids = this.leaves[j];
      const masks = this.masks[j];
      const lists = this.treesOf[j];
      const m = p.end - p.start;
      if (m <= 0) return;
      if (!ids || !masks || !lists) {
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
      const { feat, thr, isCatNode, left, right, catBits, value: v } = g!;
      const mark = new Uint8Array(g!.nTrees);
      for (const f of changed) for (const t of lists[f]) mark[t] = 1;
      const D = leafDimOf(g!);
      for (let t = 0; t < g!.nTrees; t++) {
        if (!mark[t]) continue;
        const k = t % K;
        const root = g!.roots[t];
        for (let i = 0; i < m; i++) {
          const x = t * m + i;
          if ((masks[x] & changedMask) === 0) continue;
          const a = leafOf(
            feat,
            thr,
            isCatNode,
            left,
            right,
            catBits,
            bins,
            (p.start + i) * F,
            root,
          );
          const b = ids[x];
          if (a === b) continue;
          const o = (p.start + i) * K;
          if (D === 1) out[o + k] += v[a] - v[b];
          else for (let c = 0; c < D; c++) out[o + c] += v[a * D + c] - v[b * D + c];
        }
      }
    });
    return out;
  }
}
