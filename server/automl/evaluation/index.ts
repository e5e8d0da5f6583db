// The evaluation computations (docs/evaluation.md): pure functions over held-out rows, which the
// model layer turns into the views REST, SQL, the model page and the card share.
export { gainsCurve, prCurve, rocCurve, thinIndices } from './curves';
export { reliability } from './calibration';
export { thresholdTable } from './threshold';
export { groupRows } from './segments';
export { coverageBy, predictedDeciles, rowsOutside } from './intervals';
export type { CoverageCell } from './intervals';
export { findSlices, sliceOf } from './slices';
export type { Slice } from './slices';
export { FOUR_FIFTHS, classGroups, regressionGroups } from './groups';
