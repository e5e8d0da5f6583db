// The training pipeline: target analysis and type inference -> encoders -> candidate models (GBM,
// linear, their mean) picked on a validation split -> analysis (conformal calibration, accuracy,
// permutation importance, missing inputs) -> optional refit on all rows -> a JSON artifact.

import type { ColumnarData, Dataset, ModelArtifact, ModelDescription, TrainOptions } from '../api';
import { type Analysis, analyze } from '../analysis/analyze';
import { encode } from '../data/encoded';
import { encoderName, fitEncoders } from '../data/encoders';
import { type Table, tableFromDataset, validateTable } from '../data/table';
import { AutoMLError } from '../errors';
import { activePool, resolveThreads, withPool } from '../threads';
import { serializeGBM } from '../gbm/serialize';
import { serializeLinear } from '../linear/linear';
import { DEFAULT_SETTINGS, resolveSettings } from '../options';
import { Rng } from '../prng';
import { type ScaleModel, serializeScale } from '../analysis/scale';
import { modelWarnings } from '../analysis/warnings';
import type { ScoreModel } from '../predict/score';
import { allRows, capRows } from '../rows';
import { type Candidate, accuracyName, scoredParts, trainCandidates } from './candidates';
import { classCounts, describeInputs, modelMetrics, round, summaryString } from './describe';
import { keepEvidence, tabularEvidence } from './evidence';
import { type FitContext, prepareTarget } from './fit';
import { type Inputs, profileInputs } from './inputs';
import { now, progress } from './progress';
import { reducedModel } from './reduced';
import { refit } from './refit';
import { fitTargetFeatures } from './fitted-features';
import { fitScales } from './scale';
import {
  ANALYSIS_MAX_ROWS,
  CROSSFIT_MAX_SCORES,
  CROSSFIT_MIN_ROWS,
  FOLDS,
  LINEAR_MAX_ROWS,
  SELECT_MAX_ROWS,
  SHARED_ANALYSIS_MIN_ROWS,
  foldRows,
  gbmParams,
  splitRows,
  userChoices,
  validationShare,
} from './sizes';
import { INFERENCE_SAMPLE_ROWS, type TargetInfo, analyzeTarget } from './target';

export function train(data: Dataset, opts: TrainOptions): ModelArtifact {
  if (!data || !Array.isArray(data.columns) || !Array.isArray(data.rows)) {
    throw new AutoMLError('training data must have columns and rows');
  }
  return trainTable(tableFromDataset(data), opts);
}

/**
 * Trains on columnar data (typed arrays, as the training worker receives them): no row arrays are
 * built, so a large table costs about its typed arrays in memory.
 */
export function trainColumns(data: ColumnarData, opts: TrainOptions): ModelArtifact {
  validateTable(data);
  return trainTable(data, opts);
}

function trainTable(data: Table, opts: TrainOptions): ModelArtifact {
  if (!opts || typeof opts.target !== 'string' || opts.target === '') {
    throw new AutoMLError('a target column is required (PREDICT <column>)');
  }
  // The pool's threads end with the training, also when it throws (a cancel from onProgress).
  return withPool(resolveThreads(opts.threads), () => trainPipeline(data, opts));
}

