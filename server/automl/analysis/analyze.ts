// Model analysis on validation rows (each scored by a model that did not train on it: the
// validation split, or every row out of fold on small data): conformal calibration (adaptive
// intervals / class probabilities), accuracy under both decision rules, permutation importance
// per input column, an optional reduced model for a dominant column and calibration per pattern
// of missing inputs.

import type {
  ClassificationReport,
  DecisionScores,
  MissingCalibration,
  RegressionReport,
} from '../api';
import type { Encoded } from '../data/encoded';
import type { ColumnEncoder } from '../data/encoders';
import { type Rng, permutation } from '../prng';
import type { ScoreModel, ScoreShape } from '../predict/score';
import {
  type ClassCalibration,
  argmaxClass,
  classProbabilities,
  conformalQuantile,
  fitClassCalibration,
  predictedClass,
  regressionHalfWidth,
} from './conformal';
import { columnImportances } from './importance';
import { accuracyScore, balancedAccuracyScore, r2Score } from './metrics';
import { type ReducedModel, missingCalibration, scalesOf } from './missing';
import { classificationReport, majorityClass, regressionReport } from './report';
import { type BlockPart, RowBlock } from './row-block';
import type { ScaleModel } from './scale';
import { concatArrays } from '../rows';

/**
 * Permutation importance is estimated on at most this many validation rows, fewer for big models:
 * the work is rows x trees x columns x repeats, and the ranking is stable long before.
 */
const IMPORTANCE_MAX_ROWS = 2_000;
const IMPORTANCE_MIN_ROWS = 500;
const IMPORTANCE_WORK = 4_000_000;
/** Masks of missing inputs are calibrated on at most this many (the complete rows on all). */
const MISSING_MAX_ROWS = 1_000;

/** Trees of the parts' GBMs (the largest), for work budgets. */
function treesOf(parts: ScoredPart[]): number {
  return Math.max(1, ...parts.map((p) => p.model.gbm?.nTrees ?? 0));
}

interface Sample {
  block: RowBlock;
  parts: BlockPart[];
  yRows: Float64Array;
  scales: (ScaleModel | null)[] | null;
}

/**
 * At most `max` rows of a block: a seeded sample kept in block order, so each part stays one
 * contiguous run. The block itself when it is small enough.
 */
function sampleBlock(s: Sample, max: number, rng: Rng): Sample {
  const n = s.block.n;
  if (n <= max) return s;
  const pick = permutation(n, rng).slice(0, max).sort();
  return {
    block: new RowBlock(
      s.block.enc,
      Int32Array.from(pick, (i) => s.block.rows[i]),
    ),
    yRows: Float64Array.from(pick, (i) => s.yRows[i]),
    scales: s.scales ? Array.from(pick, (i) => s.scales![i]) : null,
    parts: s.parts.map((b) => {
      let start = 0;
      while (start < pick.length && pick[start] < b.start) start++;
      let end = start;
      while (end < pick.length && pick[end] < b.end) end++;
      return { model: b.model, start, end };
    }),
  };
}

/** Rows scored by a model that did not train on them (one part per fold). */
export interface ScoredPart {
  model: ScoreModel;
  rows: Int32Array;
  /** Regression: the scale model of adaptive intervals for these rows (null: constant width). */
  scale: ScaleModel | null;
  /** The model's raw scores by absolute row (n x K), known from training; else re-scored. */
  raw?: Float64Array;
}

export interface Analysis {
  /**
   * Regression: with scale models, the conformal quantile of |error| / scale (standardized
   * units); without, the constant half-width in the target's units. Null for classifiers.
   */
  halfWidth: number | null;
  classCal: ClassCalibration | null;
  /** r2, or the balanced accuracy of the balanced decision rule. */
  accuracy: number;
  /** Classifiers: balanced accuracy and accuracy of both decision rules. */
  decisions: DecisionScores | null;
  /** Regression: coverage measured on validation rows not used for their own quantile. */
  coverage: { validation: number; worstQuintile: number } | null;
  importances: number[];
  missing: MissingCalibration | null;
  reduced: ReducedModel | null;
  /** Metrics for people (see report.ts), on the same rows as `accuracy`. */
  report: {
    rows: number;
    regression?: RegressionReport;
    classification?: ClassificationReport;
  };
}

export interface AnalysisInput {
  shape: ScoreShape;
  parts: ScoredPart[];
  enc: Encoded;
  encs: ColumnEncoder[];
  /** Targets by position: standardized values or class codes. */
  y: Float64Array;
  /** Conformal level (the confidence setting). */
  level: number;
  rng: Rng;
  /**
   * Regression: the parts' scale models when they are being fitted elsewhere meanwhile (asked for
   * once the importance is scored); else each part's `scale`.
   */
  scales?: () => (ScaleModel | null)[];
  /** Called with the importances; may train a reduced model for the dominant column. */
  makeReduced?: (importances: number[]) => ReducedModel | null;
  /** Classifiers: class labels by code, and the decision rule the model predicts with. */
  labels?: (string | number | boolean)[];
  decision?: 'balanced' | 'argmax';
  /** Seeds the report's own sample (the analysis RNG is not drawn from for it). */
  seed?: number;
}

