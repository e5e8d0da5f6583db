// Public types of time-series forecasting: training options, the forecaster other layers call, its
// output, the description DESCRIBE shows and the artifact. Free of implementation imports.

import type {
  CellValue,
  ModelDescription,
  Predictor,
  ResolvedSettings,
  TrainProgress,
} from '../api';
import type { SerializedGBM } from '../gbm/serialize';
import type { CandidateName } from './description';
import type { LocalFit, LocalHint } from './stat/local';

/** CREATE MODEL ... PREDICT target ORDER BY orderBy [GROUP BY groupBy] WINDOW window HORIZON horizon. */
export interface ForecastTrainOptions {
  target: string;
  orderBy: string;
  /** Each distinct combination of these columns' values is one series. */
  groupBy?: string[];
  /** Rows of history each forecast reads (the last WINDOW rows of a group). */
  window: number;
  /** Steps forecast after the last known row of each group. Default 1. */
  horizon?: number;
  /** Default 42. */
  seed?: number;
  /** USING k = v (the same keys as other models; see README.md for which ones apply). */
  using?: Record<string, unknown>;
  onProgress?: (p: TrainProgress) => void;
}

/** How the ORDER BY column is written; forecast timestamps are written the same way. */
export type OrderFormat =
  /** Plain numbers (a year, a period index). */
  | 'number'
  /** 'YYYY-MM-DD' (DuckDB DATE). */
  | 'date'
  /** 'YYYY-MM-DD HH:MM:SS[.mmm]' (DuckDB TIMESTAMP). */
  | 'datetime'
  /** 'YYYY-MM-DDTHH:MM:SS.mmmZ' (JS Dates, ISO text with milliseconds and a Z, or with zones that differ between rows). */
  | 'iso'
  /**
   * 'YYYY-MM-DDTHH:MM:SS[.mmm]' and one zone as the rows write it ('isoZ', 'iso+02:00',
   * 'iso-0530'): the order values are the wall-clock times at that offset (read as UTC), so
   * calendars (month ends, days, hours) are the zone's own, and forecasts are written back with it.
   */
  | `iso${'Z' | '+' | '-'}${string}`
  /** 'YYYY-MM-DDTHH:MM:SS[.mmm]' (ISO text without a zone, read as UTC). */
  | 'isolocal';

/**
 * The step between rows of a series. Calendar months keep month ends at month ends (a quarterly
 * series of 03-31, 06-30, ... steps to 09-30, 12-31); fixed durations cover days, weeks, hours
 * and irregular series (their median step), business days (a daily series without weekend rows,
 * as trading days: pandas' 'B'); numeric orders step by their median difference.
 */
export type Frequency =
  | { unit: 'month'; months: number; anchor: 'start' | 'end' | 'day'; day: number }
  /** `weekdays`: a daily series with no row on a Saturday or Sunday steps Monday to Friday. */
  | { unit: 'ms'; ms: number; weekdays?: true }
  | { unit: 'number'; step: number };

export type {
  CandidateName,
  ForecastChoice,
  ForecastCoverage,
  ForecastLeaderboardRow,
  TimeSeriesDescription,
} from './description';

export interface ForecastOptions {
  /** Steps per group, 1 to the trained HORIZON (default: HORIZON). */
  horizon?: number;
  /** Also backtest the history rows (ForecastResult.history; see HistoryResult). */
  history?: boolean;
  /**
   * Intervals at these nominal levels too (ForecastResult.intervals), each from its own
   * calibrated quantiles, beside the model's confidence level in the rows.
   */
  levels?: number[];
}

/**
 * Forecast rows, `horizon` per group in the order the groups first appear in the history, steps
 * ascending. Columns: the ORDER BY column (the step's timestamp, written like the input's), the
 * GROUP BY columns, `<target>`, `<target>_min`, `<target>_max`, `<target>_confidence`,
 * `<target>_explain` (JSON text: predicted_value, confidence, confidence_lower_bound,
 * confidence_upper_bound, horizon_step).
 */
