// Missing inputs at prediction time (the method is described in conformal.ts): calibration per
// pattern of missing input columns, scored with those columns forced to missing exactly as the
// predictor encodes an absent value.

import type { MissingCalibration } from '../api';
import { type Encoded, encode } from '../data/encoded';
import type { ColumnEncoder } from '../data/encoders';
import type { GBMModel } from '../gbm/model';
import type { ScoreShape } from '../predict/score';
import { type ClassCalibration, conformalQuantile, fitClassCalibration } from './conformal';
import { shareTasks } from '../threads';
import { concatArrays } from '../rows';
import {
  Block,
  type BlockData,
  type BlockPart,
  BlockScorer,
  type MissingRow,
  type RowBlock,
  blockChunks,
  missingRow,
  partsInRange,
} from './row-block';
import { type ScaleModel, scaleOf } from './scale';

/** A GBM trained with one input column (encoder index) missing, used when it is absent. */
export interface ReducedModel {
  column: number;
  gbm: GBMModel;
}

/** Input columns calibrated one by one for missing inputs; the less important rest is pooled. */
const MISSING_SINGLE_GROUPS = 3;

/**
 * Column groups for the missing-input calibration: with at most 4 inputs each is its own group,
 * otherwise the 3 most important columns are single groups and the others form one pooled group
 * (at most 4 groups, so 16 masks to calibrate).
 */
export function missingGroups(importances: number[]): number[][] {
  const p = importances.length;
  const order = Array.from({ length: p }, (_, i) => i).sort(
    (a, b) => importances[b] - importances[a] || a - b,
  );
  if (p <= MISSING_SINGLE_GROUPS + 1) return order.map((c) => [c]);
  return [
    ...order.slice(0, MISSING_SINGLE_GROUPS).map((c) => [c]),
    order.slice(MISSING_SINGLE_GROUPS).sort((a, b) => a - b),
  ];
}

/**
 * The masks of one missing-input calibration as data (structured-cloneable), shared by the
 * training thread and the pool's model thread (threads/ shareTasks) in row ranges: task h
 * scores the rows of chunk h (row-block.ts blockChunks) under every mask.
 */
export interface MissingJob {
  shape: ScoreShape;
  block: BlockData;
  parts: BlockPart[];
  /** Per block row, the scale model of its part (adaptive intervals), or null. */
  scales: (ScaleModel | null)[] | null;
  reduced: ReducedModel | null;
  missing: MissingRow;
  /** Per mask: the tree features forced to missing, and whether the reduced model scores it. */
  masks: { feats: number[]; useReduced: boolean }[];
  yRows: Float64Array;
}

/**
 * The scorer of a missing-input job: `score(h)` returns, per mask, the chunk's rows scored with
 * the mask's columns missing: regression, each row's conformal score (|error| / scale, or |error|
 * in the target's units without scales); classifiers, the raw scores (rows x K).
 */
export function missingScorer(job: MissingJob): (h: number) => Float64Array[] {
  const { shape, reduced, missing, masks, yRows } = job;
  const { task, K, yScale } = shape;
  const chunks = blockChunks(job.block.n);
  return (h) => {
    const [h0, h1] = chunks[h];
    const block = new Block(job.block, h0, h1);
    const n = block.n;
    const scorer = new BlockScorer(block, partsInRange(job.parts, h0, h1), K);
    const reducedScorer = reduced
      ? new BlockScorer(block, [{ model: { gbm: reduced.gbm, linear: null }, start: 0, end: n }], K)
      : null;
    const scales = job.scales ? job.scales.slice(h0, h1) : null;
    return masks.map(({ feats, useReduced }) => {
      const raw = new Float64Array(n * K);
      for (const f of feats) block.setMissing(f, missing);
      (useReduced && reducedScorer ? reducedScorer : scorer).score(feats, raw);
      let out = raw;
      if (task === 'regression') {
        out = new Float64Array(n);
        if (scales) {
          const scale = scalesOf(scales, block, raw);
          for (let i = 0; i < n; i++) out[i] = Math.abs(yRows[h0 + i] - raw[i]) / scale[i];
        } else {
          const { mean, std } = yScale!;
          for (let i = 0; i < n; i++)
            out[i] = Math.abs(mean + std * yRows[h0 + i] - (mean + std * raw[i]));
        }
      }
      for (const f of feats) block.restoreFeature(f);
      return out;
    });
  };
}

