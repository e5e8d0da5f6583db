// Prediction from a saved artifact: decode the model once, then for each batch cast the inputs to
// the training types, encode them exactly as in training, score, and attach intervals /
// probabilities / anomaly flags. Batches are columnar throughout (typed arrays, no per-row
// objects): `predictTable` answers columns, a class probability per Float64Array; the
// `Prediction` objects of `predict` / `predictColumns` are made from them.

import {
  type CellValue,
  COMPILE_BATCH_ROWS,
  type Explanation,
  type ModelArtifact,
  type ModelDescription,
  type Prediction,
  type PredictionColumns,
  type Predictor,
} from '../api';
import {
  type ClassCalibration,
  argmaxClass,
  classProbabilities,
  predictedClass,
} from '../analysis/conformal';
import { type ScaleModel, deserializeScale, scaleInPlace } from '../analysis/scale';
import { type ValueKind, categoryKey, isMissing, parseNumber } from '../data/column-types';
import type { ColumnEncoder } from '../data/encoders';
import {
  type Layout,
  type LinearRows,
  type Stream,
  binStreams,
  buildLayout,
  linearRows,
  parseStreams,
} from '../data/layout';
import { AutoMLError } from '../errors';
import { thresholdClass } from '../evaluation/decision';
import { explainBatch } from '../explain/explain';
import {
  type CompiledTree,
  compileGroup,
  compilesWell,
  predictRawCompiled,
  treeGroups,
  warmGroup,
} from '../gbm/compile';
import type { GBMModel } from '../gbm/model';
import { predictRaw } from '../gbm/predict';
import { deserializeGBM } from '../gbm/serialize';
import { type LinearModel, deserializeLinear, predictLinearRows } from '../linear/linear';

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

