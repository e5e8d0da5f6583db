// A loaded time-series model: decodes the artifact once, then forecasts HORIZON steps after the
// last row of each group in the history it is given, with conformal intervals per step.

import type { CellValue, ModelDescription, Prediction } from '../api';
import { fromBase64 } from '../base64';
import type { Table } from '../data/table';
import { AutoMLError } from '../errors';
import { deserializeGBM } from '../gbm/serialize';
import { type FeatureLayout, featureLayout, groupCodes } from './features';
import { formatOrder, inferFrequency } from './frequency';
import { deserializeLinearPart } from './linear';
import { type Candidate, type OriginSource, isGbm, packOrigins, runCandidate } from './model';
import { forecastHalfWidths } from './recalibrate';
import { buildSeries } from './series';
import type {
  FeatureSpec,
  ForecastOptions,
  ForecastResult,
  Forecaster,
  Frequency,
  HistoryResult,
  OrderFormat,
  TimeSeriesArtifact,
} from './types';
import type { SeriesSet } from './series';

/** Origins of a history backtest scored per batch (bounds the feature matrices' memory). */
const HISTORY_BATCH = 20_000;

export function isTimeSeriesArtifact(a: unknown): a is TimeSeriesArtifact {
  return !!a && typeof a === 'object' && (a as { kind?: unknown }).kind === 'timeseries';
}

/** Checks the shape of a (possibly hand-edited or foreign) time-series artifact before use. */
export function validateTimeSeriesArtifact(a: unknown): asserts a is TimeSeriesArtifact {
  const x = a as Partial<TimeSeriesArtifact> | null;
  if (!x || typeof x !== 'object' || x.kind !== 'timeseries') {
    throw new AutoMLError('model artifact is not a time-series model');
  }
  if (x.format !== 'automl/1') {
    throw new AutoMLError(
      `unsupported model artifact format ${JSON.stringify(x.format)}; expected 'automl/1'`,
    );
  }
  const missing = [
    'target',
    'orderFormat',
    'frequency',
    'spec',
    'model',
    'calibration',
    'groups',
    'settings',
    'timeseries',
    'description',
  ].filter((k) => (x as Record<string, unknown>)[k] === undefined);
  if (missing.length) throw new AutoMLError(`model artifact is missing: ${missing.join(', ')}`);
  const H = x.spec!.horizon;
  if (!Array.isArray(x.calibration!.halfWidths) || x.calibration!.halfWidths.length !== H) {
    throw new AutoMLError('model artifact has no interval width for every horizon step');
  }
  const online = x.calibration!.online;
  if (
    online !== undefined &&
    !(
      typeof online === 'object' &&
      online !== null &&
      Array.isArray(online.sketch) &&
      online.sketch.length === H &&
      online.sketch.every((p) => Array.isArray(p)) &&
      Array.isArray(online.weight) &&
      online.weight.length === H &&
      typeof online.span === 'number' &&
      typeof online.until === 'number'
    )
  ) {
    throw new AutoMLError('model artifact has a malformed interval recalibration record');
  }
  if (isGbm(x.model!.selected) && !x.model!.gbm) {
    throw new AutoMLError(`model artifact selects ${x.model!.selected} but holds no trees`);
  }
}

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

class ArtifactForecaster implements Forecaster {
  readonly kind = 'timeseries' as const;
  readonly description: ModelDescription;
  readonly orderBy: string;
  readonly groupBy: string[];
  readonly window: number;
  readonly horizon: number;
  readonly historyRows: number;
  readonly orderFormat: OrderFormat;
  private readonly target: string;
  private readonly spec: FeatureSpec;
  private readonly layout: FeatureLayout;
  private readonly candidate: Candidate;
  private readonly a: TimeSeriesArtifact;
  private readonly groupIndex: Map<string, number>;

