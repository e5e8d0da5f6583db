// Permutation column importance (Lightwood's "GlobalFeatureImportance"-style analysis): how much
// the validation score drops when one INPUT column's values are shuffled across rows. It measures
// what the chosen model actually uses, works for every model type, and groups all features derived
// from one column (e.g. the six datetime parts) so users see columns, not encoder internals.

import type { Encoded } from '../data/encoded';
import { type Rng, permutation } from '../prng';
import type { ScoreShape } from '../predict/score';
import { type ClassCalibration, classProbabilities } from './conformal';
import { shareTasks } from '../threads';
import {
  Block,
  type BlockData,
  type BlockPart,
  BlockScorer,
  type RowBlock,
  blockChunks,
  partsInRange,
} from './row-block';

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/**
 * One permutation-importance computation as data (structured-cloneable), shared by the training
 * thread and the pool's model thread (threads/ shareTasks) in row ranges: task h scores
 * the rows of chunk h (row-block.ts blockChunks), as they are and with each column permuted by
 * each of its permutations. The permutations are drawn up front, so the result does not depend on
 * which thread scores which rows.
 */
export interface ImportanceJob {
  shape: Pick<ScoreShape, 'task' | 'K' | 'nClasses'>;
  block: BlockData;
  parts: BlockPart[];
  /** Tree features of each input column. */
  groups: number[][];
  /** Targets of the block rows (standardized values or class codes). */
  yRows: Float64Array;
  /** Classifiers: the calibration the log-loss is computed with. */
  cal: ClassCalibration | null;
  /** Per column, the permutations of the block's rows to score it with. */
  perms: Int32Array[][];
}

/**
 * The scorer of an importance job: `score(h)` returns, for the rows of chunk h, the sum of squared
 * errors (regression) or of log-likelihoods (classifiers) of the block as it is, then of the block
 * with column c permuted by perms[c][r], for each column c and permutation r in turn.
 */
export function importanceScorer(job: ImportanceJob): (h: number) => Float64Array {
  const { shape, groups, yRows, cal, perms } = job;
  const { task, K, nClasses } = shape;
  const chunks = blockChunks(job.block.n);
  const probs = new Float64Array(nClasses);
  return (h) => {
    const [h0, h1] = chunks[h];
    const block = new Block(job.block, h0, h1);
    const nR = block.n;
    const raw = new Float64Array(nR * K);
    const scorer = new BlockScorer(block, partsInRange(job.parts, h0, h1), K);
    const sum = (): number => {
      let t = 0;
      if (task === 'regression') {
        for (let i = 0; i < nR; i++) {
          const d = yRows[h0 + i] - raw[i];
          t += d * d;
        }
      } else {
        for (let i = 0; i < nR; i++) {
          classProbabilities(raw, i * K, K, cal!, probs);
          t += Math.log(Math.max(probs[yRows[h0 + i]], 1e-15));
        }
      }
      return t;
    };
    const out: number[] = [];
    scorer.score([], raw);
    out.push(sum());
    groups.forEach((feats, c) => {
      for (const perm of perms[c]) {
        const mine = perm.subarray(h0, h1);
        for (const f of feats) block.permuteFeature(f, mine);
        scorer.score(feats, raw);
        out.push(sum());
        for (const f of feats) block.restoreFeature(f);
      }
    });
    return Float64Array.from(out);
  };
}

/**
 * Permutation importance on the rows of `block`, each part scored with its own model: how much
 * the validation score drops when one input column's values are shuffled across rows, averaged
 * over a few shuffles (fewer rows need more for a stable estimate). Regression scores with r2;
 * classification with the negative calibrated log-loss, because balanced accuracy is a step
 * function that leaves weak-but-real columns at exactly 0 on a few hundred rows. One importance
 * per column, normalised to SUM to 1 (values read as shares of the total effect); a column whose
 * shuffling never hurts gets 0, and if no column matters every importance is 0. With a pool, the
 * rows are scored on two threads.
 */
export function columnImportances(opts: {
  shape: ScoreShape;
  block: RowBlock;
  parts: BlockPart[];
  enc: Encoded;
  /** Targets of the block rows (standardized values or class codes). */
  yRows: Float64Array;
  /** Classifiers: the calibration the log-loss is computed with. */
  cal: ClassCalibration | null;
  rng: Rng;
}): number[] {
  const { block, parts, enc, yRows, cal, rng } = opts;
  const { task, K, nClasses } = opts.shape;
  const nR = block.n;
  const groups = enc.layout.encoderFeatures;
  const drops = new Array<number>(groups.length).fill(0);
  if (nR < 2) return drops;
  // 2 shuffles suffice from ~500 rows on.
  const repeats = nR < 200 ? 5 : nR < 500 ? 3 : 2;
  const perms = groups.map(() => Array.from({ length: repeats }, () => permutation(nR, rng)));
  const job: ImportanceJob = {
    shape: { task, K, nClasses },
    block: block.data,
    parts,
    groups,
    yRows,
    cal,
    perms,
  };
  let here: ((h: number) => Float64Array) | null = null;
  const chunks = blockChunks(nR);
  const sums = shareTasks('importance', job, chunks.length, (h) =>
    (here ??= importanceScorer(job))(h),
  );
  // Chunk sums are added in chunk order (the same on any number of threads).
  const total = (j: number) => sums.reduce((t, s) => t + s[j], 0);
  let ssTot = 0;
  if (task === 'regression') {
    let mean = 0;
    for (let i = 0; i < nR; i++) mean += yRows[i];
    mean /= nR;
    for (let i = 0; i < nR; i++) ssTot += (yRows[i] - mean) ** 2;
  }
  const score = (j: number): number => {
    const t = total(j);
    if (task !== 'regression') return t / nR;
    if (ssTot === 0) return t === 0 ? 1 : 0;
    return 1 - t / ssTot;
  };
  const baseline = score(0);
  for (let c = 0; c < groups.length; c++) {
    let s = 0;
    for (let r = 0; r < repeats; r++) s += baseline - score(1 + c * repeats + r);
    drops[c] = Math.max(0, s / repeats);
  }
  const sum = drops.reduce((a, b) => a + b, 0);
  return sum > 0 ? drops.map((d) => round4(d / sum)) : drops;
}
