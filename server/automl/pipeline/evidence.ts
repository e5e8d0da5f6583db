// The evidence a tabular training keeps (evaluation/evidence.ts): its held-out rows scored by the
// validated model(s) that did not train on them, through the same predict path as the shipped
// model (a temporary artifact per fold: casting, probabilities, intervals, contributions), a
// sample of its training rows, and the candidates' leaderboard.

import type { CellValue, ModelArtifact } from '../api';
import type { Analysis } from '../analysis/analyze';
import { conformalQuantile } from '../analysis/conformal';
import { meanAbsoluteError } from '../analysis/metrics';
import { type ScaleModel, serializeScale } from '../analysis/scale';
import { type Table, cellsAt } from '../data/table';
import { rocCurve } from '../evaluation/curves';
import {
  CONTRIBUTION_MAX_ROWS,
  type CandidateEvidence,
  HELD_OUT_MAX_ROWS,
  type HeldOutEvidence,
  type ModelEvidence,
  TRAINING_SAMPLE_ROWS,
  tableAt,
} from '../evaluation/evidence';
import { serializeGBM } from '../gbm/serialize';
import { serializeLinear } from '../linear/linear';
import { loadPredictor } from '../predict/predictor';
import { type ScoreModel, scoreRows } from '../predict/score';
import { Rng, permutation } from '../prng';
import { allRows, capRows } from '../rows';
import type { Candidate } from './candidates';
import type { FitContext } from './fit';
import { now } from './progress';
import type { Scales } from './scale';
import type { TargetInfo } from './target';

/** Evidence kept by the training that returned an artifact (in this thread's memory). */
const kept = new WeakMap<object, ModelEvidence>();

/** The evidence of an artifact this process trained (null for loaded or older artifacts). */
export function evidenceOf(artifact: object): ModelEvidence | null {
  return kept.get(artifact) ?? null;
}

export function keepEvidence(artifact: object, e: ModelEvidence): void {
  kept.set(artifact, e);
}

/** Held-out rows scored to time a candidate's predictions. */
const SPEED_ROWS = 2_000;

const USING_OF: Record<Candidate['kind'], string> = {
  gbm: 'gbm',
  linear: 'linear',
  blend: 'ensemble',
};

/**
 * At most `max` of `rows` (positions), a seeded sample beyond that, stratified by `strata`
 * (class codes) when given: each class keeps its share. Kept in the order of `rows`.
 */
function sampleRows(
  rows: Int32Array,
  max: number,
  seed: number,
  strata: Float64Array | null,
): Int32Array {
  if (rows.length <= max) return rows;
  if (!strata) return capRows(rows, max, seed);
  const byClass = new Map<number, number[]>();
  for (let i = 0; i < rows.length; i++) {
    const c = strata[rows[i]];
    const list = byClass.get(c);
    if (list) list.push(i);
    else byClass.set(c, [i]);
  }
  const keep = new Uint8Array(rows.length);
  const rng = new Rng(seed);
  for (const list of byClass.values()) {
    const quota = Math.round((list.length * max) / rows.length);
    const p = permutation(list.length, rng);
    for (let j = 0; j < Math.min(quota, list.length); j++) keep[list[p[j]]] = 1;
  }
  return rows.filter((_, i) => keep[i] === 1);
}

/** One validated model and the held-out rows (positions) it scores. */
interface Part {
  model: ScoreModel;
  rows: Int32Array;
  scale: ScaleModel | null;
}

/** The artifact of a validated model: the shipped one's encoders and calibration, its own parts. */
function heldOutArtifact(
  a: ModelArtifact,
  p: Part,
  analysis: Analysis,
  crossFit: boolean,
): ModelArtifact {
  const missing = a.calibration.missing;
  return {
    ...a,
    model: {
      gbm: p.model.gbm ? serializeGBM(p.model.gbm) : null,
      linear: p.model.linear ? serializeLinear(p.model.linear) : null,
      // The reduced model trained on the training split only (never when cross-fitted).
      ...(a.model.reduced && !crossFit ? { reduced: a.model.reduced } : {}),
    },
    calibration: {
      ...a.calibration,
      // The validated width, not the refit's learning-curve correction.
      halfWidth: analysis.halfWidth,
      ...(p.scale ? { scale: serializeScale(p.scale) } : {}),
      ...(missing?.halfWidths
        ? {
            missing: {
              ...missing,
              halfWidths: [analysis.halfWidth ?? 0, ...missing.halfWidths.slice(1)],
            },
          }
        : {}),
    },
  };
}

/**
 * Honest intervals: each row's interval is re-scaled with the conformal quantile of the other
 * half's rows (alternating rows; held-out rows are in a seeded random order), so no row's interval
 * was calibrated on its own error. Widths keep their per-row shape.
 */
