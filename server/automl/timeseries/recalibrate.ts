// Recalibrating forecast intervals on outcomes observed since training (online weighted conformal).
//
// Why. The intervals are conformal quantiles of rolling-origin residuals from the training history,
// so they cover 90 % while the future fails the way the past did. Series drift out of that: a
// recession doubles unemployment within a year, a crash multiplies a stock's volatility, CO2's
// growth speeds up. A model forecasting months past its training end then under-covers for as
// long as it runs, at every step (bench/timeseries.ts measured 0.37 at step 12 on unemployment).
// Conformal inference under distribution drift (Barber et al. 2023, weighted quantiles; Gibbs &
// Candès 2021, adaptive conformal inference) answers with the newest outcomes: the history a
// forecast is given holds rows after the training data whenever time has moved on, and each of
// them is the outcome of a forecast the model could have made from earlier rows. A group's
// residuals join the calibration record with the age weights the training chose (the
// half-life), and the training residuals age by the time elapsed since the training end, so on a
// series whose errors changed, the recent ones soon dominate; on a steady series (equal weights)
// they barely move it. Each group is recalibrated on its own outcomes (a group whose errors grew
// widens, a calm one does not), and tracks its own misses since training (adaptive conformal
// inference, see trackedHalfWidths), so groups of unlike volatility get their own width.
//
// No leak and no in-sample residual: a residual counts only when its target row is later than
// every training row (the refitted model never saw it) and not later than the forecast origin
// (it is in the history supplied). Without such rows (a forecast right after training, or from
// the training data itself) the trained widths apply unchanged and nothing is recomputed; SQL's
// LATEST reads recalibrationRows rows per group so that the rows after training are there.

import { AutoMLError } from '../errors';
import type { FeatureLayout } from './features';
import { ageWeight, quantileLevelOf, recalibratedHalfWidths, trackedHalfWidths } from './intervals';
import { type Candidate, type OriginSource, packOrigins, packRows, runCandidate } from './model';
import type { FeatureSpec, TimeSeriesArtifact } from './types';

/**
 * Residuals since training per group and step: the last 2 x max(HORIZON, season) origins with an
 * outcome at that step, at most this many (older ones weigh little at a short half-life, and the
 * tracking forgets them at a long one).
 */
const MAX_RECENT_ORIGINS = 96;
/**
 * Origin-steps a forecast call backtests at most (three times those of a 1,000-group forecast at
 * HORIZON 12): a call over many groups backtests fewer recent origins per group, the latest first,
 * so its far steps may get no new residual and keep their trained widths.
 */
const RECENT_BUDGET = 36_000;

/** Recent origins a forecast backtests per group (at most): enough for that many per step. */
function recentOrigins(spec: FeatureSpec): number {
  const H = spec.horizon;
  return Math.min(MAX_RECENT_ORIGINS, 2 * Math.max(H, spec.period)) + H - 1;
}

/**
 * Rows per group a forecast reads to recalibrate on all the recent origins it may backtest: the
 * features' lookback behind the earliest of them (TimeSeriesDescription.recalibrationRows).
 */
export function recalibrationRows(spec: FeatureSpec): number {
  return packRows(spec) + recentOrigins(spec);
}

/** Trained half-widths per step at `level`: the artifact's at that level, else the sketch's quantiles. */
function trainedHalfWidths(
  calibration: TimeSeriesArtifact['calibration'],
  level: number,
): number[] {
  if (level === calibration.level) return calibration.halfWidths;
  const at = calibration.levels?.find((l) => Math.abs(l.level - level) < 1e-9);
  if (at) return at.halfWidths;
  const online = calibration.online;
  if (!online) {
    throw new AutoMLError(
      `this model was trained before intervals at other levels were kept; only ${calibration.level} is available`,
    );
  }
  const none = { residuals: online.sketch.map(() => []), weights: online.sketch.map(() => []) };
  const q = quantileLevelOf(online.quantiles, level);
  return recalibratedHalfWidths(online.sketch, online.weight, 1, none, q);
}

/**
 * Interval half-widths per level, source and step (in units of the origin's scale) for each of
 * `sources` (a group's last row as the forecast origin, its whole supplied history in `y` / `t`):
 * the trained ones times the group's width factor, or recalibrated on the residuals of recent
 * origins whose targets came after the training data.
 */
