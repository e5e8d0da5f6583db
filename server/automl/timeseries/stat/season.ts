// Season and trend tests of the statistical forecasters: autocorrelation, the seasonality test the
// Theta method uses (is the autocorrelation at the period significant?), a classical seasonal
// decomposition, seasonal strength (whether ARIMA differences seasonally) and the KPSS test
// (whether it differences at all). Each reads y[start .. end] of a series.

/** Autocorrelations r_1 .. r_maxLag of y[start .. end] (biased estimator, as statsmodels' acf). */
function acf(y: ArrayLike<number>, start: number, end: number, maxLag: number): Float64Array {
  const n = end - start + 1;
  const out = new Float64Array(maxLag + 1);
  if (n < 2) return out;
  let mean = 0;
  for (let i = start; i <= end; i++) mean += y[i];
  mean /= n;
  let c0 = 0;
  for (let i = start; i <= end; i++) c0 += (y[i] - mean) ** 2;
  out[0] = 1;
  if (!(c0 > 0)) return out;
  for (let k = 1; k <= Math.min(maxLag, n - 1); k++) {
    let c = 0;
    for (let i = start + k; i <= end; i++) c += (y[i] - mean) * (y[i - k] - mean);
    out[k] = c / c0;
  }
  return out;
}

/**
 * The seasonality test of the Theta method (Assimakopoulos & Nikolopoulos 2000, as in the M4
 * benchmarks and statsmodels' ThetaModel): the autocorrelation at lag m exceeds 1.645 times its
 * standard error under Bartlett's formula, sqrt((1 + 2 sum_{k<m} r_k^2) / n). Needs 3 seasons.
 */
export function seasonalTest(y: ArrayLike<number>, start: number, end: number, m: number): boolean {
  const n = end - start + 1;
  if (m <= 1 || n < 3 * m) return false;
  const r = acf(y, start, end, m);
  let s = 0;
  for (let k = 1; k < m; k++) s += r[k] * r[k];
  const limit = 1.645 * Math.sqrt((1 + 2 * s) / n);
  return Math.abs(r[m]) > limit;
}

/**
 * Seasonal indices of y[start .. end] by classical decomposition: a centred moving average of one
 * season is the trend, the mean detrended value at each position of the season its index
 * (normalised to sum 0, or to mean 1 when multiplicative). Index j belongs to the rows
 * start + j, start + j + m, ... Null without two full seasons.
 */
export function seasonalIndices(
  y: ArrayLike<number>,
  start: number,
  end: number,
  m: number,
  multiplicative: boolean,
): Float64Array | null {
  const n = end - start + 1;
  if (m <= 1 || n < 2 * m) return null;
  const sum = new Float64Array(m);
  const count = new Float64Array(m);
  const half = Math.floor(m / 2);
  for (let t = start + half; t + half <= end && t - half >= start; t++) {
    let ma: number;
    if (m % 2 === 0) {
      if (t + half > end || t - half < start) continue;
      let s = 0.5 * (y[t - half] + y[t + half]);
      for (let k = t - half + 1; k <= t + half - 1; k++) s += y[k];
      ma = s / m;
    } else {
      let s = 0;
      for (let k = t - half; k <= t + half; k++) s += y[k];
      ma = s / m;
    }
    const j = (t - start) % m;
    const v = multiplicative ? y[t] / ma : y[t] - ma;
    if (!Number.isFinite(v)) return null;
    sum[j] += v;
    count[j]++;
  }
  const idx = new Float64Array(m);
  let total = 0;
  for (let j = 0; j < m; j++) {
    if (count[j] === 0) return null;
    idx[j] = sum[j] / count[j];
    total += idx[j];
  }
  const mean = total / m;
  for (let j = 0; j < m; j++) idx[j] = multiplicative ? idx[j] / mean : idx[j] - mean;
  return idx;
}

/**
 * Seasonal strength (Wang, Smith & Hyndman 2006) from the classical decomposition:
 * max(0, 1 - var(remainder) / var(season + remainder)). auto.arima differences seasonally above
 * 0.64.
 */
