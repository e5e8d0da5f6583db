// Missing inputs at prediction time (the method is described in conformal.ts): calibration per
// pattern of missing input columns, scored with those columns forced to missing exactly as the
// predictor encodes an absent value.

import type { MissingCalibration } from '../api';
import type { Encoded } from '../data/encoded';
import type { ColumnEncoder } from '../data/encoders';
import { encode } from '../data/encoded';
import type { GBMModel } from '../gbm/model';
import { type ScoreModel, type ScoreShape, scoreRows } from '../predict/score';
import { type ClassCalibration, fitClassCalibration, regressionHalfWidth } from './conformal';

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
 * Scores `rows` with chosen input columns forced to missing, encoded exactly as the predictor
 * encodes an absent value (the bins / linear slots of an all-missing row).
 */
function maskedScorer(
  model: ScoreModel,
  enc: Encoded,
  encs: ColumnEncoder[],
  rows: Int32Array,
  K: number,
): (columns: number[]) => Float64Array {
  const nR = rows.length;
  const F = enc.binned.F;
  const miss = encode(
    encs,
    encs.map(() => undefined),
    1,
    enc.linear !== null,
  );
  const bins0 = new Uint8Array(nR * F);
  for (let i = 0; i < nR; i++)
    bins0.set(enc.binned.bins.subarray(rows[i] * F, rows[i] * F + F), i * F);
  const S = enc.linear ? enc.linear.slots : 0;
  const idx0 = new Int32Array(nR * S);
  const val0 = new Float64Array(nR * S);
  if (enc.linear) {
    for (let i = 0; i < nR; i++) {
      idx0.set(enc.linear.idx.subarray(rows[i] * S, rows[i] * S + S), i * S);
      val0.set(enc.linear.val.subarray(rows[i] * S, rows[i] * S + S), i * S);
    }
  }
  // Linear slots of each feature (same order as linearRows()).
  const featSlot: number[] = [];
  const featWidth: number[] = [];
  let s0 = 0;
  for (const f of enc.layout.features) {
    featSlot.push(s0);
    const w = f.isCat ? 1 : f.linMissDim >= 0 ? 2 : 1;
    featWidth.push(w);
    s0 += w;
  }
  const bins = new Uint8Array(nR * F);
  const idx = new Int32Array(nR * S);
  const val = new Float64Array(nR * S);
  const masked: Encoded = {
    n: nR,
    layout: enc.layout,
    binned: { ...enc.binned, n: nR, bins },
    linear: enc.linear ? { n: nR, slots: S, idx, val } : null,
  };
  const all = Int32Array.from({ length: nR }, (_, i) => i);
  return (columns) => {
    bins.set(bins0);
    idx.set(idx0);
    val.set(val0);
    for (const c of columns) {
      for (const f of enc.layout.encoderFeatures[c]) {
        const b = miss.binned.bins[f];
        for (let i = 0; i < nR; i++) bins[i * F + f] = b;
        if (!miss.linear) continue;
        for (let s = featSlot[f], e = s + featWidth[f]; s < e; s++) {
          for (let i = 0; i < nR; i++) {
            idx[i * S + s] = miss.linear.idx[s];
            val[i * S + s] = miss.linear.val[s];
          }
        }
      }
    }
    return scoreRows(model, masked, all, K);
  };
}

/**
 * Missing-input calibration (the method is described in conformal.ts): for every mask of column
 * groups, the validation rows are scored with those columns forced to missing and the conformal
 * quantile (regression) or temperature + set threshold (classifiers) is fitted on them. Under
 * "missing completely at random" a prediction row with missing set M is exchangeable with the
 * validation rows masked by M, so the mask's interval has the requested coverage for it; using
 * the smallest mask that contains M (the pooled group as a whole) errs on the wide side.
 */
export function missingCalibration(opts: {
  shape: ScoreShape;
  model: ScoreModel;
  /** Scores the masks that include its column instead of `model`. */
  reduced: ReducedModel | null;
  enc: Encoded;
  encs: ColumnEncoder[];
  /** Validation positions and their targets. */
  rows: Int32Array;
  yRows: Float64Array;
  level: number;
  /** Column ranking for the groups (higher first). */
  importances: number[];
  /** The unmasked calibration (mask 0). */
  halfWidth: number | null;
  classCal: ClassCalibration | null;
}): MissingCalibration | null {
  const { model, reduced, enc, encs, rows, yRows, level, importances, halfWidth, classCal } = opts;
  const { task, K, nClasses, yScale, shift } = opts.shape;
  if (rows.length < 10 || encs.length === 0) return null;
  const groups = missingGroups(importances);
  const G = groups.length;
  const score = maskedScorer(model, enc, encs, rows, K);
  const scoreReduced = reduced
    ? maskedScorer({ gbm: reduced.gbm, linear: null }, enc, encs, rows, K)
    : null;
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
    const raw = scoreReduced && cols.includes(reduced!.column) ? scoreReduced(cols) : score(cols);
    if (task === 'regression') {
      const pred = Float64Array.from(raw, (v) => yScale!.mean + yScale!.std * v);
      let q = regressionHalfWidth(truth!, pred, level);
      // Missing more never narrows the interval: the mask's width is at least each sub-mask's.
      for (let g = 0; g < G; g++) if (m & (1 << g)) q = Math.max(q, halfWidths[m & ~(1 << g)]);
      halfWidths.push(q);
    } else {
      const c = fitClassCalibration(raw, yRows, K, nClasses, shift, level);
      classes.push({ temperature: c.temperature, setThreshold: c.setThreshold });
    }
  }
  const names = groups.map((g) => g.map((c) => encs[c].column));
  return task === 'regression' ? { groups: names, halfWidths } : { groups: names, classes };
}
