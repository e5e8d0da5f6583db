// The time-series part of a model's description (DESCRIBE, ModelDescription.timeseries): a leaf
// module, so the engine's public types (api.ts) can name it without importing the forecaster's.

export type CandidateName = 'gbm_direct' | 'gbm_recursive' | 'seasonal_naive' | 'naive' | 'drift';

/** The time-series part of DESCRIBE. */
export interface TimeSeriesDescription {
  orderBy: string;
  groupBy: string[];
  window: number;
  horizon: number;
  /** Inferred frequency of the longest series, e.g. 'quarterly (month-end)', 'daily'. */
  frequency: string;
  /** Seasonal period in steps used by seasonal-naive and the seasonal features (1 = none). */
  seasonality: number;
  /** Rows per group a forecast reads: WINDOW, or more when the seasonal features need them. */
  historyRows: number;
  /**
   * Rows per group a forecast reads to also recalibrate its intervals on the outcomes after the
   * training data (recalibrate.ts): more than historyRows; fewer only recalibrate on fewer origins.
   */
  recalibrationRows?: number;
  selected: CandidateName;
  /** Per step on the time-ordered validation split: MASE against seasonal-naive (MAE ratio), MAE, interval coverage. */
  horizonAccuracy: { step: number; mase: number; mae: number; coverage: number }[];
  /**
   * How the interval calibration weighs residuals by age: their half-life in validation periods,
   * null when every residual weighs alike (see README, Intervals).
   */
  calibrationHalfLife: number | null;
  groups: number;
  /** Groups with fewer than WINDOW + 1 rows: no training examples (forecast them with the pooled model). */
  shortGroups: number;
  /** Rows merged because their group already had a row at the same timestamp (targets averaged). */
  duplicateTimestamps: number;
  /** Rows dropped for a NULL order value or a NULL target. */
  droppedRows: number;
}