/**
 * Missing-input calibration (the method is described in conformal.ts): for every mask of column
 * groups, the validation rows are scored with those columns forced to missing (encoded exactly as
 * the predictor encodes an absent value) and the conformal quantile (regression) or temperature +
 * set threshold (classifiers) is fitted on them. Under "missing completely at random" a
 * prediction row with missing set M is exchangeable with the validation rows masked by M, so the
 * mask's interval has the requested coverage for it; using the smallest mask that contains M (the
 * pooled group as a whole) errs on the wide side. With a pool, the masks are fitted on two threads.
 */
export function missingCalibration(opts: {
  shape: ScoreShape;
  /** The validation rows (each part with the model that did not train on it). */
  block: RowBlock;
  parts: BlockPart[];
  /** Per block row, the scale model of its part (adaptive intervals), or null. */
  scales: (ScaleModel | null)[] | null;
  /** Scores the masks that include its column instead of the parts' models. */
  reduced: ReducedModel | null;
  enc: Encoded;
  encs: ColumnEncoder[];
  /** Targets of the block rows (standardized values or class codes). */
  yRows: Float64Array;
  level: number;
  /** Column ranking for the groups (higher first). */
  importances: number[];
  /** The unmasked calibration (mask 0). */
  halfWidth: number | null;
  classCal: ClassCalibration | null;
}): MissingCalibration | null {
  const { block, parts, reduced, enc, encs, yRows, level, importances, halfWidth, classCal } = opts;
  const { task } = opts.shape;
  if (block.n < 10 || encs.length === 0) return null;
  const groups = missingGroups(importances);
  const G = groups.length;
  const missing = encode(
    encs,
    encs.map(() => undefined),
    1,
    enc.linear !== null,
  );
  const masks: MissingJob['masks'] = [];
  for (let m = 1; m < 1 << G; m++) {
    const cols: number[] = [];
    for (let g = 0; g < G; g++) if (m & (1 << g)) cols.push(...groups[g]);
    masks.push({
      feats: cols.flatMap((c) => enc.layout.encoderFeatures[c]),
      useReduced: reduced !== null && cols.includes(reduced.column),
    });
  }
  const job: MissingJob = {
    shape: opts.shape,
    block: block.data,
    parts,
    scales: opts.scales,
    reduced,
    missing: missingRow(missing),
    masks,
    yRows,
  };
  let here: ((h: number) => Float64Array[]) | null = null;
  const chunks = blockChunks(block.n);
  const scored = shareTasks('missing', job, chunks.length, (h) => (here ??= missingScorer(job))(h));
  // Per mask, the chunks' rows back in block order.
  const joined = masks.map((_, j) =>
    concatArrays(
      scored.map((c) => c[j]),
      Float64Array,
    ),
  );
  const names = groups.map((g) => g.map((c) => encs[c].column));
  if (task !== 'regression') {
    const { K, nClasses, shift } = opts.shape;
    const floor = classCal!.floor;
    const classes = [{ temperature: classCal!.temperature, setThreshold: classCal!.setThreshold }];
    for (const raw of joined) {
      const c = fitClassCalibration(raw, yRows, { K, nClasses, shift, level, floor });
      classes.push({ temperature: c.temperature, setThreshold: c.setThreshold });
    }
    return { groups: names, classes };
  }
  const halfWidths: number[] = [halfWidth!];
  joined.forEach((scores, j) => {
    const m = j + 1;
    let q = conformalQuantile(scores, level);
    // Missing more never narrows the interval: the mask's width is at least each sub-mask's.
    for (let g = 0; g < G; g++) if (m & (1 << g)) q = Math.max(q, halfWidths[m & ~(1 << g)]);
    halfWidths.push(q);
  });
  return { groups: names, halfWidths };
}

/**
 * The scale of every block row from the block's current bins and the given (standardized)
 * predictions, each row with its part's scale model.
 */
export function scalesOf(
  scales: (ScaleModel | null)[],
  block: Block,
  raw: Float64Array,
): Float64Array {
  const out = new Float64Array(block.n);
  const F = block.F;
  let s = 0;
  while (s < block.n) {
    let e = s + 1;
    while (e < block.n && scales[e] === scales[s]) e++;
    const m = scales[s];
    if (m) out.set(scaleOf(m, block.bins.subarray(s * F, e * F), F, e - s, raw.subarray(s, e)), s);
    else out.fill(1, s, e);
    s = e;
  }
  return out;
}