export interface ForecastResult {
  columns: string[];
  rows: CellValue[][];
  /** GROUP BY values of the groups training never saw (forecast by the pooled model, see README). */
  unseenGroups: CellValue[][];
  /** Input rows merged into another row of their group with the same timestamp (targets averaged). */
  duplicates: number;
  /** Per group (in output order): the input row the forecast continues (its latest row). */
  groupRows: number[];
  /** With `history: true`. */
  history?: HistoryResult;
  /** With `levels`: per level asked for, the bounds of each row (aligned with `rows`). */
  intervals?: { level: number; lower: (number | null)[]; upper: (number | null)[] }[];
}

/**
 * One-step-ahead forecasts of the history rows themselves (a backtest, MindsDB's rows for the
 * known timestamps): per input row, the forecast of its target made from the rows of its group
 * before its timestamp, with the step-1 interval. Null where the group has fewer than WINDOW
 * earlier rows, or the row was dropped (NULL order value or target).
 */
export interface HistoryResult {
  value: (number | null)[];
  lower: (number | null)[];
  upper: (number | null)[];
  /** The confidence level of the intervals. */
  confidence: number;
  /** Per input row: its group's index in the forecast's output order (-1 for a dropped row). */
  group: number[];
}

/** A loaded time-series model. `predict` (single rows) is refused with an AutoMLError. */
export interface Forecaster extends Predictor {
  readonly kind: 'timeseries';
  readonly orderBy: string;
  readonly groupBy: string[];
  readonly window: number;
  readonly horizon: number;
  /** See TimeSeriesDescription.historyRows: pass at least this many rows per group for full quality. */
  readonly historyRows: number;
  /** How forecast timestamps are written (the SQL type of the ORDER BY column follows from it). */
  readonly orderFormat: OrderFormat;
  /**
   * Forecasts `horizon` steps after the last row of each group found in the history columns
   * (keyed by column name, case-insensitive; each an array of `n` cells). Needs the ORDER BY,
   * GROUP BY and target columns; other columns are ignored.
   */
  forecast(
    columns: Record<string, ArrayLike<unknown>>,
    n: number,
    opts?: ForecastOptions,
  ): ForecastResult;
  /** See HistoryResult: the same columns as `forecast`, one answer per input row. */
  history(columns: Record<string, ArrayLike<unknown>>, n: number): HistoryResult;
}

/** What the features are made of (fixed at training, read by the forecaster). */
export interface FeatureSpec {
  window: number;
  horizon: number;
  /** Rows before the origin the features may read (>= window). */
  lookback: number;
  /** Lag features (the most recent ones, at most window - 1). */
  lags: number;
  /** Seasonal period in steps (1 = no seasonal features). */
  period: number;
  calendar: CalendarPart[];
  /**
   * Rows before the origin the statistical candidates (ETS, Theta, ARIMA) read: their filters run
   * over these. Absent in artifacts from before them.
   */
  statLookback?: number;
  /**
   * A daily series' step in ms: its statistical candidates may model a yearly season by Fourier
   * terms of the time of year (stat/yearly.ts). Absent for other frequencies and older artifacts.
   */
  yearStep?: number;
  /**
   * Rows the origin's scale (the unit of errors and interval widths) is measured over; absent in
   * older artifacts, whose scale is the features' window's.
   */
  scaleRows?: number;
  /**
   * The least scale of a GBM origin's features, as a share of its mean step over scaleRows rows
   * (features.ts scaleFloor); absent in older artifacts, whose unit is the window's alone.
   */
  scaleFloor?: number;
  /**
   * Rows the floor's mean step is measured over, at most (statLookback): every row the example or
   * forecast can see, so an early example after quiet rows is floored by the series' spikes too;
   * absent (round-3 artifacts): scaleRows.
   */
  scaleFloorRows?: number;
  /** Per GROUP BY column, its categories (keys) when it is used as a categorical feature, else null. */
  groupCats: (string[] | null)[];
}

