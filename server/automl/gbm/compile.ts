// Compiled prediction: each tree becomes a JS function of nested ifs (no node-array loads).

import { type BinnedData, type GBMModel, leafDimOf } from './model';
import { fillBase, predictRaw } from './predict';
import type { TreeOutput } from './node-store';

/**
 * A compiled group of trees: adds the leaf values of its trees, in tree order, to the scores of
 * rows 0..n-1 of a binned matrix (out[r * K + k]).
 */
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
 * Nodes per generated function: a group of whole trees up to this many nodes. Small enough for
 * V8's optimising compiler (one function of a model's 1,638 nodes stayed unoptimised: 400 ms for
 * 10k rows against 11 ms in groups), large enough that a row's scores stay in a register across
 * the group's trees and a model is a few dozen functions to optimise, not one per tree.
 */
export const GROUP_NODES = 512;

/**
 * Compiles the trees to JS functions of nested ifs, a group of consecutive trees per function
 * (GROUP_NODES): each function loops over the rows, reads the bins its trees test once per row
 * and walks its trees in order, adding each leaf's value(s) as the node walk does (the same
 * additions in the same order, bit for bit). V8 turns the ifs into compares on constants: no
 * node-array loads. Only numbers from typed arrays are written into the source, so a tampered
 * artifact cannot inject code. Vector leaves (multiclass) set the leaf's offset and add its K
 * values after the tree.
 *
 * A new function runs unoptimised until V8 has run it for a while, and a branch it never took
 * until then sends the optimised code back to the unoptimised one when first taken: call
 * `warmCompiled` before timing-sensitive use.
 */
export function compileTrees(m: GBMModel): CompiledTree[] {
  return treeGroups(m).map((trees) => compileGroup(m, trees));
}

/**
 * The trees of each function `compileTrees` makes: consecutive whole trees up to GROUP_NODES nodes
 * (a bigger tree alone). What one step of a warm-up compiles and runs (`warmGroup`).
 */
export function treeGroups(m: Pick<GBMModel, 'roots' | 'nTrees' | 'feat'>): number[][] {
  const groups: number[][] = [];
  let t = 0;
  while (t < m.nTrees) {
    const trees: number[] = [];
    let nodes = 0;
    while (t < m.nTrees) {
      const size = treeSize(m, t);
      if (trees.length > 0 && nodes + size > GROUP_NODES) break;
      nodes += size;
      trees.push(t++);
    }
    groups.push(trees);
  }
  return groups;
}

/** The function of one group of trees (`treeGroups`): see `compileTrees`. */
export function compileGroup(m: GBMModel, trees: readonly number[]): CompiledTree {
  const K = m.K;
  const D = leafDimOf(m);
  const used = new Set<number>();
  for (const tr of trees) featuresOf(m, m.roots[tr], used);
  const vars = new Map<number, string>();
  for (const f of [...used].sort((a, b) => a - b)) vars.set(f, `x${f}`);
  let body = [...vars].map(([f, v]) => `const ${v} = bins[b + ${lit(f)}];`).join(' ') + '\n';
  if (D > 1) {
    const adds = Array.from({ length: D }, (_, j) => `out[q + ${j}] += value[l + ${j}];`);
    body += `    const q = r * ${lit(K)};\n    let l = 0;\n`;
    for (const tr of trees)
      body += `${emitNode(m, m.roots[tr], '    ', vars, D)}\n    ${adds.join(' ')}\n`;
  } else if (K === 1) {
    // One score per row: kept in a register across the group (the same sums, in tree order).
    body += '    let a = out[r];\n    let v = 0;\n';
    for (const tr of trees) body += `${emitNode(m, m.roots[tr], '    ', vars, 1)}\n    a += v;\n`;
    body += '    out[r] = a;\n';
  } else {
    body += '    let v = 0;\n';
    for (const tr of trees)
      body += `${emitNode(m, m.roots[tr], '    ', vars, 1)}\n    out[r * ${lit(K)} + ${lit(tr % K)}] += v;\n`;
  }
  const src = `return function group(bins, F, n, out, catBits) {\n  for (let r = 0, b = 0; r < n; r++, b += F) {\n    ${body}  }\n};`;
  return (new Function('value', src) as (v: Float64Array) => CompiledTree)(m.value);
}

/** Nodes of tree t (its root to the next root, or to the end). */
function treeSize(m: Pick<GBMModel, 'roots' | 'nTrees' | 'feat'>, t: number): number {
  return (t + 1 < m.nTrees ? m.roots[t + 1] : m.feat.length) - m.roots[t];
}

