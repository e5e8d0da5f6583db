/**
 * The statistics of a drift report, on plain arrays: the population stability index of two
 * binned distributions, the two-sample Kolmogorov-Smirnov test (numbers) and the chi-squared test
 * of homogeneity (categories and bins), each with its p-value. Pure functions, pinned against
 * scipy in __tests__/stats.test.ts.
 */

/**
 * Share a bin gets when it is empty on one side: ln(0) would make the index infinite. 1e-4 is the
 * floor most PSI implementations use (a bin 100x rarer than 1 % still counts as "almost never").
 */
const PSI_FLOOR = 1e-4;

/**
 * Population stability index of `actual` against `expected` (counts over the same bins):
 * sum over bins of (a - e) * ln(a / e), with a and e the bins' shares (floored at PSI_FLOOR).
 * 0 for identical distributions; 0.1 is a moderate shift, 0.2 a large one (the usual reading).
 * Either side without any count gives 0: there is nothing to compare.
 */
export function psi(expected: readonly number[], actual: readonly number[]): number {
  if (expected.length !== actual.length) throw new Error('psi: bins differ in number');
  const ne = sum(expected);
  const na = sum(actual);
  if (ne === 0 || na === 0) return 0;
  let s = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = Math.max(expected[i] / ne, PSI_FLOOR);
    const a = Math.max(actual[i] / na, PSI_FLOOR);
    s += (a - e) * Math.log(a / e);
  }
  return s;
}

export interface TestResult {
  statistic: number;
  pValue: number;
}

/**
 * Two-sample Kolmogorov-Smirnov: the largest distance between the two empirical distribution
 * functions (scipy's `ks_2samp` statistic, ties handled alike). The p-value is Kolmogorov's limiting
 * distribution at (sqrt(en) + 0.12 + 0.11 / sqrt(en)) * D, en = n m / (n + m) (Stephens'
 * correction, Numerical Recipes 14.3): within a few % of scipy's exact value once en passes ~50,
 * which drift samples do. NaNs must be removed first; an empty side gives D = 0, p = 1.
 */
export function ksTwoSample(a: ArrayLike<number>, b: ArrayLike<number>): TestResult {
  const x = Float64Array.from(a).sort();
  const y = Float64Array.from(b).sort();
  const n = x.length;
  const m = y.length;
  if (n === 0 || m === 0) return { statistic: 0, pValue: 1 };
  let i = 0;
  let j = 0;
  let d = 0;
  // Walk the merged values; at each distinct value both ECDFs step past every copy of it.
  while (i < n && j < m) {
    const v = Math.min(x[i], y[j]);
    while (i < n && x[i] === v) i++;
    while (j < m && y[j] === v) j++;
    const diff = Math.abs(i / n - j / m);
    if (diff > d) d = diff;
  }
  const en = Math.sqrt((n * m) / (n + m));
  return { statistic: d, pValue: kolmogorovSf((en + 0.12 + 0.11 / en) * d) };
}

/** P(K > x) for Kolmogorov's limiting distribution: 2 sum (-1)^(k-1) exp(-2 k^2 x^2). */
export function kolmogorovSf(x: number): number {
  if (!(x > 0)) return 1;
  if (x < 0.2) return 1; // the series converges slowly there; the true value is > 0.9999999
  const a2 = -2 * x * x;
  let s = 0;
  let sign = 1;
  for (let k = 1; k <= 100; k++) {
    const term = Math.exp(a2 * k * k);
    s += sign * term;
    if (term < 1e-17 * Math.max(s, 1e-300)) break;
    sign = -sign;
  }
  return Math.min(1, Math.max(0, 2 * s));
}

/**
 * Chi-squared test of homogeneity of two count vectors over the same bins (a 2 x K contingency
 * table, no continuity correction: scipy's `chi2_contingency(t, correction=False)`). Bins empty on
 * both sides are left out; fewer than two bins left give statistic 0, p 1 (nothing to compare).
 */
export function chiSquaredTwoSample(
  a: readonly number[],
  b: readonly number[],
): TestResult & { dof: number } {
  if (a.length !== b.length) throw new Error('chiSquaredTwoSample: bins differ in number');
  const na = sum(a);
  const nb = sum(b);
  const n = na + nb;
  let stat = 0;
  let k = 0;
  if (na === 0 || nb === 0) return { statistic: 0, pValue: 1, dof: 0 };
  for (let i = 0; i < a.length; i++) {
    const col = a[i] + b[i];
    if (col === 0) continue;
    k++;
    const ea = (col * na) / n;
    const eb = (col * nb) / n;
    stat += (a[i] - ea) ** 2 / ea + (b[i] - eb) ** 2 / eb;
  }
  const dof = k - 1;
  if (dof < 1) return { statistic: 0, pValue: 1, dof: 0 };
  return { statistic: stat, pValue: chiSquaredSf(stat, dof), dof };
}

/** P(X > x) for a chi-squared variable with `k` degrees of freedom. */
export function chiSquaredSf(x: number, k: number): number {
  if (!(x > 0)) return 1;
  return regularizedGammaQ(k / 2, x / 2);
}

/**
 * Q(a, x) = Gamma(a, x) / Gamma(a): the series of P for x < a + 1, else Lentz's continued
 * fraction (Numerical Recipes 6.2), each to double precision.
 */
function regularizedGammaQ(a: number, x: number): number {
  const lnPrefix = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) {
    let ap = a;
    let del = 1 / a;
    let s = del;
    for (let n = 0; n < 1000; n++) {
      ap += 1;
      del *= x / ap;
      s += del;
      if (Math.abs(del) < Math.abs(s) * 1e-16) break;
    }
    return Math.max(0, 1 - s * Math.exp(lnPrefix));
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return Math.exp(lnPrefix) * h;
}

/** ln Gamma(x) for x > 0 (Lanczos, g = 7, 9 terms: ~1e-15 relative). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let s = c[0];
  for (let i = 1; i < 9; i++) s += c[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s);
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}
