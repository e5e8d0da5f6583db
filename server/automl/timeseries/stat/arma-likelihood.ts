// The exact Gaussian likelihood of a stationary ARMA(p, q) series by the innovations algorithm
// (Brockwell & Davis, "Time Series: Theory and Methods", 5.3 and 8.7, after Ansley 1979): the
// series' one-step predictors and their variances from the model's autocovariances, in O(q^2) a
// row until the coefficients reach their steady state, O(q) a row after. ARIMA's final estimates
// maximise it (conditional sums of squares, faster, only search the orders): near a unit MA root,
// as over-differenced or trending series have, conditional estimates drift while exact ones stay
// put.

/**
 * Autocovariances gamma(0..maxLag) of an ARMA process with unit innovation variance:
 * x_t = sum phi_i x_{t-i} + e_t + sum theta_j e_{t-j} (dense coefficients, lags 1..). Null when
 * the AR part is not stationary (the linear system is singular or the variance not positive).
 */
export function armaAutocovariances(
  phi: ArrayLike<number>,
  theta: ArrayLike<number>,
  maxLag: number,
): Float64Array | null {
  const p = phi.length;
  const q = theta.length;
  const th = (j: number) => (j === 0 ? 1 : j <= q ? theta[j - 1] : 0);
  // psi weights 0..q of the MA(infinity) form.
  const psi = new Float64Array(q + 1);
  psi[0] = 1;
  for (let j = 1; j <= q; j++) {
    let v = th(j);
    for (let k = 1; k <= Math.min(j, p); k++) v += phi[k - 1] * psi[j - k];
    psi[j] = v;
  }
  const c = (k: number) => {
    let v = 0;
    for (let j = k; j <= q; j++) v += th(j) * psi[j - k];
    return v;
  };
  const L = Math.max(maxLag, p);
  const g = new Float64Array(L + 1);
  if (p === 0) {
    for (let k = 0; k <= L; k++) g[k] = k <= q ? c(k) : 0;
  } else {
    // gamma(k) - sum_i phi_i gamma(|k - i|) = c(k), k = 0..p: a (p+1) x (p+1) system.
    const n = p + 1;
    const A = new Float64Array(n * n);
    const b = new Float64Array(n);
    for (let k = 0; k <= p; k++) {
      A[k * n + k] += 1;
      for (let i = 1; i <= p; i++) A[k * n + Math.abs(k - i)] -= phi[i - 1];
      b[k] = c(k);
    }
    const x = solve(A, b, n);
    if (!x) return null;
    g.set(x, 0);
    for (let k = p + 1; k <= L; k++) {
      let v = c(k);
      for (let i = 1; i <= p; i++) v += phi[i - 1] * g[k - i];
      g[k] = v;
    }
  }
  if (!(g[0] > 0)) return null;
  return g.subarray(0, maxLag + 1);
}

/** Gaussian elimination with partial pivoting; null when singular. */
function solve(A: Float64Array, b: Float64Array, n: number): Float64Array | null {
  const M = Float64Array.from(A);
  const x = Float64Array.from(b);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs(M[r * n + col]) > Math.abs(M[piv * n + col])) piv = r;
    if (!(Math.abs(M[piv * n + col]) > 1e-12)) return null;
    if (piv !== col) {
      for (let k = 0; k < n; k++) {
        const t = M[col * n + k];
        M[col * n + k] = M[piv * n + k];
        M[piv * n + k] = t;
      }
      const t = x[col];
      x[col] = x[piv];
      x[piv] = t;
    }
    for (let r = col + 1; r < n; r++) {
      const f = M[r * n + col] / M[col * n + col];
      if (f === 0) continue;
      for (let k = col; k < n; k++) M[r * n + k] -= f * M[col * n + k];
      x[r] -= f * x[col];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let v = x[r];
    for (let k = r + 1; k < n; k++) v -= M[r * n + k] * x[k];
    x[r] = v / M[r * n + r];
  }
  return x;
}