  constructor(a: TimeSeriesArtifact) {
    this.a = a;
    this.description = a.description;
    this.target = a.target;
    this.orderBy = a.timeseries.orderBy;
    this.groupBy = a.timeseries.groupBy;
    this.window = a.timeseries.window;
    this.horizon = a.timeseries.horizon;
    this.spec = a.spec;
    this.historyRows = a.spec.lookback;
    this.orderFormat = a.orderFormat;
    this.layout = featureLayout(a.spec);
    this.groupIndex = new Map(a.groups.keys.map((k, i) => [k, i]));
    const m = a.model;
    if (m.selected === 'gbm_direct' || m.selected === 'gbm_recursive') {
      this.candidate = {
        name: m.selected,
        part: {
          gbm: deserializeGBM(m.gbm!),
          thresholds: m.thresholds.map((t) =>
            t === null ? null : fromBase64(t, (b) => new Float64Array(b)),
          ),
          zScale: m.zScale,
          linear: m.linear ? deserializeLinearPart(m.linear) : null,
          compiled: null,
        },
      };
    } else {
      this.candidate = { name: m.selected };
    }
  }

  predict(_rows: Record<string, unknown>[]): Prediction[] {
    const { orderBy, window, horizon } = this;
    throw new AutoMLError(
      `'${this.target}' is predicted by a time-series model (ORDER BY ${orderBy}, WINDOW ${window}, HORIZON ${horizon}): it forecasts from the history of each group, not from single rows`,
    );
  }

  forecast(
    columns: Record<string, ArrayLike<unknown>>,
    n: number,
    opts: ForecastOptions = {},
  ): ForecastResult {
    const H = this.horizon;
    const h = opts.horizon ?? H;
    if (!Number.isInteger(h) || h < 1 || h > H) {
      throw new AutoMLError(`a forecast can reach 1 to ${H} steps (the model's HORIZON), not ${h}`);
    }
    const t = this.target;
    const outColumns = [
      this.orderBy,
      ...this.groupBy,
      t,
      `${t}_min`,
      `${t}_max`,
      `${t}_confidence`,
      `${t}_explain`,
    ];
    const set = this.seriesOf(columns, n);
    const unseenGroups: CellValue[][] = [];
    const sources: OriginSource[] = set.series.map((s) => {
      const len = s.t.length;
      if (len < this.window) throw this.tooShort(s.labels, len);
      if (this.groupBy.length > 0 && !this.groupIndex.has(s.key)) unseenGroups.push(s.labels);
      return {
        y: s.y,
        t: s.t,
        end: len - 1,
        freq: this.frequencyOf(s.key, s.t),
        codes: this.codes(s.key),
      };
    });
    const origins = packOrigins(sources, this.spec, H, this.layout.groupColumns.length);
    const { pred, scale } = runCandidate(this.candidate, this.spec, this.layout, origins);
    const level = this.a.calibration.level;
    const widths = forecastHalfWidths(
      this.a.calibration.halfWidths,
      this.a.calibration.online,
      level,
      this.candidate,
      this.spec,
      this.layout,
      sources,
    );
    const rows: CellValue[][] = [];
    set.series.forEach((s, i) => {
      for (let k = 1; k <= h; k++) {
        const v = finite(pred[i * H + k - 1]);
        const hw = widths[i][k - 1] * scale[i];
        const lo = v === null ? null : finite(v - hw);
        const hi = v === null ? null : finite(v + hw);
        const time = formatOrder(origins.times[i * H + k - 1], this.a.orderFormat);
        const explain = JSON.stringify({
          predicted_value: v,
          confidence: level,
          confidence_lower_bound: lo,
          confidence_upper_bound: hi,
          horizon_step: k,
        });
        rows.push([time, ...s.labels, v, lo, hi, level, explain]);
      }
    });
    const groupRows = set.series.map(() => -1);
    for (let r = 0; r < n; r++) {
      const g = set.rowSeries[r];
      if (g >= 0 && set.rowPos[r] === set.series[g].t.length - 1) groupRows[g] = r;
    }
    return {
      columns: outColumns,
      rows,
      unseenGroups,
      duplicates: set.duplicates,
      groupRows,
      ...(opts.history ? { history: this.backtest(set, n) } : {}),
    };
  }

  history(columns: Record<string, ArrayLike<unknown>>, n: number): HistoryResult {
    return this.backtest(this.seriesOf(columns, n), n);
  }

