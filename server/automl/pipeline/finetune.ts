// Finetune: continue boosting a trained model on new rows, with its encoders fixed, and recompute
// calibration, accuracy and importances on the new validation rows.

import type { ColumnarData, Dataset, ModelArtifact, ModelDescription, TrainOptions } from '../api';
import { type Analysis, analyze } from '../analysis/analyze';
import { modelWarnings } from '../analysis/warnings';
import { serializeScale } from '../analysis/scale';
import { categoryKey, isMissing, parseNumber } from '../data/column-types';
import { type Encoded, encode } from '../data/encoded';
import { type Table, cellAt, cellsAt, tableFromDataset, validateTable } from '../data/table';
import { resolveThreads, withPool } from '../threads';
import { AutoMLError } from '../errors';
import { trainGBM } from '../gbm/boost';
import { emptyModel } from '../gbm/model';
import { deserializeGBM, serializeGBM } from '../gbm/serialize';
import {
  type LinearModel,
  deserializeLinear,
  predictLinearRows,
  serializeLinear,
} from '../linear/linear';
import { resolveSettings } from '../options';
import { Rng } from '../prng';
import type { ScoreModel, ScoreShape } from '../predict/score';
import { allRows, capRows } from '../rows';
import { modelMetrics, round, summaryString } from './describe';
import { SCALE_MIN_ROWS, scaleOfModel } from './scale';
import { now, progress } from './progress';
import { ANALYSIS_MAX_ROWS, SELECT_MAX_ROWS, gbmParams, splitRows, usesKey } from './sizes';

/** Warnings about the base model's training data, which a finetune keeps. */
const DATA_WARNINGS = new Set(['identifier_like', 'mostly_missing', 'rare_class']);

/** Iterations a finetune may add when USING max_iterations is not given (early stopping decides). */
const FINETUNE_MAX_ITERATIONS = 200;
/** ... and when there are too few new rows (< 10) for a validation split. */
const FINETUNE_BLIND_ITERATIONS = 10;

/**
 * Continues boosting from `base` on new rows: the encoders stay fixed (new categories map to the
 * 'other/unseen' code, out-of-range numbers to the edge bins), the base model's scores become the
 * starting point and new trees are added with early stopping on a validation split of the new
 * rows. A linear base keeps its weights and gets trees on top. Calibration, accuracy and
 * importances are recomputed on the new validation rows when there are enough of them.
 */
export function finetune(
  base: ModelArtifact,
  data: Dataset,
  opts: Partial<TrainOptions> = {},
): ModelArtifact {
  if (!data || !Array.isArray(data.columns) || !Array.isArray(data.rows)) {
    throw new AutoMLError('training data must have columns and rows');
  }
  return finetuneTable(base, tableFromDataset(data), opts);
}

/** finetune on columnar data (see trainColumns). */
export function finetuneColumns(
  base: ModelArtifact,
  data: ColumnarData,
  opts: Partial<TrainOptions> = {},
): ModelArtifact {
  validateTable(data);
  return finetuneTable(base, data, opts);
}

function finetuneTable(
  base: ModelArtifact,
  data: Table,
  opts: Partial<TrainOptions> = {},
): ModelArtifact {
  return withPool(resolveThreads(opts.threads), () => finetunePipeline(base, data, opts));
}

