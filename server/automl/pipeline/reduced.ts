// The reduced model: a GBM trained with the dominant input column missing, which scores the rows
// where that column is absent (see analysis/conformal.ts, "missing inputs").

import type { ReducedModel } from '../analysis/missing';
import type { Encoded } from '../data/encoded';
import { trainGBM } from '../gbm/boost';
import type { BinnedData } from '../gbm/model';
import { capRows } from '../rows';
import type { FitContext } from './fit';
import { REDUCED_MAX_ROWS, gbmParams } from './sizes';

/**
 * A column with at least this permutation importance gets a reduced model: tree routing of a
 * missing value cannot recover what such a column carries (home_rentals' initial_price, 0.998),
 * while a model trained without it learns the conditional mean from the other inputs.
 */
const REDUCED_MIN_IMPORTANCE = 0.5;

/** The training bins with every tree feature of encoder `column` set to its missing bin. */
function maskedBinned(enc: Encoded, column: number): BinnedData {
  const b = enc.binned;
  const bins = Uint8Array.from(b.bins);
  const F = b.F;
  for (const f of enc.layout.encoderFeatures[column]) {
    const miss = b.nBins[f] - 1; // numeric and categorical features keep 'missing' last
    for (let i = 0; i < b.n; i++) bins[i * F + f] = miss;
  }
  return { ...b, bins };
}

/** The reduced model for the most important column, when it dominates (trees only). */
export function reducedModel(ctx: FitContext, importances: number[]): ReducedModel | null {
  const { settings, encs, split } = ctx;
  // The split is the one validated for the main model.
  if (settings.model === 'linear' || encs.length < 2 || split.val.length < 10) return null;
  let top = 0;
  for (let c = 1; c < importances.length; c++) if (importances[c] > importances[top]) top = c;
  if (!(importances[top] >= REDUCED_MIN_IMPORTANCE)) return null;
  // A fallback for rows missing one input: on large tables a sample of the training rows
  // (and its own tree-shape parameters) is plenty.
  const redRows = capRows(split.train, REDUCED_MAX_ROWS, settings.seed ^ 0x4ed);
  const redParams =
    redRows === split.train
      ? ctx.params
      : gbmParams(settings, redRows.length, {
          user: ctx.user,
          classifier: ctx.shape.task !== 'regression',
        });
  const res = trainGBM({
    data: maskedBinned(ctx.enc, top),
    target: ctx.gTarget,
    trainRows: redRows,
    valRows: ctx.selRows,
    params: redParams,
  });
  return { column: top, gbm: res.model };
}