function trainPipeline(data: Table, opts: TrainOptions): ModelArtifact {
  const t0 = now();
  const settings = resolveSettings(opts.using, DEFAULT_SETTINGS, opts.seed);
  const target = opts.target;
  const rng = new Rng(settings.seed);
  progress(opts.onProgress, 1);

  const ti = analyzeTarget(data, target, settings.seed);
  const n = ti.keep.length;
  // The model thread loads on the other core meanwhile (see SHARED_ANALYSIS_MIN_ROWS).
  if (n >= SHARED_ANALYSIS_MIN_ROWS) activePool()?.warm();
  const inputs = profileInputs(data, ti, target, settings);

  progress(opts.onProgress, 2);
  const encs = fitEncoders(inputs.profiles, inputs.columns, rng);
  const { shape, y, weight } = prepareTarget(ti, settings);
  // Target-fitted inputs (words of text, means of rare categories), out of fold; own RNG streams.
  const fitted = fitTargetFeatures({
    encs,
    columns: inputs.columns,
    shape,
    y,
    seed: settings.seed,
    text: settings.textEncoder !== 'stats',
  });
  for (const f of inputs.features) {
    if (f.role === 'input')
      f.encoder = encoderName(encs[inputs.profiles.findIndex((p) => p.name === f.column)]);
  }
  const wantLinear =
    settings.model === 'linear' || (settings.model === 'auto' && n <= LINEAR_MAX_ROWS);
  const enc = encode(encs, inputs.columns, n, wantLinear, fitted);
  const classes = shape.task === 'regression' ? null : y;
  const user = userChoices(opts.using);
  const crossFit = n >= CROSSFIT_MIN_ROWS && n * shape.K <= CROSSFIT_MAX_SCORES;
  const folds = crossFit
    ? foldRows({ n, folds: FOLDS, rng, classes, nClasses: shape.nClasses })
    : [];
  const split = crossFit
    ? { train: allRows(n), val: new Int32Array(0) }
    : splitRows({
        n,
        fraction: validationShare(settings, n, user),
        rng,
        classes,
        nClasses: shape.nClasses,
      });
  const fitRows = crossFit ? folds[0].train.length : split.train.length;
  const ctx: FitContext = {
    settings,
    shape,
    enc,
    encs,
    y,
    weight,
    gTarget: {
      objective: shape.task === 'regression' ? 'regression' : shape.task,
      K: shape.K,
      y,
      weight,
    },
    split,
    crossFit,
    folds,
    // Large tables validate on a sample of the validation rows (all of them up to 50k).
    selRows: capRows(split.val, SELECT_MAX_ROWS, settings.seed ^ 0x5e1ec7),
    params: gbmParams(settings, fitRows, { user, classifier: shape.task !== 'regression' }),
    user,
  };

  progress(opts.onProgress, 3);
  const { candidates, best } = trainCandidates(ctx, wantLinear);

  progress(opts.onProgress, 4);
  // Regression: adaptive intervals, each part's rows scaled by a model that never saw their errors
  // (a single split's is fitted on the pool's model thread while the analysis starts).
  const scales = shape.task === 'regression' ? fitScales(ctx, best) : null;
  let parts = scales ? scales.parts : scoredParts(best);
  if (!crossFit) {
    const rows = capRows(ctx.selRows, ANALYSIS_MAX_ROWS, settings.seed ^ 0xa7a1);
    parts = parts.map((p) => ({ ...p, rows }));
  }
  const analysis = analyze({
    shape,
    parts,
    enc,
    encs,
    y,
    level: settings.confidence,
    rng,
    ...(scales
      ? {
          scales: () => {
            scales.join();
            return scales.parts.map((p) => p.scale);
          },
        }
      : {}),
    makeReduced: crossFit ? undefined : (importances) => reducedModel(ctx, importances),
    labels: ti.classLabels ?? undefined,
    decision: settings.decision ?? 'balanced',
    seed: settings.seed,
  });

  progress(opts.onProgress, 5);
  const final = refit(ctx, best, analysis.halfWidth);
  // The refit's width correction applies to complete rows; masks keep their (wider) quantiles.
  const missing = analysis.missing;
  if (missing?.halfWidths && final.halfWidth !== null) missing.halfWidths[0] = final.halfWidth;

  const artifact = assembleArtifact({
    target,
    ctx,
    ti,
    inputs,
    candidates,
    analysis,
    final,
    scale: scales?.join() ?? null,
    best: best.model,
  });
  keepEvidence(
    artifact,
    tabularEvidence({ data, ti, ctx, candidates, best, analysis, scales, artifact }),
  );
  artifact.description.trainingTimeMs = Math.round(now() - t0);
  return artifact;
}

