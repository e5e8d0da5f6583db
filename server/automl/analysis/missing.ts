// Missing inputs at prediction time (the method is described in conformal.ts): calibration per
// pattern of missing input columns, scored with those columns forced to missing exactly as the
// predictor encodes an absent value.

import type { MissingCalibration } from '../api';
import { type Encoded, encode } from '../data/encoded';
import type { ColumnEncoder } from '../data/encoders';
import type { GBMModel } from '../gbm/model';
import type { ScoreShape } from '../predict/score';
import {
  type ClassCalibration,
  fitClassCalibration,
  normalisedQuantile,
  regressionHalfWidth,
} from './conformal';
import { type BlockPart, BlockScorer, type RowBlock } from './row-block';
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
 * Missing-input calibration (the method is described in conformal.ts): for every mask of column
 * groups, the validation rows are scored with those columns forced to missing (encoded exactly as
 * the predictor encodes an absent value) and the conformal quantile (regression) or temperature +
 * set threshold (classifiers) is fitted on them. Under "missing completely at random" a
 * prediction row with missing set M is exchangeable with the validation rows masked by M, so the
 * mask's interval has the requested coverage for it; using the smallest mask that contains M (the
 * pooled group as a whole) errs on the wide side.
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
  const { task, K, nClasses, yScale, shift } = opts.shape;
  if (block.n < 10 || encs.length === 0) return null;
  const groups = missingGroups(importances);
  const G = groups.length;
  const missing = encode(
    encs,
    encs.map(() => undefined),
    1,
    enc.linear !== null,
  );
  const scorer = new BlockScorer(block, parts, K);
  const reducedScorer = reduced
    ? new BlockScorer(
        block,
        [{ model: { gbm: reduced.gbm, linear: null }, start: 0, end: block.n }],
        K,
      )
    : null;
  const raw = new Float64Array(block.n * K);
  const nMasks = 1 << G;
  const halfWidths: number[] = [];
  const classes: { temperature: number; setThreshold: number }[] = [];
  let truth: Float64Array | null = null;
  if (task === 'regression') {
    halfWidths.push(halfWidth!);
    truth = Float64Array.from(yRows, (v) => yScale!.mean + yScale!.std * v);
  } else {
    classes.push({ temperature: classCal!.temperature, setThreshold: classCal!.setThreshold });
  }
  for (let m = 1; m < nMasks; m++) {
    const cols: number[] = [];
    for (let g = 0; g < G; g++) if (m & (1 << g)) cols.push(...groups[g]);
    const feats = cols.flatMap((c) => enc.layout.encoderFeatures[c]);
    for (const f of feats) block.setMissing(f, missing);
    const useReduced = reducedScorer !== null && cols.includes(reduced!.column);
    (useReduced ? reducedScorer : scorer).score(feats, raw);
    if (task === 'regression') {
      let q: number;
      if (opts.scales) {
        const scale = scalesOf(opts.scales, block, raw);
        q = normalisedQuantile(yRows, raw, scale, level);
      } else {
        const pred = Float64Array.from(raw, (v) => yScale!.mean + yScale!.std * v);
        q = regressionHalfWidth(truth!, pred, level);
      }
      // Missing more never narrows the interval: the mask's width is at least each sub-mask's.
      for (let g = 0; g < G; g++) if (m & (1 << g)) q = Math.max(q, halfWidths[m & ~(1 << g)]);
      halfWidths.push(q);
    } else {
      const c = fitClassCalibration(raw, yRows, {
        K,
        nClasses,
        shift,
        level,
        floor: classCal!.floor,
      });
      classes.push({ temperature: c.temperature, setThreshold: c.setThreshold });
    }
    for (const f of feats) block.restoreFeature(f);
  }
  const names = groups.map((g) => g.map((c) => encs[c].column));
  return task === 'regression' ? { groups: names, halfWidths } : { groups: names, classes };
}

/**
 * The scale of every block row from the block's current bins and the given (standardized)
 * predictions, each row with its part's scale model.
 */
export function scalesOf(
  scales: (ScaleModel | null)[],
  block: RowBlock,
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
