// Prediction from a saved artifact: decode the model once, then for each batch cast the inputs to
// the training types, encode them exactly as in training, score, and attach intervals /
// probabilities / anomaly flags. Batches are columnar internally (typed arrays, no per-row
// intermediate objects); only the returned Prediction objects are allocated per row.

import type { CellValue, ModelArtifact, ModelDescription, Prediction, Predictor } from './api';
import { type ClassCalibration, classProbabilities, predictedClass } from './conformal';
import {
  type ColumnEncoder,
  type Layout,
  binStreams,
  buildLayout,
  linearRows,
  parseStreams,
} from './encoders';
import { AutoMLError } from './errors';
import {
  type CompiledTree,
  type GBMModel,
  compileTrees,
  deserializeGBM,
  predictRaw,
  predictRawCompiled,
} from './gbm';
import { type LinearModel, predictLinearRows } from './linear';
import { deserializeLinear } from './train';
import { type ValueKind, categoryKey, isMissing, parseNumber } from './types';

/** Checks the shape of a (possibly hand-edited or foreign) artifact before use. */
export function validateArtifact(a: unknown): asserts a is ModelArtifact {
  const x = a as Partial<ModelArtifact> | null;
  if (!x || typeof x !== 'object') throw new AutoMLError('model artifact must be an object');
  if (x.format !== 'automl/1') {
    throw new AutoMLError(
      `unsupported model artifact format ${JSON.stringify(x.format)}; expected 'automl/1'`,
    );
  }
  const missing = [
    'target',
    'task',
    'encoders',
    'model',
    'calibration',
    'description',
    'settings',
  ].filter((k) => (x as Record<string, unknown>)[k] === undefined);
  if (missing.length) throw new AutoMLError(`model artifact is missing: ${missing.join(', ')}`);
  if (!x.model!.gbm && !x.model!.linear) throw new AutoMLError('model artifact has no model');
}

class ArtifactPredictor implements Predictor {
  readonly description: ModelDescription;
  private readonly encs: ColumnEncoder[];
  private readonly layout: Layout;
  private readonly gbm: GBMModel | null;
  private readonly linear: LinearModel | null;
  private readonly K: number;
  private readonly target: string;
  private readonly task: ModelArtifact['task'];
  private readonly yMean: number;
  private readonly yStd: number;
  private readonly halfWidth: number;
  private readonly cal: ClassCalibration | null;
  private readonly labels: (string | number | boolean)[];
  private readonly labelStrings: string[];
  private readonly classCode: Map<string, number>;
  private readonly targetKind: ValueKind;
  /** Trees compiled to JS once enough rows went through (null: not yet; false: unavailable). */
  private compiled: CompiledTree[] | null | false = null;
  private rowsSeen = 0;

  constructor(a: ModelArtifact) {
    this.description = a.description;
    this.encs = a.encoders;
    this.layout = buildLayout(a.encoders);
    this.gbm = a.model.gbm ? deserializeGBM(a.model.gbm) : null;
    this.linear = a.model.linear ? deserializeLinear(a.model.linear) : null;
    this.task = a.task;
    this.target = a.target;
    this.K = a.task === 'multiclass' ? a.classes!.keys.length : 1;
    this.yMean = a.y_scale?.mean ?? 0;
    this.yStd = a.y_scale?.std ?? 1;
    this.halfWidth = a.calibration.halfWidth ?? 0;
    this.cal = a.calibration.classes;
    this.labels = a.classes?.labels ?? [];
    this.labelStrings = this.labels.map((l) => String(l));
    this.classCode = new Map((a.classes?.keys ?? []).map((k, i) => [k, i]));
    this.targetKind = a.target_info.valueKind;
  }

