// Model analysis on validation rows: conformal calibration (intervals / class probabilities),
// accuracy, permutation importance per input column, an optional reduced model for a dominant
// column and calibration per pattern of missing inputs.

import type { MissingCalibration } from '../api';
import type { Encoded } from '../data/encoded';
import type { ColumnEncoder } from '../data/encoders';
import { type Rng, permutation } from '../prng';
import { type ScoreModel, type ScoreShape, scoreRows } from '../predict/score';
import { pick } from '../rows';
import { type ClassCalibration, fitClassCalibration, regressionHalfWidth } from './conformal';
import { columnImportances } from './importance';
import { taskScore } from './metrics';
import { type ReducedModel, missingCalibration } from './missing';

/** Permutation importance is estimated on at most this many validation rows. */
const IMPORTANCE_MAX_ROWS = 2_000;

export interface Analysis {
  halfWidth: number | null;
  classCal: ClassCalibration | null;
  accuracy: number;
  importances: number[];
  missing: MissingCalibration | null;
  reduced: ReducedModel | null;
}

export interface AnalysisInput {
  shape: ScoreShape;
  model: ScoreModel;
  enc: Encoded;
  encs: ColumnEncoder[];
  /** Validation rows (positions in the encoded data). */
  rows: Int32Array;
  /** Targets by position: standardized values or class codes. */
  y: Float64Array;
  /** Conformal level (the confidence setting). */
  level: number;
  rng: Rng;
  /** Called with the importances; may train a reduced model for the dominant column. */
  makeReduced?: (importances: number[]) => ReducedModel | null;
}

export function analyze(input: AnalysisInput): Analysis {
  const { shape, model, enc, encs, rows, y, level, rng } = input;
  const { task, K, nClasses, yScale, shift } = shape;
  const yRows = pick(y, rows);
  const raw = scoreRows(model, enc, rows, K);
  let halfWidth: number | null = null;
  let classCal: ClassCalibration | null = null;
  if (task === 'regression') {
    // Residuals in original units; the interval is pred -/+ halfWidth.
    const pred = Float64Array.from(raw, (v) => yScale!.mean + yScale!.std * v);
    const truth = Float64Array.from(yRows, (v) => yScale!.mean + yScale!.std * v);
    halfWidth = regressionHalfWidth(truth, pred, level);
  } else {
    classCal = fitClassCalibration(raw, yRows, K, nClasses, shift, level);
  }
  const accuracy = taskScore(task, yRows, raw, K, nClasses);
  let impRows = rows;
  let impY = yRows;
  if (rows.length > IMPORTANCE_MAX_ROWS) {
    const p = permutation(rows.length, rng).slice(0, IMPORTANCE_MAX_ROWS);
    impRows = Int32Array.from(p, (i) => rows[i]);
    impY = Float64Array.from(p, (i) => yRows[i]);
  }
  const importances = columnImportances({
    shape,
    model,
    enc,
    rows: impRows,
    yRows: impY,
    cal: classCal,
    rng,
  });
  const reduced = input.makeReduced?.(importances) ?? null;
  // Group ranking for the missing-input calibration: with a reduced model the dominant column
  // comes first and the others follow their importance in the reduced model (in the main model
  // they are all ~0 next to the dominant one, which would make the grouping arbitrary).
  let ranking = importances;
  if (reduced) {
    const m = Math.min(impRows.length, 500);
    const r = columnImportances({
      shape,
      model: { gbm: reduced.gbm, linear: null },
      enc,
      rows: impRows.subarray(0, m),
      yRows: impY.subarray(0, m),
      cal: classCal,
      rng,
    });
    ranking = r.map((v, c) => (c === reduced.column ? 2 : v));
  }
  const missing = missingCalibration({
    shape,
    model,
    reduced,
    enc,
    encs,
    rows,
    yRows,
    level,
    importances: ranking,
    halfWidth,
    classCal,
  });
  return { halfWidth, classCal, accuracy, importances, missing, reduced };
}
