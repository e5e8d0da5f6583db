// The data model of the histogram GBM: parameters, the binned design matrix, the target and the
// trained ensemble (flat typed arrays). The engine, in gbm/:
// - bins (<= 255 per feature) turn split finding into scans over small histograms instead of
//   sorting rows, and 1 byte per cell keeps the matrix in cache (histogram.ts);
// - leaf-wise growth (split the leaf with the largest gain first, up to `maxLeaves`) reaches a
//   given loss with fewer, better-placed leaves than depth-wise growth (grower.ts);
// - the subtraction trick builds only the smaller child's histogram (the larger one is parent -
//   smaller), roughly halving histogram work (grower.ts);
// - native categorical splits (categories sorted by gradient/hessian ratio, then a prefix scan, as
//   LightGBM does) let one split group e.g. neighbourhoods by price level (splitter.ts);
// - trees are stored in flat typed arrays (no node objects) so prediction is a tight loop
//   (predict.ts, compile.ts) and the model serialises as a few base64 strings (serialize.ts).

export interface GBMParams {
  learningRate: number;
  maxIterations: number;
  maxLeaves: number;
  minSamplesLeaf: number;
  /** L2 penalty on leaf values (lambda in LightGBM / l2_regularization in sklearn). */
  l2: number;
  /** Stop after this many iterations without a better validation loss. */
  earlyStoppingRounds: number;
  /** 0 = unlimited (leaf count is the real limit). */
  maxDepth: number;
  minHessian: number;
  /** Categorical split search: max categories on the left side, ratio smoothing, min rows per category. */
  maxCatThreshold: number;
  catSmooth: number;
  minDataPerCat: number;
  /**
   * Row subsampling (bagging) for large tables: when > 0 and below the number of training rows,
   * each iteration grows its trees on a seeded Bernoulli sample of about this many training rows
   * (histograms and splits see only them; the other rows' scores are updated by walking the new
   * trees). 0 = every tree sees every training row.
   */
  subsampleRows?: number;
  /** Seed of the per-iteration row samples. */
  seed?: number;
  /**
   * Early stopping patience counts iterations since the validation loss last improved by at
   * least this fraction of itself (0 / absent: any improvement counts). The model still keeps
   * the iteration with the lowest validation loss.
   */
  minRelImprovement?: number;
  /**
   * ... or by at least this much in absolute terms (mean log-loss of classifiers: on separable
   * data the loss shrinks geometrically forever, which no relative threshold stops).
   */
  minAbsImprovement?: number;
  /**
   * Multiclass: one tree per iteration with a value per class in each leaf (split gains summed
   * over the classes) instead of one tree per class. K times fewer trees to grow and to walk at
   * prediction; the shared splits suit classes that separate on the same inputs.
   */
  vectorLeaves?: boolean;
}

export const DEFAULT_GBM_PARAMS: GBMParams = {
  learningRate: 0.1,
  maxIterations: 1000,
  maxLeaves: 31,
  minSamplesLeaf: 20,
  l2: 0,
  earlyStoppingRounds: 20,
  maxDepth: 0,
  minHessian: 1e-3,
  maxCatThreshold: 32,
  catSmooth: 10,
  minDataPerCat: 10,
};

type Objective = 'regression' | 'binary' | 'multiclass';

/** The binned design matrix: row r, feature f at bins[r * F + f]. */
export interface BinnedData {
  n: number;
  F: number;
  bins: Uint8Array;
  nBins: Int32Array;
  isCat: Uint8Array;
}

export interface GBMTarget {
  objective: Objective;
  /** Scores per row: 1 for regression/binary, number of classes for multiclass. */
  K: number;
  /** Regression: the (standardized) value; classification: the class index. Indexed by absolute row. */
  y: Float64Array;
  /** Per-row weights (class weights), or null for 1. */
  weight: Float64Array | null;
}

/**
 * A trained ensemble. With scalar leaves tree t adds its leaf value to score t % K; with vector
 * leaves (`leafDim` = K, multiclass) every tree adds one value per class (value[leaf * K + k]). Node arrays are shared by all trees: `feat < 0`
 * marks a leaf holding `value`; numeric nodes send bin <= thr left, categorical nodes send bins whose
 * bit is set in catBits[thr ...] left. Leaf values already include the learning rate.
 */
export interface GBMModel {
  K: number;
  base: Float64Array;
  nTrees: number;
  roots: Int32Array;
  feat: Int32Array;
  thr: Int32Array;
  isCatNode: Uint8Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
  catBits: Uint32Array;
  /** Leaves per tree (max), for the model summary. */
  maxLeaves: number;
  /** Values per leaf: K for vector leaves; absent (1) for scalar ones, as in older models. */
  leafDim?: number;
  /**
   * Training rows that reached each node (its tree's sample): the weights TreeSHAP explains
   * with. Absent in older models (explanations then split evenly at each node).
   */
  cover?: Float32Array;
}

/** Values per leaf of a model (1 unless it has vector leaves). */
export function leafDimOf(m: Pick<GBMModel, 'leafDim'>): number {
  return m.leafDim ?? 1;
}

/** An ensemble without trees (scores = `base`, here 0): the start of trees on a linear model. */
export function emptyModel(K: number): GBMModel {
  return {
    K,
    base: new Float64Array(K),
    nTrees: 0,
    roots: new Int32Array(0),
    feat: new Int32Array(0),
    thr: new Int32Array(0),
    isCatNode: new Uint8Array(0),
    left: new Int32Array(0),
    right: new Int32Array(0),
    value: new Float64Array(0),
    catBits: new Uint32Array(0),
    maxLeaves: 0,
  };
}