/** The parts as contiguous runs of a block over the concatenated rows. */
function blockParts(parts: ScoredPart[]): BlockPart[] {
  let start = 0;
  return parts.map((p) => {
    const b = { model: p.model, start, end: start + p.rows.length };
    start = b.end;
    return b;
  });
}

export function analyze(input: AnalysisInput): Analysis {
  const { shape, parts, enc, encs, y, level, rng } = input;
  const { task, K, nClasses, yScale, shift } = shape;
  const rows = concatArrays(
    parts.map((p) => p.rows),
    Int32Array,
  );
  const block = new RowBlock(enc, rows);
  const bParts = blockParts(parts);
  const yRows = Float64Array.from(rows, (r) => y[r]);
  // Scores the training already computed are reused (the model is the same, so are they).
  const raw = parts.every((p) => p.raw)
    ? knownScores(parts, bParts, rows, K)
    : block.score(bParts, K);
  let halfWidth: number | null = null;
  let classCal: ClassCalibration | null = null;
  let scales: (ScaleModel | null)[] | null = null;
  let coverage: Analysis['coverage'] = null;
  let decisions: DecisionScores | null = null;
  let accuracy: number;
  const report: Analysis['report'] = { rows: rows.length };
  const impMax = Math.max(
    IMPORTANCE_MIN_ROWS,
    Math.min(IMPORTANCE_MAX_ROWS, Math.floor(IMPORTANCE_WORK / (treesOf(parts) * encs.length))),
  );
  const scoreImportance = () => {
    const imp = sampleBlock({ block, parts: bParts, yRows, scales: null }, impMax, rng);
    const importances = columnImportances({
      shape,
      block: imp.block,
      parts: imp.parts,
      enc,
      yRows: imp.yRows,
      cal: classCal,
      rng,
    });
    return { imp, importances };
  };
  // Regression: the importance needs no calibration, so it is scored first, while the scale
  // models may still be fitted on the pool's model thread.
  let importance = task === 'regression' ? scoreImportance() : null;
  if (task === 'regression') {
    const partScales = input.scales ? input.scales() : parts.map((p) => p.scale);
    if (partScales.every((s) => s)) {
      scales = bParts.flatMap((b, j) =>
        new Array<ScaleModel | null>(b.end - b.start).fill(partScales[j]),
      );
      const scale = scalesOf(scales, block, raw);
      const scores = new Float64Array(rows.length);
      for (let i = 0; i < rows.length; i++) scores[i] = Math.abs(yRows[i] - raw[i]) / scale[i];
      halfWidth = conformalQuantile(scores, level);
      coverage = crossHalfCoverage(scores, raw, level);
    } else {
      // Residuals in original units; the interval is pred -/+ halfWidth.
      const pred = Float64Array.from(raw, (v) => yScale!.mean + yScale!.std * v);
      const truth = Float64Array.from(yRows, (v) => yScale!.mean + yScale!.std * v);
      halfWidth = regressionHalfWidth(truth, pred, level);
      const scores = Float64Array.from(truth, (t, i) => Math.abs(t - pred[i]));
      coverage = crossHalfCoverage(scores, raw, level);
    }
    accuracy = r2Score(yRows, raw);
    report.regression = regressionMetrics(input, rows, bParts, raw, yRows);
  } else {
    // No probability is 0 or 1: an error rate below ~1 / (n + 2) is not supported by n rows.
    classCal = fitClassCalibration(raw, yRows, {
      K,
      nClasses,
      shift,
      level,
      floor: 1 / (rows.length + 2),
    });
    decisions = decisionScores(raw, yRows, K, nClasses, classCal);
    accuracy = decisions.balanced.balanced_accuracy;
    report.classification = classificationMetrics(input, raw, yRows, classCal);
  }

  importance ??= scoreImportance();
  const { imp, importances } = importance;
  const reduced = input.makeReduced?.(importances) ?? null;
  // Group ranking for the missing-input calibration: with a reduced model the dominant column
  // comes first and the others follow their importance in the reduced model (in the main model
  // they are all ~0 next to the dominant one, which would make the grouping arbitrary).
  let ranking = importances;
  if (reduced) {
    const m = Math.min(imp.block.n, 500);
    const r = columnImportances({
      shape,
      block: new RowBlock(enc, imp.block.rows.subarray(0, m)),
      parts: [{ model: { gbm: reduced.gbm, linear: null }, start: 0, end: m }],
      enc,
      yRows: imp.yRows.subarray(0, m),
      cal: classCal,
      rng,
    });
    ranking = r.map((v, c) => (c === reduced.column ? 2 : v));
  }
  const miss = sampleBlock({ block, parts: bParts, yRows, scales }, MISSING_MAX_ROWS, rng);
  const missing = missingCalibration({
    shape,
    block: miss.block,
    parts: miss.parts,
    scales: miss.scales,
    reduced,
    enc,
    encs,
    yRows: miss.yRows,
    level,
    importances: ranking,
    halfWidth,
    classCal,
  });
  return {
    halfWidth,
    classCal,
    accuracy,
    decisions,
    coverage,
    importances,
    missing,
    reduced,
    report,
  };
}