/** What the likelihood of a series under a model comes to. */
export interface ArmaLikelihood {
  /** Sum of squared standardised one-step errors (the innovation variance's estimate times n). */
  S: number;
  /** Sum of log relative prediction variances. */
  sumLogR: number;
  /** -2 log L, concentrated over the innovation variance, without the constant n (1 + log 2 pi). */
  m2ll: number;
}

/**
 * The innovations algorithm's coefficients of an ARMA model for rows 0..n-1 (they depend on the
 * model, not on the data): theta_{t, j} at T[r * W + j] (j = 1..min(t, max(p, q))), the relative
 * one-step prediction variance of row t at v[r], where r = min(t, last) (`innovationRow`).
 * Null when the model is not stationary.
 *
 * Past the first max(p, q) rows the coefficients of an invertible MA converge to its own
 * coefficients and the variances to 1 (Brockwell & Davis 5.3; the steady state statsmodels'
 * Kalman filter and R's arima also stop at): once a row is there within `tol`, every later row
 * reuses it (`last` is that row, n - 1 when it never converges), so a long series costs O(q^2)
 * per row only until then. tol = 0 runs the full recursion.
 */
export interface Innovations {
  p: number;
  q: number;
  m: number;
  W: number;
  /** Rows the coefficients hold for: Infinity once converged. */
  n: number;
  /** The last row computed; later rows are its copies. */
  last: number;
  T: Float64Array;
  v: Float64Array;
}

/** The row of `inn`'s coefficients and variance that stands for row t. */
function innovationRow(inn: Innovations, t: number): number {
  return t < inn.last ? t : inn.last;
}

/** How close to the invertible MA's coefficients and unit variance counts as converged. */
const INNOVATIONS_TOL = 1e-12;

export function innovationCoefficients(
  phi: ArrayLike<number>,
  theta: ArrayLike<number>,
  n: number,
  tol = INNOVATIONS_TOL,
): Innovations | null {
  const p = phi.length;
  const q = theta.length;
  const m = Math.max(p, q);
  const gamma = armaAutocovariances(phi, theta, m);
  if (!gamma) return null;
  const th = (j: number) => (j === 0 ? 1 : j <= q ? theta[j - 1] : 0);
  const thetaProd = new Float64Array(q + 1);
  for (let h = 0; h <= q; h++) {
    let v = 0;
    for (let r = 0; r + h <= q; r++) v += th(r) * th(r + h);
    thetaProd[h] = v;
  }
  // kappa(i, j), 1-based (Brockwell & Davis 5.3.5), for the transformed process.
  const kappa = (i: number, j: number): number => {
    const lo = Math.min(i, j);
    const hi = Math.max(i, j);
    const h = hi - lo;
    if (hi <= m) return gamma[h];
    if (lo <= m) {
      if (hi > 2 * m) return 0;
      let v = gamma[h];
      for (let r = 1; r <= p; r++) v -= phi[r - 1] * gamma[Math.abs(r - h)];
      return v;
    }
    return h <= q ? thetaProd[h] : 0;
  };
  const W = m + 1;
  // Grown by doubling: a converging model needs far fewer rows than n.
  let cap = Math.max(1, Math.min(n, 1024));
  let T = new Float64Array(cap * W);
  let v = new Float64Array(cap);
  v[0] = kappa(1, 1);
  let last = Math.max(0, n - 1);
  for (let t = 1; t < n; t++) {
    if (t === cap) {
      cap = Math.min(n, 2 * cap);
      const T2 = new Float64Array(cap * W);
      T2.set(T);
      T = T2;
      const v2 = new Float64Array(cap);
      v2.set(v);
      v = v2;
    }
    // theta_{t, t-k} for the k whose coefficient can be non-zero.
    const kFrom = t >= m ? Math.max(0, t - q) : 0;
    for (let k = kFrom; k < t; k++) {
      let s = kappa(t + 1, k + 1);
      const jFrom = Math.max(0, t - (t >= m ? q : m), k - (k >= m ? q : m));
      for (let j = jFrom; j < k; j++) s -= T[k * W + (k - j)] * T[t * W + (t - j)] * v[j];
      T[t * W + (t - k)] = s / v[k];
    }
    let vt = kappa(t + 1, t + 1);
    for (let j = kFrom; j < t; j++) {
      const c = T[t * W + (t - j)];
      vt -= c * c * v[j];
    }
    if (!(vt > 0)) return null;
    v[t] = vt;
    // Converged: every row this row's window sees is past the first m, and the row is the
    // invertible MA's own within tol.
    if (tol > 0 && t >= m + q && Math.abs(vt - 1) <= tol) {
      let same = true;
      for (let j = 1; j <= q && same; j++) same = Math.abs(T[t * W + j] - theta[j - 1]) <= tol;
      if (same) {
        last = t;
        break;
      }
    }
  }
  return { p, q, m, W, n: last < n - 1 ? Infinity : n, last, T, v };
}

