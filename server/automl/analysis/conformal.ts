// Split-conformal calibration: turns held-out errors into prediction intervals whose coverage
// matches the requested confidence, and turns classifier scores into calibrated probabilities.
// Split conformal needs no distributional assumption: if calibration and future rows are
// exchangeable, P(truth inside interval) >= level, and it is close to level for continuous errors.
//
// Missing inputs. The quantile above is calibrated on validation rows as they are, so it says
// nothing about a prediction row that lacks an input the model relies on (home_rentals without
// initial_price: a 25-wide interval around an error of thousands). analysis/missing.ts therefore
// calibrates per pattern of missing inputs: the columns are grouped (the 3 most important one by
// one, the rest pooled; every column alone when there are at most 4), and for each of the <= 16
// masks of groups the validation rows are re-scored with those columns forced to missing - encoded
// exactly as an absent prediction input - to get that mask's quantile (classifiers: temperature and
// set threshold, so confidence drops when an informative input is absent). A prediction row uses
// the mask of the groups it misses any column of. Under "missing completely at random" the row is
// exchangeable with the masked validation rows, so coverage holds per pattern; the pooled group and
// forcing monotonicity (a mask's width >= each sub-mask's) only ever widen. Masks are calibrated
// with the validated (not the refit) model and are not narrowed by the refit factor.
// Not covered: values missing *not* at random (e.g. only expensive homes omit the price).

/**
 * The conformal quantile of nonconformity scores: the ceil((n + 1) * level)-th smallest. With too
 * few scores for the level (e.g. 5 rows at 0.99) it falls back to the largest one, which is
 * as wide as the data can justify.
 */
export function conformalQuantile(scores: ArrayLike<number>, level: number): number {
  const n = scores.length;
  if (n === 0) return Infinity;
  const s = Float64Array.from(scores).sort();
  const k = Math.ceil((n + 1) * level);
  return s[Math.min(n, Math.max(1, k)) - 1];
}

/** Half-width of the regression interval: conformal quantile of |truth - prediction|. */
export function regressionHalfWidth(
  truth: ArrayLike<number>,
  pred: ArrayLike<number>,
  level: number,
): number {
  const r = new Float64Array(truth.length);
  for (let i = 0; i < r.length; i++) r[i] = Math.abs(truth[i] - pred[i]);
  return conformalQuantile(r, level);
}

/**
 * Adaptive (normalised) conformal: the quantile of |y - prediction| / scale over calibration rows
 * (standardized units). The interval of a new row is prediction -/+ q * scale(row), so rows the
 * scale model finds hard get wider intervals; coverage over the calibration distribution is the
 * same guarantee as the constant width's.
 */
export function normalisedQuantile(
  y: ArrayLike<number>,
  raw: ArrayLike<number>,
  scale: ArrayLike<number>,
  level: number,
): number {
  const r = new Float64Array(y.length);
  for (let i = 0; i < r.length; i++) r[i] = Math.abs(y[i] - raw[i]) / scale[i];
  return conformalQuantile(r, level);
}

/**
 * Classifier calibration. The trees/logistic model are trained with inverse-frequency class
 * weights (which is what lifts balanced accuracy), so their scores describe a world with balanced
 * classes. `shift` (log class weight) moves the logits back to the real class prior and a single
 * `temperature`, fitted on validation rows, corrects over/under-confidence. The predicted label
 * stays the arg-max of the weighted scores; `confidence` is the calibrated probability of it.
 */
export interface ClassCalibration {
  /** Per-class logit shift (K = 1 for binary: one shift of the single logit). */
  shift: number[];
  temperature: number;
  /** Classes whose calibrated probability is >= 1 - setThreshold form the conformal prediction set. */
  setThreshold: number;
  /**
   * Probabilities are mixed with the uniform distribution by this weight, so none is ever exactly
   * 0 or 1: with n calibration rows all classified right, an error rate below ~1 / n is not
   * supported by the data. Absent in models trained before it existed (no mixing).
   */
  floor?: number;
}

