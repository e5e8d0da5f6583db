// A tabular model as one ONNX model (ONNX opset 21, ONNX-ML opset 5, IR version 10): the input
// encoders, the GBM trees, the linear part, their blend, the reduced model for rows missing the
// dominant input, the regression intervals (adaptive scale, per-pattern widths) or the calibrated
// class probabilities and the decision rule, computed in doubles as predict/predictor.ts does.
// Parts ONNX cannot express (free-text encoders, time-series forecasters) are refused, never
// approximated.

import type { ModelArtifact } from '../api';
import { deserializeScale } from '../analysis/scale';
import type { ColumnEncoder } from '../data/encoders';
import { buildLayout } from '../data/layout';
import { AutoMLError } from '../errors';
import type { GBMModel } from '../gbm/model';
import { deserializeGBM } from '../gbm/serialize';
import { deserializeLinear } from '../linear/linear';
import { validateArtifact } from '../predict/predictor';
import type { TimeSeriesArtifact } from '../timeseries/types';
import { isTimeSeriesArtifact } from '../timeseries/forecaster';
import { GraphBuilder, ML_DOMAIN } from './graph';
import { type OnnxInput, encodeInputs, inputOf } from './inputs';
import { DataType, encodeModel, valueInfo, type ValueInfoMessage } from './proto';
import { type TreeInput, treeEnsembleAttrs } from './trees';

const ONNX_IR_VERSION = 10;
const ONNX_OPSET = 21;
const ONNX_ML_OPSET = 5;

/** A model (or part of one) that ONNX cannot express; the message says which part and why. */
export class OnnxExportError extends AutoMLError {
  constructor(message: string) {
    super(message);
    this.name = 'OnnxExportError';
  }
}

interface OnnxOutput {
  name: string;
  type: 'double' | 'string';
  /** Columns per row: 1, or the number of classes for probabilities. */
  width: number;
  meaning: string;
}

/** The exported model and the description of its interface (also in its metadata). */
export interface OnnxExport {
  bytes: Uint8Array;
  inputs: OnnxInput[];
  outputs: OnnxOutput[];
  /** Classifiers: the class labels, in the order of the probability columns. */
  classes: (string | number | boolean)[] | null;
}

/** Why an artifact cannot be exported, or null when it can. */
function onnxRefusal(a: ModelArtifact | TimeSeriesArtifact): string | null {
  if (isTimeSeriesArtifact(a)) {
    return "time-series models (ORDER BY ... WINDOW ... HORIZON) cannot be exported to ONNX: a forecast reads each series' history, fills its gaps and predicts step after step from its own earlier steps, which an ONNX graph over independent rows cannot express";
  }
  const text = a.encoders.filter((e) => e.kind === 'text').map((e) => `'${e.column}'`);
  if (text.length > 0) {
    return `models with free-text inputs cannot be exported to ONNX: ${text.join(', ')} ${text.length > 1 ? 'are' : 'is'} encoded as text (length, word count and a TF-IDF score of its words), and ONNX has no standard operators for that tokenisation; retrain with USING ignore_columns = [${text.join(', ')}] to export`;
  }
  if (a.encoders.length === 0) return 'the model has no input columns';
  return null;
}

type Label = string | number | boolean;

/**
 * The ONNX model of a tabular artifact. Throws OnnxExportError for what cannot be expressed
 * (see onnxRefusal). `name` / `version` label the graph and its metadata.
 */