export function seasonalStrength(
  y: ArrayLike<number>,
  start: number,
  end: number,
  m: number,
): number {
  const n = end - start + 1;
  if (m <= 1 || n < 2 * m + 1) return 0;
  const idx = seasonalIndices(y, start, end, m, false);
  if (!idx) return 0;
  const half = Math.floor(m / 2);
  // Detrended (season + remainder) and the remainder over the rows with a centred average.
  const sr: number[] = [];
  const rem: number[] = [];
  for (let t = start + half; t + half <= end; t++) {
    let s: number;
    if (m % 2 === 0) {
      s = 0.5 * (y[t - half] + y[t + half]);
      for (let k = t - half + 1; k <= t + half - 1; k++) s += y[k];
    } else {
      s = 0;
      for (let k = t - half; k <= t + half; k++) s += y[k];
    }
    const d = y[t] - s / m;
    sr.push(d);
    rem.push(d - idx[(t - start) % m]);
  }
  const v = (xs: number[]) => {
    const mu = xs.reduce((a, b) => a + b, 0) / xs.length;
    return xs.reduce((a, b) => a + (b - mu) ** 2, 0) / Math.max(1, xs.length - 1);
  };
  const vsr = v(sr);
  if (!(vsr > 0)) return 0;
  return Math.max(0, 1 - v(rem) / vsr);
}

/**
 * The KPSS statistic for level stationarity (Kwiatkowski et al. 1992) of x[0 .. n-1], with the
 * Newey-West long-run variance over trunc(3 sqrt(n) / 13) lags (R's ndiffs, lshort).
 */
function kpss(x: ArrayLike<number>, n: number): number {
  if (n < 3) return 0;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  let s = 0;
  let eta = 0;
  let gamma0 = 0;
  for (let i = 0; i < n; i++) {
    const e = x[i] - mean;
    s += e;
    eta += s * s;
    gamma0 += e * e;
  }
  const lags = Math.trunc((3 * Math.sqrt(n)) / 13);
  let lrv = gamma0 / n;
  for (let l = 1; l <= lags; l++) {
    let g = 0;
    for (let i = l; i < n; i++) g += (x[i] - mean) * (x[i - l] - mean);
    lrv += (2 * (1 - l / (lags + 1)) * g) / n;
  }
  if (!(lrv > 0)) return 0;
  return eta / (n * n * lrv);
}

/** KPSS's 5 % critical value for level stationarity. */
const KPSS_5 = 0.463;

/**
 * How many first differences make x[0 .. n-1] level-stationary by the KPSS test at 5 % (0, 1 or
 * 2, as R's ndiffs): a constant series needs none.
 */
export function firstDifferences(x: ArrayLike<number>, n: number, maxD = 2): number {
  let cur = Float64Array.from({ length: n }, (_, i) => x[i]);
  let len = n;
  for (let d = 0; d < maxD; d++) {
    if (len < 8 || isConstant(cur, len) || kpss(cur, len) < KPSS_5) return d;
    const next = new Float64Array(len - 1);
    for (let i = 1; i < len; i++) next[i - 1] = cur[i] - cur[i - 1];
    cur = next;
    len--;
  }
  return maxD;
}

function isConstant(x: ArrayLike<number>, n: number): boolean {
  for (let i = 1; i < n; i++) if (x[i] !== x[0]) return false;
  return true;
}

/** Seasonal strength a period found in the data must reach (auto.arima's seasonal-difference bar). */
const FOUND_STRENGTH = 0.64;

/**
 * The seasonal period of series without a calendar frequency (a numeric ORDER BY), found in the
 * data as forecast::findfrequency does in spirit: the autocorrelations of each series with its
 * least-squares line removed, averaged over the series, and the lag of their highest peak after
 * the first minimum (the earliest lag within 10 % of it, so 12 rather than 24 when both peak). It
 * is kept only where it is clear: that peak significant at 5 % for the averaged series, at least
 * three seasons in the median series, and the seasonal strength (Wang, Smith & Hyndman) of the
 * series above 0.64 on average. 1 when any of these fails. `series` are y[0 .. n-1] arrays.
 */