function crossHalfIntervals(
  actual: Float64Array,
  lower: Float64Array,
  upper: Float64Array,
  level: number,
): void {
  const n = actual.length;
  if (n < 20) return;
  const score = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const w = Math.max((upper[i] - lower[i]) / 2, Number.EPSILON);
    score[i] = Math.abs(actual[i] - (upper[i] + lower[i]) / 2) / w;
  }
  const half = (parity: number) => score.filter((_, i) => i % 2 === parity);
  const q = [conformalQuantile(half(1), level), conformalQuantile(half(0), level)];
  for (let i = 0; i < n; i++) {
    const c = (upper[i] + lower[i]) / 2;
    const w = Math.max((upper[i] - lower[i]) / 2, Number.EPSILON);
    lower[i] = c - q[i % 2] * w;
    upper[i] = c + q[i % 2] * w;
  }
}

export interface EvidenceInput {
  data: Table;
  ti: TargetInfo;
  ctx: FitContext;
  candidates: Candidate[];
  best: Candidate;
  analysis: Analysis;
  scales: Scales | null;
  artifact: ModelArtifact;
}

export function tabularEvidence(o: EvidenceInput): ModelEvidence {
  const { data, ti, ctx, analysis, artifact } = o;
  const { task } = ctx.shape;
  const seed = ctx.settings.seed;
  const target = artifact.target;
  const strata = task === 'regression' ? null : ctx.y;
  const parts: Part[] = ctx.crossFit
    ? o.best.fits.map((f, j) => ({
        model: f.model,
        rows: f.rows,
        scale: o.scales?.parts[j].scale ?? null,
      }))
    : [{ model: o.best.model, rows: ctx.split.val, scale: o.scales?.final ?? null }];
  const total = parts.reduce((s, p) => s + p.rows.length, 0);
  for (const p of parts)
    p.rows = sampleRows(
      p.rows,
      Math.ceil((p.rows.length * HELD_OUT_MAX_ROWS) / Math.max(1, total)),
      seed ^ 0xe71d,
      strata,
    );
  const positions = Int32Array.from(parts.flatMap((p) => Array.from(p.rows)));
  const n = positions.length;
  const dataRow = (r: number) => ti.keep[r];
  const labels = ti.classLabels ?? [];
  const classIndex = new Map(labels.map((l, i) => [String(l), i]));
  const nC = labels.length;
  const actual = Float64Array.from(positions, (r) => ti.y[r]);
  const predicted = new Float64Array(n);
  const probabilities = task === 'regression' ? null : new Float32Array(n * nC);
  const lower = task === 'regression' ? new Float64Array(n) : null;
  const upper = task === 'regression' ? new Float64Array(n) : null;
  const contribRows = Math.min(n, CONTRIBUTION_MAX_ROWS);
  const inputs = artifact.encoders.map((e) => e.column);
  const contribValues = new Float32Array(contribRows * inputs.length);
  const contribBase = new Float64Array(contribRows);
  let at = 0;
  for (const p of parts) {
    const m = p.rows.length;
    if (m === 0) continue;
    const predictor = loadPredictor(heldOutArtifact(artifact, p, analysis, ctx.crossFit));
    // These rows go through this predictor once: walking its trees costs less than compiling and
    // warming them (96 passes over rows that reach every leaf, gbm/compile.ts), which a batch of
    // COMPILE_BATCH_ROWS or more would start.
    predictor.walkOnly?.();
    const rowsOf = Int32Array.from(p.rows, dataRow);
    const columns: Record<string, CellValue[]> = {};
    for (const c of inputs) {
      const j = data.columns.indexOf(c);
      columns[c] = cellsAt(data.data[j], rowsOf) as CellValue[];
    }
    const preds = predictor.predictColumns!(columns, m);
    for (let i = 0; i < m; i++) {
      const pr = preds[i];
      if (task === 'regression') {
        predicted[at + i] = pr.value as number;
        lower![at + i] = pr.lower!;
        upper![at + i] = pr.upper!;
      } else {
        predicted[at + i] = classIndex.get(String(pr.value)) ?? -1;
        for (let k = 0; k < nC; k++)
          probabilities![(at + i) * nC + k] = pr.probabilities?.[String(labels[k])] ?? NaN;
      }
    }
    // Contributions of the first kept rows, CONTRIBUTION_MAX_ROWS in all.
    const explainN = Math.max(0, Math.min(m, contribRows - at));
    if (explainN > 0 && predictor.explainColumns) {
      const head: Record<string, CellValue[]> = {};
      for (const c of inputs) head[c] = columns[c].slice(0, explainN);
      const ex = predictor.explainColumns(head, explainN);
      for (let i = 0; i < explainN; i++) {
        contribBase[at + i] = ex[i].baseValue;
        inputs.forEach(
          (c, j) => (contribValues[(at + i) * inputs.length + j] = ex[i].contributions[c] ?? 0),
        );
      }
    }
    at += m;
  }
  if (lower && upper) crossHalfIntervals(actual, lower, upper, ctx.settings.confidence);
  const heldOut: HeldOutEvidence = {
    validation: ctx.crossFit ? 'cross-fitted' : 'split',
    total,
    sample: n === total ? 'all' : strata ? 'stratified' : 'random',
    rows: tableAt(data, Int32Array.from(positions, dataRow), target),
    actual,
    predicted,
    ...(probabilities ? { probabilities } : {}),
    ...(lower && upper ? { lower, upper } : {}),
    ...(contribRows > 0
      ? {
          contributions: {
            rows: contribRows,
            columns: inputs,
            values: contribValues,
            base: contribBase,
          },
        }
      : {}),
  };
  const trainPositions = capRows(allRows(ti.keep.length), TRAINING_SAMPLE_ROWS, seed ^ 0x7a1e);
  const decision =
    task === 'binary' ? ruleThreshold(ctx.settings.decision ?? 'balanced', analysis) : null;
  return {
    format: 'evidence/1',
    task,
    target,
    classes: ti.classLabels ? [...ti.classLabels] : null,
    level: task === 'regression' ? ctx.settings.confidence : null,
    heldOut,
    ...(decision ? { decision } : {}),
    training: {
      total: ti.keep.length,
      rows: tableAt(data, Int32Array.from(trainPositions, dataRow)),
    },
    candidates: o.candidates.map((c) => candidateEvidence(ctx, c)),
  };
}

