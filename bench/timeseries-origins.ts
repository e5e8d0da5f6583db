// What the offline replay tools (timeseries-choices.ts, timeseries-intervals.ts) share: the sets
// TIMESERIES_SETS asks for, and one origin's validation as the bench's training runs it.

import type { CellValue } from '../server/automl/api';
import { tableFromDataset } from '../server/automl/data/table';
import { DEFAULT_SETTINGS } from '../server/automl/options';
import { checkOptions, tsSettings } from '../server/automl/timeseries/options';
import { validateCandidates } from '../server/automl/timeseries/train';
import { HOLDOUT, SETS, type SeriesSet } from './timeseries-sets';

/** The sets TIMESERIES_SETS names (words of their names; `holdout` picks the hold-out sets). */
export function askedSets(): SeriesSet[] {
  const asked = (process.env.TIMESERIES_SETS ?? '').split(',').filter(Boolean);
  const holdout = asked.some((w) => w.toLowerCase() === 'holdout');
  const words = asked.filter((w) => w.toLowerCase() !== 'holdout');
  return (holdout ? HOLDOUT : SETS).filter(
    (s) => words.length === 0 || words.some((w) => s.name.toLowerCase().includes(w.toLowerCase())),
  );
}

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
