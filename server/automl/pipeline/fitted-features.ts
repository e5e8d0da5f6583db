// Input features fitted on the target, out of fold: each free-text input gets a TF-IDF ridge
// model of the target (data/text.ts), kept when its out-of-fold score shows the words carry
// signal; each categorical with more categories than tree codes gets their smoothed target means
// (data/target-encoding.ts). Their out-of-fold values become the column's extra numeric features.

import { balancedAccuracyScore, r2Score } from '../analysis/metrics';
import {
  type ColumnEncoder,
  MAX_CATEGORIES,
  categoryCounts,
  fitNumericStats,
} from '../data/encoders';
import { fitTargetEncoding } from '../data/target-encoding';
import { fitTextModel, storeStack } from '../data/text';
import { Rng } from '../prng';
import type { ScoreShape } from '../predict/score';

/**
 * A text model is kept when its out-of-fold score beats knowing nothing by this much: r2 above 0,
 * or balanced accuracy above chance (1 / classes).
 */
const MIN_GAIN = 0.01;

/** Multiclass targets with more classes than this get no target encoding (K numbers a category). */
const MAX_ENCODED_CLASSES = 10;

/**
 * Fits the text models and target encodings of the encoders (mutating them: `stack` / parts,
 * `targetEncoding` / teParts) and returns the out-of-fold streams per encoder for encode().
 */
export function fitTargetFeatures(opts: {
  encs: ColumnEncoder[];
  columns: ArrayLike<unknown>[];
  shape: ScoreShape;
  /** Targets by position: standardized values or class codes. */
  y: Float64Array;
  seed: number;
  /** Fit text models (USING text_encoder = 'auto'). */
  text: boolean;
}): (Float64Array[] | undefined)[] {
  const { encs, columns, shape, y, seed } = opts;
  const n = y.length;
  const K = shape.task === 'multiclass' ? shape.nClasses : 1;
  // Regression: the standardized target; binary: 0/1; multiclass: one-hot (a ridge classifier).
  const targets = new Float64Array(n * K);
  for (let i = 0; i < n; i++) {
    if (shape.task === 'multiclass') targets[i * K + y[i]] = 1;
    else targets[i] = y[i];
  }
  return encs.map((enc, e) => {
    if (enc.kind === 'categorical') {
      if (enc.keys.length < MAX_CATEGORIES || (K > 1 && K > MAX_ENCODED_CLASSES)) return undefined;
      // Only columns whose categories outnumber the codes (fitCategories kept the top ones).
      if (categoryCounts(columns[e], enc.valueKind).keys.length <= MAX_CATEGORIES) return undefined;
      const rng = new Rng(seed ^ 0x7a5e ^ (e * 0x9e37));
      const fit = fitTargetEncoding({ values: columns[e], kind: enc.valueKind, targets, K, rng });
      enc.targetEncoding = fit.encoding;
      enc.teParts = fit.oof.map((s) => fitNumericStats(s, rng));
      return fit.oof;
    }
    if (enc.kind !== 'text' || !opts.text) return undefined;
    const rng = new Rng(seed ^ 0x7e47 ^ (e * 0x9e37));
    const fit = fitTextModel({ values: columns[e], targets, K, rng });
    if (!fit) return undefined;
    const streams = Array.from({ length: K }, (_, k) =>
      Float64Array.from({ length: n }, (_, i) => fit.oof[i * K + k]),
    );
    const score = oofScore(shape, y, fit.oof, K);
    const chance = shape.task === 'regression' ? 0 : 1 / shape.nClasses;
    if (!(score >= chance + MIN_GAIN)) return undefined;
    enc.stack = storeStack(fit.model, Math.round(score * 1e4) / 1e4);
    for (const s of streams) enc.parts.push(fitNumericStats(s, rng));
    return streams;
  });
}

/** r2 of the scores, or the balanced accuracy of their arg-max (binary: score above 0.5). */
function oofScore(shape: ScoreShape, y: Float64Array, oof: Float64Array, K: number): number {
  if (shape.task === 'regression') return r2Score(y, oof);
  const pred = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) {
    if (K === 1) pred[i] = oof[i] > 0.5 ? 1 : 0;
    else {
      let best = 0;
      for (let k = 1; k < K; k++) if (oof[i * K + k] > oof[i * K + best]) best = k;
      pred[i] = best;
    }
  }
  return balancedAccuracyScore(y, pred, shape.nClasses);
}
