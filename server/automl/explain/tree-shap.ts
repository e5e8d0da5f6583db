// Exact TreeSHAP (Lundberg, Erion & Lee 2018, "Consistent individualized feature attribution for
// tree ensembles", Algorithm 2; the path-dependent variant of the shap library): per row, the
// Shapley value of each feature for a tree's output, with the training rows that reached each node
// (cover) as the distribution of the features a coalition leaves out. The values sum, with the
// tree's expected output, to the tree's output for the row. A tree's values depend on the row only
// through the side it takes at each split, so they are cached per pattern of sides.

import { type GBMModel, leafDimOf } from '../gbm/model';

/** Patterns cached per model (values of trees x patterns seen); beyond, trees are recomputed. */
const MAX_CACHED = 500_000;

/** One tree's explanation for one pattern: its features and their values (x D outputs). */
interface Entry {
  feats: Int32Array;
  phi: Float64Array;
}

/** The nodes of one tree, indexed from its root. */
interface TreeInfo {
  root: number;
  /** Internal nodes (their ids) in a fixed order: bit i of a pattern is internal[i]'s side. */
  internal: Int32Array;
  /** Bit of each internal node id (by id - root), -1 for leaves. */
  bitOf: Int32Array;
  /** Each internal node's split in `internal` order, side by side: the pattern's key reads them. */
  splitFeat: Int32Array;
  splitThr: Int32Array;
  splitCat: Uint8Array;
  maxDepth: number;
  /** Expected output (cover-weighted mean of the leaves), per output. */
  expected: Float64Array;
  cache: Map<number, Entry> | null;
}

/**
 * TreeSHAP for every tree of a GBM. `explain` adds each tree's feature values for a row (given
 * as a row of bins) to phi (F features x D outputs); `expected` is the ensemble's base plus the
 * trees' expected outputs (per score k of the model).
 */
export class TreeExplainer {
  private readonly trees: TreeInfo[];
  private readonly D: number;
  private cached = 0;
  // Scratch of the recursion: path elements per depth level (feature, zero / one fraction, weight).
  private readonly pf: Int32Array;
  private readonly pz: Float64Array;
  private readonly po: Float64Array;
  private readonly pw: Float64Array;
  private readonly stride: number;
  private readonly acc: Float64Array;
  private readonly touched: Int32Array;
  private nTouched = 0;
  private readonly mark: Uint8Array;

  constructor(
    private readonly m: GBMModel,
    private readonly F: number,
  ) {
    this.D = leafDimOf(m);
    this.trees = [];
    let maxDepth = 0;
    for (let t = 0; t < m.nTrees; t++) {
      const info = this.info(t);
      this.trees.push(info);
      maxDepth = Math.max(maxDepth, info.maxDepth);
    }
    this.stride = maxDepth + 2;
    const size = this.stride * (maxDepth + 3);
    this.pf = new Int32Array(size);
    this.pz = new Float64Array(size);
    this.po = new Float64Array(size);
    this.pw = new Float64Array(size);
    this.acc = new Float64Array(F * this.D);
    this.touched = new Int32Array(F);
    this.mark = new Uint8Array(F);
  }

  /** Cover of a node (even split below a node of unknown cover, as in models without covers). */
  private coverOf(node: number, parentCover: number): number {
    const c = this.m.cover ? this.m.cover[node] : NaN;
    return c === c ? c : parentCover / 2;
  }

  private info(t: number): TreeInfo {
    const m = this.m;
    const root = m.roots[t];
    const end = t + 1 < m.nTrees ? m.roots[t + 1] : m.feat.length;
    const internal: number[] = [];
    const bitOf = new Int32Array(end - root).fill(-1);
    for (let i = root; i < end; i++) {
      if (m.feat[i] >= 0) {
        bitOf[i - root] = internal.length;
        internal.push(i);
      }
    }
    const D = this.D;
    const expected = new Float64Array(D);
    let maxDepth = 0;
    const walk = (node: number, depth: number, share: number, cover: number): void => {
      maxDepth = Math.max(maxDepth, depth);
      if (m.feat[node] < 0) {
        for (let j = 0; j < D; j++) expected[j] += share * m.value[node * D + j];
        return;
      }
      const l = m.left[node];
      const r = m.right[node];
      const cl = this.coverOf(l, cover);
      const cr = this.coverOf(r, cover);
      const sum = cl + cr;
      walk(l, depth + 1, sum > 0 ? (share * cl) / sum : share / 2, cl);
      walk(r, depth + 1, sum > 0 ? (share * cr) / sum : share / 2, cr);
    };
    const rootCover = this.coverOf(root, 1);
    walk(root, 0, 1, rootCover === rootCover ? rootCover : 1);
    return {
      root,
      internal: Int32Array.from(internal),
      bitOf,
      splitFeat: Int32Array.from(internal, (i) => m.feat[i]),
      splitThr: Int32Array.from(internal, (i) => m.thr[i]),
      splitCat: Uint8Array.from(internal, (i) => (m.isCatNode[i] ? 1 : 0)),
      maxDepth,
      expected,
      // Patterns fit a 32-bit key up to 31 splits (maxLeaves <= 32).
      cache: internal.length <= 31 ? new Map() : null,
    };
  }