function assembleArtifact(parts: {
  target: string;
  ctx: FitContext;
  ti: TargetInfo;
  inputs: Inputs;
  candidates: Candidate[];
  analysis: Analysis;
  final: ReturnType<typeof refit>;
  scale: ScaleModel | null;
  best: ScoreModel;
}): ModelArtifact {
  const { target, ctx, ti, inputs, candidates, analysis, final, scale } = parts;
  const { settings, encs } = ctx;
  const { task, yScale } = ctx.shape;
  const finalModel = final.model;
  const missing = analysis.missing;
  const { inputTypes, categories, numericRanges } = describeInputs(encs, inputs.profiles);
  const columnImportances: Record<string, number> = {};
  encs.forEach((e, j) => (columnImportances[e.column] = analysis.importances[j]));
  const rule = settings.decision ?? 'balanced';
  const accuracy = analysis.decisions
    ? analysis.decisions[rule].balanced_accuracy
    : analysis.accuracy;
  const description: ModelDescription = {
    task,
    target,
    targetType: ti.profile.type,
    inputs: encs.map((e) => e.column),
    accuracies: { [accuracyName(ctx)]: round(accuracy, 6) },
    columnImportances,
    features: inputs.features,
    candidates: candidates.map((c) => ({
      name: c.name,
      performance: round(c.performance, 6),
      training_time: round(c.training_time, 3),
      selected: c.selected,
      accuracy_functions: c.accuracy_functions,
    })),
    summary: summaryString(encs, finalModel, task, settings.confidence, scale !== null),
    inputTypes,
    categories,
    ...(ti.classLabels ? { classes: ti.classLabels } : {}),
    numericRanges,
    confidenceLevel: settings.confidence,
    trainRows: ctx.enc.n,
    trainingTimeMs: 0,
    ...(analysis.coverage
      ? {
          intervals: {
            nominal: settings.confidence,
            validation: round(analysis.coverage.validation, 4),
            worstQuintile: round(analysis.coverage.worstQuintile, 4),
            adaptive: scale !== null,
          },
        }
      : {}),
    ...(analysis.decisions ? { decision: { rule, ...analysis.decisions } } : {}),
    validation: ctx.crossFit ? 'cross-fitted' : 'split',
  };
  description.metrics = modelMetrics({
    description,
    report: analysis.report,
    // The shipped model: refit on every row, or the validated one (large tables, refit = false).
    trainRows:
      finalModel !== parts.best
        ? ctx.enc.n
        : ctx.crossFit
          ? ctx.folds[0].train.length
          : ctx.split.train.length,
  });
  description.warnings = modelWarnings({
    task,
    target,
    rows: ctx.enc.n,
    inputs: description.inputs,
    importances: columnImportances,
    // Profiles count the type-inference sample, not every row.
    profiles: inputs.profiles.map((p) => ({
      column: p.name,
      type: p.type,
      rows: Math.min(ctx.enc.n, INFERENCE_SAMPLE_ROWS),
      nDistinct: p.nDistinct,
      nMissing: p.nMissing,
    })),
    ...(ti.classLabels ? { classCounts: classCounts(ctx.y, ti.classLabels) } : {}),
    metrics: description.metrics,
    ...(description.intervals ? { intervals: description.intervals } : {}),
  });
  return {
    format: 'automl/1',
    target,
    task,
    target_info: { type: ti.profile.type, valueKind: ti.profile.valueKind },
    classes: ti.classKeys ? { keys: ti.classKeys, labels: ti.classLabels! } : null,
    y_scale: yScale,
    encoders: encs,
    model: {
      gbm: finalModel.gbm ? serializeGBM(finalModel.gbm) : null,
      linear: finalModel.linear ? serializeLinear(finalModel.linear) : null,
      ...(analysis.reduced
        ? {
            reduced: {
              column: encs[analysis.reduced.column].column,
              gbm: serializeGBM(analysis.reduced.gbm),
            },
          }
        : {}),
    },
    calibration: {
      halfWidth: final.halfWidth,
      ...(scale ? { scale: serializeScale(scale) } : {}),
      classes: analysis.classCal,
      ...(missing ? { missing } : {}),
    },
    settings,
    description,
  };
}