/**
 * A binary decision rule as a threshold on class 1's calibrated probability: 'argmax' flags it
 * above one half; 'balanced' (the class-weighted logit's sign) above the probability a zero logit
 * gets once shifted back to the class prior and temperature-scaled.
 */
function ruleThreshold(rule: 'balanced' | 'argmax', analysis: Analysis): ModelEvidence['decision'] {
  const cal = analysis.classCal;
  if (rule === 'argmax' || !cal) return { rule, positive: 1, threshold: 0.5 };
  const p = 1 / (1 + Math.exp(cal.shift[0] / cal.temperature));
  const eps = cal.floor ?? 0;
  return { rule, positive: 1, threshold: (p + eps) / (1 + 2 * eps) };
}

/** A candidate's leaderboard line: its validation score, one more metric, speed and size. */
function candidateEvidence(ctx: FitContext, c: Candidate): CandidateEvidence {
  const { task, K, yScale } = ctx.shape;
  const rows = Int32Array.from(c.fits.flatMap((f) => Array.from(f.rows)));
  const yVal = Float64Array.from(rows, (r) => ctx.y[r]);
  const raw = Float64Array.from(
    { length: rows.length * K },
    (_, i) => c.oof[rows[Math.floor(i / K)] * K + (i % K)],
  );
  let other: CandidateEvidence['other'];
  if (task === 'regression') {
    other = { name: 'mean_absolute_error', value: yScale!.std * meanAbsoluteError(yVal, raw) };
  } else if (task === 'binary') {
    other = { name: 'roc_auc_score', value: rocCurve(raw, yVal).auc };
  } else {
    let hit = 0;
    for (let i = 0; i < rows.length; i++) {
      let best = 0;
      for (let k = 1; k < K; k++) if (raw[i * K + k] > raw[i * K + best]) best = k;
      if (best === yVal[i]) hit++;
    }
    other = { name: 'accuracy_score', value: rows.length ? hit / rows.length : NaN };
  }
  const speedRows = rows.subarray(0, Math.min(rows.length, SPEED_ROWS));
  const t0 = now();
  scoreRows(c.model, ctx.enc, speedRows, K);
  const seconds = (now() - t0) / 1000;
  const size =
    (c.model.gbm ? JSON.stringify(serializeGBM(c.model.gbm)).length : 0) +
    (c.model.linear ? JSON.stringify(serializeLinear(c.model.linear)).length : 0);
  return {
    name: c.name,
    kind: c.kind === 'blend' ? 'ensemble' : c.kind,
    selected: c.selected,
    score: { name: c.accuracy_functions[0], value: c.performance },
    other: other && Number.isFinite(other.value) ? other : null,
    fitSeconds: c.training_time,
    predictRowsPerSecond:
      speedRows.length > 0 && seconds > 0 ? Math.round(speedRows.length / seconds) : null,
    sizeBytes: size,
    using: USING_OF[c.kind],
  };
}