  /** `expected` by score, each summed once. */
  private readonly expectedOf = new Map<number, number>();

  /** Base value of score k: the ensemble's base plus every tree's expected output for it. */
  expected(k: number): number {
    let s = this.expectedOf.get(k);
    if (s === undefined) this.expectedOf.set(k, (s = this.sumExpected(k)));
    return s;
  }

  private sumExpected(k: number): number {
    const m = this.m;
    const K = m.K;
    let s = m.base[k];
    for (let t = 0; t < this.trees.length; t++) {
      if (this.D > 1) s += this.trees[t].expected[k];
      else if (t % K === k) s += this.trees[t].expected[0];
    }
    return s;
  }

  /** Does the row (bins at `base`) go left at internal node `node`? The split of leafOf. */
  private goesLeft(node: number, bins: Uint8Array, base: number): boolean {
    const m = this.m;
    const b = bins[base + m.feat[node]];
    const t = m.thr[node];
    return m.isCatNode[node] ? ((m.catBits[t + (b >>> 5)] >>> (b & 31)) & 1) === 1 : b <= t;
  }

  /**
   * Adds to phi[f] the Shapley values of score k for the row of bins at `base` (trees of score k
   * only, or output k of every vector-leaf tree).
   */
  explain(bins: Uint8Array, base: number, k: number, phi: Float64Array): void {
    const K = this.m.K;
    const D = this.D;
    for (let t = 0; t < this.trees.length; t++) {
      if (D === 1 && t % K !== k) continue;
      const e = this.entry(this.trees[t], bins, base);
      const j = D > 1 ? k : 0;
      for (let i = 0; i < e.feats.length; i++) phi[e.feats[i]] += e.phi[i * D + j];
    }
  }

  /**
   * `explain` for many rows, tree by tree (each tree's cache of patterns is then read while it
   * is warm, instead of every tree's in turn per row): adds to phi[i * F + f] the values of score
   * ks[i] for each row i of `rows`, whose bins start at i * stride. Each row gets the same
   * additions in the same order as `explain` gives it.
   */
  explainRows(
    bins: Uint8Array,
    stride: number,
    rows: Int32Array,
    ks: Int32Array,
    phi: Float64Array,
  ): void {
    const K = this.m.K;
    const D = this.D;
    const F = this.F;
    for (let t = 0; t < this.trees.length; t++) {
      const tree = this.trees[t];
      for (let r = 0; r < rows.length; r++) {
        const i = rows[r];
        const k = ks[i];
        if (D === 1 && t % K !== k) continue;
        const e = this.entry(tree, bins, i * stride);
        const j = D > 1 ? k : 0;
        const o = i * F;
        const feats = e.feats;
        for (let q = 0; q < feats.length; q++) phi[o + feats[q]] += e.phi[q * D + j];
      }
    }
  }

  private entry(tree: TreeInfo, bins: Uint8Array, base: number): Entry {
    let key = 0;
    if (tree.cache) {
      const catBits = this.m.catBits;
      const { splitFeat, splitThr, splitCat } = tree;
      for (let i = 0; i < splitFeat.length; i++) {
        const b = bins[base + splitFeat[i]];
        const t = splitThr[i];
        const left = splitCat[i] ? (catBits[t + (b >>> 5)] >>> (b & 31)) & 1 : b <= t ? 1 : 0;
        key |= left << i;
      }
      const hit = tree.cache.get(key);
      if (hit) return hit;
    }
    const e = this.compute(tree, bins, base);
    if (tree.cache && this.cached < MAX_CACHED) {
      tree.cache.set(key, e);
      this.cached++;
    }
    return e;
  }

  /** Algorithm 2 for one tree and row: the values of the features the tree splits on. */
  private compute(tree: TreeInfo, bins: Uint8Array, base: number): Entry {
    const D = this.D;
    this.nTouched = 0;
    const rootCover = this.coverOf(tree.root, 1);
    this.recurse(tree.root, 0, 0, 1, 1, -1, bins, base, rootCover === rootCover ? rootCover : 1);
    const feats = Int32Array.from(this.touched.subarray(0, this.nTouched));
    const phi = new Float64Array(feats.length * D);
    feats.forEach((f, i) => {
      for (let j = 0; j < D; j++) {
        phi[i * D + j] = this.acc[f * D + j];
        this.acc[f * D + j] = 0;
      }
      this.mark[f] = 0;
    });
    return { feats, phi };
  }