/** The model's trees and the scale's, compiled to JS. */
interface Compiled {
  /** Null: the model's trees are walked (see `compilesWell`). */
  main: CompiledTree[] | null;
  scale: CompiledTree[] | null;
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
  /** Adaptive intervals: half-width = halfWidth (a multiplier) x scale(row) x yStd. */
  private readonly scale: ScaleModel | null;
  private readonly argmax: boolean;
  /** A saved threshold on the positive class's probability (binary), else null. */
  private readonly threshold: { value: number; positive: number } | null = null;
  private readonly labels: (string | number | boolean)[];
  private readonly labelStrings: string[];
  private readonly classCode: Map<string, number>;
  /**
   * The keys of a row's `probabilities` object in its key order and the class each holds: an
   * object assigned `labelStrings[k] = p_k` in class order puts array-index-like keys first and
   * keeps a repeated key once, with its last class (`__proto__` is no key).
   */
  private readonly probabilityKeys: { names: string[]; index: number[] };
  private readonly targetKind: ValueKind;
  /** Missing-input calibration: per group, the first tree feature of each of its columns. */
  private readonly missGroups: number[][] | null = null;
  private readonly missHalfWidths: number[] | null = null;
  private readonly missCals: ClassCalibration[] | null = null;
  /** Trees without the dominant input, for rows missing it (and its first tree feature). */
  private readonly reduced: GBMModel | null = null;
  private readonly reducedFeature: number = -1;
  /** Trees compiled to JS once enough rows went through (null: not yet; false: unavailable). */
  private compiled: Compiled | null | false = null;
  private rowsSeen = 0;
  /** A warm-up under way (`warmStep`): the groups of trees left, the functions made so far. */
  private warming: {
    steps: { m: GBMModel; group: number[]; scale: boolean }[];
    next: number;
    main: CompiledTree[] | null;
    scale: CompiledTree[] | null;
  } | null = null;
  /** Set by `warmInSteps`: who runs the warm-up's steps, and whether it was handed them. */
  private stepper: ((step: () => boolean) => void) | null = null;
  private stepping = false;

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
    this.scale = a.calibration.scale ? deserializeScale(a.calibration.scale) : null;
    this.argmax = a.settings.decision === 'argmax';
    this.labels = a.classes?.labels ?? [];
    this.labelStrings = this.labels.map((l) => String(l));
    const t = a.settings.threshold;
    if (t !== undefined && a.task === 'binary') {
      const pos = this.labelStrings.indexOf(a.settings.positiveClass ?? this.labelStrings[1]);
      this.threshold = { value: t, positive: pos < 0 ? 1 : pos };
    }
    this.classCode = new Map((a.classes?.keys ?? []).map((k, i) => [k, i]));
    const order: Record<string, number> = {};
    this.labelStrings.forEach((s, k) => (order[s] = k));
    const names = Object.keys(order);
    this.probabilityKeys = { names, index: names.map((s) => order[s]) };
    this.targetKind = a.target_info.valueKind;
    const red = a.model.reduced;
    const redEnc = red ? this.encs.findIndex((e) => e.column === red.column) : -1;
    if (red && redEnc >= 0) {
      this.reduced = deserializeGBM(red.gbm);
      this.reducedFeature = this.layout.encoderFeatures[redEnc][0];
    }
    const m = a.calibration.missing;
    if (m && Array.isArray(m.groups) && m.groups.length > 0 && m.groups.length <= 16) {
      const nMasks = 1 << m.groups.length;
      const col = new Map(this.encs.map((e, j) => [e.column, j]));
      const groups = m.groups.map((g) =>
        g.flatMap((c) => {
          const e = col.get(c);
          return e === undefined ? [] : [this.layout.encoderFeatures[e][0]];
        }),
      );
      if (a.task === 'regression' && m.halfWidths?.length === nMasks) {
        this.missGroups = groups;
        this.missHalfWidths = m.halfWidths;
      } else if (a.task !== 'regression' && m.classes?.length === nMasks && this.cal) {
        this.missGroups = groups;
        const shift = this.cal.shift;
        this.missCals = m.classes.map((c) => ({ ...c, shift }));
      }
    }
  }

  /**
   * The rows missing the dominant input (its first tree feature: NaN, or the categorical
   * 'missing' code), as a mask and as a list; null without a reduced model.
   */
  private missingDominant(
    streams: Stream[],
    n: number,
  ): { mask: Uint8Array; rows: number[] } | null {
    if (!this.reduced) return null;
    const feat = this.layout.features[this.reducedFeature];
    const s = streams[this.reducedFeature];
    const code = feat.nCats + 1;
    const rows: number[] = [];
    const mask = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (feat.isCat ? s[i] === code : s[i] !== s[i]) {
        rows.push(i);
        mask[i] = 1;
      }
    }
    return { mask, rows };
  }

  /**
   * Scores `rows` of the binned matrix (stride `stride`, `F` features read) with `predict` into
   * their places in `raw`: the rows are copied together first, so each is scored once.
   */
  private scoreRows(
    bins: Uint8Array,
    stride: number,
    rows: ArrayLike<number>,
    raw: Float64Array,
    predict: (sub: Uint8Array, m: number, out: Float64Array) => void,
  ): void {
    const m = rows.length;
    if (m === 0) return;
    const sub = new Uint8Array(m * stride);
    for (let j = 0; j < m; j++)
      sub.set(bins.subarray(rows[j] * stride, rows[j] * stride + stride), j * stride);
    const K = this.K;
    const out = new Float64Array(m * K);
    predict(sub, m, out);
    for (let j = 0; j < m; j++) for (let k = 0; k < K; k++) raw[rows[j] * K + k] = out[j * K + k];
  }

  /**
   * Per row, the bit mask of column groups with at least one missing input (0 = complete row).
   * A column is missing when its first tree feature is: NaN numbers (also every datetime / text
   * part of an absent value) or the categorical 'missing' code.
   */
  private missingMasks(streams: Stream[], n: number): Uint8Array | null {
    const groups = this.missGroups;
    if (!groups) return null;
    const masks = new Uint8Array(n);
    const feats = this.layout.features;
    for (let g = 0; g < groups.length; g++) {
      const bit = 1 << g;
      for (const f of groups[g]) {
        const s = streams[f];
        if (feats[f].isCat) {
          const code = feats[f].nCats + 1;
          for (let i = 0; i < n; i++) if (s[i] === code) masks[i] |= bit;
        } else {
          for (let i = 0; i < n; i++) if (s[i] !== s[i]) masks[i] |= bit;
        }
      }
    }
    return masks;
  }

  /** The input columns of row objects (absent keys and non-object rows: undefined). */
  private columnsOf(rows: Record<string, unknown>[], what: string): unknown[][] {
    if (!Array.isArray(rows)) throw new AutoMLError(`${what} expects an array of row objects`);
    const n = rows.length;
    return this.encs.map((e) => {
      const a = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        const r = rows[i];
        a[i] = r !== null && typeof r === 'object' ? r[e.column] : undefined;
      }
      return a;
    });
  }

  predict(rows: Record<string, unknown>[]): Prediction[] {
    const cols = this.columnsOf(rows, 'predict');
    const n = rows.length;
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
    return predictionsOf(this.predictTable(columns, n), n);
  }

  predictTable(columns: Record<string, CellValue[]>, n: number): PredictionColumns {
    const cols = this.encs.map((e) => columns[e.column]);
    return this.table(cols, columns[this.target] ?? null, n);
  }

  explain(rows: Record<string, unknown>[]): Explanation[] {
    return this.explainCols(this.columnsOf(rows, 'explain'), rows.length);
  }

  explainColumns(columns: Record<string, CellValue[]>, n: number): Explanation[] {
    return this.explainCols(
      this.encs.map((e) => columns[e.column]),
      n,
    );
  }

  private explainCols(cols: (ArrayLike<unknown> | undefined)[], n: number): Explanation[] {
    const K = this.K;
    const { raw, bins, stride, lin, reduced } = this.score(cols, n, true);
    // Classifiers explain the class each row is predicted as (under the model's decision rule).
    const probs = new Float64Array(this.labels.length);
    const classOf = (i: number): number => {
      if (!this.argmax && !this.threshold) return predictedClass(raw, i * K, K);
      classProbabilities(raw, i * K, K, this.cal!, probs);
      return this.decide(raw, i, probs);
    };
    return explainBatch({
      task: this.task,
      K,
      layout: this.layout,
      columns: this.encs.map((e) => e.column),
      gbm: this.gbm,
      linear: this.linear,
      reducedGbm: this.reduced,
      reduced,
      bins,
      stride,
      lin,
      n,
      raw,
      classOf,
      yScale: { mean: this.yMean, std: this.yStd },
      labels: this.labels,
    });
  }

  /** The class row i is predicted as: a saved threshold, else the decision rule. */
  private decide(raw: Float64Array, i: number, probs: Float64Array): number {
    const t = this.threshold;
    if (t) return thresholdClass(probs[t.positive], t.positive, t.value);
    if (this.argmax) return argmaxClass(probs, 0, this.labels.length);
    return predictedClass(raw, i * this.K, this.K);
  }

  /**
   * The trees compiled and warmed (see `warm`) once a large batch (or enough small ones) shows up:
   * single-row predictions keep walking the node arrays. With `warmInSteps` the warm-up is handed
   * to its stepper and the batches walk until it is done. If the runtime forbids code generation
   * (--disallow-code-generation-from-strings) the walk is used forever.
   */
  private compiledTrees(n: number): Compiled | null {
    if (this.compiled === false || (!this.gbm && !this.scale)) return null;
    if (this.compiled) return this.compiled;
    this.rowsSeen += n;
    if (n < COMPILE_BATCH_ROWS && this.rowsSeen < 5000) return null;
    if (this.stepper) {
      this.startStepping();
      return null;
    }
    this.warm();
    return this.compiled || null;
  }

  /**
   * Compiles the trees (the model's and the intervals' scale) and runs them over rows that reach
   * every leaf until V8 has optimised them (gbm/compile.ts `warmGroup`), so the first big batch
   * runs as fast as the later ones: every step of `warmStep` at once. The prediction thread calls
   * it when it loads a model.
   */
  warm(): void {
    while (!this.warmStep());
  }

  /**
   * One step of the warm-up: one group of trees (gbm/compile.ts `treeGroups`: at most
   * GROUP_NODES nodes, or one bigger tree) compiled and run over the rows that reach its leaves.
   * True when the warm-up is done (the batches from then on use the compiled trees); until then
   * they walk the trees (the same numbers, bit for bit).
   */
  warmStep(): boolean {
    if (this.compiled !== null || (!this.gbm && !this.scale)) return true;
    try {
      const F = this.layout.features.length;
      const nBins = this.layout.features.map((f) => f.nBins);
      if (!this.warming) {
        const main = this.gbm && compilesWell(this.gbm) ? this.gbm : null;
        const scale = this.scale?.gbm ?? null;
        this.warming = {
          steps: [
            ...(main ? treeGroups(main).map((group) => ({ m: main, group, scale: false })) : []),
            ...(scale ? treeGroups(scale).map((group) => ({ m: scale, group, scale: true })) : []),
          ],
          next: 0,
          main: main ? [] : null,
          scale: scale ? [] : null,
        };
      }
      const w = this.warming;
      const step = w.steps[w.next++];
      if (step) {
        const fn = compileGroup(step.m, step.group);
        if (step.scale) {
          // The scale's last feature is the binned prediction.
          const predBins = this.scale!.predThresholds.length + 2;
          warmGroup(step.m, step.group, fn, F + 1, [...nBins, predBins]);
          w.scale!.push(fn);
        } else {
          warmGroup(step.m, step.group, fn, F, nBins);
          w.main!.push(fn);
        }
      }
      if (w.next < w.steps.length) return false;
      this.compiled = { main: w.main, scale: w.scale };
    } catch {
      this.compiled = false;
    }
    this.warming = null;
    return true;
  }

  /**
   * From now on a batch that calls for the warm-up hands `warmStep` to `stepper` (once), which
   * runs it step by step (between turns of an event loop) until it answers true; the batches walk
   * the trees until then. The instance's thread does this: no batch there waits for a whole
   * warm-up (0.3-0.7 s of CPU for a model of hundreds of trees).
   */
  warmInSteps(stepper: (step: () => boolean) => void): void {
    this.stepper = stepper;
  }

  walkOnly(): void {
    if (this.compiled === null) this.compiled = false;
  }

  stillWarming(): boolean {
    if (this.compiled !== null || (!this.gbm && !this.scale)) return false;
    if (this.stepper) this.startStepping();
    return true;
  }

  /** Hands the warm-up's steps to the stepper, once. */
  private startStepping(): void {
    if (this.stepping || !this.stepper) return;
    this.stepping = true;
    this.stepper(() => this.warmStep());
  }

  /**
   * The raw scores of a batch and what produced them (bins, linear rows, reduced rows). Rows
   * missing the dominant input are scored by the reduced trees alone, the others by the main
   * model (trees and linear part): each row by one of them, never both.
   */
  private score(cols: (ArrayLike<unknown> | undefined)[], n: number, keepLinear = false) {
    const K = this.K;
    const streams = parseStreams(this.encs, cols, n, true);
    const raw = new Float64Array(n * K);
    // With adaptive intervals each row has a spare byte for the binned prediction (the scale's
    // last feature), so the scale trees read the same matrix.
    const F = this.layout.features.length;
    const stride = this.scale ? F + 1 : F;
    const bins = this.gbm || this.scale ? binStreams(this.layout, streams, n, stride) : null;
    const trees = this.compiledTrees(n);
    const missing = this.missingDominant(streams, n);
    // The rows the main model scores: all, unless some go to the reduced model.
    let main: Int32Array | null = null;
    if (missing && missing.rows.length > 0) {
      main = new Int32Array(n - missing.rows.length);
      for (let i = 0, j = 0; i < n; i++) if (!missing.mask[i]) main[j++] = i;
    }
    const gbm = this.gbm;
    if (gbm && bins) {
      const walk = (b: Uint8Array, m: number, out: Float64Array) => {
        if (trees?.main) predictRawCompiled(gbm, trees.main, b, stride, m, out);
        else predictRaw(gbm, b, stride, m, out);
      };
      if (main) this.scoreRows(bins, stride, main, raw, walk);
      else walk(bins, n, raw);
    }
    let lin: LinearRows | null = null;
    if (this.linear) {
      const X = linearRows(this.layout, streams, n);
      const tmp = new Float64Array(n * K);
      predictLinearRows(this.linear, X, main ?? Int32Array.from({ length: n }, (_, i) => i), tmp);
      for (let j = 0; j < raw.length; j++) raw[j] += tmp[j];
      if (keepLinear) lin = X;
    }
    if (missing && missing.rows.length > 0) {
      const reduced = this.reduced!;
      const all = bins ?? binStreams(this.layout, streams, n, stride);
      this.scoreRows(all, stride, missing.rows, raw, (b, m, out) =>
        predictRaw(reduced, b, stride, m, out),
      );
    }
    return { streams, raw, bins, stride, lin, reduced: missing?.mask ?? null, trees };
  }

  /**
   * The predictions of a batch as columns. Classifiers' probability columns are keyed as an
   * object assigned `labelStrings[k]` in class order keys them (array-index-like labels first,
   * a repeated key once with its last class): `predictionsOf` builds the same objects from them.
   */
  private table(
    cols: (ArrayLike<unknown> | undefined)[],
    truth: ArrayLike<unknown> | null,
    n: number,
  ): PredictionColumns {
    const K = this.K;
    const F = this.layout.features.length;
    const { streams, raw, bins, trees } = this.score(cols, n);
    const masks = this.missingMasks(streams, n);
    const anomaly = new Int8Array(n).fill(-1);
    const confidence = new Float64Array(n);
    if (this.task === 'regression') {
      const widths = this.missHalfWidths;
      // Adaptive widths: the multiplier times the row's scale, in the target's units.
      const unit = this.scale
        ? scaleInPlace(this.scale, bins!, F, n, raw, trees?.scale ?? null)
        : null;
      if (unit) for (let i = 0; i < n; i++) unit[i] *= this.yStd;
      const value = new Float64Array(n);
      const lower = new Float64Array(n);
      const upper = new Float64Array(n);
      confidence.fill(this.description.confidenceLevel);
      for (let i = 0; i < n; i++) {
        let hw = masks && masks[i] ? widths![masks[i]] : this.halfWidth;
        if (unit) hw *= unit[i];
        const v = this.yMean + this.yStd * raw[i];
        value[i] = v;
        lower[i] = v - hw;
        upper[i] = v + hw;
        if (truth && !isMissing(truth[i])) {
          const t = parseNumber(truth[i]);
          if (!Number.isNaN(t)) anomaly[i] = t < v - hw || t > v + hw ? 1 : 0;
        }
      }
      return { value, confidence, lower, upper, anomaly, probabilities: null };
    }
    const nC = this.labels.length;
    const probs = new Float64Array(nC);
    const value = new Array<string | number | boolean>(n);
    const { names, index } = this.probabilityKeys;
    const columns = names.map(() => new Float64Array(n));
    for (let i = 0; i < n; i++) {
      const cal = masks && masks[i] ? this.missCals![masks[i]] : this.cal!;
      classProbabilities(raw, i * K, K, cal, probs);
      const c = this.decide(raw, i, probs);
      for (let j = 0; j < columns.length; j++) columns[j][i] = probs[index[j]];
      if (truth && !isMissing(truth[i])) {
        const key = categoryKey(truth[i], this.targetKind);
        const tc = key === null ? undefined : this.classCode.get(key);
        // Anomalous: the truth is outside the conformal prediction set (an unknown class always is).
        anomaly[i] = tc === undefined || (tc !== c && 1 - probs[tc] > cal.setThreshold) ? 1 : 0;
      }
      value[i] = this.labels[c];
      confidence[i] = probs[c];
    }
    return {
      value,
      confidence,
      lower: null,
      upper: null,
      anomaly,
      probabilities: { names, columns },
    };
  }

  private run(
    cols: (ArrayLike<unknown> | undefined)[],
    truth: ArrayLike<unknown> | null,
    n: number,
  ): Prediction[] {
    return predictionsOf(this.table(cols, truth, n), n);
  }
}

/** The `Prediction` objects of a batch's columns (the same values and keys as before columns). */
function predictionsOf(t: PredictionColumns, n: number): Prediction[] {
  const out = new Array<Prediction>(n);
  const an = (i: number) => (t.anomaly[i] < 0 ? null : t.anomaly[i] === 1);
  if (!t.probabilities) {
    const value = t.value as Float64Array;
    for (let i = 0; i < n; i++) {
      out[i] = {
        value: value[i],
        confidence: t.confidence[i],
        lower: t.lower![i],
        upper: t.upper![i],
        anomaly: an(i),
      };
    }
    return out;
  }
  const { names, columns } = t.probabilities;
  for (let i = 0; i < n; i++) {
    const probabilities: Record<string, number> = {};
    for (let j = 0; j < names.length; j++) probabilities[names[j]] = columns[j][i];
    out[i] = {
      value: t.value[i],
      confidence: t.confidence[i],
      lower: null,
      upper: null,
      anomaly: an(i),
      probabilities,
    };
  }
  return out;
}

export function loadPredictor(a: ModelArtifact): Predictor {
  validateArtifact(a);
  return new ArtifactPredictor(a);
}
