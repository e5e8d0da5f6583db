// A loaded time-series model: decodes the artifact once, then forecasts HORIZON steps after the
// last row of each group in the history it is given, with conformal intervals per step, each
// group by its own candidate (a group training never saw by the set's, its statistical models
// fitted on the history given).

import type { CellValue, ModelDescription, Prediction } from '../api';
import { fromBase64 } from '../base64';
import type { Table } from '../data/table';
import { AutoMLError } from '../errors';
import { deserializeGBM } from '../gbm/serialize';
import { type FeatureLayout, featureLayout, groupCodes } from './features';
import { formatOrder, inferFrequency } from './frequency';
import { deserializeLinearPart } from './linear';
import {
  type Candidate,
  type GbmPart,
  type LocalCandidate,
  type OriginSource,
  isGbm,
  isLocal,
  packOrigins,
  packRows,
  runCandidate,
} from './model';
import { FORCEABLE } from './options';
import { forecastHalfWidths } from './recalibrate';
import { buildSeries } from './series';
import { type LocalFit, type LocalName, LOCAL_NAMES, fitLocal } from './stat/local';
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
  const m = x.model!;
  const chosen = m.perSeries ? m.perSeries.names : [m.selected];
  if (
    chosen.includes('ensemble') &&
    !(
      Array.isArray(m.ensemble) &&
      m.ensemble.length >= 2 &&
      m.ensemble.every((n) => n !== 'ensemble' && FORCEABLE.includes(n))
    )
  ) {
    throw new AutoMLError('model artifact has a malformed ensemble');
  }
  // Every candidate the groups forecast with, an ensemble's members included.
  const names = [...chosen, ...(chosen.includes('ensemble') ? m.ensemble! : [])];
  if (names.some((n) => isGbm(n)) && !m.gbm) {
    throw new AutoMLError(
      `model artifact selects ${names.find((n) => isGbm(n))} but holds no trees`,
    );
  }
  const ps = m.perSeries;
  if (ps) {
    const G = x.groups!.keys.length;
    const locals = names.flatMap((n) =>
      n === 'combination' ? [...LOCAL_NAMES] : isLocal(n) ? [n] : [],
    );
    if (
      !Array.isArray(ps.choice) ||
      ps.choice.length !== G ||
      ps.choice.some((c) => !Number.isInteger(c) || c < 0 || c >= chosen.length) ||
      !Array.isArray(ps.widthFactor) ||
      ps.widthFactor.length !== G ||
      !chosen.includes(m.selected) ||
      locals.some((l) => !Array.isArray(ps.local?.[l]) || ps.local[l].length !== G)
    ) {
      throw new AutoMLError('model artifact has a malformed per-series choice');
    }
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
  /** Per training group: its interval widths over the pooled ones (null: all pooled). */
  private readonly widthFactor: number[] | null;
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
    this.historyRows = packRows(a.spec);
    this.orderFormat = a.orderFormat;
    this.layout = featureLayout(a.spec);
    this.groupIndex = new Map(a.groups.keys.map((k, i) => [k, i]));
    this.candidate = candidateOf(a);
    this.widthFactor = a.model.perSeries?.widthFactor ?? null;
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
        slot: this.groupIndex.get(s.key) ?? -1,
      };
    });
    const candidate = this.withNewGroups(sources);
    const origins = packOrigins(sources, this.spec, H, this.layout.groupColumns.length);
    const { pred, scale } = runCandidate(candidate, this.spec, this.layout, origins);
    const level = this.a.calibration.level;
    for (const l of opts.levels ?? []) {
      if (!(l > 0 && l < 1)) {
        throw new AutoMLError(`an interval level must be between 0 and 1, not ${l}`);
      }
    }
    const extra = (opts.levels ?? []).filter((l) => l !== level);
    const all = forecastHalfWidths(
      this.a.calibration,
      [level, ...extra],
      candidate,
      this.spec,
      this.layout,
      sources,
      this.factors(sources),
    );
    const widths = all[0];
    const floor = sources.map((s) => floorOf(candidate, s.slot ?? -1));
    const rows: CellValue[][] = [];
    set.series.forEach((s, i) => {
      for (let k = 1; k <= h; k++) {
        const v = finite(pred[i * H + k - 1]);
        const hw = widths[i][k - 1] * scale[i];
        const lo = v === null ? null : finite(Math.max(floor[i], v - hw));
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
    const intervals = (opts.levels ?? []).map((l) => {
      const j = l === level ? 0 : 1 + extra.indexOf(l);
      const lower: (number | null)[] = [];
      const upper: (number | null)[] = [];
      set.series.forEach((_, i) => {
        for (let k = 1; k <= h; k++) {
          const v = finite(pred[i * H + k - 1]);
          const hw = all[j][i][k - 1] * scale[i];
          lower.push(v === null ? null : finite(Math.max(floor[i], v - hw)));
          upper.push(v === null ? null : finite(v + hw));
        }
      });
      return { level: l, lower, upper };
    });
    return {
      columns: outColumns,
      rows,
      unseenGroups,
      duplicates: set.duplicates,
      groupRows,
      ...(opts.levels ? { intervals } : {}),
      ...(opts.history ? { history: this.backtest(set, n) } : {}),
    };
  }

  /** Per source: its group's interval width factor (1 for new groups). */
  private factors(sources: OriginSource[]): Float64Array {
    const f = this.widthFactor;
    // A new group's slot (withNewGroups: after the training groups') has no factor of its own.
    return Float64Array.from(sources, (s) =>
      f && s.slot !== undefined && s.slot >= 0 && s.slot < f.length ? f[s.slot] : 1,
    );
  }

  /**
   * The candidate for these sources: new groups (slot -1) whose fallback (the set's candidate)
   * needs statistical models get them fitted on their own supplied history, in slots after the
   * training groups'.
   */
  private withNewGroups(sources: OriginSource[]): Candidate {
    const c = this.candidate;
    const locals = localNamesOf(c);
    if (locals.length === 0 || sources.every((s) => (s.slot ?? -1) >= 0)) return c;
    const G = this.a.groups.keys.length;
    const extra = new Map<LocalName, (LocalFit | null)[]>(locals.map((l) => [l, []]));
    const hint = this.a.model.perSeries?.hint ?? {};
    let next = G;
    const fitted = new Map<Float64Array, number>();
    for (const s of sources) {
      if ((s.slot ?? -1) >= 0) continue;
      let slot = fitted.get(s.y);
      if (slot === undefined) {
        slot = next++;
        fitted.set(s.y, slot);
        for (const l of locals) {
          const step = this.spec.yearStep;
          const clock = step ? { t: s.t, step } : undefined;
          const p = this.spec.period;
          extra.get(l)!.push(fitLocal(l, s.y, 0, s.y.length - 1, p, hint, clock, s.t));
        }
      }
      s.slot = slot;
    }
    return extendFits(c, extra);
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
    // New groups' statistical models are fitted once, on their whole supplied history.
    const whole: OriginSource[] = set.series.map((s, g) => ({
      y: s.y,
      t: s.t,
      end: s.t.length - 1,
      freq: freqs[g],
      codes: codes[g],
      slot: this.groupIndex.get(s.key) ?? -1,
    }));
    const candidate = this.withNewGroups(whole);
    const slots = whole.map((s) => s.slot ?? -1);
    const floor = slots.map((slot) => floorOf(candidate, slot));
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
          slot: slots[originSeries[i]],
        });
      }
      const origins = packOrigins(sources, this.spec, 1, this.layout.groupColumns.length);
      const { pred, scale } = runCandidate(candidate, this.spec, this.layout, origins);
      const factor = this.factors(sources);
      for (let i = from; i < to; i++) {
        value[originSeries[i]][originEnd[i] + 1] = pred[i - from];
        half[originSeries[i]][originEnd[i] + 1] = hw0 * scale[i - from] * factor[i - from];
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
      out.lower[r] = finite(Math.max(floor[g], v - half[g][p]));
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
      `${who} ${len} row${len === 1 ? '' : 's'}, fewer than WINDOW ${this.window}: a forecast reads the last ${this.window} rows of each group (give more history, leave the group out with a condition on it, or train with a smaller WINDOW)`,
    );
  }
}

