// Boosting: grows trees on the training rows, early-stopping on the validation rows, optionally
// on per-iteration row samples (large tables) or continuing from a base model (finetune).

import { Rng } from '../prng';
import { addTreeToRowsCompiled } from './compile';
import { TreeBuilder } from './grower';
import { type BinnedData, type GBMModel, type GBMParams, type GBMTarget, leafDimOf } from './model';
import { NodeStore } from './node-store';
import { activePool } from '../threads';
import { computeGradients, initialScores, lossOf } from './objectives';
import { addTreeToRows, predictRawRows, subtractTree } from './predict';

export interface GBMTrainResult {
  model: GBMModel;
  /** Iterations kept (best validation loss), each with K trees. */
  iterations: number;
  /**
   * Raw scores (n x K, absolute rows) of the returned model for the validation rows, and for the
   * training rows with `exactTrainRaw` (else those hold the last iteration run's scores).
   */
  raw: Float64Array;
  bestValLoss: number;
}

export interface GBMTrainInput {
  data: BinnedData;
  target: GBMTarget;
  /** Absolute rows of `data` to grow trees on / to early-stop on (may be empty). */
  trainRows: Int32Array;
  valRows: Int32Array;
  params: GBMParams;
  /** Finetune: continue from this model's scores; its trees are kept. */
  init?: GBMModel;
  /** Finetune of a linear base: its absolute-row scores (n x K), added to the starting scores. */
  offset?: Float64Array;
  /** Also leave the returned model's exact scores of the training rows in `raw`. */
  exactTrainRaw?: boolean;
  onIteration?: (iteration: number) => void;
}

/**
 * Boosts trees on `trainRows`, early-stopping on `valRows` (when non-empty) after
 * `earlyStoppingRounds` iterations without improvement and keeping the best iteration. With
 * `init` (finetune), boosting continues from that model's scores (plus `offset`) and its trees
 * are kept.
 */
export function trainGBM(input: GBMTrainInput): GBMTrainResult {
  // The pool's workers forget this boosting's buffers once it is done.
  const pool = activePool();
  const mark = pool?.mark() ?? 0;
  try {
    return boost(input);
  } finally {
    pool?.release(mark);
  }
}

function boost(input: GBMTrainInput): GBMTrainResult {
  const { data, target, params, init, offset, onIteration } = input;
  // Rows in ascending order (splits hand them over shuffled): every pass over them (gradients,
  // histograms, partitions, which keep the order within each leaf, validation walks) then reads
  // the bins and scores front to back instead of at random; a 90k-row table's trees grew 30 %
  // faster.
  const trainRows = ascending(input.trainRows);
  const valRows = ascending(input.valRows);
  const K = target.K;
  const N = data.n;
  let store: NodeStore;
  let base: Float64Array;
  const raw = new Float64Array(N * K);
  // Vector leaves: one tree per iteration holding a value per class (multiclass only).
  const D = init
    ? leafDimOf(init)
    : params.vectorLeaves && target.objective === 'multiclass'
      ? K
      : 1;
  const treesPerIteration = D > 1 ? 1 : K;
  if (init) {
    store = NodeStore.from(init);
    base = Float64Array.from(init.base);
    predictRawRows(init, data.bins, data.F, trainRows, raw);
    predictRawRows(init, data.bins, data.F, valRows, raw);
    if (offset) addOffset(raw, offset, trainRows, valRows, K);
  } else {
    store = new NodeStore(D);
    base = initialScores(target, trainRows);
    for (let r = 0; r < N; r++) for (let k = 0; k < K; k++) raw[r * K + k] = base[k];
  }
  const initTrees = store.roots.length;
  const builder = new TreeBuilder(
    data,
    params,
    trainRows.length,
    target.objective === 'regression' && target.weight === null,
    D,
  );
  const buffers = () =>
    D > 1 ? [builder.alloc(N * D)] : Array.from({ length: K }, () => builder.alloc(N));
  const g = buffers();
  const h = buffers();
  const sampler =
    params.subsampleRows && params.subsampleRows > 0 && params.subsampleRows < trainRows.length
      ? new RowSampler(trainRows, params.subsampleRows, params.seed ?? 0)
      : null;
  const useVal = valRows.length > 0 && params.earlyStoppingRounds > 0;
  const minRel = params.minRelImprovement ?? 0;
  const minAbs = params.minAbsImprovement ?? 0;
  let bestLoss = useVal ? lossOf(target, valRows, raw) : Infinity;
  let bestIter = 0;
  // Patience is counted from the last iteration that improved the loss by at least the tolerance.
  let refLoss = bestLoss;
  let refIter = 0;
  // Validation scores of the best iteration, restored after early stopping.
  let bestValRaw = useVal ? snapshot(raw, valRows, K) : null;
  let it = 0;
  for (; it < params.maxIterations; it++) {
    let rows = trainRows;
    if (sampler) rows = sampler.draw();
    computeGradients(target, rows, raw, g, h);
    for (let k = 0; k < treesPerIteration; k++) {
      const treeStart = store.roots.length;
      const out = { store, raw, K, k };
      builder.build(rows, g[k], h[k], out);
      // The rows outside the sample and the validation rows catch up with the new tree: compiled
      // when there are many (a fresh function pays off only over hundreds of thousands of rows).
      if (sampler && sampler.rest.length + valRows.length >= COMPILED_WALK_MIN_ROWS)
        addTreeToRowsCompiled(out, treeStart, data, sampler.rest, valRows);
      else {
        if (sampler) addTreeToRows(out, treeStart, data, sampler.rest);
        addTreeToRows(out, treeStart, data, valRows);
      }
    }
    onIteration?.(it + 1);
    if (useVal) {
      const loss = lossOf(target, valRows, raw);
      if (loss < bestLoss - 1e-12 * Math.max(1, Math.abs(bestLoss))) {
        bestLoss = loss;
        bestIter = it + 1;
        bestValRaw = snapshot(raw, valRows, K, bestValRaw!);
      }
      const tolerant = minRel > 0 || minAbs > 0;
      if (tolerant ? loss <= refLoss - Math.max(refLoss * minRel, minAbs) : bestIter === it + 1) {
        refLoss = loss;
        refIter = it + 1;
      } else if (it + 1 - refIter >= params.earlyStoppingRounds) {
        break;
      }
    } else {
      bestIter = it + 1;
    }
  }
  if (useVal && bestIter < it + 1) {
    const keep = initTrees + bestIter * treesPerIteration;
    // Training-row scores of the kept iterations: the dropped trees' leaves taken off again (a
    // walk of the few patience trees, not a full pass); skipped unless asked for.
    if (input.exactTrainRaw) {
      for (let t = keep; t < store.roots.length; t++) {
        subtractTree({ store, raw, K, k: t % treesPerIteration }, t, data, trainRows);
      }
    }
    store.truncate(keep);
    // Validation scores of the kept iterations come from the snapshot.
    restore(raw, valRows, K, bestValRaw!);
  }
  return {
    model: store.toModel(K, base, params.maxLeaves),
    iterations: bestIter,
    raw,
    bestValLoss: bestLoss,
  };
}