/** Adds the features the tree under `node` tests to `into`. */
function featuresOf(m: TreeArrays, node: number, into: Set<number>): void {
  const stack = [node];
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (m.feat[i] < 0) continue;
    into.add(m.feat[i]);
    stack.push(m.left[i], m.right[i]);
  }
}

/** The node arrays code generation reads (a GBMModel, or a NodeStore while training). */
type TreeArrays = Pick<GBMModel, 'feat' | 'thr' | 'isCatNode' | 'left' | 'right' | 'value'>;

/**
 * Emits the tree under `node` as nested ifs over the row's bins (`vars`: the variable holding
 * each feature's bin, else `bins[b + f]`): a leaf sets `v` to its value, or with vector leaves
 * (D > 1) `l` to the offset of its D values.
 */
function emitNode(
  m: TreeArrays,
  node: number,
  ind: string,
  vars: Map<number, string> | null,
  D: number,
): string {
  const f = m.feat[node];
  if (f < 0) return D > 1 ? `${ind}l = ${lit(node * D)};` : `${ind}v = ${lit(m.value[node])};`;
  const th = m.thr[node];
  const x = vars?.get(f) ?? `bins[b + ${lit(f)}]`;
  const cond = m.isCatNode[node]
    ? `(catBits[${lit(th)} + (${x} >>> 5)] >>> (${x} & 31)) & 1`
    : `${x} <= ${lit(th)}`;
  const inner = ind + '  ';
  return `${ind}if (${cond}) {\n${emitNode(m, m.left[node], inner, vars, D)}\n${ind}} else {\n${emitNode(m, m.right[node], inner, vars, D)}\n${ind}}`;
}

/**
 * Whether a model's trees are worth compiling for prediction: yes, vector leaves included since
 * trees are compiled in groups (the bench's 10-class 64-input model, 10k rows: 11 ms against 38
 * walked once optimised; one function per tree ran slower than the walk).
 */
