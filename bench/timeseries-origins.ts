// What the offline replay tools (timeseries-choices.ts, timeseries-intervals.ts) share: one
// origin's validation as the bench's training runs it (the sets asked for: askedSets in
// timeseries-sets.ts).

import type { CellValue } from '../server/automl/api';
import { tableFromDataset } from '../server/automl/data/table';
import { DEFAULT_SETTINGS } from '../server/automl/options';
import { checkOptions, tsSettings } from '../server/automl/timeseries/options';
import { validateCandidates } from '../server/automl/timeseries/train';
import type { SeriesSet } from './timeseries-sets';

/** The candidates validated on set `s`'s rows up to an origin, with the bench's options. */
export function validateOrigin(
  s: SeriesSet,
  columns: string[],
  rows: CellValue[][],
): ReturnType<typeof validateCandidates> {
  const opts = {
    target: s.target,
    orderBy: s.orderBy,
    groupBy: s.groupBy,
    window: s.window,
    horizon: s.horizon,
  };
  return validateCandidates(
    tableFromDataset({ columns, rows }),
    checkOptions(opts),
    tsSettings(undefined, DEFAULT_SETTINGS, undefined),
  );
}
