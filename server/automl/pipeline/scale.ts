// Scale models of adaptive intervals for the pipeline: fitted on the errors of rows a model did
// not train on (out of fold on small data) or, on larger tables, on the training rows' errors
// (the conformal quantile is then taken on validation rows the scale never saw).

import type { ScoredPart } from '../analysis/analyze';
import { RowBlock, rowBins } from '../analysis/row-block';
import { type ScaleJob, type ScaleModel, fitScale } from '../analysis/scale';
import { later } from '../threads';
import type { Encoded } from '../data/encoded';
import type { ScoreModel } from '../predict/score';
import { capRows } from '../rows';
import type { Candidate } from './candidates';
import type { FitContext } from './fit';

/** Scale models train on at most this many rows (a seeded sample beyond). */
const SCALE_MAX_ROWS = 10_000;
/** Fewer calibration rows than this keep a constant interval width. */
export const SCALE_MIN_ROWS = 40;

/** The scale fit on `rows` with their (standardized) predictions `pred` (by position in rows). */
function scaleJob(
  enc: Encoded,
  rows: Int32Array,
  pred: Float64Array,
  y: Float64Array,
  seed: number,
): ScaleJob {
  return {
    // Only the bins: a RowBlock would also copy the rows' linear encoding.
    bins: rowBins(enc, rows),
    nBins: enc.binned.nBins,
    isCat: enc.binned.isCat,
    pred,
    absErr: Float64Array.from(rows, (r, i) => Math.abs(y[r] - pred[i])),
    seed,
  };
}

function scaleOn(...args: Parameters<typeof scaleJob>): ScaleModel {
  return fitScale(scaleJob(...args));
}

export interface Scales {
  /**
   * The candidate's parts with the scale each part's rows are calibrated with (set once `join`
   * returned: a single split's scale is fitted on the pool's model thread meanwhile).
   */
  parts: ScoredPart[];
  /** The scale shipped with the model (once `join` returned). */
  final: ScaleModel | null;
  /** Waits for the scale being fitted elsewhere (fitting it here if nobody has started it). */
  join(): ScaleModel;
}

/**
 * Scales for the selected regression candidate. Cross-fitted: fold k's rows are scaled by a model
 * fitted on the other folds' out-of-fold errors (so no row's scale saw its own error) and the
 * shipped scale on all of them. Single split: one scale fitted on the training rows' errors.
 */
export function fitScales(ctx: FitContext, best: Candidate): Scales | null {
  const { enc, y, settings } = ctx;
  const K = ctx.shape.K;
  const seed = settings.seed;
  if (ctx.crossFit) {
    // Out-of-fold predictions of every row.
    const oof = best.fits.map((f) => Float64Array.from(f.rows, (r) => best.oof[r * K]));
    const rowsOf = (skip: number) => {
      const rows: number[] = [];
      const pred: number[] = [];
      best.fits.forEach((f, j) => {
        if (j === skip) return;
        rows.push(...f.rows);
        pred.push(...oof[j]);
      });
      return { rows: Int32Array.from(rows), pred: Float64Array.from(pred) };
    };
    const all = rowsOf(-1);
    if (all.rows.length < SCALE_MIN_ROWS) return null;
    const parts = best.fits.map((f, j): ScoredPart => {
      const other = rowsOf(j);
      return {
        model: f.model,
        rows: f.rows,
        scale: scaleOn(enc, other.rows, other.pred, y, seed + j),
        raw: best.oof,
      };
    });
    const final = scaleOn(enc, all.rows, all.pred, y, seed);
    return { parts, final, join: () => final };
  }
  if (ctx.selRows.length < SCALE_MIN_ROWS) return null;
  const rows = capRows(ctx.split.train, SCALE_MAX_ROWS, seed ^ 0x5ca1);
  // Fitted on the model thread while this one scores the permutation importance.
  const job = scaleJob(enc, rows, best.inSample(rows), y, seed);
  const fitted = later('scale', job, () => fitScale(job));
  const part: ScoredPart = { model: best.model, rows: ctx.selRows, scale: null, raw: best.oof };
  const scales: Scales = {
    parts: [part],
    final: null,
    join: () => {
      if (!scales.final) scales.final = part.scale = fitted();
      return scales.final;
    },
  };
  return scales;
}

/** A scale fitted on `model`'s in-sample errors on (a seeded sample of) `rows`. */
export function scaleOfModel(opts: {
  enc: Encoded;
  model: ScoreModel;
  rows: Int32Array;
  y: Float64Array;
  K: number;
  seed: number;
}): ScaleModel {
  const { enc, model, y, seed } = opts;
  const rows = capRows(opts.rows, SCALE_MAX_ROWS, seed ^ 0x5ca1);
  const pred = new RowBlock(enc, rows).score([{ model, start: 0, end: rows.length }], opts.K);
  return scaleOn(enc, rows, pred, y, seed);
}