export function periodFromData(series: readonly ArrayLike<number>[], maxPeriod = 366): number {
  const ys = series.filter((y) => y.length >= 8);
  if (ys.length === 0) return 1;
  const lens = ys.map((y) => y.length).sort((a, b) => a - b);
  const nMed = lens[lens.length >> 1];
  const maxLag = Math.min(maxPeriod, Math.floor(nMed / 3));
  if (maxLag < 2) return 1;
  const mean = new Float64Array(maxLag + 1);
  let k = 0;
  let rows = 0;
  for (const y of ys) {
    const r = acf(detrended(y), 0, y.length - 1, Math.min(maxLag, y.length - 1));
    for (let l = 1; l <= maxLag && l < y.length; l++) mean[l] += r[l];
    k++;
    rows += y.length;
  }
  for (let l = 1; l <= maxLag; l++) mean[l] /= k;
  // The first local minimum, then the highest value after it.
  let first = 1;
  while (first < maxLag && mean[first + 1] < mean[first]) first++;
  if (first >= maxLag) return 1;
  let best = -Infinity;
  for (let l = first + 1; l <= maxLag; l++) best = Math.max(best, mean[l]);
  let m = -1;
  for (let l = first + 1; l <= maxLag; l++) {
    const peak = mean[l] >= mean[l - 1] && (l === maxLag || mean[l] >= mean[l + 1]);
    if (peak && mean[l] >= 0.9 * best) {
      m = l;
      break;
    }
  }
  if (m < 2 || !(best > 0)) return 1;
  // Bartlett's standard error of the averaged autocorrelation (the series' rows pooled).
  let s = 0;
  for (let l = 1; l < m; l++) s += mean[l] * mean[l];
  if (!(mean[m] > 1.96 * Math.sqrt((1 + 2 * s) / rows))) return 1;
  if (nMed < 3 * m) return 1;
  let strength = 0;
  for (const y of ys) strength += seasonalStrength(y, 0, y.length - 1, m);
  return strength / ys.length > FOUND_STRENGTH ? m : 1;
}

/** Least-squares slope of y on its row index 0..n-1; 0 for fewer than 2 rows. */
export function indexSlope(y: ArrayLike<number>): number {
  const n = y.length;
  if (n < 2) return 0;
  const tm = (n - 1) / 2;
  let ym = 0;
  for (let i = 0; i < n; i++) ym += y[i];
  ym /= n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (i - tm) * (y[i] - ym);
    sxx += (i - tm) * (i - tm);
  }
  return sxy / sxx;
}

/** y less its least-squares line on the row index. */
export function detrended(y: ArrayLike<number>): Float64Array {
  const n = y.length;
  const tm = (n - 1) / 2;
  let ym = 0;
  for (let i = 0; i < n; i++) ym += y[i];
  ym /= n;
  const b = indexSlope(y);
  return Float64Array.from({ length: n }, (_, i) => y[i] - ym - b * (i - tm));
}

/**
 * Fills the NaN values of y in place (each with a known value somewhere before and after it), as
 * R's forecast::na.interp does for a seasonal series in spirit: from the same season's known
 * values, interpolated linearly between the nearest one before and the nearest one after (a
 * season and a line through it are continued exactly). With one on one side only (a gap in the
 * first or last season), that value moved by the change its two neighbours show over the same
 * seasons (the nearest known pair of neighbours: exact on a season, a line and their sum), or that
 * value alone where no neighbour is known. Without a season (period 1, or no known value of that season), linearly between the
 * neighbouring known values. Reads only the values known on entry.
 */
export function fillMissing(y: Float64Array, period: number): void {
  const known = Float64Array.from(y);
  const n = y.length;
  const at = (i: number) => (i >= 0 && i < n ? known[i] : NaN);
  // The change from position `from` to `to` (both of one season) that their nearest known
  // neighbours show over the same distance (0 when none is known).
  const shift = (from: number, to: number): number => {
    for (let r = 1; r < Math.max(period, 2); r++) {
      let sum = 0;
      let k = 0;
      for (const j of [-r, r]) {
        const d = at(to + j) - at(from + j);
        if (!Number.isNaN(d)) {
          sum += d;
          k++;
        }
      }
      if (k > 0) return sum / k;
    }
    return 0;
  };
  const between = (i: number, step: number): number => {
    let a = i - step;
    while (a >= 0 && Number.isNaN(known[a])) a -= step;
    let b = i + step;
    while (b < n && Number.isNaN(known[b])) b += step;
    if (a >= 0 && b < n) return known[a] + ((known[b] - known[a]) * (i - a)) / (b - a);
    if (step === 1) return NaN;
    return a >= 0 ? known[a] + shift(a, i) : b < n ? known[b] + shift(b, i) : NaN;
  };
  for (let i = 0; i < n; i++) {
    if (!Number.isNaN(known[i])) continue;
    const v = period > 1 ? between(i, period) : NaN;
    y[i] = Number.isNaN(v) ? between(i, 1) : v;
  }
}
