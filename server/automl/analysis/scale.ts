// The difficulty model of adaptive (normalised) conformal intervals: a small GBM that predicts the
// size of a row's error |y - y_hat| from its inputs and its prediction, so intervals are wide where
// the model errs more (noisy regions, large values) and narrow where it is sure. The conformal
// quantile is taken of |y - y_hat| / scale, so coverage holds on average whatever the model
// learns; a good scale makes it hold per region too.

import { binOf, fitBinThresholds } from '../data/binning';
import { trainGBM } from '../gbm/boost';
import { type BinnedData, DEFAULT_GBM_PARAMS, type GBMModel } from '../gbm/model';
import { type CompiledTree, predictRawCompiled, predictRawFast } from '../gbm/compile';
import { predictRaw } from '../gbm/predict';
import { deserializeGBM, serializeGBM } from '../gbm/serialize';
import type { SerializedScale } from '../api';
import { Rng } from '../prng';

export interface ScaleModel {
  /** Trees over the input features plus one more: the binned prediction (last feature). */
  gbm: GBMModel;
  /** Bin edges of the (standardized) prediction. */
  predThresholds: Float64Array;
  /** Smallest scale returned, so no interval collapses to a point. */
  floor: number;
}

/** Small, strongly regularised trees: the error size is a noisy target. */
const SCALE_ITERATIONS = 60;
const SCALE_LEAVES = 7;
/** The floor, as a share of the mean absolute error. */
const SCALE_FLOOR = 0.05;

/** The n x (F + 1) bins of `bins` (n x F) with the binned predictions appended. */
function withPrediction(
  bins: Uint8Array,
  F: number,
  n: number,
  pred: ArrayLike<number>,
  thr: Float64Array,
): Uint8Array {
  const G = F + 1;
  const out = new Uint8Array(n * G);
  for (let i = 0; i < n; i++) {
    out.set(bins.subarray(i * F, i * F + F), i * G);
    out[i * G + F] = binOf(thr, pred[i]);
  }
  return out;
}

/**
 * A scale fit as data (structured-cloneable: it may run on the pool's model thread): `n` rows'
 * bins (n x F, row-major), predictions and absolute errors (errors of a model that did not train
 * on them, or in-sample errors on large tables).
 */
export interface ScaleJob {
  bins: Uint8Array;
  nBins: Int32Array;
  isCat: Uint8Array;
  pred: Float64Array;
  absErr: Float64Array;
  seed: number;
}

/** Fits the scale model of a job. */
export function fitScale(opts: ScaleJob): ScaleModel {
  const { bins, nBins, isCat, pred, absErr } = opts;
  const n = pred.length;
  const F = nBins.length;
  const thr = Float64Array.from(fitBinThresholds(pred, new Rng(opts.seed ^ 0x5ca1e)));
  const data: BinnedData = {
    n,
    F: F + 1,
    bins: withPrediction(bins, F, n, pred, thr),
    nBins: Int32Array.from([...nBins, thr.length + 2]),
    isCat: Uint8Array.from([...isCat, 0]),
  };
  let mean = 0;
  for (let i = 0; i < n; i++) mean += absErr[i];
  mean /= Math.max(1, n);
  const res = trainGBM({
    data,
    target: { objective: 'regression', K: 1, y: absErr, weight: null },
    trainRows: Int32Array.from({ length: n }, (_, i) => i),
    valRows: new Int32Array(0),
    params: {
      ...DEFAULT_GBM_PARAMS,
      maxIterations: SCALE_ITERATIONS,
      maxLeaves: SCALE_LEAVES,
      minSamplesLeaf: Math.max(5, Math.min(50, Math.floor(n / 20))),
      minDataPerCat: Math.max(5, Math.min(10, Math.floor(n / 20))),
      l2: 1,
    },
  });
  return { gbm: res.model, predThresholds: thr, floor: Math.max(SCALE_FLOOR * mean, 1e-12) };
}

/**
 * The scales of n rows whose bins sit in a matrix with one spare column after the F features
 * (stride F + 1): the binned predictions are written there, no copy is made.
 */
export function scaleInPlace(
  m: ScaleModel,
  bins: Uint8Array,
  F: number,
  n: number,
  pred: ArrayLike<number>,
  trees: CompiledTree[] | null,
): Float64Array {
  const G = F + 1;
  const thr = m.predThresholds;
  for (let i = 0; i < n; i++) bins[i * G + F] = binOf(thr, pred[i]);
  const out = new Float64Array(n);
  if (trees) predictRawCompiled(m.gbm, trees, bins, G, n, out);
  else predictRaw(m.gbm, bins, G, n, out);
  for (let i = 0; i < n; i++) if (!(out[i] >= m.floor)) out[i] = m.floor;
  return out;
}

/** The scale of each of n rows from their bins (n x F) and predictions. */
export function scaleOf(
  m: ScaleModel,
  bins: Uint8Array,
  F: number,
  n: number,
  pred: ArrayLike<number>,
): Float64Array {
  const out = new Float64Array(n);
  predictRawFast(m.gbm, withPrediction(bins, F, n, pred, m.predThresholds), F + 1, n, out);
  for (let i = 0; i < n; i++) if (!(out[i] >= m.floor)) out[i] = m.floor;
  return out;
}

export function serializeScale(m: ScaleModel): SerializedScale {
  return { gbm: serializeGBM(m.gbm), predThresholds: Array.from(m.predThresholds), floor: m.floor };
}

export function deserializeScale(s: SerializedScale): ScaleModel {
  return {
    gbm: deserializeGBM(s.gbm),
    predThresholds: Float64Array.from(s.predThresholds),
    floor: s.floor,
  };
}
