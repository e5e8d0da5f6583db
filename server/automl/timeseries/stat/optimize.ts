// Minimisers for the statistical forecasters' parameters: Nelder-Mead for a handful of smoothing
// parameters (ETS, Theta), Levenberg-Marquardt for ARIMA's conditional sum of squares. Both work
// on unconstrained parameters (each model maps them into its admissible region) and are
// deterministic: the same start gives the same answer, so the same data gives the same artifact.

/** The result of a minimisation: the best point found, its value and the evaluations spent. */
export interface Minimum {
  x: Float64Array;
  f: number;
  evaluations: number;
}

/**
 * Nelder-Mead with the adaptive coefficients of Gao & Han (2012), which keep the simplex from
 * collapsing in more than a couple of dimensions. Non-finite values count as +Infinity (the model
 * left its admissible region). Stops when the simplex's values agree to `tol` (relative) or after
 * `maxEvals` evaluations.
 */
export function nelderMead(
  f: (x: Float64Array) => number,
  x0: ArrayLike<number>,
  opts: { step?: number; tol?: number; maxEvals?: number } = {},
): Minimum {
  const n = x0.length;
  const step = opts.step ?? 0.5;
  const tol = opts.tol ?? 1e-7;
  const maxEvals = opts.maxEvals ?? 200 * Math.max(1, n);
  let evaluations = 0;
  const value = (x: Float64Array): number => {
    evaluations++;
    const v = f(x);
    return Number.isFinite(v) ? v : Infinity;
  };
  if (n === 0) {
    const x = new Float64Array(0);
    return { x, f: value(x), evaluations };
  }
  const alpha = 1;
  const beta = 1 + 2 / n;
  const gamma = 0.75 - 1 / (2 * n);
  const delta = 1 - 1 / n;
  const pts: Float64Array[] = [];
  const vals: number[] = [];
  pts.push(Float64Array.from(x0));
  vals.push(value(pts[0]));
  for (let i = 0; i < n; i++) {
    const p = Float64Array.from(x0);
    p[i] += step;
    pts.push(p);
    vals.push(value(p));
  }
  const order = Array.from({ length: n + 1 }, (_, i) => i);
  const centroid = new Float64Array(n);
  const xr = new Float64Array(n);
  const xe = new Float64Array(n);
  const xc = new Float64Array(n);
  while (evaluations < maxEvals) {
    order.sort((a, b) => vals[a] - vals[b]);
    const best = order[0];
    const worst = order[n];
    const second = order[n - 1];
    const fb = vals[best];
    const fw = vals[worst];
    if (Number.isFinite(fw) && Math.abs(fw - fb) <= tol * (Math.abs(fb) + tol)) break;
    centroid.fill(0);
    for (let j = 0; j < n; j++) {
      const p = pts[order[j]];
      for (let i = 0; i < n; i++) centroid[i] += p[i] / n;
    }
    const pw = pts[worst];
    for (let i = 0; i < n; i++) xr[i] = centroid[i] + alpha * (centroid[i] - pw[i]);
    const fr = value(xr);
    if (fr < fb) {
      for (let i = 0; i < n; i++) xe[i] = centroid[i] + beta * (xr[i] - centroid[i]);
      const fe = value(xe);
      if (fe < fr) {
        pw.set(xe);
        vals[worst] = fe;
      } else {
        pw.set(xr);
        vals[worst] = fr;
      }
      continue;
    }
    if (fr < vals[second]) {
      pw.set(xr);
      vals[worst] = fr;
      continue;
    }
    // Contraction, outside or inside.
    const outside = fr < fw;
    for (let i = 0; i < n; i++) {
      xc[i] = outside
        ? centroid[i] + gamma * (xr[i] - centroid[i])
        : centroid[i] - gamma * (centroid[i] - pw[i]);
    }
    const fc = value(xc);
    if (fc < (outside ? fr : fw)) {
      pw.set(xc);
      vals[worst] = fc;
      continue;
    }
    // Shrink towards the best point.
    const pb = pts[best];
    for (let j = 1; j <= n; j++) {
      const p = pts[order[j]];
      for (let i = 0; i < n; i++) p[i] = pb[i] + delta * (p[i] - pb[i]);
      vals[order[j]] = value(p);
    }
  }
  let bi = 0;
  for (let i = 1; i <= n; i++) if (vals[i] < vals[bi]) bi = i;
  return { x: pts[bi], f: vals[bi], evaluations };
}