/** One-step predictors of x[0 .. n-1] (mean removed) into xhat. */
function predictors(
  inn: Innovations,
  phi: ArrayLike<number>,
  x: ArrayLike<number>,
  n: number,
  xhat: Float64Array,
): void {
  const { p, q, m, W, T } = inn;
  for (let t = 0; t < n; t++) {
    let pred = 0;
    const lags = t >= m ? q : t;
    const r = innovationRow(inn, t) * W;
    for (let j = 1; j <= lags; j++) pred += T[r + j] * (x[t - j] - xhat[t - j]);
    if (t >= m) for (let i = 1; i <= p; i++) pred += phi[i - 1] * x[t - i];
    xhat[t] = pred;
  }
}

/**
 * The exact likelihood of x[0 .. n-1] (mean already removed) under the ARMA model. When `out` is
 * given it receives residuals whose sum of squares is S times the geometric mean of the relative
 * prediction variances, exp(m2ll / n) up to a factor: what a least-squares solver minimises to
 * maximise the likelihood. Null when the model is not stationary. `tol` as innovationCoefficients'
 * (0: the full recursion).
 */
export function armaLikelihood(
  x: ArrayLike<number>,
  phi: ArrayLike<number>,
  theta: ArrayLike<number>,
  out?: Float64Array,
  tol = INNOVATIONS_TOL,
): ArmaLikelihood | null {
  const n = x.length;
  const inn = innovationCoefficients(phi, theta, n, tol);
  if (!inn) return null;
  const xhat = new Float64Array(n);
  predictors(inn, phi, x, n, xhat);
  let S = 0;
  let sumLogR = 0;
  for (let t = 0; t < n; t++) {
    const r = inn.v[innovationRow(inn, t)];
    const e = x[t] - xhat[t];
    S += (e * e) / r;
    sumLogR += Math.log(r);
    if (out) out[t] = e / Math.sqrt(r);
  }
  if (out) {
    const g = Math.exp(sumLogR / (2 * n));
    for (let t = 0; t < n; t++) out[t] *= g;
  }
  return { S, sumLogR, m2ll: n * Math.log(Math.max(S, 1e-300) / n) + sumLogR };
}

/**
 * The exact best linear predictors of x[n .. n + H - 1] from x[0 .. n-1] (mean removed; Brockwell
 * & Davis 5.3.15): the AR recursion over the predictions plus the MA terms of the last q
 * innovations, weighted by the coefficients of the rows ahead. `inn` must cover n + H rows. With
 * n <= max(p, q) rows, the predictions are 0 (the mean).
 */
export function armaPredict(
  inn: Innovations,
  phi: ArrayLike<number>,
  x: ArrayLike<number>,
  n: number,
  H: number,
  out: Float64Array,
): void {
  const { p, q, m, W, T } = inn;
  if (n <= m) {
    out.fill(0, 0, H);
    return;
  }
  const xhat = new Float64Array(n);
  predictors(inn, phi, x, n, xhat);
  const z = new Float64Array(n + H);
  for (let t = 0; t < n; t++) z[t] = x[t];
  for (let h = 1; h <= H; h++) {
    const t = n + h - 1;
    let v = 0;
    for (let i = 1; i <= p; i++) v += phi[i - 1] * z[t - i];
    const r = innovationRow(inn, t) * W;
    for (let j = h; j <= q; j++) v += T[r + j] * (x[t - j] - xhat[t - j]);
    z[t] = v;
    out[h - 1] = v;
  }
}
