// Why a prediction came out: per row, each input column's contribution to the predicted value
// (regression) or to the predicted class's raw score (classifiers), with a base value such that
// base + sum of contributions = the explained number. Trees are explained by exact TreeSHAP
// (tree-shap.ts); a linear part exactly by weight x input against the reference of average numbers
// and no category (its intercept); the parts add up as the model's scores do.

import type { Explanation, Task } from '../api';
import { type Layout, type LinearRows, slotWidth } from '../data/layout';
import type { GBMModel } from '../gbm/model';
import type { LinearModel } from '../linear/linear';
import { TreeExplainer } from './tree-shap';

const explainers = new WeakMap<GBMModel, TreeExplainer>();

function explainerOf(m: GBMModel, F: number): TreeExplainer {
  let e = explainers.get(m);
  if (!e) {
    e = new TreeExplainer(m, F);
    explainers.set(m, e);
  }
  return e;
}

export interface ExplainInput {
  task: Task;
  K: number;
  layout: Layout;
  /** Input column of each encoder (the layout's encoders). */
  columns: string[];
  gbm: GBMModel | null;
  linear: LinearModel | null;
  /** Rows with reduced[i] = true are scored by `reducedGbm` alone. */
  reducedGbm: GBMModel | null;
  reduced: Uint8Array | null;
  /** Row-major bins (stride F) and linear rows of the batch. */
  bins: Uint8Array | null;
  stride: number;
  lin: LinearRows | null;
  n: number;
  /** The raw scores (n x K) the predictions came from, and each row's predicted class. */
  raw: Float64Array;
  classOf: (i: number) => number;
  yScale: { mean: number; std: number };
  labels: (string | number | boolean)[];
}

export function explainBatch(x: ExplainInput): Explanation[] {
  const { layout, K, n, raw } = x;
  const F = layout.features.length;
  const E = layout.encoderFeatures.length;
  const encOf = Int32Array.from(layout.features, (f) => f.encoder);
  const slotStart: number[] = [];
  let s0 = 0;
  for (const f of layout.features) {
    slotStart.push(s0);
    s0 += slotWidth(f);
  }
  const phiF = new Float64Array(F);
  const phiE = new Float64Array(E);
  const out = new Array<Explanation>(n);
  // Each row's class and score (the explained score: regression and multiclass raw[c]; binary:
  // the logit for class 1 and its negative for class 0, the raw score of the predicted class).
  const cls = new Int32Array(n);
  const ks = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    cls[i] = x.task === 'regression' ? 0 : x.classOf(i);
    ks[i] = x.task === 'multiclass' ? cls[i] : 0;
  }
  const reducedRow = (i: number) => x.reduced !== null && x.reduced[i] === 1;
  // The trees' values of every row first, tree by tree (TreeExplainer.explainRows), each row by
  // the trees that scored it.
  const phiTrees = new Float64Array(n * F);
  if (x.bins) {
    const main: number[] = [];
    const reduced: number[] = [];
    for (let i = 0; i < n; i++) (reducedRow(i) ? reduced : main).push(i);
    const bins = x.bins;
    const explainRows = (m: GBMModel | null, rows: number[]) => {
      if (m && rows.length > 0)
        explainerOf(m, F).explainRows(bins, x.stride, Int32Array.from(rows), ks, phiTrees);
    };
    explainRows(x.gbm, main);
    explainRows(x.reducedGbm, reduced);
  }
  for (let i = 0; i < n; i++) {
    const c = cls[i];
    const k = ks[i];
    const sign = x.task === 'binary' && c === 0 ? -1 : 1;
    let base = 0;
    const useReduced = reducedRow(i);
    const trees = useReduced ? x.reducedGbm : x.gbm;
    phiF.set(phiTrees.subarray(i * F, i * F + F));
    if (trees && x.bins) base += explainerOf(trees, F).expected(k);
    if (!useReduced && x.linear && x.lin) {
      const m = x.linear;
      const D1 = m.d + 1;
      const L = x.lin;
      base += m.w[k * D1 + m.d];
      for (let f = 0; f < F; f++) {
        const w = slotWidth(layout.features[f]);
        for (let q = slotStart[f]; q < slotStart[f] + w; q++) {
          const o = i * L.slots + q;
          phiF[f] += L.val[o] * m.w[k * D1 + L.idx[o]];
        }
      }
    }
    const scale = x.task === 'regression' ? x.yScale.std : sign;
    phiE.fill(0);
    for (let f = 0; f < F; f++) phiE[encOf[f]] += phiF[f];
    const contributions: Record<string, number> = {};
    for (let e = 0; e < E; e++) contributions[x.columns[e]] = scale * phiE[e];
    const baseValue = x.task === 'regression' ? x.yScale.mean + x.yScale.std * base : sign * base;
    const value =
      x.task === 'regression' ? x.yScale.mean + x.yScale.std * raw[i] : sign * raw[i * K + k];
    out[i] = {
      value,
      baseValue,
      contributions,
      ...(x.task === 'regression' ? {} : { class: x.labels[c] }),
    };
  }
  return out;
}