export function loadForecaster(a: TimeSeriesArtifact): Forecaster {
  validateTimeSeriesArtifact(a);
  return new ArtifactForecaster(a);
}

/**
 * The least an interval's lower bound may be for the group in `slot`: 0 where it forecasts with
 * an intermittent-demand (TSB) fit, which is fitted only to series that never go below 0 (a
 * band around a forecast of 0 would otherwise reach below it); -Infinity elsewhere.
 */
function floorOf(c: Candidate, slot: number): number {
  if (c.name === 'per_series') {
    const m = slot >= 0 && slot < c.choice.length ? c.choice[slot] : c.fallback;
    return floorOf(c.members[m], slot);
  }
  return c.name === 'tsb' && slot >= 0 && c.fits[slot] ? 0 : -Infinity;
}

/** The statistical models a candidate runs (its own, its members'). */
function localNamesOf(c: Candidate): LocalName[] {
  if (isLocal(c.name)) return [c.name];
  if (c.name === 'combination') return c.members.map((m) => m.name);
  if (c.name === 'per_series' || c.name === 'ensemble') {
    return [...new Set(c.members.flatMap(localNamesOf))];
  }
  return [];
}

/** `c` with each local model's fits extended by `extra` (slots after the training groups'). */
function extendFits(c: Candidate, extra: Map<LocalName, (LocalFit | null)[]>): Candidate {
  if (isLocal(c.name)) {
    const l = c as LocalCandidate;
    return { name: l.name, fits: [...l.fits, ...(extra.get(l.name) ?? [])] };
  }
  if (c.name === 'combination') {
    return { name: c.name, members: c.members.map((m) => extendFits(m, extra) as LocalCandidate) };
  }
  if (c.name === 'per_series' || c.name === 'ensemble') {
    return { ...c, members: c.members.map((m) => extendFits(m, extra)) };
  }
  return c;
}

/** The candidate an artifact describes (older artifacts: their one selected candidate). */
function candidateOf(a: TimeSeriesArtifact): Candidate {
  const m = a.model;
  let part: GbmPart | null = null;
  if (m.gbm) {
    part = {
      gbm: deserializeGBM(m.gbm),
      thresholds: m.thresholds.map((t) =>
        t === null ? null : fromBase64(t, (b) => new Float64Array(b)),
      ),
      zScale: m.zScale,
      linear: m.linear ? deserializeLinearPart(m.linear) : null,
      compiled: null,
    };
  }
  const ps = m.perSeries;
  const fitsOf = (l: LocalName): (LocalFit | null)[] => ps?.local[l] ?? [];
  const member = (name: (typeof m)['selected']): Candidate => {
    if (isGbm(name)) return { name, part: part! };
    if (isLocal(name)) return { name, fits: fitsOf(name) };
    if (name === 'combination') {
      return { name, members: LOCAL_NAMES.map((l) => ({ name: l, fits: fitsOf(l) })) };
    }
    if (name === 'ensemble') return { name, members: (m.ensemble ?? []).map(member) };
    return { name };
  };
  if (!ps) return member(m.selected);
  const members = ps.names.map(member);
  return {
    name: 'per_series',
    choice: Int32Array.from(ps.choice),
    members,
    fallback: ps.names.indexOf(m.selected),
  };
}