/** Calibrated class probabilities (length nClasses) from raw scores (length K) into out. */
export function classProbabilities(
  raw: Float64Array,
  o: number,
  K: number,
  cal: ClassCalibration,
  out: Float64Array,
): void {
  const T = cal.temperature;
  const eps = cal.floor ?? 0;
  if (K === 1) {
    const p = 1 / (1 + Math.exp(-(raw[o] - cal.shift[0]) / T));
    out[0] = 1 - p;
    out[1] = p;
    if (eps > 0) {
      out[0] = (out[0] + eps) / (1 + 2 * eps);
      out[1] = (out[1] + eps) / (1 + 2 * eps);
    }
    return;
  }
  let mx = -Infinity;
  for (let k = 0; k < K; k++) {
    const z = (raw[o + k] - cal.shift[k]) / T;
    out[k] = z;
    if (z > mx) mx = z;
  }
  let s = 0;
  for (let k = 0; k < K; k++) {
    out[k] = Math.exp(out[k] - mx);
    s += out[k];
  }
  for (let k = 0; k < K; k++) out[k] /= s;
  if (eps > 0) for (let k = 0; k < K; k++) out[k] = (out[k] + eps) / (1 + K * eps);
}

/**
 * The class the 'balanced' decision rule predicts: the arg-max of the class-weighted scores (sign
 * of the logit), which maximises balanced accuracy. The 'argmax' rule takes the most probable
 * class instead (argmaxClass), which maximises accuracy.
 */
export function predictedClass(raw: Float64Array, o: number, K: number): number {
  if (K === 1) return raw[o] > 0 ? 1 : 0;
  let best = 0;
  for (let k = 1; k < K; k++) if (raw[o + k] > raw[o + best]) best = k;
  return best;
}

/** Arg-max of n probabilities starting at o. */
export function argmaxClass(probs: ArrayLike<number>, o: number, n: number): number {
  let best = 0;
  for (let k = 1; k < n; k++) if (probs[o + k] > probs[o + best]) best = k;
  return best;
}

/**
 * Fits the temperature (golden-section search on log T in [1/20, 20]) minimising the mean
 * log-loss of the shifted scores on validation rows, then the conformal threshold for anomalies.
 * `raw` is n x K scores of the validation rows, `y` their class indices.
 */
export function fitClassCalibration(
  raw: Float64Array,
  y: ArrayLike<number>,
  opts: {
    K: number;
    nClasses: number;
    shift: number[];
    level: number;
    /** Uniform mixing weight (ClassCalibration.floor); 0 or absent: none. */
    floor?: number;
  },
): ClassCalibration {
  const { K, nClasses, shift, level } = opts;
  const floor = opts.floor ?? 0;
  const n = y.length;
  const probs = new Float64Array(nClasses);
  const nll = (T: number): number => {
    const cal: ClassCalibration = { shift, temperature: T, setThreshold: 1, floor };
    let s = 0;
    for (let i = 0; i < n; i++) {
      classProbabilities(raw, i * K, K, cal, probs);
      s -= Math.log(Math.max(probs[y[i]], 1e-15));
    }
    return s;
  };
  let temperature = 1;
  if (n >= 10) {
    let a = Math.log(1 / 20);
    let b = Math.log(20);
    const gr = (Math.sqrt(5) - 1) / 2;
    let c = b - gr * (b - a);
    let d = a + gr * (b - a);
    let fc = nll(Math.exp(c));
    let fd = nll(Math.exp(d));
    for (let it = 0; it < 40; it++) {
      if (fc < fd) {
        b = d;
        d = c;
        fd = fc;
        c = b - gr * (b - a);
        fc = nll(Math.exp(c));
      } else {
        a = c;
        c = d;
        fc = fd;
        d = a + gr * (b - a);
        fd = nll(Math.exp(d));
      }
    }
    temperature = Math.exp((a + b) / 2);
  }
  const cal: ClassCalibration = {
    shift,
    temperature,
    setThreshold: 1,
    ...(floor > 0 ? { floor } : {}),
  };
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    classProbabilities(raw, i * K, K, cal, probs);
    scores[i] = 1 - probs[y[i]];
  }
  cal.setThreshold = n > 0 ? conformalQuantile(scores, level) : 1;
  return cal;
}
