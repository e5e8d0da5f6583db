// Fitting the GBM of a forecaster candidate: winsorized, standardized targets, the ridge on the
// trend features, binned example rows, early stopping on the training examples' latest stretch,
// and the refit.

import type { ResolvedSettings } from '../api';
import { fitBinThresholds } from '../data/binning';
import { trainGBM } from '../gbm/boost';
import { DEFAULT_GBM_PARAMS, type GBMParams } from '../gbm/model';
import type { Rng } from '../prng';
import { type ExampleContext, type Examples, exampleFeatures } from './examples';
import { addLinear, fitLinearPart } from './linear';
import { type GbmPart, binRows } from './model';

/** Below this many training examples a GBM cannot beat the baselines reliably: not tried. */
export const MIN_GBM_EXAMPLES = 40;
/** Past this many training examples each boosting iteration grows on a sample of GBM_SAMPLE_ROWS. */
const GBM_SAMPLE_MIN_ROWS = 60_000;
const GBM_SAMPLE_ROWS = 40_000;
const LARGE_MAX_ITERATIONS = 400;

export interface GbmFit {
  part: GbmPart;
  iterations: number;
  /** The binned rows (training first, then validation) and standardized targets, for the refit. */
  bins: Uint8Array;
  nBins: Int32Array;
  isCat: Uint8Array;
  y: Float64Array;
  nTrain: number;
  nVal: number;
  params: GBMParams;
}

function gbmParamsFor(s: ResolvedSettings, nTrain: number): GBMParams {
  const minLeaf = Math.max(1, Math.min(s.minSamplesLeaf, Math.floor(nTrain / 10)));
  const large = nTrain > GBM_SAMPLE_MIN_ROWS;
  return {
    ...DEFAULT_GBM_PARAMS,
    learningRate: s.learningRate,
    maxIterations: large ? Math.min(s.maxIterations, LARGE_MAX_ITERATIONS) : s.maxIterations,
    maxLeaves: s.maxLeaves > 0 ? s.maxLeaves : nTrain < 10_000 ? 15 : 31,
    minSamplesLeaf: minLeaf,
    l2: s.l2,
    earlyStoppingRounds: s.earlyStoppingRounds,
    minDataPerCat: Math.min(DEFAULT_GBM_PARAMS.minDataPerCat, minLeaf),
    ...(large ? { subsampleRows: GBM_SAMPLE_ROWS, seed: s.seed, minRelImprovement: 1e-3 } : {}),
  };
}

/** Share of each series' training span whose examples early-stop a validated GBM (fitGbm). */
const INNER_FRACTION = 0.2;

/**
 * The inner split of training examples (positions 0..n-1): per series, the examples whose target
 * is before the last INNER_FRACTION of the series' training span train, those whose origin is at
 * or after its start stop; the few that straddle it are left out, as timeSplit leaves them.
 * Null when either side would be too small.
 */
export function innerSplit(ex: Examples): { train: Int32Array; val: Int32Array } | null {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  for (let i = 0; i < ex.n; i++) {
    const g = ex.g[i];
    first.set(g, Math.min(first.get(g) ?? Infinity, ex.t[i]));
    last.set(g, Math.max(last.get(g) ?? -Infinity, ex.t[i] + ex.k[i]));
  }
  const train: number[] = [];
  const val: number[] = [];
  for (let i = 0; i < ex.n; i++) {
    const g = ex.g[i];
    const cut = last.get(g)! - INNER_FRACTION * (last.get(g)! - first.get(g)!);
    if (ex.t[i] + ex.k[i] < cut) train.push(i);
    else if (ex.t[i] >= cut - 1) val.push(i);
  }
  if (train.length < MIN_GBM_EXAMPLES || val.length === 0) return null;
  return { train: Int32Array.from(train), val: Int32Array.from(val) };
}

/** The q-quantile of a sorted copy (nearest rank). */
function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * sorted.length)))];
}

/**
 * Fits a GBM on the training examples, early-stopped on the latest fifth of them (innerSplit;
 * on the validation examples where that is too small). Targets are winsorized at the 0.1 % /
 * 99.9 % quantiles of the training targets (a jump after a flat window divides by a tiny scale
 * and would otherwise dominate the squared error) and standardized.
 */