/** `rows` sorted ascending (a copy; `rows` itself when it already is). */
function ascending(rows: Int32Array): Int32Array {
  for (let i = 1; i < rows.length; i++)
    if (rows[i] < rows[i - 1]) return Int32Array.from(rows).sort();
  return rows;
}

/**
 * Seeded per-iteration row samples of about a fixed size, returned in ascending row order
 * (sequential reads of the binned matrix). Each row is in with probability size / rows, decided
 * by a hash of its position and a per-draw salt (Bernoulli sampling, as LightGBM's bagging): one
 * pass over the rows, where drawing exactly `size` rows took a random number per sampled row and
 * a second pass (1.4 ms a draw at 160k rows, 0.2 s of a 150-tree training). `draw()` returns the
 * sample and leaves the other rows in `rest`.
 */
export class RowSampler {
  private readonly sorted: Int32Array;
  private readonly inBuf: Int32Array;
  private readonly outBuf: Int32Array;
  /** A row is in when its hash (31 bits) is below this. */
  private readonly threshold: number;
  private readonly rng: Rng;
  rest: Int32Array = new Int32Array(0);

  constructor(rows: Int32Array, size: number, seed: number) {
    const m = rows.length;
    this.sorted = Int32Array.from(rows).sort();
    const share = m > 0 ? Math.max(1, Math.min(m, Math.round(size))) / m : 0;
    this.threshold = Math.round(share * 2147483648);
    this.inBuf = new Int32Array(m + 1);
    this.outBuf = new Int32Array(m + 1);
    this.rng = new Rng(seed ^ 0x6a55);
  }

  /** A fresh sample (each row in with probability size / rows), ascending. */
  draw(): Int32Array {
    const { sorted, inBuf, outBuf, threshold } = this;
    const m = sorted.length;
    const salt = Math.floor(this.rng.next() * 4294967296) | 0;
    let a = 0;
    let b = 0;
    // Branch-free split (see TreeBuilder.partition); both buffers have a spare slot at the end.
    for (let i = 0; i < m; i++) {
      // murmur3's finaliser of the salted position: every bit of i moves every bit of h.
      let h = Math.imul(i ^ salt, 0x9e3779b1);
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
      // 1 when the hash's top 31 bits are below the threshold (the sign bit of the difference).
      const s = ((h >>> 1) - threshold) >>> 31;
      const r = sorted[i];
      inBuf[a] = r;
      outBuf[b] = r;
      a += s;
      b += s ^ 1;
    }
    this.rest = outBuf.subarray(0, b);
    return inBuf.subarray(0, a);
  }
}

/** Adds fixed starting scores (a linear base model's outputs, when finetuning one). */
function addOffset(
  raw: Float64Array,
  offset: Float64Array,
  a: Int32Array,
  b: Int32Array,
  K: number,
): void {
  for (const rows of [a, b])
    for (let i = 0; i < rows.length; i++)
      for (let k = 0; k < K; k++) raw[rows[i] * K + k] += offset[rows[i] * K + k];
}

/**
 * Rows a tree is walked for (outside its sample, validation) from which the walk is compiled.
 * At 100k rows (a 200k-row table) compiled walks were as often slower as faster (a fresh function
 * per tree runs unoptimised for a while).
 */
const COMPILED_WALK_MIN_ROWS = 200_000;

/** Copies the scores of `rows` (into `into` when given: no garbage per improvement). */
function snapshot(
  raw: Float64Array,
  rows: Int32Array,
  K: number,
  into?: Float64Array,
): Float64Array {
  const s = into ?? new Float64Array(rows.length * K);
  for (let i = 0; i < rows.length; i++)
    for (let k = 0; k < K; k++) s[i * K + k] = raw[rows[i] * K + k];
  return s;
}

function restore(raw: Float64Array, rows: Int32Array, K: number, s: Float64Array): void {
  for (let i = 0; i < rows.length; i++)
    for (let k = 0; k < K; k++) raw[rows[i] * K + k] = s[i * K + k];
}