  predict(rows: Record<string, unknown>[]): Prediction[] {
    if (!Array.isArray(rows)) throw new AutoMLError('predict expects an array of row objects');
    const n = rows.length;
    const cols = this.encs.map((e) => {
      const a = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        const r = rows[i];
        a[i] = r !== null && typeof r === 'object' ? r[e.column] : undefined;
      }
      return a;
    });
    let truth: unknown[] | null = null;
    for (let i = 0; i < n && !truth; i++) {
      const r = rows[i];
      if (r !== null && typeof r === 'object' && this.target in r) {
        truth = rows.map((x) => (x !== null && typeof x === 'object' ? x[this.target] : undefined));
      }
    }
    return this.run(cols, truth, n);
  }

  predictColumns(columns: Record<string, CellValue[]>, n: number): Prediction[] {
    const cols = this.encs.map((e) => columns[e.column]);
    return this.run(cols, columns[this.target] ?? null, n);
  }

  /**
   * Compiling costs ~0.1 ms per tree, so single-row predictions keep walking the node arrays and
   * the trees are compiled once a large batch (or enough small ones) shows up. If the runtime
   * forbids code generation (--disallow-code-generation-from-strings) the walk is used forever.
   */
  private compiledTrees(n: number): CompiledTree[] | null {
    if (this.compiled === false || !this.gbm) return null;
    if (this.compiled) return this.compiled;
    this.rowsSeen += n;
    if (n < 256 && this.rowsSeen < 5000) return null;
    try {
      this.compiled = compileTrees(this.gbm);
    } catch {
      this.compiled = false;
      return null;
    }
    return this.compiled;
  }

  private run(
    cols: (ArrayLike<unknown> | undefined)[],
    truth: ArrayLike<unknown> | null,
    n: number,
  ): Prediction[] {
    const K = this.K;
    const streams = parseStreams(this.encs, cols, n, true);
    const raw = new Float64Array(n * K);
    if (this.gbm) {
      const bins = binStreams(this.layout, streams, n);
      const F = this.layout.features.length;
      const trees = this.compiledTrees(n);
      if (trees) predictRawCompiled(this.gbm, trees, bins, F, n, raw);
      else predictRaw(this.gbm, bins, F, n, raw);
    }
    if (this.linear) {
      const X = linearRows(this.layout, streams, n);
      const tmp = new Float64Array(n * K);
      predictLinearRows(
        this.linear,
        X,
        Int32Array.from({ length: n }, (_, i) => i),
        tmp,
      );
      for (let j = 0; j < raw.length; j++) raw[j] += tmp[j];
    }
    const out = new Array<Prediction>(n);
    if (this.task === 'regression') {
      const hw = this.halfWidth;
      for (let i = 0; i < n; i++) {
        const v = this.yMean + this.yStd * raw[i];
        const lower = v - hw;
        const upper = v + hw;
        let anomaly: boolean | null = null;
        if (truth && !isMissing(truth[i])) {
          const t = parseNumber(truth[i]);
          if (!Number.isNaN(t)) anomaly = t < lower || t > upper;
        }
        out[i] = { value: v, confidence: this.description.confidenceLevel, lower, upper, anomaly };
      }
      return out;
    }
    const nC = this.labels.length;
    const probs = new Float64Array(nC);
    const cal = this.cal!;
    for (let i = 0; i < n; i++) {
      classProbabilities(raw, i * K, K, cal, probs);
      const c = predictedClass(raw, i * K, K);
      const probabilities: Record<string, number> = {};
      for (let k = 0; k < nC; k++) probabilities[this.labelStrings[k]] = probs[k];
      let anomaly: boolean | null = null;
      if (truth && !isMissing(truth[i])) {
        const key = categoryKey(truth[i], this.targetKind);
        const tc = key === null ? undefined : this.classCode.get(key);
        // Anomalous: the truth is outside the conformal prediction set (an unknown class always is).
        anomaly = tc === undefined ? true : tc !== c && 1 - probs[tc] > cal.setThreshold;
      }
      out[i] = {
        value: this.labels[c],
        confidence: probs[c],
        lower: null,
        upper: null,
        anomaly,
        probabilities,
      };
    }
    return out;
  }
}

export function loadPredictor(a: ModelArtifact): Predictor {
  validateArtifact(a);
  return new ArtifactPredictor(a);
}