export function compilesWell(_m: Pick<GBMModel, 'leafDim'>): boolean {
  return true;
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
  const adds = Array.from({ length: D }, (_, j) => `raw[q + ${j}] += value[l + ${j}];`);
  const src =
    D > 1
      ? `return function (bins, F, rows, n, raw, catBits) {\n  for (let i = 0; i < n; i++) {\n    const r = rows[i];\n    const b = r * F;\n    const q = r * ${lit(K)};\n    let l = 0;\n${emitNode(t, store.roots[treeIndex], '    ', null, D)}\n    ${adds.join(' ')}\n  }\n};`
      : `return function (bins, F, rows, n, raw, catBits) {\n  for (let i = 0; i < n; i++) {\n    const r = rows[i];\n    const b = r * F;\n    let v;\n${emitNode(t, store.roots[treeIndex], '    ', null, 1)}\n    raw[r * ${lit(K)} + ${lit(k)}] += v;\n  }\n};`;
  const fn = (new Function('value', src) as (v: Float64Array) => CompiledRowsTree)(store.value);
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

/** Bins a feature's bitset covers (bins are bytes). */
const BIN_WORDS = 8;

/**
 * Rows of bins that together reach every leaf of every tree: each row takes, tree by tree, the
 * first leaf not reached yet whose path agrees with what the row has fixed so far (a path fixes
 * a set of bins per feature it tests), then each feature's lowest allowed bin; `trees`: those
 * trees' leaves only (a group's, `treeGroups`). A feature's bins
 * are 0..nBins[f]-1 (absent: up to 255, or 31 for a feature some categorical split tests). At
 * most `maxRows` rows; a leaf no row within those bins reaches is left out. With `trees`, the
 * leaves of those trees only (a group's: `treeGroups`).
 */
export function coverageRows(
  m: GBMModel,
  F: number,
  nBins?: ArrayLike<number>,
  maxRows = 1024,
  trees?: readonly number[],
): Uint8Array {
  const domain = new Uint32Array(F * BIN_WORDS);
  const catFeature = new Uint8Array(F);
  for (let i = 0; i < m.feat.length; i++)
    if (m.feat[i] >= 0 && m.isCatNode[i]) catFeature[m.feat[i]] = 1;
  for (let f = 0; f < F; f++) {
    const nb = Math.min(256, nBins ? nBins[f] : catFeature[f] ? 32 : 256);
    for (let x = 0; x < nb; x++) domain[f * BIN_WORDS + (x >>> 5)] |= 1 << (x & 31);
  }
  // Per tree, its leaves' paths: the features tested and the bins each allows (set per feature).
  const paths: { feats: number[]; sets: Uint32Array }[][] = [];
  for (const t of trees ?? Array.from({ length: m.nTrees }, (_, t) => t)) {
    const leaves: { feats: number[]; sets: Uint32Array }[] = [];
    const walk = (node: number, feats: number[], sets: Uint32Array) => {
      const f = m.feat[node];
      if (f < 0) {
        leaves.push({ feats, sets });
        return;
      }
      let at = feats.indexOf(f);
      const grown = at < 0 ? [...feats, f] : feats;
      if (at < 0) at = feats.length;
      const left = new Uint32Array(grown.length * BIN_WORDS);
      left.set(sets);
      if (at === feats.length)
        left.set(domain.subarray(f * BIN_WORDS, f * BIN_WORDS + BIN_WORDS), at * BIN_WORDS);
      const right = left.slice();
      for (let x = 0; x < 256; x++) {
        const goLeft = m.isCatNode[node]
          ? (m.catBits[m.thr[node] + (x >>> 5)] >>> (x & 31)) & 1
          : x <= m.thr[node]
            ? 1
            : 0;
        const w = at * BIN_WORDS + (x >>> 5);
        (goLeft ? right : left)[w] &= ~(1 << (x & 31));
      }
      walk(m.left[node], grown, left);
      walk(m.right[node], grown, right);
    };
    walk(m.roots[t], [], new Uint32Array(0));
    paths.push(leaves);
  }
  const rows: Uint8Array[] = [];
  const allowed = new Uint32Array(F * BIN_WORDS);
  const fits = (p: { feats: number[]; sets: Uint32Array }) => {
    for (let j = 0; j < p.feats.length; j++) {
      const a = p.feats[j] * BIN_WORDS;
      let any = 0;
      for (let w = 0; w < BIN_WORDS; w++) any |= allowed[a + w] & p.sets[j * BIN_WORDS + w];
      if (any === 0) return false;
    }
    return true;
  };
  while (rows.length < maxRows) {
    allowed.set(domain);
    let took = 0;
    for (const leaves of paths) {
      const i = leaves.findIndex(fits);
      if (i < 0) continue;
      const p = leaves[i];
      for (let j = 0; j < p.feats.length; j++)
        for (let w = 0; w < BIN_WORDS; w++)
          allowed[p.feats[j] * BIN_WORDS + w] &= p.sets[j * BIN_WORDS + w];
      leaves.splice(i, 1);
      took++;
    }
    if (took === 0) break;
    const row = new Uint8Array(F);
    for (let f = 0; f < F; f++) {
      for (let w = 0; w < BIN_WORDS; w++) {
        const bits = allowed[f * BIN_WORDS + w];
        if (bits !== 0) {
          row[f] = w * 32 + (31 - Math.clz32(bits & -bits));
          break;
        }
      }
    }
    rows.push(row);
  }
  const out = new Uint8Array(rows.length * F);
  rows.forEach((r, i) => out.set(r, i * F));
  return out;
}

/**
 * Passes over the coverage rows (at least 64 of them) while warming: V8 had optimised every
 * function of the bench's home_rentals model (28) after 40-50 passes of 64 rows, most of the
 * time being its optimising compiler's (load 2-3).
 */
const WARM_PASSES = 96;

/**
 * Runs compiled trees over rows that reach every leaf (`coverageRows`), WARM_PASSES times, so
 * V8 optimises each function having seen every branch taken: without it a model's first big
 * batches ran unoptimised or fell back from optimised code at each branch seen for the first
 * time (the bench's home_rentals model, 10k rows: a first batch of 360-3,750 ms and medians of
 * 34-78 ms over the next ones, against 48 ms then 17.6 ms once warmed; load 3).
 */
export function warmCompiled(
  m: GBMModel,
  trees: CompiledTree[],
  F: number,
  nBins?: ArrayLike<number>,
): void {
  treeGroups(m).forEach((group, i) => warmGroup(m, group, trees[i], F, nBins));
}

/**
 * One group's part of `warmCompiled` (its function, `compileGroup`, over rows that reach every
 * leaf of its trees, WARM_PASSES times): at most 1,024 rows x WARM_PASSES through at most
 * GROUP_NODES nodes of trees (or one bigger tree), the bound of one step of a warm-up.
 */
export function warmGroup(
  m: GBMModel,
  group: readonly number[],
  fn: CompiledTree,
  F: number,
  nBins?: ArrayLike<number>,
): void {
  const cover = coverageRows(m, F, nBins, 1024, group);
  const n0 = cover.length / F;
  if (n0 === 0) return;
  const n = Math.max(n0, 64);
  const bins = new Uint8Array(n * F);
  for (let i = 0; i < n; i += n0) bins.set(cover.subarray(0, Math.min(n0, n - i) * F), i * F);
  const out = new Float64Array(n * m.K);
  for (let p = 0; p < WARM_PASSES; p++) fn(bins, F, n, out, m.catBits);
}
