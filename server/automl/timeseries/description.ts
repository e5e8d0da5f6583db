// The time-series part of a model's description (DESCRIBE, ModelDescription.timeseries): a leaf
// module, so the engine's public types (api.ts) can name it without importing the forecaster's.

export type CandidateName =
  | 'seasonal_naive'
  | 'naive'
  | 'drift'
  | 'theta'
  | 'ets'
  | 'arima'
  /** Intermittent demand (Teunter-Syntetos-Babai), offered on mostly-zero series only. */
  | 'tsb'
  | 'combination'
  /** The mean of the candidates the validation windows could not tell apart (set by selection). */
  | 'ensemble'
  | 'gbm_direct'
  | 'gbm_recursive';

/** One row of the forecast leaderboard: a candidate's validation scores and where it was chosen. */
export interface ForecastLeaderboardRow {
  name: CandidateName;
  /** In words, e.g. 'exponential smoothing (ETS, form chosen per series by AICc)'. */
  label: string;
  /**
   * Mean absolute error over seasonal-naive's on the same validation origins (rolling origins over
   * every fold; < 1 beats seasonal-naive), the model's metric: 0 when both erred 0, null when
   * only seasonal-naive did (not defined: the MAE says how far off the candidate was).
   */
  mase: number | null;
  /** Mean absolute error in the target's units on those origins. */
  mae: number;
  /** Seconds spent fitting it (every fold and series). */
  trainingTime: number;
  /** Groups whose forecasts it makes. */
  groups: number;
  /** It makes the forecasts of at least one group. */
  selected: boolean;
}

/** Why a group forecasts with the candidate it does. */
export interface ForecastChoice {
  /** The GROUP BY values ([] without GROUP BY). */
  group: (string | number | boolean | null)[];
  candidate: CandidateName;
  /** The fitted model in statistics' words ('ETS(A,Ad,N)', 'ARIMA(1,1,0)(0,1,1)12'), or the candidate. */
  model: string;
  /** Its validation MASE on this group (null: the group was not among the validated sample). */
  mase: number | null;
  reason: string;
}

/** Interval coverage at one nominal level, per step and pooled (out of sample: see README). */
export interface ForecastCoverage {
  level: number;
  coverage: number;
  /** Per step; null where the validation had no residual at that step to count. */
  steps: (number | null)[];
  /**
   * The residual quantile level this level's band takes (the level that covered the nominal
   * share of the latest validation period from the earlier ones; absent in older models).
   */
  quantile?: number;
  /**
   * True when the figure is out of fold (the bands fitted one validation period earlier, counted
   * on the period they did not see); false when the model had no earlier period to hold out, so
   * the bands are counted on the residuals they came from (in sample, flattering them). Absent in
   * older models.
   */
  outOfFold?: boolean;
}

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
  /**
   * The candidate with the best validation error over all groups: what groups without a choice of
   * their own (new groups) use, and every group's when the choice is made once for the set.
   */
  selected: CandidateName;
  /** Candidates tried, best first (see ForecastLeaderboardRow). */
  leaderboard?: ForecastLeaderboardRow[];
  /** Per group (the first 200): the candidate it forecasts with, and why. */
  choices?: ForecastChoice[];
  /** Achieved interval coverage beside each nominal level (0.5, 0.8, 0.9, 0.95 and the model's). */
  coverage?: ForecastCoverage[];
  /**
   * Groups whose chosen candidate did worse than seasonal-naive on their own validation origins
   * (chosen on the evidence of similar groups); said in the warnings when there are any.
   */
  worseThanSeasonalNaive?: number;
  /** Per step on the time-ordered validation split: MASE against seasonal-naive (MAE ratio), MAE, interval coverage. */
  horizonAccuracy: {
    step: number;
    /** Null where no validation origin reaches the step (a short main split). */
    mase: number | null;
    mae: number | null;
    coverage: number | null;
  }[];
  /**
   * How the interval calibration weighs residuals by age: their half-life in validation periods,
   * null when every residual weighs alike (see README, Intervals).
   */
  calibrationHalfLife: number | null;
  /**
   * Validation residuals (origin-steps) where a group's chosen local model could not be fitted
   * before a fold's cut and seasonal-naive's forecast stood in for it: `left` out of the interval
   * calibration (the bands rest on the model's own errors), `kept` for groups whose model was
   * fitted on no validation origin (absent in older models).
   */
  calibrationStandIns?: { left: number; kept: number };
  groups: number;
  /** Groups with fewer than WINDOW + 1 rows: no training examples (forecast them with the pooled model). */
  shortGroups: number;
  /** Rows merged because their group already had a row at the same timestamp (targets averaged). */
  duplicateTimestamps: number;
  /** Rows dropped for a NULL order value or a NULL target. */
  droppedRows: number;
  /**
   * Of those, rows whose NULL target lay between known values of their group: their time kept in
   * the series, the value filled from the same season's (absent in models trained before it).
   */
  interpolatedTargets?: number;
  /**
   * Calendar steps between a group's rows with no row at all (not filled: see the README's
   * irregular series), summed over the groups (absent in models trained before it).
   */
  missingPeriods?: number;
}
