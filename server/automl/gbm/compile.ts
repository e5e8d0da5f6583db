// Compiled prediction: each tree becomes a JS function of nested ifs (no node-array loads).

import { type BinnedData, type GBMModel, leafDimOf } from './model';
import { fillBase, predictRaw } from './predict';
import type { TreeOutput } from './node-store';

/** A compiled tree: adds its leaf value to out[r * K + k] for rows 0..n-1 of a binned matrix. */
export type CompiledTree = (
  bins: Uint8Array,
  F: number,
  n: number,
  out: Float64Array,
  catBits: Uint32Array,
) => void;

/** Literal for generated code; the model arrays are typed arrays, so this only ever sees numbers. */
function lit(x: number): string {
  if (!Number.isFinite(x)) throw new Error('non-finite number in model');
  return Object.is(x, -0) ? '0' : String(x);
}

/**
 * Compiles each tree to a JS function of nested ifs that loops over the rows (V8 turns it into
 * straight-line compares on constants: no node-array loads), about 3-5x faster than walking the
 * node arrays. Only numbers from typed arrays are written into the source, so a tampered
 * artifact cannot inject code. One function per tree keeps each function small enough for the
 * optimising compiler.
 */
export function compileTrees(m: GBMModel): CompiledTree[] {
  const out: CompiledTree[] = [];
  const K = m.K;
  const D = leafDimOf(m);
  for (let t = 0; t < m.nTrees; t++) {
    const k = t % K;
    const src =
      D > 1
        ? `for (let r = 0, b = 0, q = 0; r < n; r++, b += F, q += ${lit(K)}) {\n${emitNode(m, m.roots[t], '      ', 'vector', D)}\n  }`
        : `for (let r = 0, b = 0; r < n; r++, b += F) {\n    let v;\n${emitNode(m, m.roots[t], '      ')}\n    out[r * ${lit(K)} + ${lit(k)}] += v;\n  }`;
    out.push(new Function('bins', 'F', 'n', 'out', 'catBits', src) as CompiledTree);
  }
  return out;
}

/** The node arrays code generation reads (a GBMModel, or a NodeStore while training). */
type TreeArrays = Pick<GBMModel, 'feat' | 'thr' | 'isCatNode' | 'left' | 'right' | 'value'>;

/**
 * Emits the tree under `node` as nested ifs: setting `v` to the leaf's value, or
 * ('vector') adding the leaf's D values to out[q + j].
 */
function emitNode(
  m: TreeArrays,
  node: number,
  ind: string,
  leaf: 'value' | 'vector' = 'value',
  D = 1,
): string {
  const f = m.feat[node];
  if (f < 0) {
    if (leaf === 'value') return `${ind}v = ${lit(m.value[node])};`;
    const adds: string[] = [];
    for (let j = 0; j < D; j++) adds.push(`out[q + ${j}] += ${lit(m.value[node * D + j])};`);
    return ind + adds.join(' ');
  }
  const th = m.thr[node];
  const x = `bins[b + ${lit(f)}]`;
  const cond = m.isCatNode[node]
    ? `(catBits[${lit(th)} + (${x} >>> 5)] >>> (${x} & 31)) & 1`
    : `${x} <= ${lit(th)}`;
  const inner = ind + '  ';
  return `${ind}if (${cond}) {\n${emitNode(m, m.left[node], inner, leaf, D)}\n${ind}} else {\n${emitNode(m, m.right[node], inner, leaf, D)}\n${ind}}`;
}

/**
 * Whether a model's trees are worth compiling for prediction: not vector-leaf trees (every
 * multiclass model's), whose generated functions (a leaf adds K values) ran slower than the node
 * walk even once V8 had optimised them, and far slower before: a 10-class 64-input model's
 * 4,096-row slices took 790, 2,056, 1,289, 852, 456, 241 ms compiled, 167, 51, 41, 45, 61, 40 ms
 * walked (a fresh predictor each, load 6).
 */
export function compilesWell(m: Pick<GBMModel, 'leafDim'>): boolean {
  return leafDimOf(m) === 1;
}

/** Compiled trees per model, made on first use (when the work is large enough to pay off). */
const compiledCache = new WeakMap<GBMModel, CompiledTree[] | false>();

/**
 * Rows in one call from which compiling (~0.1 ms a tree) beats walking the node arrays: a fresh
 * function runs unoptimised until V8 has seen its loop for a while, so a model scored a few times
 * on a few thousand rows is faster walked (the one walk loop is hot from training).
 */
const COMPILE_MIN_ROWS = 20_000;

/**
 * predictRaw, with the trees compiled to JS when n x trees is large enough (the same additions
 * in the same order, bit for bit). Falls back to the walk when code generation is unavailable.
 */
export function predictRawFast(
  m: GBMModel,
  bins: Uint8Array,
  F: number,
  n: number,
  out: Float64Array,
): void {
  let trees = compiledCache.get(m);
  if (trees === undefined && n >= COMPILE_MIN_ROWS) {
    try {
      trees = compileTrees(m);
    } catch {
      trees = false;
    }
    compiledCache.set(m, trees);
  }
  if (trees) predictRawCompiled(m, trees, bins, F, n, out);
  else predictRaw(m, bins, F, n, out);
}

/** A compiled tree adding its leaf value to raw[rows[i] * K + k] for i < n. */
type CompiledRowsTree = (
  bins: Uint8Array,
  F: number,
  rows: Int32Array,
  n: number,
  raw: Float64Array,
  catBits: Uint32Array,
) => void;

/**
 * addTreeToRows for many rows: the tree compiled to nested ifs (see compileTrees), applied to each
 * of `rowSets`. Worth its compile time only from tens of thousands of rows; the additions are the
 * same, bit for bit.
 */
export function addTreeToRowsCompiled(
  out: TreeOutput,
  treeIndex: number,
  data: BinnedData,
  ...rowSets: Int32Array[]
): void {
  const { store, raw, K, k } = out;
  const { bins, F } = data;
  const t: TreeArrays = {
    feat: store.feat,
    thr: store.thr,
    isCatNode: store.isCat,
    left: store.left,
    right: store.right,
    value: store.value,
  };
  const D = store.D;
  const src =
    D > 1
      ? `for (let i = 0; i < n; i++) {\n    const r = rows[i];\n    const b = r * F;\n    const q = r * ${lit(K)};\n${emitNode(t, store.roots[treeIndex], '    ', 'vector', D).replace(/out\[/g, 'raw[')}\n  }`
      : `for (let i = 0; i < n; i++) {\n    const r = rows[i];\n    const b = r * F;\n    let v;\n${emitNode(t, store.roots[treeIndex], '    ')}\n    raw[r * ${lit(K)} + ${lit(k)}] += v;\n  }`;
  const fn = new Function('bins', 'F', 'rows', 'n', 'raw', 'catBits', src) as CompiledRowsTree;
  for (const rows of rowSets) fn(bins, F, rows, rows.length, raw, store.bits);
}

/** predictRaw with compiled trees (same results, bit for bit: same additions in the same order). */
export function predictRawCompiled(
  m: GBMModel,
  trees: CompiledTree[],
  bins: Uint8Array,
  F: number,
  n: number,
  out: Float64Array,
): void {
  fillBase(m, n, out);
  for (let t = 0; t < trees.length; t++) trees[t](bins, F, n, out, m.catBits);
}