  private backtest(set: SeriesSet, n: number): HistoryResult {
    const W = this.window;
    // Origin (series, row) per history point with WINDOW earlier rows: its one-step forecast.
    const originSeries: number[] = [];
    const originEnd: number[] = [];
    set.series.forEach((s, g) => {
      for (let p = W; p < s.t.length; p++) {
        originSeries.push(g);
        originEnd.push(p - 1);
      }
    });
    const freqs = set.series.map((s) => this.frequencyOf(s.key, s.t));
    const codes = set.series.map((s) => this.codes(s.key));
    const value = set.series.map((s) => new Float64Array(s.t.length).fill(NaN));
    const half = set.series.map((s) => new Float64Array(s.t.length).fill(NaN));
    const hw0 = this.a.calibration.halfWidths[0];
    for (let from = 0; from < originSeries.length; from += HISTORY_BATCH) {
      const to = Math.min(originSeries.length, from + HISTORY_BATCH);
      const sources: OriginSource[] = [];
      for (let i = from; i < to; i++) {
        const s = set.series[originSeries[i]];
        sources.push({
          y: s.y,
          t: s.t,
          end: originEnd[i],
          freq: freqs[originSeries[i]],
          codes: codes[originSeries[i]],
        });
      }
      const origins = packOrigins(sources, this.spec, 1, this.layout.groupColumns.length);
      const { pred, scale } = runCandidate(this.candidate, this.spec, this.layout, origins);
      for (let i = from; i < to; i++) {
        value[originSeries[i]][originEnd[i] + 1] = pred[i - from];
        half[originSeries[i]][originEnd[i] + 1] = hw0 * scale[i - from];
      }
    }
    const out: HistoryResult = {
      value: new Array<number | null>(n).fill(null),
      lower: new Array<number | null>(n).fill(null),
      upper: new Array<number | null>(n).fill(null),
      confidence: this.a.calibration.level,
      group: Array.from(set.rowSeries),
    };
    for (let r = 0; r < n; r++) {
      const g = set.rowSeries[r];
      if (g < 0) continue;
      const p = set.rowPos[r];
      const v = finite(value[g][p]);
      if (v === null) continue;
      out.value[r] = v;
      out.lower[r] = finite(v - half[g][p]);
      out.upper[r] = finite(v + half[g][p]);
    }
    return out;
  }

  private seriesOf(columns: Record<string, ArrayLike<unknown>>, n: number): SeriesSet {
    const names = Object.keys(columns);
    const table: Table = {
      columns: names,
      rowCount: n,
      data: names.map((c) => ({ kind: 'mixed', values: columns[c] as ArrayLike<CellValue> })),
    };
    return buildSeries(
      table,
      { target: this.target, orderBy: this.orderBy, groupBy: this.groupBy },
      'forecast input',
      this.a.orderFormat,
    );
  }

  /**
   * A known group steps at the frequency of its training history; a new one at its own (inferred
   * from the rows given), else at the model's.
   */
  private frequencyOf(key: string, t: Float64Array): Frequency {
    const known = this.groupIndex.get(key);
    return known !== undefined
      ? this.a.groups.frequencies[this.a.groups.frequency[known]]
      : (inferFrequency(t, this.a.orderFormat)?.freq ?? this.a.frequency);
  }

  private codes(key: string): Int32Array {
    return groupCodes(key, this.spec, this.layout);
  }

  private tooShort(labels: CellValue[], len: number): AutoMLError {
    const who = this.groupBy.length
      ? `group (${this.groupBy.map((g, i) => `${g} = ${JSON.stringify(labels[i])}`).join(', ')}) has`
      : 'the history has';
    return new AutoMLError(
      `${who} ${len} row${len === 1 ? '' : 's'}, fewer than WINDOW ${this.window}: a forecast reads the last ${this.window} rows of each group (give more history, or train with a smaller WINDOW)`,
    );
  }
}

export function loadForecaster(a: TimeSeriesArtifact): Forecaster {
  validateTimeSeriesArtifact(a);
  return new ArtifactForecaster(a);
}