/**
 * Levenberg-Marquardt for a sum of squares: `residuals(x, out)` writes the residual vector
 * (length `m`) and returns its sum of squares (non-finite: outside the admissible region). The
 * Jacobian is taken by forward differences. Stops when a step improves the sum by less than `tol`
 * (relative), or after `maxIterations`.
 */
export function levenbergMarquardt(
  residuals: (x: Float64Array, out: Float64Array) => number,
  x0: ArrayLike<number>,
  m: number,
  opts: { tol?: number; maxIterations?: number } = {},
): Minimum {
  const n = x0.length;
  const tol = opts.tol ?? 1e-8;
  const maxIterations = opts.maxIterations ?? 50;
  let evaluations = 0;
  const r = new Float64Array(m);
  const rt = new Float64Array(m);
  const eval_ = (x: Float64Array, out: Float64Array): number => {
    evaluations++;
    const v = residuals(x, out);
    return Number.isFinite(v) ? v : Infinity;
  };
  const x = Float64Array.from(x0);
  let f = eval_(x, r);
  if (n === 0 || !Number.isFinite(f)) return { x, f, evaluations };
  const J = new Float64Array(m * n);
  const A = new Float64Array(n * n);
  const g = new Float64Array(n);
  const trial = new Float64Array(n);
  let lambda = 1e-3;
  for (let it = 0; it < maxIterations; it++) {
    // Forward-difference Jacobian.
    for (let j = 0; j < n; j++) {
      const h = 1e-6 * Math.max(1, Math.abs(x[j]));
      const keep = x[j];
      x[j] = keep + h;
      const fj = eval_(x, rt);
      x[j] = keep;
      if (!Number.isFinite(fj)) {
        // Step back instead (the forward point left the region).
        x[j] = keep - h;
        eval_(x, rt);
        x[j] = keep;
        for (let i = 0; i < m; i++) J[i * n + j] = (r[i] - rt[i]) / h;
      } else {
        for (let i = 0; i < m; i++) J[i * n + j] = (rt[i] - r[i]) / h;
      }
    }
    A.fill(0);
    g.fill(0);
    for (let i = 0; i < m; i++) {
      const ri = r[i];
      const o = i * n;
      for (let a = 0; a < n; a++) {
        const ja = J[o + a];
        if (ja === 0) continue;
        g[a] += ja * ri;
        for (let b = 0; b <= a; b++) A[a * n + b] += ja * J[o + b];
      }
    }
    for (let a = 0; a < n; a++) for (let b = 0; b < a; b++) A[b * n + a] = A[a * n + b];
    let improved = false;
    for (let tries = 0; tries < 10; tries++) {
      const step = solveDamped(A, g, n, lambda);
      if (!step) {
        lambda *= 10;
        continue;
      }
      for (let j = 0; j < n; j++) trial[j] = x[j] - step[j];
      const ft = eval_(trial, rt);
      if (ft < f) {
        const gain = (f - ft) / Math.max(f, 1e-300);
        x.set(trial);
        r.set(rt);
        f = ft;
        lambda = Math.max(lambda / 10, 1e-12);
        improved = true;
        if (gain < tol) return { x, f, evaluations };
        break;
      }
      lambda *= 10;
    }
    if (!improved) break;
  }
  return { x, f, evaluations };
}

/** Solves (A + lambda diag(A)) s = g by Cholesky; null when not positive definite. */
function solveDamped(
  A: Float64Array,
  g: Float64Array,
  n: number,
  lambda: number,
): Float64Array | null {
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i * n + j];
      if (i === j) s += lambda * Math.max(A[i * n + i], 1e-12);
      for (let k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      if (i === j) {
        if (!(s > 0)) return null;
        L[i * n + i] = Math.sqrt(s);
      } else {
        L[i * n + j] = s / L[j * n + j];
      }
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = g[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * y[k];
    y[i] = s / L[i * n + i];
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
  return x;
}

/** The logistic function, mapping the real line onto (0, 1). */
export const logistic = (u: number): number => 1 / (1 + Math.exp(-u));
/** Its inverse, for start values (p clipped into (0, 1)). */
export const logit = (p: number): number => {
  const q = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.log(q / (1 - q));
};