/**
 * Regression metrics in the target's units. The mean baseline of each part is the mean of the
 * rows outside it (its model's training rows, give or take validation rows left out of the
 * analysis sample), so the baseline is judged out of sample as the model is.
 */
function regressionMetrics(
  input: AnalysisInput,
  rows: Int32Array,
  parts: BlockPart[],
  raw: Float64Array,
  yRows: Float64Array,
): RegressionReport {
  const { mean, std } = input.shape.yScale!;
  const y = input.y;
  let total = 0;
  for (let i = 0; i < y.length; i++) total += y[i];
  const baseline = new Float64Array(rows.length);
  for (const p of parts) {
    let inside = 0;
    for (let j = p.start; j < p.end; j++) inside += yRows[j];
    const rest = y.length - (p.end - p.start);
    const m = rest > 0 ? (total - inside) / rest : total / y.length;
    baseline.fill(mean + std * m, p.start, p.end);
  }
  return regressionReport({
    actual: Float64Array.from(yRows, (v) => mean + std * v),
    predicted: Float64Array.from(raw, (v) => mean + std * v),
    baseline,
    baselineValue: mean + (std * total) / y.length,
    seed: input.seed ?? 0,
  });
}

/** Classifier metrics under the model's decision rule, with its reported confidences. */
function classificationMetrics(
  input: AnalysisInput,
  raw: Float64Array,
  yRows: Float64Array,
  cal: ClassCalibration,
): ClassificationReport {
  const { K, nClasses } = input.shape;
  const n = yRows.length;
  const predicted = new Int32Array(n);
  const confidence = new Float64Array(n);
  const probs = new Float64Array(nClasses);
  for (let i = 0; i < n; i++) {
    classProbabilities(raw, i * K, K, cal, probs);
    const c =
      input.decision === 'argmax' ? argmaxClass(probs, 0, nClasses) : predictedClass(raw, i * K, K);
    predicted[i] = c;
    confidence[i] = probs[c];
  }
  return classificationReport({
    actual: yRows,
    predicted,
    confidence,
    labels: input.labels ?? Array.from({ length: nClasses }, (_, c) => c),
    majority: majorityClass(input.y, nClasses),
  });
}

/** The block rows' raw scores (rows x K) from each part's scores known from training. */
function knownScores(
  parts: ScoredPart[],
  bParts: BlockPart[],
  rows: Int32Array,
  K: number,
): Float64Array {
  const out = new Float64Array(rows.length * K);
  bParts.forEach((b, j) => {
    const src = parts[j].raw!;
    for (let i = b.start; i < b.end; i++)
      for (let k = 0; k < K; k++) out[i * K + k] = src[rows[i] * K + k];
  });
  return out;
}

/**
 * Honest validation coverage: the rows are split in two halves (alternating; the rows are in a
 * seeded random order), each half's rows are judged with the quantile of the other half's scores.
 * Also the worst of the five predicted-value quintiles, judged the same way.
 */
function crossHalfCoverage(
  scores: Float64Array,
  pred: Float64Array,
  level: number,
): { validation: number; worstQuintile: number } {
  const n = scores.length;
  if (n < 20) return { validation: NaN, worstQuintile: NaN };
  const half = (parity: number) => scores.filter((_, i) => i % 2 === parity);
  const q = [conformalQuantile(half(1), level), conformalQuantile(half(0), level)];
  const inside = Uint8Array.from(scores, (s, i) => (s <= q[i % 2] ? 1 : 0));
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => pred[a] - pred[b]);
  let worst = 1;
  for (let k = 0; k < 5; k++) {
    const part = order.slice(Math.floor((k * n) / 5), Math.floor(((k + 1) * n) / 5));
    const c = part.reduce((s, i) => s + inside[i], 0) / Math.max(1, part.length);
    worst = Math.min(worst, c);
  }
  return { validation: inside.reduce((s, v) => s + v, 0) / n, worstQuintile: worst };
}

/** Validation scores of both decision rules (see conformal.ts predictedClass / argmaxClass). */
function decisionScores(
  raw: Float64Array,
  y: Float64Array,
  K: number,
  nClasses: number,
  cal: ClassCalibration,
): DecisionScores {
  const n = y.length;
  const balanced = new Float64Array(n);
  const argmax = new Float64Array(n);
  const probs = new Float64Array(nClasses);
  for (let i = 0; i < n; i++) {
    balanced[i] = predictedClass(raw, i * K, K);
    classProbabilities(raw, i * K, K, cal, probs);
    argmax[i] = argmaxClass(probs, 0, nClasses);
  }
  const r = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    balanced: {
      balanced_accuracy: r(balancedAccuracyScore(y, balanced, nClasses)),
      accuracy: r(accuracyScore(y, balanced)),
    },
    argmax: {
      balanced_accuracy: r(balancedAccuracyScore(y, argmax, nClasses)),
      accuracy: r(accuracyScore(y, argmax)),
    },
  };
}
