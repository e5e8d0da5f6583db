// How clearly one candidate's forecasts beat another's on the same origins: the paired test that
// selection.ts (ties, a series' own evidence) and candidates.ts (a GBM not worth refitting) share.

/**
 * Errors closer than this (a mean paired difference in origin scales, the errors' unit, or two
 * MASEs) are floating-point rounding, not evidence: on a series some candidates continue exactly
 * (a straight line, a pure season) their errors are 1e-16 of the level, up to 1e-11 of a scale
 * (the scale has 1e-4 of the level in it), and a line's group left drift (1e-16) for ARIMA (0)
 * "by infinitely many standard errors", or its set took ARIMA, whose MASE 0 was below drift's
 * 2e-12 by more than the 1 % tie.
 */
export const RESOLUTION = 1e-9;

/**
 * How clearly candidate c beats d on a series' origins: the mean paired difference of their
 * per-origin errors over its standard error (overlapping windows counted as `windows`
 * independent ones); -Infinity-safe: NaN when they share no origin.
 */
export function advantage(
  a: Float64Array,
  b: Float64Array,
  idx: number[],
  windows: number,
): number {
  let n = 0;
  let sum = 0;
  let sq = 0;
  for (const i of idx) {
    const d = b[i] - a[i];
    if (!Number.isFinite(d)) continue;
    n++;
    sum += d;
    sq += d * d;
  }
  if (n < 2) return NaN;
  const mean = sum / n;
  if (!(Math.abs(mean) > RESOLUTION)) return 0;
  const sd = Math.sqrt(Math.max(0, sq / n - mean * mean) * (n / (n - 1)));
  const se = sd / Math.sqrt(Math.max(1, Math.min(n, windows)));
  return se > 0 ? mean / se : mean > 0 ? Infinity : 0;
}