function finetunePipeline(
  base: ModelArtifact,
  data: Table,
  opts: Partial<TrainOptions>,
): ModelArtifact {
  const t0 = now();
  if (!base || base.format !== 'automl/1')
    throw new AutoMLError('finetune needs an automl/1 model artifact');
  const target = base.target;
  if (opts.target !== undefined && opts.target !== target) {
    throw new AutoMLError(`finetune must keep the target '${target}', got '${opts.target}'`);
  }
  const usingIn = { ...(opts.using ?? {}) };
  const settings = resolveSettings(
    usingIn,
    { ...base.settings, maxIterations: FINETUNE_MAX_ITERATIONS },
    opts.seed,
  );
  const rng = new Rng(settings.seed + 1);
  progress(opts.onProgress, 1);
  const task = base.task;
  const { keep, y } = newTargets(base, data);
  const n = keep.length;
  const encs = base.encoders;
  const columns = encs.map((e) => {
    const j = data.columns.indexOf(e.column);
    return j < 0 ? undefined : cellsAt(data.data[j], keep);
  });
  progress(opts.onProgress, 2);
  const enc = encode(encs, columns, n, base.model.linear !== null);
  const nClasses = base.classes ? base.classes.keys.length : 0;
  const K = task === 'multiclass' ? nClasses : 1;
  let weight: Float64Array | null = null;
  let shift: number[] = [];
  if (task !== 'regression') {
    // Keep the base model's class balance so old and new trees optimise the same objective.
    const baseShift = base.calibration.classes?.shift ?? [];
    const cw =
      task === 'binary'
        ? [1, Math.exp(baseShift[0] ?? 0)]
        : Array.from({ length: nClasses }, (_, k) => Math.exp(baseShift[k] ?? 0));
    weight = Float64Array.from(y, (c) => cw[c]);
    shift = baseShift;
  }
  const shape: ScoreShape = { task, K, nClasses, yScale: base.y_scale, shift };
  const split =
    n >= 10
      ? splitRows({
          n,
          fraction: settings.validationFraction,
          rng,
          classes: task === 'regression' ? null : y,
          nClasses,
        })
      : { train: allRows(n), val: new Int32Array(0) };
  const selRows = capRows(split.val, SELECT_MAX_ROWS, settings.seed ^ 0x5e1ec7);

  progress(opts.onProgress, 3);
  const baseLinear = base.model.linear ? deserializeLinear(base.model.linear) : null;
  const c0 = now();
  // Without validation rows nothing stops the boosting, so only a few careful steps are taken
  // unless USING max_iterations says otherwise.
  const userIterations = usesKey(usingIn, 'max_iterations');
  const params = {
    // Careful steps: the settings' own learning rate at every size.
    ...gbmParams(settings, split.train.length, {
      user: { iterations: userIterations, rate: true },
    }),
    maxIterations:
      split.val.length > 0 || userIterations
        ? settings.maxIterations
        : Math.min(settings.maxIterations, FINETUNE_BLIND_ITERATIONS),
  };
  // Trees continue from the base scores: from the base GBM itself, or (linear base) from an empty
  // ensemble whose starting scores are the linear model's outputs.
  const res = trainGBM({
    data: enc.binned,
    target: { objective: task === 'regression' ? 'regression' : task, K, y, weight },
    trainRows: split.train,
    valRows: selRows,
    params,
    init: base.model.gbm ? deserializeGBM(base.model.gbm) : emptyModel(K),
    offset: baseLinear ? linearOffset(baseLinear, enc, K) : undefined,
  });
  const model: ScoreModel = { gbm: res.model, linear: baseLinear };
  const trainSeconds = (now() - c0) / 1000;

  progress(opts.onProgress, 4);
  const desc0 = base.description;
  let calibration = base.calibration;
  let accuracies = desc0.accuracies;
  let columnImportances = desc0.columnImportances;
  let performance = desc0.candidates.find((c) => c.selected)?.performance ?? 0;
  let intervals = desc0.intervals;
  let decision = desc0.decision;
  let report: Analysis['report'] | null = null;
  if (split.val.length >= 10) {
    const rows = capRows(selRows, ANALYSIS_MAX_ROWS, settings.seed ^ 0xa7a1);
    // Adaptive intervals when there are enough new validation rows (as in training).
    const scale =
      task === 'regression' && rows.length >= SCALE_MIN_ROWS
        ? scaleOfModel({ enc, model, rows: split.train, y, K, seed: settings.seed })
        : null;
    const a = analyze({
      shape,
      parts: [{ model, rows, scale }],
      enc,
      encs,
      y,
      level: settings.confidence,
      rng,
      labels: base.classes?.labels,
      decision: settings.decision ?? 'balanced',
      seed: settings.seed,
    });
    report = a.report;
    calibration = {
      halfWidth: a.halfWidth,
      ...(scale ? { scale: serializeScale(scale) } : {}),
      classes: a.classCal,
      ...(a.missing ? { missing: a.missing } : {}),
    };
    const accName = task === 'regression' ? 'r2_score' : 'balanced_accuracy_score';
    const rule = settings.decision ?? 'balanced';
    const acc = a.decisions ? a.decisions[rule].balanced_accuracy : a.accuracy;
    accuracies = { [accName]: round(acc, 6) };
    performance = round(acc, 6);
    if (a.coverage) {
      intervals = {
        nominal: settings.confidence,
        validation: round(a.coverage.validation, 4),
        worstQuintile: round(a.coverage.worstQuintile, 4),
        adaptive: scale !== null,
      };
    }
    if (a.decisions) decision = { rule, ...a.decisions };
    columnImportances = {};
    for (let j = 0; j < encs.length; j++) columnImportances[encs[j].column] = a.importances[j];
  }
  progress(opts.onProgress, 5);
  const description: ModelDescription = {
    ...desc0,
    accuracies,
    columnImportances,
    candidates: [
      ...desc0.candidates.map((c) => ({ ...c, selected: false })),
      {
        name: `GBM(finetuned, +${res.iterations} iterations)`,
        performance,
        training_time: round(trainSeconds, 3),
        selected: true,
        accuracy_functions: Object.keys(accuracies),
      },
    ],
    summary: summaryString(encs, model, task, settings.confidence),
    confidenceLevel: settings.confidence,
    trainRows: n,
    trainingTimeMs: 0,
    ...(intervals ? { intervals } : {}),
    ...(decision ? { decision } : {}),
  };
  // The reduced model (if any) is not finetuned, so it is dropped; missing inputs fall back to
  // tree routing, with intervals recalibrated above when there were enough new rows.
  const artifact: ModelArtifact = {
    ...base,
    model: {
      gbm: serializeGBM(res.model),
      linear: baseLinear ? serializeLinear(baseLinear) : null,
    },
    calibration,
    settings: { ...settings, maxIterations: base.settings.maxIterations },
    description,
  };
  // New validation rows: new metrics; too few of them: the base model's metrics are kept.
  if (report) description.metrics = modelMetrics({ description, report, trainRows: n });
  // What the model does is judged again; what the base data showed (identifiers, missing
  // values, rare classes) still holds and is kept, as the model learned from both.
  description.warnings = [
    ...(desc0.warnings ?? []).filter((w) => DATA_WARNINGS.has(w.kind)),
    ...modelWarnings({
      task,
      target,
      rows: desc0.trainRows + n,
      inputs: description.inputs,
      importances: columnImportances,
      ...(description.metrics ? { metrics: description.metrics } : {}),
      ...(description.intervals ? { intervals: description.intervals } : {}),
    }),
  ];
  description.trainingTimeMs = Math.round(now() - t0);
  return artifact;
}

