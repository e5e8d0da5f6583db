// How clearly one candidate's forecasts beat another's on the same origins: the paired test that
// selection.ts (ties, a series' own evidence) and candidates.ts (a GBM not worth refitting) share.

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
  const sd = Math.sqrt(Math.max(0, sq / n - mean * mean) * (n / (n - 1)));
  const se = sd / Math.sqrt(Math.max(1, Math.min(n, windows)));
  return se > 0 ? mean / se : mean > 0 ? Infinity : 0;
}