  private addPhi(f: number, j: number, v: number): void {
    if (!this.mark[f]) {
      this.mark[f] = 1;
      this.touched[this.nTouched++] = f;
    }
    this.acc[f * this.D + j] += v;
  }

  /**
   * The node at tree depth `level` inherits `depth` elements of its parent's unique path (at
   * level - 1; each level has its own segment, so the parent's path survives for its other
   * child) and extends it with (pz, po, pfeat).
   */
  private recurse(
    node: number,
    level: number,
    depth: number,
    pz: number,
    po: number,
    pfeat: number,
    bins: Uint8Array,
    base: number,
    cover: number,
  ): void {
    const m = this.m;
    const { pf, pw } = this;
    const S = this.stride;
    const o = level * S;
    if (level > 0) {
      const p = o - S;
      for (let i = 0; i < depth; i++) {
        pf[o + i] = pf[p + i];
        this.pz[o + i] = this.pz[p + i];
        this.po[o + i] = this.po[p + i];
        pw[o + i] = pw[p + i];
      }
    }
    this.extend(o, depth, pz, po, pfeat);
    const f = m.feat[node];
    if (f < 0) {
      const D = this.D;
      for (let i = 1; i <= depth; i++) {
        const w = this.unwoundSum(o, depth, i);
        const scale = w * (this.po[o + i] - this.pz[o + i]);
        for (let j = 0; j < D; j++) this.addPhi(pf[o + i], j, scale * m.value[node * D + j]);
      }
      return;
    }
    const left = this.goesLeft(node, bins, base);
    const hot = left ? m.left[node] : m.right[node];
    const cold = left ? m.right[node] : m.left[node];
    const ch = this.coverOf(hot, cover);
    const cc = this.coverOf(cold, cover);
    const total = ch + cc;
    const hotZero = total > 0 ? ch / total : 0.5;
    const coldZero = total > 0 ? cc / total : 0.5;
    let inZero = 1;
    let inOne = 1;
    let d = depth;
    // A feature met again on this path: undo its earlier split so it counts once.
    for (let i = 1; i <= d; i++) {
      if (pf[o + i] === f) {
        inZero = this.pz[o + i];
        inOne = this.po[o + i];
        this.unwind(o, d, i);
        d--;
        break;
      }
    }
    this.recurse(hot, level + 1, d + 1, hotZero * inZero, inOne, f, bins, base, ch);
    this.recurse(cold, level + 1, d + 1, coldZero * inZero, 0, f, bins, base, cc);
  }

  private extend(o: number, d: number, pz: number, po: number, pfeat: number): void {
    const { pf, pw } = this;
    pf[o + d] = pfeat;
    this.pz[o + d] = pz;
    this.po[o + d] = po;
    pw[o + d] = d === 0 ? 1 : 0;
    for (let i = d - 1; i >= 0; i--) {
      pw[o + i + 1] += (po * pw[o + i] * (i + 1)) / (d + 1);
      pw[o + i] = (pz * pw[o + i] * (d - i)) / (d + 1);
    }
  }

  private unwind(o: number, d: number, idx: number): void {
    const { pf, pw } = this;
    const one = this.po[o + idx];
    const zero = this.pz[o + idx];
    let next = pw[o + d];
    for (let i = d - 1; i >= 0; i--) {
      if (one !== 0) {
        const tmp = pw[o + i];
        pw[o + i] = (next * (d + 1)) / ((i + 1) * one);
        next = tmp - (pw[o + i] * zero * (d - i)) / (d + 1);
      } else {
        pw[o + i] = (pw[o + i] * (d + 1)) / (zero * (d - i));
      }
    }
    for (let i = idx; i < d; i++) {
      pf[o + i] = pf[o + i + 1];
      this.pz[o + i] = this.pz[o + i + 1];
      this.po[o + i] = this.po[o + i + 1];
    }
  }

  private unwoundSum(o: number, d: number, idx: number): number {
    const pw = this.pw;
    const one = this.po[o + idx];
    const zero = this.pz[o + idx];
    let next = pw[o + d];
    let total = 0;
    if (one !== 0) {
      for (let i = d - 1; i >= 0; i--) {
        const tmp = next / ((i + 1) * one);
        total += tmp;
        next = pw[o + i] - tmp * zero * (d - i);
      }
    } else {
      for (let i = d - 1; i >= 0; i--) total += pw[o + i] / (zero * (d - i));
    }
    return total * (d + 1);
  }
}