/**
 * The new rows with a usable target (positions into `data`) and their targets on the base
 * model's scale: standardized values, or class codes (a class the base never saw is an error).
 */
function newTargets(base: ModelArtifact, data: Table): { keep: number[]; y: Float64Array } {
  const target = base.target;
  const tIdx = data.columns.indexOf(target);
  if (tIdx < 0) {
    throw new AutoMLError(
      `target column '${target}' is not in the data; columns are: ${data.columns.join(', ')}`,
    );
  }
  const col = data.data[tIdx];
  const kind = base.target_info.valueKind;
  const keep: number[] = [];
  const yList: number[] = [];
  const classCode = base.classes ? new Map(base.classes.keys.map((k, i) => [k, i])) : null;
  for (let r = 0; r < data.rowCount; r++) {
    const v = cellAt(col, r);
    if (isMissing(v)) continue;
    if (base.task === 'regression') {
      const x = parseNumber(v);
      if (Number.isNaN(x)) continue;
      keep.push(r);
      yList.push((x - base.y_scale!.mean) / base.y_scale!.std);
    } else {
      const k = categoryKey(v, kind)!;
      const c = classCode!.get(k);
      if (c === undefined) {
        throw new AutoMLError(
          `target value '${k}' in row ${r} was not a class when the model was trained (classes: ${base.classes!.keys.join(', ')}); retrain the model instead of finetuning`,
        );
      }
      keep.push(r);
      yList.push(c);
    }
  }
  if (keep.length === 0) {
    throw new AutoMLError(`finetune data has no rows with a value in '${target}'`);
  }
  return { keep, y: Float64Array.from(yList) };
}

/** A linear base model's scores of every encoded row (n x K): the trees' starting offset. */
function linearOffset(m: LinearModel, enc: Encoded, K: number): Float64Array {
  const out = new Float64Array(enc.n * K);
  predictLinearRows(m, enc.linear!, allRows(enc.n), out);
  return out;
}