export function forecastHalfWidths(
  calibration: TimeSeriesArtifact['calibration'],
  levels: number[],
  candidate: Candidate,
  spec: FeatureSpec,
  layout: FeatureLayout,
  sources: OriginSource[],
  factors: ArrayLike<number>,
): number[][][] {
  const trained = levels.map((l) => trainedHalfWidths(calibration, l));
  const same = () => trained.map((w) => sources.map((_, g) => w.map((x) => x * factors[g])));
  const online = calibration.online;
  if (!online || !(online.span > 0) || sources.length === 0) return same();
  const H = spec.horizon;
  let now = -Infinity;
  for (const s of sources) now = Math.max(now, s.t[s.end]);
  if (!(now > online.until)) return same();
  const perGroup = Math.max(
    1,
    Math.min(recentOrigins(spec), Math.floor(RECENT_BUDGET / (H * sources.length))),
  );
  // Origins (latest first) whose forecast reaches past the training end in the supplied history.
  const list: OriginSource[] = [];
  const groupOf: number[] = [];
  sources.forEach((s, g) => {
    const first = Math.max(spec.window - 1, s.end - perGroup);
    for (let o = s.end - 1; o >= first; o--) {
      if (!(s.t[Math.min(s.end, o + H)] > online.until)) break;
      list.push({ ...s, end: o });
      groupOf.push(g);
    }
  });
  if (list.length === 0) return same();
  const origins = packOrigins(list, spec, H, layout.groupColumns.length);
  const { pred, scale } = runCandidate(candidate, spec, layout, origins);
  const halfLife = online.halfLife ?? Infinity;
  // Per group and step: its new residuals (over its width factor) with their age weights and
  // target times; each group is recalibrated on its own outcomes only, so a group whose errors
  // grew widens without widening the calm ones.
  const recent = sources.map(() => ({
    residuals: Array.from({ length: H }, (): number[] => []),
    weights: Array.from({ length: H }, (): number[] => []),
    times: Array.from({ length: H }, (): number[] => []),
  }));
  let observed = 0;
  list.forEach((src, i) => {
    const o = src.end;
    const g = groupOf[i];
    const last = sources[g].end;
    // Aged as at training: the latest validation period counts as now (age 0).
    const w = ageWeight(Math.max(0, (now - src.t[o]) / online.span - 1), halfLife);
    for (let k = 1; k <= H && o + k <= last; k++) {
      if (!(src.t[o + k] > online.until)) continue;
      const x = Math.abs(src.y[o + k] - pred[i * H + k - 1]) / scale[i] / factors[g];
      if (!Number.isFinite(x)) continue;
      recent[g].residuals[k - 1].push(x);
      recent[g].weights[k - 1].push(w);
      recent[g].times[k - 1].push(src.t[o + k]);
      observed++;
    }
  });
  if (observed === 0) return same();
  const decay = ageWeight((now - online.until) / online.span, halfLife);
  // In time order, for the tracking.
  const ordered = recent.map((r) =>
    r.residuals.map((xs, k) =>
      xs
        .map((x, i) => [r.times[k][i], x] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, x]) => x),
    ),
  );
  // The training record counts for every group as the training counted it: the residuals of all
  // groups, over their width factors, calibrated each group's band, and a group's outcomes since
  // weigh as much as one residual of the record each, aged alike. Where the training chose a short
  // half-life the record decays and they soon dominate; each group's misses widen its own band
  // through the tracking. (Counted as 1 / groups of the record per group, the record left a few
  // residuals' weight against the forecast's own weight of 1, and the conformal quantile of the
  // high levels jumped towards the record's largest residuals at a group's first outcome after
  // training, even one it forecast exactly: every 95 % band of 40 groups widened 12 %.)
  return levels.map((level) =>
    recent.map((r, g) => {
      // The band's residual quantile as trained (calibration.ts); the tracking aims at the
      // nominal miss rate.
      const q = quantileLevelOf(online.quantiles, level);
      const own = recalibratedHalfWidths(online.sketch, online.weight, decay, r, q);
      return trackedHalfWidths(own, ordered[g], level).map((x) => x * factors[g]);
    }),
  );
}