export type CalendarPart =
  | 'month'
  | 'quarter'
  | 'dayofweek'
  | 'dayofmonth'
  | 'dayofyear'
  | 'weekofyear'
  | 'hour'
  /** Days in the target's month (a monthly total grows with it: February's is shorter). */
  | 'monthdays';

/** A time-series model as plain JSON (typed arrays as base64), told apart by `kind`. */
export interface TimeSeriesArtifact {
  format: 'automl/1';
  kind: 'timeseries';
  target: string;
  orderFormat: OrderFormat;
  /** The model's frequency (the longest series'); each group keeps its own in `groups`. */
  frequency: Frequency;
  spec: FeatureSpec;
  model: {
    /** The set's candidate (groups without a per-series choice, e.g. new groups, use it). */
    selected: CandidateName;
    /** The GBM candidate kept (gbm_direct or gbm_recursive), when one is used. */
    gbm: SerializedGBM | null;
    gbmKind?: 'gbm_direct' | 'gbm_recursive';
    /** The candidates the `ensemble` averages, when a group uses it. */
    ensemble?: CandidateName[];
    /**
     * Each training group's own candidate (absent in artifacts from before per-series choice:
     * every group uses `selected`).
     */
    perSeries?: {
      /** Candidates groups use; `choice[g]` indexes it. */
      names: CandidateName[];
      choice: number[];
      /** Per local candidate used, per training group: its fitted model (null: not fitted). */
      local: Partial<Record<'ets' | 'theta' | 'arima' | 'tsb', (LocalFit | null)[]>>;
      /** Per training group: its interval widths over the pooled ones (1: pooled). */
      widthFactor: number[];
      /** What a new group's local models are fitted with (forms and orders of the training groups). */
      hint: LocalHint;
    };
    /** The GBM (+ linear part) predicts ((y[t+k] - y[t]) / scale - mean) / std. */
    zScale: { mean: number; std: number };
    /** Ridge part on the history features (Float64 arrays as base64), or null. */
    linear: { feats: number[]; mean: string; std: string; w: string } | null;
    /** Bin edges per numeric feature (Float64, base64); null for categorical features. */
    thresholds: (string | null)[];
  };
  /** Conformal half-widths per step, in units of the origin's scale. */
  calibration: {
    level: number;
    halfWidths: number[];
    /** Half-widths per step at other nominal levels (absent in older artifacts). */
    levels?: { level: number; halfWidths: number[]; quantile?: number }[];
    /**
     * What a forecast needs to recalibrate on outcomes after the training data (recalibrate.ts);
     * absent in artifacts from before it (their forecasts use `halfWidths` as they are).
     */
    online?: {
      /** The age weights' half-life in validation periods (null: equal weights). */
      halfLife: number | null;
      /** One validation period and the last training timestamp, in ORDER BY units. */
      span: number;
      until: number;
      /** Per step: weighted quantiles of the calibration residuals, and their total weight. */
      sketch: number[][];
      weight: number[];
      /**
       * Per nominal level, the residual quantile level its band takes (calibration.ts,
       * quantileLevels; absent in older artifacts: the nominal level).
       */
      quantiles?: { level: number; quantile: number }[];
    };
  };
  groups: {
    /** Canonical keys of the GROUP BY values, one entry per training group. */
    keys: string[];
    /** Index into `frequencies` per group. */
    frequency: number[];
    frequencies: Frequency[];
  };
  /** Resolved USING settings, and the time-series clauses, reused by RETRAIN / FINETUNE. */
  settings: ResolvedSettings;
  timeseries: {
    orderBy: string;
    groupBy: string[];
    window: number;
    horizon: number;
    /** USING model = '<candidate>' (every group forecasts with it). */
    candidate?: CandidateName;
  };
  description: ModelDescription;
}
