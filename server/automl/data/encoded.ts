// Encoded training data: the binned matrix for the GBM and (optionally) the sparse linear rows,
// built once from the raw input columns and shared by candidates, analysis and finetuning.

import type { BinnedData } from '../gbm/model';
import type { ColumnEncoder } from './encoders';
import {
  type Layout,
  type LinearRows,
  binStreams,
  buildLayout,
  linearRows,
  parseStreams,
} from './layout';

export interface Encoded {
  n: number;
  layout: Layout;
  binned: BinnedData;
  /** Null when no linear model is trained or used (large tables). */
  linear: LinearRows | null;
}

/** Encodes `columns[e]` (cells of encoder e's column; undefined = absent) for `n` rows. */
export function encode(
  encs: ColumnEncoder[],
  columns: (ArrayLike<unknown> | undefined)[],
  n: number,
  withLinear: boolean,
  /** Training: out-of-fold target-fitted streams per encoder (see parseStreams). */
  fitted?: (Float64Array[] | undefined)[],
): Encoded {
  const layout = buildLayout(encs);
  const streams = parseStreams(encs, columns, n, false, fitted);
  const F = layout.features.length;
  const binned: BinnedData = {
    n,
    F,
    bins: binStreams(layout, streams, n),
    nBins: Int32Array.from(layout.features, (f) => f.nBins),
    isCat: Uint8Array.from(layout.features, (f) => (f.isCat ? 1 : 0)),
  };
  return { n, layout, binned, linear: withLinear ? linearRows(layout, streams, n) : null };
}