export function fitGbm(
  ctx: ExampleContext,
  train: Examples,
  val: Examples | null,
  settings: ResolvedSettings,
  rng: Rng,
  /** Without validation examples: boost exactly this many iterations. */
  fixedIterations?: number,
): GbmFit {
  const { layout } = ctx;
  const F = layout.F;
  const tr = exampleFeatures(ctx, train);
  const va = val ? exampleFeatures(ctx, val) : { X: new Float64Array(0), z: new Float64Array(0) };
  const nT = train.n;
  const nV = val ? val.n : 0;
  const sorted = Float64Array.from(tr.z).sort();
  const lo = nT >= 1000 ? quantile(sorted, 0.001) : -Infinity;
  const hi = nT >= 1000 ? quantile(sorted, 0.999) : Infinity;
  const clip = (v: number) => (v < lo ? lo : v > hi ? hi : v);
  let mean = 0;
  for (let i = 0; i < nT; i++) mean += clip(tr.z[i]);
  mean /= nT;
  let ss = 0;
  for (let i = 0; i < nT; i++) ss += (clip(tr.z[i]) - mean) ** 2;
  const std = Math.sqrt(ss / nT) || 1;
  const y = new Float64Array(nT + nV);
  for (let i = 0; i < nT; i++) y[i] = (clip(tr.z[i]) - mean) / std;
  for (let i = 0; i < nV; i++) y[nT + i] = (clip(va.z[i]) - mean) / std;

  // The linear part first (fitted on the training rows); the trees model its residuals.
  const linear = fitLinearPart(
    tr.X,
    F,
    Int32Array.from({ length: nT }, (_, i) => i),
    y,
    layout,
  );
  const lt = new Float64Array(nT);
  addLinear(linear, tr.X, nT, F, lt);
  const lv = new Float64Array(nV);
  addLinear(linear, va.X, nV, F, lv);
  for (let i = 0; i < nT; i++) y[i] -= lt[i];
  for (let i = 0; i < nV; i++) y[nT + i] -= lv[i];
  const thresholds: (Float64Array | null)[] = [];
  const col = new Float64Array(nT);
  for (let f = 0; f < F; f++) {
    if (layout.isCat[f]) {
      thresholds.push(null);
      continue;
    }
    for (let i = 0; i < nT; i++) col[i] = tr.X[i * F + f];
    thresholds.push(Float64Array.from(fitBinThresholds(col, rng)));
  }
  const bins = new Uint8Array((nT + nV) * F);
  // The binning forecasts use (model.ts), so a value lands in the same bin in both.
  bins.set(binRows(tr.X, nT, layout, thresholds), 0);
  bins.set(binRows(va.X, nV, layout, thresholds), nT * F);
  const nBins = Int32Array.from({ length: F }, (_, f) =>
    layout.isCat[f] ? layout.nCats[f] + 2 : thresholds[f]!.length + 2,
  );
  const params = gbmParamsFor(settings, nT);
  if (fixedIterations !== undefined) params.maxIterations = fixedIterations;
  // The iterations are early-stopped on the training examples' own latest stretch (INNER_FRACTION
  // of each series' span), then the GBM is grown on every training example for that many: the
  // validation examples score it as they score the statistical models, on windows none of its
  // choices saw (stopped on them, its figure there was flattered, and won choices it then lost).
  const inner = fixedIterations === undefined && nV > 0 ? innerSplit(train) : null;
  if (inner) {
    const stopped = trainGBM({
      data: { n: nT + nV, F, bins, nBins, isCat: layout.isCat },
      target: { objective: 'regression', K: 1, y, weight: null },
      trainRows: inner.train,
      valRows: inner.val,
      params,
    });
    params.maxIterations = Math.max(1, stopped.iterations);
  }
  const result = trainGBM({
    data: { n: nT + nV, F, bins, nBins, isCat: layout.isCat },
    target: { objective: 'regression', K: 1, y, weight: null },
    trainRows: Int32Array.from({ length: nT }, (_, i) => i),
    valRows: inner ? new Int32Array(0) : Int32Array.from({ length: nV }, (_, i) => nT + i),
    params,
  });
  return {
    part: { gbm: result.model, thresholds, zScale: { mean, std }, linear },
    iterations: result.iterations,
    bins,
    nBins,
    isCat: layout.isCat,
    y,
    nTrain: nT,
    nVal: nV,
    params,
  };
}

/** The validated GBM refitted on training + validation examples for the iterations it kept. */
export function refitGbm(fit: GbmFit, settings: ResolvedSettings): GbmPart {
  const n = fit.nTrain + fit.nVal;
  const result = trainGBM({
    data: { n, F: fit.nBins.length, bins: fit.bins, nBins: fit.nBins, isCat: fit.isCat },
    target: { objective: 'regression', K: 1, y: fit.y, weight: null },
    trainRows: Int32Array.from({ length: n }, (_, i) => i),
    valRows: new Int32Array(0),
    params: { ...fit.params, maxIterations: fit.iterations, seed: settings.seed },
  });
  return { ...fit.part, gbm: result.model, compiled: null };
}