export function exportOnnx(
  a: ModelArtifact | TimeSeriesArtifact,
  meta: { name?: string; version?: number; producerVersion?: string } = {},
): OnnxExport {
  const refusal = onnxRefusal(a);
  if (refusal) throw new OnnxExportError(refusal);
  const art = a as ModelArtifact;
  validateArtifact(art);

  const g = new GraphBuilder();
  const encs: ColumnEncoder[] = art.encoders;
  const inputs = encs.map(inputOf);
  const target = art.target;
  const outputNames =
    art.task === 'regression'
      ? [target, `${target}_min`, `${target}_max`]
      : [target, `${target}_confidence`, `${target}_probabilities`];
  const clash = outputNames.find((o) => inputs.some((i) => i.name === o));
  if (clash) {
    throw new OnnxExportError(`the output '${clash}' would have the name of an input column`);
  }
  // Inputs and outputs keep their exact names; internal values get fresh ones around them.
  const names = inputs.map((i) => g.reserve(i.name));
  for (const o of outputNames) g.reserve(o);
  const layout = buildLayout(encs);
  const enc = encodeInputs(g, encs, layout, names);

  const K = art.task === 'multiclass' ? art.classes!.keys.length : 1;
  const trees: TreeInput[] = enc.features.map((f) => f.tree);
  const X = g.concat(
    enc.features.map((f) => f.value),
    1,
    'features',
  );

  /** [N, 1] zeros of the batch: the start of a sum whose parts may all be constants. */
  const zeros = (width: number) =>
    g.op(
      'ConstantOfShape',
      [g.concat([g.op('Shape', [names[0]], { end: { int: 1 } }), g.int64([width])], 0, 'shape')],
      { value: { tensor: { dims: [1], data_type: DataType.DOUBLE, raw_data: new Uint8Array(8) } } },
    );

  /** Sum of a GBM's trees and its base, [N, K]. */
  const gbmScore = (m: GBMModel, x: string, inputsOfX: TreeInput[], hint: string): string => {
    const attrs = treeEnsembleAttrs(m, inputsOfX);
    const base = g.double(Array.from(m.base), [1, m.K], `${hint}_base`);
    if (!attrs) return g.add(zeros(m.K), base, hint);
    const sum = g.op('TreeEnsemble', [x], attrs, { domain: ML_DOMAIN, hint: `${hint}_trees` });
    return g.add(sum, base, hint);
  };

  // The raw score: linear part + GBM part (a blend stores both halved).
  let raw: string | null = null;
  if (art.model.gbm) raw = gbmScore(deserializeGBM(art.model.gbm), X, trees, 'gbm');
  if (art.model.linear) {
    const lin = deserializeLinear(art.model.linear);
    const D = lin.d + 1;
    const W = new Float64Array(lin.d * K);
    for (let j = 0; j < lin.d; j++) for (let k = 0; k < K; k++) W[j * K + k] = lin.w[k * D + j];
    const b = Array.from({ length: K }, (_, k) => lin.w[k * D + lin.d]);
    if (lin.d !== layout.linDims) {
      throw new OnnxExportError(
        `the linear part reads ${lin.d} columns but the encoders give ${layout.linDims}; the artifact is inconsistent`,
      );
    }
    const score =
      lin.d > 0
        ? g.add(
            g.op('MatMul', [
              g.concat(enc.linear, 1, 'linear_inputs'),
              g.constant(
                {
                  dims: [lin.d, K],
                  data_type: DataType.DOUBLE,
                  raw_data: new Uint8Array(W.buffer),
                },
                'linear_weights',
              ),
            ]),
            g.double(b, [1, K], 'linear_intercept'),
            'linear',
          )
        : g.add(zeros(K), g.double(b, [1, K]), 'linear');
    raw = raw ? g.add(score, raw, 'raw') : score;
  }
  if (!raw) throw new OnnxExportError('the artifact has no model');

  // Rows missing the dominant input are scored by the reduced trees alone.
  const red = art.model.reduced;
  const redEnc = red ? encs.findIndex((e) => e.column === red.column) : -1;
  if (red && redEnc >= 0) {
    const reduced = gbmScore(deserializeGBM(red.gbm), X, trees, 'reduced');
    raw = g.where(enc.missing[redEnc], reduced, raw, 'raw');
  }

  // Calibration per pattern of missing inputs: mask = sum of 2^group over groups with a missing
  // column, as predictor.ts's missingMasks.
  const m = art.calibration.missing;
  const nMasks = m && Array.isArray(m.groups) ? 1 << m.groups.length : 0;
  const useMasks =
    !!m &&
    m.groups.length > 0 &&
    m.groups.length <= 16 &&
    (art.task === 'regression'
      ? m.halfWidths?.length === nMasks
      : m.classes?.length === nMasks && !!art.calibration.classes);
  let mask: string | null = null;
  if (useMasks) {
    const col = new Map(encs.map((e, j) => [e.column, j]));
    const bits: string[] = [];
    m.groups.forEach((group, gi) => {
      const cols = group.map((c) => col.get(c)).filter((j): j is number => j !== undefined);
      if (cols.length === 0) return;
      const any = cols
        .slice(1)
        .reduce((acc, j) => g.op('Or', [acc, enc.missing[j]]), enc.missing[cols[0]]);
      bits.push(g.mul(g.toDouble(any), g.double(1 << gi), 'mask_bit'));
    });
    mask =
      bits.length > 0
        ? g.cast(
            bits.slice(1).reduce((acc, b) => g.add(acc, b), bits[0]),
            DataType.INT64,
            'mask',
          )
        : null;
  }
  /** A per-row value: `base` for complete rows (mask 0), table[mask] for the others. */
  const perMask = (base: number, table: number[], hint: string): string => {
    if (!mask) return g.double(base);
    const t = [base, ...table.slice(1)];
    return g.op('Gather', [g.double(t, [t.length], hint), mask], {}, { hint });
  };

  const outputs: OnnxOutput[] = [];
  const outInfo: ValueInfoMessage[] = [];
  const output = (
    name: string,
    value: string,
    type: 'double' | 'string',
    width: number,
    meaning: string,
  ) => {
    g.op('Identity', [value], {}, { output: name });
    outputs.push({ name, type, width, meaning });
    outInfo.push(
      valueInfo(name, type === 'double' ? DataType.DOUBLE : DataType.STRING, ['N', width], meaning),
    );
  };

  let classes: Label[] | null = null;
  if (art.task === 'regression') {
    const mean = art.y_scale?.mean ?? 0;
    const std = art.y_scale?.std ?? 1;
    const value = g.add(g.double(mean), g.mul(g.double(std), raw), 'value');
    let hw = perMask(art.calibration.halfWidth ?? 0, m?.halfWidths ?? [], 'half_widths');
    if (art.calibration.scale) {
      const sc = deserializeScale(art.calibration.scale);
      const edges = sc.predThresholds;
      const xs = g.concat([X, raw], 1, 'scale_features');
      const s = gbmScore(
        sc.gbm,
        xs,
        [...trees, { isCat: false, edges, nBins: edges.length + 2 }],
        'scale',
      );
      const floor = g.double(sc.floor);
      const clipped = g.where(g.op('GreaterOrEqual', [s, floor]), s, floor, 'scale');
      hw = g.mul(hw, g.mul(clipped, g.double(std)), 'half_width');
    }
    output(target, value, 'double', 1, 'the predicted value');
    output(
      `${target}_min`,
      g.sub(value, hw),
      'double',
      1,
      'lower bound of the prediction interval',
    );
    output(
      `${target}_max`,
      g.add(value, hw),
      'double',
      1,
      'upper bound of the prediction interval',
    );
  } else {
    const cal = art.calibration.classes!;
    const labels = art.classes!.labels;
    classes = labels;
    const nC = labels.length;
    const T = perMask(
      cal.temperature,
      (m?.classes ?? []).map((c) => c.temperature),
      'temperatures',
    );
    // Rows calibrated per mask carry no uniform floor (predictor.ts copies only temperature and
    // threshold), complete rows the model's.
    const floors = (m?.classes ?? []).map((c) => (c as { floor?: number }).floor ?? 0);
    const eps = perMask(cal.floor ?? 0, floors, 'floors');
    let probs: string;
    if (K === 1) {
      const x = g.div(g.op('Neg', [g.sub(raw, g.double(cal.shift[0]))]), T);
      const p = g.div(g.double(1), g.add(g.double(1), g.op('Exp', [x])), 'p');
      probs = g.concat([g.sub(g.double(1), p), p], 1, 'probs');
    } else {
      const z = g.div(g.sub(raw, g.double(cal.shift, [1, K], 'shift')), T, 'z');
      const axes = g.int64([1], [1], 'axes');
      const mx = g.op('ReduceMax', [z, axes], { keepdims: { int: 1 } });
      const e = g.op('Exp', [g.sub(z, mx)]);
      probs = g.div(e, g.op('ReduceSum', [e, axes], { keepdims: { int: 1 } }), 'probs');
    }
    const anyFloor = (cal.floor ?? 0) > 0 || floors.some((f) => f > 0);
    if (anyFloor) {
      probs = g.div(g.add(probs, eps), g.add(g.double(1), g.mul(g.double(nC), eps)), 'probs');
    }
    // The decision rule: 'balanced' takes the arg-max of the class-weighted scores (the sign of
    // a binary logit), 'argmax' the most probable class.
    const argmax = (x: string) =>
      g.op('ArgMax', [x], {
        axis: { int: 1 },
        keepdims: { int: 1 },
        select_last_index: { int: 0 },
      });
    const cls =
      art.settings.decision === 'argmax'
        ? argmax(probs)
        : K === 1
          ? g.cast(g.op('Greater', [raw, g.double(0)]), DataType.INT64, 'class')
          : argmax(raw);
    const numeric = labels.every((l) => typeof l === 'number');
    const table = numeric
      ? g.double(labels, [nC], 'labels')
      : g.strings(labels.map(String), [nC], 'labels');
    output(
      target,
      g.op('Gather', [table, cls]),
      numeric ? 'double' : 'string',
      1,
      'the predicted class',
    );
    output(
      `${target}_confidence`,
      g.op('GatherElements', [probs, cls], { axis: { int: 1 } }),
      'double',
      1,
      'the calibrated probability of the predicted class',
    );
    output(
      `${target}_probabilities`,
      probs,
      'double',
      nC,
      `calibrated probability of each class, in the order ${JSON.stringify(labels)}`,
    );
  }

  const inInfo = inputs.map((i) =>
    valueInfo(
      i.name,
      i.type === 'double' ? DataType.DOUBLE : DataType.STRING,
      ['N', 1],
      inputDoc(i),
    ),
  );
  const modelName = meta.name ?? target;
  const doc = `MindsDB-compatible model ${modelName}${meta.version ? ` version ${meta.version}` : ''}: predicts ${target} (${art.task}). Inputs: one [N, 1] tensor per column (see each input's doc string); outputs: ${outputs.map((o) => o.name).join(', ')}.`;
  const bytes = encodeModel({
    ir_version: ONNX_IR_VERSION,
    opset_import: [
      { domain: '', version: ONNX_OPSET },
      { domain: ML_DOMAIN, version: ONNX_ML_OPSET },
    ],
    producer_name: 'sql-model-playground',
    producer_version: meta.producerVersion ?? '0',
    ...(meta.version ? { model_version: meta.version } : {}),
    doc_string: doc,
    graph: g.graph(modelName, inInfo, outInfo, doc),
    metadata_props: [
      { key: 'target', value: target },
      { key: 'task', value: art.task },
      { key: 'inputs', value: JSON.stringify(inputs) },
      { key: 'outputs', value: JSON.stringify(outputs) },
      ...(classes ? [{ key: 'classes', value: JSON.stringify(classes) }] : []),
      ...(art.task === 'regression'
        ? [{ key: 'interval_confidence', value: String(art.description.confidenceLevel) }]
        : [{ key: 'decision_rule', value: art.settings.decision ?? 'balanced' }]),
    ],
  });
  return { bytes, inputs, outputs, classes };
}

function inputDoc(i: OnnxInput): string {
  switch (i.kind) {
    case 'number':
      return 'double; NaN = missing';
    case 'category':
      return "string, the category as spelled in training; '' = missing";
    case 'category_number':
      return 'double, the category (a number); NaN = missing';
    case 'boolean':
      return "string: true/false, yes/no, t/f, y/n or 1/0 in any letter case; '' = missing";
    case 'datetime':
      return 'double, milliseconds since 1970-01-01 00:00 UTC; NaN = missing';
  }
}
