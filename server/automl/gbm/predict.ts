// Tree walks: the one walk (leafOf) shared by training, validation and prediction, raw scores
// for a binned matrix, and the summary count of leaves.

import { type BinnedData, type GBMModel, leafDimOf } from './model';
import type { TreeOutput } from './node-store';

/**
 * The leaf a row of bins (starting at `base`) reaches from `root`: a numeric split sends bins up to
 * its threshold left; a categorical split sends the bins whose bit is set in the node's bitset
 * (starting at `thr`) left. The one tree walk of training, validation and prediction.
 */
export function leafOf(
  feat: Int32Array,
  thr: Int32Array,
  isCat: Uint8Array,
  left: Int32Array,
  right: Int32Array,
  bits: Uint32Array,
  bins: Uint8Array,
  base: number,
  root: number,
): number {
  let node = root;
  let f = feat[node];
  while (f >= 0) {
    const b = bins[base + f];
    const t = thr[node];
    const goLeft = isCat[node] ? (bits[t + (b >>> 5)] >>> (b & 31)) & 1 : b <= t ? 1 : 0;
    node = goLeft ? left[node] : right[node];
    f = feat[node];
  }
  return node;
}

/** Adds tree `treeIndex` of `out.store` to the scores of `rows` (absolute rows of `data`). */
export function addTreeToRows(
  out: TreeOutput,
  treeIndex: number,
  data: BinnedData,
  rows: Int32Array,
): void {
  applyTree(out, treeIndex, data, rows, 1);
}

/** Takes tree `treeIndex` of `out.store` off the scores of `rows` again. */
export function subtractTree(
  out: TreeOutput,
  treeIndex: number,
  data: BinnedData,
  rows: Int32Array,
): void {
  applyTree(out, treeIndex, data, rows, -1);
}

function applyTree(
  out: TreeOutput,
  treeIndex: number,
  data: BinnedData,
  rows: Int32Array,
  sign: number,
): void {
  const { store, raw, K, k } = out;
  const { bins, F } = data;
  const root = store.roots[treeIndex];
  const { feat, thr, isCat, left, right, value, bits, D } = store;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const leaf = leafOf(feat, thr, isCat, left, right, bits, bins, r * F, root);
    if (D === 1) raw[r * K + k] += sign * value[leaf];
    else for (let j = 0; j < D; j++) raw[r * K + j] += sign * value[leaf * D + j];
  }
}

/**
 * Raw scores for rows 0..n-1 of a row-major binned matrix into out[n * K]. Trees are the outer
 * loop so one tree's nodes stay in cache while all rows pass through it.
 */
export function predictRaw(
  m: GBMModel,
  bins: Uint8Array,
  F: number,
  n: number,
  out: Float64Array,
): void {
  fillBase(m, n, out);
  addTrees(m, bins, F, null, n, out);
}

/** The ensemble's base scores for rows 0..n-1 (the start of every prediction). */
export function fillBase(m: GBMModel, n: number, out: Float64Array): void {
  const K = m.K;
  for (let r = 0; r < n; r++) for (let k = 0; k < K; k++) out[r * K + k] = m.base[k];
}

/** Raw scores for selected rows of a binned matrix, written at raw[row * K + k]. */
export function predictRawRows(
  m: GBMModel,
  bins: Uint8Array,
  F: number,
  rows: ArrayLike<number>,
  raw: Float64Array,
): void {
  const K = m.K;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    for (let k = 0; k < K; k++) raw[r * K + k] = m.base[k];
  }
  addTrees(m, bins, F, rows, rows.length, raw);
}

/** Adds every tree of `m` to the scores of rows (`rows[i]`, or i when rows is null). */
function addTrees(
  m: GBMModel,
  bins: Uint8Array,
  F: number,
  rows: ArrayLike<number> | null,
  n: number,
  out: Float64Array,
): void {
  const K = m.K;
  const D = leafDimOf(m);
  const { feat, thr, isCatNode, left, right, value, catBits, roots } = m;
  for (let t = 0; t < m.nTrees; t++) {
    const root = roots[t];
    const k = t % K;
    for (let i = 0; i < n; i++) {
      const r = rows ? rows[i] : i;
      const leaf = leafOf(feat, thr, isCatNode, left, right, catBits, bins, r * F, root);
      if (D === 1) out[r * K + k] += value[leaf];
      else for (let j = 0; j < D; j++) out[r * K + j] += value[leaf * D + j];
    }
  }
}

/** Number of leaves in the largest tree (for the summary string). */
export function countLeaves(m: GBMModel): { trees: number; maxLeaves: number } {
  let maxL = 0;
  for (let t = 0; t < m.nTrees; t++) {
    const s = m.roots[t];
    const e = t + 1 < m.nTrees ? m.roots[t + 1] : m.feat.length;
    let l = 0;
    for (let i = s; i < e; i++) if (m.feat[i] < 0) l++;
    if (l > maxL) maxL = l;
  }
  return { trees: m.nTrees, maxLeaves: maxL };
}
