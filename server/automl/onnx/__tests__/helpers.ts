// Running an exported model in onnxruntime-node beside the engine's own predictor: the feeds a
// user would build from rows (one [N, 1] tensor per input column, as docs/scale.md describes) and
// the comparison of both answers.

import { expect } from 'vitest';
import * as ort from 'onnxruntime-node';
import type { Dataset, ModelArtifact, OnnxExport, Prediction } from '../../index';
import { exportOnnx, loadPredictor } from '../../index';
import { parseDatetime, parseNumber, categoryKey, isMissing } from '../../data/column-types';
import type { OnnxInput } from '../inputs';

/** The tensor of one input column, converted as docs/scale.md tells users to. */
function inputTensor(input: OnnxInput, cells: unknown[]): ort.Tensor {
  const n = cells.length;
  if (input.type === 'string') {
    const out = cells.map((v) => {
      if (isMissing(v)) return '';
      if (input.kind === 'boolean') return String(v);
      return categoryKey(v, 'string') ?? '';
    });
    return new ort.Tensor('string', out, [n, 1]);
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = cells[i];
    out[i] = isMissing(v) ? NaN : input.kind === 'datetime' ? parseDatetime(v) : parseNumber(v);
  }
  return new ort.Tensor('float64', out, [n, 1]);
}

function feeds(exp: OnnxExport, d: Dataset): Record<string, ort.Tensor> {
  const out: Record<string, ort.Tensor> = {};
  for (const input of exp.inputs) {
    const j = d.columns.indexOf(input.name);
    out[input.name] = inputTensor(
      input,
      d.rows.map((r) => (j >= 0 ? r[j] : null)),
    );
  }
  return out;
}

function rowsOf(d: Dataset): Record<string, unknown>[] {
  return d.rows.map((r) => Object.fromEntries(d.columns.map((c, j) => [c, r[j]])));
}

async function runOnnx(exp: OnnxExport, d: Dataset): Promise<Record<string, ort.Tensor>> {
  const session = await ort.InferenceSession.create(exp.bytes);
  try {
    return await session.run(feeds(exp, d));
  } finally {
    await session.release();
  }
}

const close = (a: number, b: number, tol: number) =>
  Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

/**
 * Exports `a`, runs it on `d` and checks every row against the engine's predictor: regression
 * values and interval bounds within `tol` (relative to the value's size, absolute below 1);
 * classifiers the same class and each probability within `tol`. Returns how many rows compared.
 */
export async function expectOnnxEqual(
  a: ModelArtifact,
  d: Dataset,
  tol = 1e-5,
): Promise<{ rows: number; maxDiff: number }> {
  const exp = exportOnnx(a);
  const out = await runOnnx(exp, d);
  const preds: Prediction[] = loadPredictor(a).predict(rowsOf(d));
  const t = a.target;
  let maxDiff = 0;
  const diff = (x: number, y: number) => {
    const dd = Math.abs(x - y) / Math.max(1, Math.abs(y));
    if (dd > maxDiff) maxDiff = dd;
    return dd;
  };
  if (a.task === 'regression') {
    const v = out[t].data as Float64Array;
    const lo = out[`${t}_min`].data as Float64Array;
    const hi = out[`${t}_max`].data as Float64Array;
    preds.forEach((p, i) => {
      diff(v[i], p.value as number);
      diff(lo[i], p.lower!);
      diff(hi[i], p.upper!);
      if (
        !close(v[i], p.value as number, tol) ||
        !close(lo[i], p.lower!, tol) ||
        !close(hi[i], p.upper!, tol)
      ) {
        expect({ row: i, onnx: [v[i], lo[i], hi[i]] }).toEqual({
          row: i,
          onnx: [p.value, p.lower, p.upper],
        });
      }
    });
  } else {
    const labels = out[t].data as ArrayLike<unknown>;
    const probs = out[`${t}_probabilities`].data as Float64Array;
    const conf = out[`${t}_confidence`].data as Float64Array;
    const classes = exp.classes!;
    const C = classes.length;
    preds.forEach((p, i) => {
      const want = typeof labels[i] === 'string' ? String(p.value) : p.value;
      if (labels[i] !== want) expect({ row: i, class: labels[i] }).toEqual({ row: i, class: want });
      diff(conf[i], p.confidence);
      if (!close(conf[i], p.confidence, tol))
        expect({ row: i, conf: conf[i] }).toEqual({ row: i, conf: p.confidence });
      for (let k = 0; k < C; k++) {
        const q = p.probabilities![String(classes[k])];
        diff(probs[i * C + k], q);
        if (!close(probs[i * C + k], q, tol)) {
          expect({ row: i, class: classes[k], p: probs[i * C + k] }).toEqual({
            row: i,
            class: classes[k],
            p: q,
          });
        }
      }
    });
  }
  return { rows: preds.length, maxDiff };
}
