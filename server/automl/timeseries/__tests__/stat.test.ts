// The statistical candidates on series whose right answer is known: a pure season (seasonal-naive
// and ETS exact), a straight line (drift exact, Theta exactly half the slope ahead), an AR(1)
// (ARIMA finds the order and the coefficient), the exact ARMA likelihood against statsmodels'
// numbers (and the same at the innovations' steady state), the tests that decide seasons and
// differences, and the yearly season of daily series (found and followed with two years of
// history, not imagined in a weekly-only one).
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { Rng } from '../../prng';
import { arimaForecast, arimaM2ll, arimaName, arimaPlan, fitArima, pacfToAr } from '../stat/arima';
import {
  armaAutocovariances,
  armaLikelihood,
  armaPredict,
  innovationCoefficients,
} from '../stat/arma-likelihood';
import { etsForecast, etsName, fitEts } from '../stat/ets';
import { levenbergMarquardt, nelderMead } from '../stat/optimize';
import { firstDifferences, seasonalIndices, seasonalStrength, seasonalTest } from '../stat/season';
import { fitLocal, localForecast, refitForm, sameForm } from '../stat/local';
import { fitTheta, thetaForecast } from '../stat/theta';
import { trainForecaster } from '../../index';
import { refitNote } from '../train';
import { YEAR_MS, fitYearly } from '../stat/yearly';

const SEASON = [4, -1, 6, -3, 2, -8];

/** Unemployed government workers (thousands), monthly 2000-01 .. 2009-02 (vega-datasets). */
// prettier-ignore
const GOVERNMENT = [
  430, 409, 311, 269, 370, 603, 545, 583, 408, 391, 384, 365, 463, 298, 355, 369, 361, 525, 548,
  540, 438, 429, 420, 419, 486, 508, 477, 447, 484, 561, 645, 596, 530, 499, 468, 446, 571, 483,
  526, 440, 478, 704, 749, 745, 556, 500, 542, 516, 511, 490, 530, 433, 468, 580, 741, 676, 568,
  561, 514, 499, 555, 472, 468, 478, 453, 681, 683, 664, 568, 502, 494, 393, 457, 472, 461, 414,
  429, 578, 659, 595, 396, 424, 400, 395, 476, 405, 419, 408, 428, 572, 704, 695, 525, 492, 482,
  451, 471, 372, 425, 373, 461, 654, 770, 721, 573, 552, 527, 511, 652, 563,
];

// prettier-ignore
const NILE = [
  1120, 1160, 963, 1210, 1160, 1160, 813, 1230, 1370, 1140, 995, 935, 1110, 994, 1020, 960, 1180,
  799, 958, 1140, 1100, 1210, 1150, 1250, 1260, 1220, 1030, 1100, 774, 840, 874, 694, 940, 833,
  701, 916, 692, 1020, 1050, 969, 831, 726, 456, 824, 702, 1120, 1100, 832, 764, 821, 768, 845,
  864, 862, 698, 845, 744, 796, 1040, 759, 781, 865, 845, 944, 984, 897, 822, 1010, 771, 676, 649,
  846, 812, 742, 801, 1040, 860, 874, 848, 890, 744, 749, 838, 1050, 918, 986, 797, 923, 975, 815,
  1020, 906, 901, 1170,
];

/** level + SEASON[t % 6] (+ slope * t): a pure seasonal series. */
const seasonal = (n: number, slope = 0) =>
  Float64Array.from({ length: n }, (_, t) => 50 + slope * t + SEASON[t % 6]);

function randomWalk(n: number, seed: number): Float64Array {
  const rng = new Rng(seed);
  let v = 100;
  return Float64Array.from({ length: n }, () => (v += gauss(rng)));
}

function ar1(n: number, phi: number, seed: number): Float64Array {
  const rng = new Rng(seed);
  let v = 0;
  return Float64Array.from({ length: n }, () => (v = phi * v + gauss(rng)));
}

const forecast = (f: (out: Float64Array) => void, H: number): number[] => {
  const out = new Float64Array(H);
  f(out);
  return Array.from(out);
};

describe('optimisers', () => {
  it("Nelder-Mead finds Rosenbrock's minimum", () => {
    const r = nelderMead((x) => (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2, [-1.2, 1], {
      tol: 1e-12,
      maxEvals: 4000,
    });
    expect(r.x[0]).toBeCloseTo(1, 4);
    expect(r.x[1]).toBeCloseTo(1, 4);
  });

  it('Levenberg-Marquardt fits an exponential decay by least squares', () => {
    const t = [0, 1, 2, 3, 4, 5, 6];
    const y = t.map((x) => 3 * Math.exp(-0.4 * x));
    const r = levenbergMarquardt(
      (p, out) => {
        let ss = 0;
        t.forEach((x, i) => {
          out[i] = p[0] * Math.exp(-p[1] * x) - y[i];
          ss += out[i] ** 2;
        });
        return ss;
      },
      [1, 0.1],
      t.length,
      { tol: 1e-14, maxIterations: 200 },
    );
    expect(r.x[0]).toBeCloseTo(3, 6);
    expect(r.x[1]).toBeCloseTo(0.4, 6);
  });
});

describe('ETS', () => {
  it('forecasts a pure seasonal series exactly (a seasonal form, the season continued)', () => {
    const y = seasonal(60);
    const fit = fitEts(y, 0, 47, 6)!;
    expect(fit.season).not.toBe('N');
    const f = forecast((out) => etsForecast(fit, y, 0, 47, 12, out, 0), 12);
    f.forEach((v, k) => expect(v).toBeCloseTo(y[48 + k], 8));
  });

  it('continues a straight line exactly with an additive trend', () => {
    const y = Float64Array.from({ length: 30 }, (_, t) => 5 + 2 * t);
    const fit = fitEts(y, 0, 29, 1)!;
    expect(fit.trend).toBe('A');
    expect(forecast((out) => etsForecast(fit, y, 0, 29, 3, out, 0), 3)).toEqual([65, 67, 69]);
  });

  it('picks a multiplicative season by AICc when the swings grow with the level', () => {
    const rng = new Rng(4);
    const y = Float64Array.from(
      { length: 96 },
      (_, t) =>
        (100 + 3 * t) * (1 + 0.3 * Math.sin((2 * Math.PI * t) / 12)) * (1 + 0.01 * gauss(rng)),
    );
    const fit = fitEts(y, 0, 95, 12)!;
    expect(etsName(fit)).toMatch(/^ETS\(M,A/);
    expect(fit.season).toBe('M');
  });

  it("fits the multiplicative-error twin's own parameters: the Nile's ETS(M,N,N), alpha as statsmodels'", () => {
    // The first 94 of statsmodels' 100 yearly Nile flows (its `nile` dataset). statsmodels'
    // ETSModel picks ETS(M,N,N) by AICc with smoothing_level 0.155; at the additive twin's alpha
    // (0.236) the multiplicative form scored worse than ETS(A,N,N), which was chosen before.
    const fit = fitEts(NILE, 0, NILE.length - 1, 1)!;
    expect(etsName(fit)).toBe('ETS(M,N,N)');
    expect(fit.alpha).toBeCloseTo(0.162, 2);
    expect(Math.abs(fit.alpha - 0.155)).toBeLessThan(0.01);
    const additive = fitEts(NILE, 0, NILE.length - 1, 1, [
      { error: 'A', trend: 'N', season: 'N' },
    ])!;
    expect(additive.alpha).toBeCloseTo(0.236, 2);
    expect(fit.aicc).toBeLessThan(additive.aicc);
  });

  it('keeps a multiplicative model finite on a window with a non-positive row', () => {
    const y = seasonal(40);
    const fit = fitEts(y, 0, 39, 6)!;
    const bad = Float64Array.from(y);
    bad[20] = -5;
    const mult = { ...fit, error: 'M' as const, season: 'M' as const };
    for (const v of forecast((out) => etsForecast(mult, bad, 0, 39, 2, out, 0), 2)) {
      expect(Number.isFinite(v)).toBe(true);
    }
  });
});

describe('Theta', () => {
  it('forecasts a straight line at half its slope (theta = 2), exactly', () => {
    const y = Float64Array.from({ length: 40 }, (_, t) => 7 + 3 * t);
    const fit = fitTheta(y, 0, 39, 1)!;
    expect(fit.m).toBe(1);
    const f = forecast((out) => thetaForecast(fit, y, 0, 39, 4, out, 0), 4);
    // SES on a line tracks it (alpha -> 1), plus b0 / 2 * h.
    f.forEach((v, k) => expect(v).toBeCloseTo(y[39] + 1.5 * (k + 1), 3));
  });

  it('deseasonalises a seasonal series and keeps its season in the forecast', () => {
    const y = seasonal(72);
    const fit = fitTheta(y, 0, 59, 6)!;
    expect(fit.m).toBe(6);
    const f = forecast((out) => thetaForecast(fit, y, 0, 59, 6, out, 0), 6);
    f.forEach((v, k) => expect(v).toBeCloseTo(y[60 + k], 6));
  });
});

describe('ARIMA', () => {
  it('recovers an AR(1): order (1,0,0) and its coefficient within 0.05', () => {
    const y = ar1(500, 0.7, 3);
    expect(arimaPlan(y, 0, 499, 1)).toEqual({ d: 0, D: 0, m: 1 });
    const fit = fitArima(y, 0, 499, 1)!;
    expect([fit.p, fit.d, fit.q]).toEqual([1, 0, 0]);
    expect(Math.abs(fit.ar[0] - 0.7)).toBeLessThan(0.05);
    // Its forecasts decay towards the mean by the coefficient each step.
    const f = forecast((out) => arimaForecast(fit, y, 0, 499, 3, out, 0), 3);
    expect((f[1] - fit.mean) / (f[0] - fit.mean)).toBeCloseTo(fit.ar[0], 6);
  });

  it('differences a random walk once and forecasts it flat (naive)', () => {
    const y = randomWalk(300, 8);
    const fit = fitArima(y, 0, 299, 1)!;
    expect(fit.d).toBe(1);
    const f = forecast((out) => arimaForecast(fit, y, 0, 299, 4, out, 0), 4);
    for (const v of f) expect(Math.abs(v - y[299])).toBeLessThan(1.5);
  });

  it('differences a weekly season seasonally when its phase drifts over the years (52.18 weeks, missing weeks)', () => {
    // 24 years of weekly readings of a yearly cycle (52.18 weeks) with 4 % of the weeks missing: the
    // 52-row season slips by about three rows a year, so over all rows its strength is near 0
    // (no seasonal difference before), over the last five years above 0.8.
    for (const seed of [1, 2, 3]) {
      const rng = new Rng(seed);
      const rows: number[] = [];
      for (let w = 0; w < 24 * 52.18; w++) {
        if (rng.next() < 0.04) continue;
        rows.push(300 + 0.03 * w + 3 * Math.sin((2 * Math.PI * w) / 52.18) + 0.3 * gauss(rng));
      }
      const y = Float64Array.from(rows);
      const n = y.length;
      expect(seasonalStrength(y, 0, n - 1, 52)).toBeLessThan(0.64);
      expect(seasonalStrength(y, n - 5 * 52, n - 1, 52)).toBeGreaterThan(0.8);
      expect(arimaPlan(y, 0, n - 1, 52)).toEqual({ d: 0, D: 1, m: 52 });
      // A random walk as long is not differenced seasonally: five seasons of noise stay weak.
      let v = 0;
      const walk = Float64Array.from({ length: n }, () => (v += gauss(rng)));
      expect(arimaPlan(walk, 0, n - 1, 52)).toEqual({ d: 1, D: 0, m: 52 });
    }
  });

  it('recovers the drift of a random walk with drift: ARIMA(0,1,0) with drift, within 3 standard errors', () => {
    // Steps of mean 0.5 and sd 1: the drift's estimate (the steps' mean) has sd 1 / sqrt(299).
    const plan = { d: 1, D: 0, m: 1 };
    let trends = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const rng = new Rng(seed);
      let v = 100;
      const y = Float64Array.from({ length: 300 }, () => (v += 0.5 + gauss(rng)));
      const fit = fitArima(y, 0, 299, 1, { plan, maxP: 0, maxQ: 0 })!;
      expect(fit.constant).toBe(true);
      if (fit.trend) trends++;
      else {
        expect(Math.abs(fit.mean - 0.5)).toBeLessThan(3 / Math.sqrt(299));
        // Its forecast: the last value plus the drift per step.
        const f = forecast((out) => arimaForecast(fit, y, 0, 299, 3, out, 0), 3);
        f.forEach((x, k) => expect(x).toBeCloseTo(y[299] + (k + 1) * fit.mean, 8));
      }
    }
    // A steady drift needs no trend in it: AICc adds one rarely (it costs a parameter).
    expect(trends).toBeLessThanOrEqual(1);
  });

  it('finds a drift that grows steadily (a trend in the differences) and continues it from later origins', () => {
    // Steps of mean 0.2 + 0.004 (t - 299) (the drift 0.2 at the last row, -1 at the first) and
    // sd 1: without the trend the drift would be its average, -0.4, and the forecast would fall.
    const plan = { d: 1, D: 0, m: 1 };
    const times = Float64Array.from({ length: 330 }, (_, t) => 1700 + t);
    let found = 0;
    for (const seed of [1, 2, 3]) {
      const rng = new Rng(seed);
      let v = 0;
      const y = Float64Array.from(
        { length: 330 },
        (_, t) => (v += 0.2 + 0.004 * (t - 299) + gauss(rng)),
      );
      const fit = fitArima(y, 0, 299, 1, { plan, maxP: 0, maxQ: 0, times })!;
      if (!fit.trend) continue;
      found++;
      expect(fit.tEnd).toBe(1999);
      expect(fit.step).toBe(1);
      // Within 3 standard errors of a regression of the steps on time (sd 1, 299 steps).
      const sxx = (299 * (299 * 299 - 1)) / 12;
      expect(Math.abs(fit.slope! - 0.004)).toBeLessThan(3 / Math.sqrt(sxx));
      expect(Math.abs(fit.mean - 0.2)).toBeLessThan(3 * Math.sqrt(1 / 299 + 149 ** 2 / sxx));
      // From the fit's last row: each step adds the drift at that step.
      const f = forecast((out) => arimaForecast(fit, y, 0, 299, 2, out, 0, 1999), 2);
      expect(f[0] - y[299]).toBeCloseTo(fit.mean + fit.slope!, 8);
      expect(f[1] - f[0]).toBeCloseTo(fit.mean + 2 * fit.slope!, 8);
      // From 30 rows later (its timestamp says so), the drift has grown by 30 slopes.
      const g = forecast((out) => arimaForecast(fit, y, 0, 329, 1, out, 0, 2029), 1);
      expect(g[0] - y[329]).toBeCloseTo(fit.mean + 31 * fit.slope!, 8);
    }
    expect(found).toBe(3);
    // A refit of its exact order keeps the trend.
    expect(
      sameForm({ kind: 'arima', ...fitArima(randomWalk(50, 1), 0, 49, 1, { plan })! })
        .arimaOrders![0].trend,
    ).toBeUndefined();
  });

  it("searches a long season's orders by the conditional fits and refines only the chosen one by maximum likelihood (auto.arima's approximation, beyond period 12)", () => {
    // 600 hourly rows of (1 - B^24) y = (1 + 0.5 B)(1 - 0.6 B^24) e: the search ranks the orders
    // by their conditional fits' AICc and finds the true order, (0,0,1)(0,1,1)24; the exact
    // likelihood at every order (the search with a season of 12 or less) takes a second MA term
    // (0.06) that the data do not need.
    const rng = new Rng(3);
    const n = 600;
    const m = 24;
    const e: number[] = [];
    const y: number[] = [];
    for (let t = 0; t < n; t++) {
      e.push(gauss(rng));
      const w = e[t] + 0.5 * (e[t - 1] ?? 0) - 0.6 * (e[t - m] ?? 0) - 0.3 * (e[t - m - 1] ?? 0);
      y.push((t >= m ? y[t - m] : 10 * Math.sin((2 * Math.PI * t) / m)) + w);
    }
    const fit = fitArima(y, 0, n - 1, m)!;
    expect(arimaName(fit)).toBe('ARIMA(0,0,1)(0,1,1)24');
    expect(arimaName(fitArima(y, 0, n - 1, m, { approximation: false })!)).toBe(
      'ARIMA(0,0,2)(0,1,1)24',
    );
    expect(fit.ma[0]).toBeCloseTo(0.5, 1);
    expect(fit.sma[0]).toBeCloseTo(-0.62, 1);
    // The chosen order's coefficients and AICc are its exact likelihood's, as fitting that order
    // alone finds them (the conditional fits only ranked the orders).
    const alone = fitArima(y, 0, n - 1, m, { plan: { d: 0, D: 1, m }, orders: [fit] })!;
    expect(fit.ma[0]).toBeCloseTo(alone.ma[0], 3);
    expect(fit.sma[0]).toBeCloseTo(alone.sma[0], 3);
    expect(fit.aicc).toBeCloseTo(alone.aicc, 2);
    const k = 3;
    const rows = n - m;
    expect(arimaM2ll(fit, y, 0, n - 1)).toBeCloseTo(
      fit.aicc - 2 * k - (2 * k * (k + 1)) / (rows - k - 1),
      6,
    );
  });

  it("refits a large set's shortlisted orders on another series: the best, by maximum likelihood", () => {
    // An MA(1) after one difference (theta -0.6): of the shortlist found on other series, the
    // conditional fits rank (0,1,1) first and only it is refined by the exact likelihood.
    const rng = new Rng(11);
    let prev = gauss(rng);
    let level = 100;
    const y = Float64Array.from({ length: 120 }, () => {
      const e = gauss(rng);
      level += e - 0.6 * prev;
      prev = e;
      return level;
    });
    const plan = { d: 1, D: 0, m: 1 };
    const order = (p: number, q: number) => ({
      p,
      d: 1,
      q,
      P: 0,
      D: 0,
      Q: 0,
      m: 1,
      constant: false,
    });
    const shortlist = [order(1, 0), order(0, 1), order(2, 0)];
    const fit = fitArima(y, 0, 119, 1, { plan, orders: shortlist })!;
    expect([fit.p, fit.q]).toEqual([0, 1]);
    expect(Math.abs(fit.ma[0] + 0.6)).toBeLessThan(0.15);
    // The exact likelihood's estimates and AICc, as fitting that order alone finds them (the
    // conditional fits start from another row: the shortlist's longest AR part).
    const alone = fitArima(y, 0, 119, 1, { plan, orders: [order(0, 1)] })!;
    expect(fit.ma[0]).toBeCloseTo(alone.ma[0], 3);
    expect(fit.aicc).toBeCloseTo(alone.aicc, 2);
  });

  it("scores any coefficients by the fits' exact likelihood: a refit stuck where AR and MA nearly cancel", () => {
    // Government workers' unemployment, 2000-01 .. 2009-02 (vega-datasets): the search chooses
    // ARIMA(1,0,1)(0,1,1)12 with drift, AR 0.93 and MA -0.49. Refitted at that order alone, the
    // conditional fit (conditioned from row 1, the search's from row 15) stops where the AR and MA
    // roots nearly cancel, the MA at its bound, and the exact likelihood stays there: AR -0.57,
    // MA 0.98, -2 log L 58 higher. arimaM2ll is the fits' own likelihood (AICc less its
    // penalty), so statsmodels' coefficients can be scored by it (bench/timeseries-peer-orders.ts:
    // SARIMAX's AR 0.931, MA -0.492 score as the search's fit does). Docs: session 14.
    const n = GOVERNMENT.length;
    const order = { p: 1, d: 0, q: 1, P: 0, D: 1, Q: 1, m: 12, constant: true };
    const plan = { d: 0, D: 1, m: 12 };
    const searched = fitArima(GOVERNMENT, 0, n - 1, 12)!;
    const refit = fitArima(GOVERNMENT, 0, n - 1, 12, { plan, orders: [order] })!;
    expect(arimaName(searched)).toBe('ARIMA(1,0,1)(0,1,1)12 with drift');
    const k = 5;
    const rows = n - 12;
    const penalty = 2 * k + (2 * k * (k + 1)) / (rows - k - 1);
    const m2ll = (f: typeof searched) => arimaM2ll(f, GOVERNMENT, 0, n - 1);
    expect(m2ll(searched)).toBeCloseTo(searched.aicc - penalty, 6);
    expect(m2ll(refit)).toBeCloseTo(refit.aicc - penalty, 6);
    expect(
      [searched.ar[0], searched.ma[0], refit.ar[0], refit.ma[0]].map((v) => v.toFixed(2)),
    ).toEqual(['0.93', '-0.49', '-0.57', '0.98']);
    expect(Math.round(m2ll(refit) - m2ll(searched))).toBe(59);
    const statsmodels = { ...searched, ar: [0.931], ma: [-0.492] };
    expect(Math.abs(m2ll(statsmodels) - m2ll(searched))).toBeLessThan(0.1);
  });

  it('maps partial autocorrelations inside (-1, 1) to a stationary AR polynomial', () => {
    expect(pacfToAr([0.5])).toEqual([0.5]);
    const [a, b] = pacfToAr([0.5, -0.3]);
    expect(a).toBeCloseTo(0.5 - -0.3 * 0.5, 12);
    expect(b).toBeCloseTo(-0.3, 12);
  });

  it('computes the exact ARMA likelihood as statsmodels does (SARIMAX, concentrated scale)', () => {
    const y = Array.from(ar1(200, 0.7, 3));
    const cases: [number[], number[]][] = [
      [[0.7], []],
      [[0.6], [0.2]],
      [[], [0.5]],
      [
        [0.5, 0.2],
        [0.3, -0.2],
      ],
    ];
    const logLik = cases.map(([phi, theta]) => {
      const r = armaLikelihood(y, phi, theta)!;
      const n = y.length;
      return -0.5 * (n * Math.log((2 * Math.PI * r.S) / n) + r.sumLogR + n);
    });
    // statsmodels 0.13: SARIMAX(y, order=(p, 0, q), trend='n', concentrate_scale=True)
    // .loglike(phi + theta) on the same 200 values.
    expect(logLik.map((v) => Math.round(v * 1e4) / 1e4)).toEqual([
      -280.3948, -281.9114, -289.6848, -280.2499,
    ]);
    expect(armaAutocovariances([0.7], [], 1)![0]).toBeCloseTo(1 / (1 - 0.49), 12);
    expect(Array.from(armaAutocovariances([], [0.5], 2)!)).toEqual([1.25, 0.5, 0]);
  });

  it('stops the innovations recursion at its steady state with the full recursion’s likelihood and forecasts', () => {
    // x_t = sum phi_i x_{t-i} + e_t + sum theta_j e_{t-j}, 3,000 rows.
    const arma = (phi: number[], theta: number[], n: number, seed: number): Float64Array => {
      const rng = new Rng(seed);
      const e = Float64Array.from({ length: n }, () => gauss(rng));
      const x = new Float64Array(n);
      for (let t = 0; t < n; t++) {
        let v = e[t];
        for (let i = 1; i <= phi.length && i <= t; i++) v += phi[i - 1] * x[t - i];
        for (let j = 1; j <= theta.length && j <= t; j++) v += theta[j - 1] * e[t - j];
        x[t] = v;
      }
      return x;
    };
    // (1 + 0.4 B)(1 + 0.6 B^24): seasonal MA(1)x(1) at period 24, q = 25.
    const sma = new Array<number>(25).fill(0);
    sma[0] = 0.4;
    sma[23] = 0.6;
    sma[24] = 0.24;
    const cases: [string, number[], number[]][] = [
      ['seasonal MA(1)x(1)', [], sma],
      ['ARMA(1,1), MA root 0.95', [0.5], [-0.95]],
      ['MA(1), MA root 0.98 (slow)', [], [0.98]],
    ];
    const n = 3000;
    for (const [name, phi, theta] of cases) {
      const x = arma(phi, theta, n, 11);
      const fast = innovationCoefficients(phi, theta, n)!;
      const full = innovationCoefficients(phi, theta, n, 0)!;
      // The shortcut is taken (well before the end), the full recursion runs every row.
      expect(fast.last, name).toBeLessThan(n / 2);
      expect(full.last, name).toBe(n - 1);
      const a = armaLikelihood(x, phi, theta)!;
      const b = armaLikelihood(x, phi, theta, undefined, 0)!;
      expect(Math.abs(a.m2ll - b.m2ll) / Math.abs(b.m2ll), name).toBeLessThan(1e-10);
      expect(Math.abs(a.S - b.S) / b.S, name).toBeLessThan(1e-10);
      // Forecasts 48 steps past the last row.
      const fa = new Float64Array(48);
      const fb = new Float64Array(48);
      armaPredict(fast, phi, x, n - 48, 48, fa);
      armaPredict(full, phi, x, n - 48, 48, fb);
      for (let h = 0; h < 48; h++) expect(Math.abs(fa[h] - fb[h]), name).toBeLessThan(1e-9);
    }
    // A non-invertible MA (root 1 / 0.5) never reaches unit variance: the full recursion.
    expect(innovationCoefficients([], [2], n)!.last).toBe(n - 1);
  });
});

describe('the forecasting refit of a validated model (refitForm)', () => {
  it("re-chooses ETS's error type on the whole series: the Nile's ETS(A,N,N) of 64 rows is ETS(M,N,N) on 94", () => {
    const early = fitLocal('ets', NILE, 0, 63, 1)!;
    expect(early.kind === 'ets' && etsName(early)).toBe('ETS(A,N,N)');
    const same = fitLocal('ets', NILE, 0, NILE.length - 1, 1, sameForm(early))!;
    const refit = fitLocal('ets', NILE, 0, NILE.length - 1, 1, refitForm(early))!;
    expect(same.kind === 'ets' && [etsName(same), same.alpha.toFixed(3)]).toEqual([
      'ETS(A,N,N)',
      '0.236',
    ]);
    expect(refit.kind === 'ets' && [etsName(refit), refit.alpha.toFixed(3)]).toEqual([
      'ETS(M,N,N)',
      '0.162',
    ]);
    // Trend and season stay: a multiplicative season keeps its (only admissible) M errors.
    expect(
      refitForm({
        kind: 'ets',
        error: 'M',
        trend: 'A',
        season: 'M',
        m: 4,
        alpha: 0.3,
        beta: 0.1,
        gamma: 0.1,
        phi: 1,
        aicc: 0,
      }).etsForms,
    ).toEqual([{ error: 'M', trend: 'A', season: 'M' }]);
  });

  it('says in DESCRIBE where a group forecasts in another form than the one validated', () => {
    // The Nile's ETS is validated as ETS(A,N,N) on the rows before the validation cut and refitted
    // on all 100 years as ETS(M,N,N): the group's MASE is the validated form's, and its reason
    // says what forecasts.
    const rows = NILE.map((v, i) => [1871 + i, v]);
    const a = trainForecaster(
      { columns: ['year', 'flow'], rows },
      { target: 'flow', orderBy: 'year', window: 8, horizon: 6, using: { model: 'ets' } },
    );
    const [choice] = a.description.timeseries!.choices!;
    expect(choice.model).toBe('ETS(M,N,N)');
    expect(choice.reason).toBe(
      "USING model = 'ets' (MASE 0.77 on this group); validated as ETS(A,N,N), forecasts as " +
        "ETS(M,N,N) (its error type chosen again by AICc on all rows; the validation MASE is the validated form's)",
    );
    const same = fitLocal('ets', NILE, 0, 63, 1)!;
    expect(refitNote(same, same)).toBe('');
  });

  it("re-chooses an ARIMA order's drift on the whole series, keeping its orders and differences", () => {
    // A random walk with drift 0.5 whose order was validated without a constant (as a search on
    // a flat start may leave it): on all 300 rows the refit carries the drift, within 3 standard
    // errors of 0.5 (sd 1 / sqrt(299)); refitted as it was, it forecasts without one.
    const rng = new Rng(5);
    let v = 100;
    const y = Float64Array.from({ length: 300 }, () => (v += 0.5 + gauss(rng)));
    const early = fitLocal('arima', y, 0, 99, 1, {
      arimaOrders: [{ p: 1, d: 1, q: 0, P: 0, D: 0, Q: 0, m: 1, constant: false }],
      exact: true,
    })!;
    expect(early.kind === 'arima' && early.constant).toBe(false);
    const hint = refitForm(early);
    expect(
      hint.arimaOrders!.map((o) => `${o.p}${o.d}${o.q} ${o.constant} ${o.trend === true}`),
    ).toEqual(['110 false false', '110 false true', '110 true false', '110 true true']);
    const refit = fitLocal('arima', y, 0, 299, 1, hint)!;
    expect(refit.kind === 'arima' && [refit.p, refit.d, refit.q, refit.constant]).toEqual([
      1,
      1,
      0,
      true,
    ]);
    expect(
      refit.kind === 'arima' && [arimaName(refit), Math.abs(refit.mean - 0.5) < 3 / Math.sqrt(299)],
    ).toEqual(['ARIMA(1,1,0) with drift', true]);
    const same = fitLocal('arima', y, 0, 299, 1, sameForm(early))!;
    expect(same.kind === 'arima' && same.constant).toBe(false);
    // Two differences leave no constant to choose: the order refits as it was.
    const twice = fitArima(y, 0, 299, 1, { plan: { d: 2, D: 0, m: 1 }, maxP: 1, maxQ: 1 })!;
    expect(refitForm({ kind: 'arima', ...twice })).toEqual(sameForm({ kind: 'arima', ...twice }));
  });
});

describe('season and difference tests', () => {
  it('finds the season of a seasonal series and none in white noise', () => {
    const rng = new Rng(2);
    const noisy = Float64Array.from(seasonal(60), (v) => v + 0.5 * gauss(rng));
    expect(seasonalTest(noisy, 0, 59, 6)).toBe(true);
    const white = Float64Array.from({ length: 60 }, () => gauss(rng));
    expect(seasonalTest(white, 0, 59, 6)).toBe(false);
    expect(seasonalStrength(noisy, 0, 59, 6)).toBeGreaterThan(0.9);
    expect(seasonalStrength(white, 0, 59, 6)).toBeLessThan(0.64);
  });

  it('takes seasonal indices that sum to zero (additive) or average one (multiplicative)', () => {
    const idx = seasonalIndices(seasonal(36), 0, 35, 6, false)!;
    expect(Array.from(idx).map((v) => Math.round(v * 1e9) / 1e9)).toEqual(SEASON);
    const mult = seasonalIndices(seasonal(36), 0, 35, 6, true)!;
    expect(mult.reduce((a, b) => a + b, 0) / 6).toBeCloseTo(1, 12);
  });

  it('differences random walks once, white noise at the test level (5 %), a quadratic trend twice', () => {
    let walks = 0;
    let noise = 0;
    for (let seed = 1; seed <= 40; seed++) {
      if (firstDifferences(randomWalk(300, seed), 300) === 1) walks++;
      const rng = new Rng(1000 + seed);
      const white = Float64Array.from({ length: 300 }, () => gauss(rng));
      if (firstDifferences(white, 300) > 0) noise++;
    }
    // About 5 % of them are differenced twice: the test's false alarms on their differences.
    expect(walks).toBeGreaterThanOrEqual(34);
    expect(noise).toBeLessThanOrEqual(5);
    const rng = new Rng(6);
    const q = Float64Array.from({ length: 200 }, (_, t) => 0.01 * t * t + gauss(rng));
    expect(firstDifferences(q, 200)).toBe(2);
  });
});

describe('yearly season of daily series', () => {
  const DAY = 864e5;
  const t0 = Date.UTC(2020, 0, 1);
  // Zero crossing of the season on the way up: its steepest rise.
  const spring = Date.UTC(2020, 2, 20);
  const WEEK = [0, 1, 1.5, 1, 0.5, -2, -2];
  /** 50 + 10 sin(time of year) + a weekly pattern (+ AR(1) noise): n days from 2020-01-01. */
  function daily(n: number, seed: number, yearly = 10) {
    const rng = new Rng(seed);
    const t = Float64Array.from({ length: n }, (_, i) => t0 + i * DAY);
    const clean = Float64Array.from(
      t,
      (x, i) => 50 + yearly * Math.sin((2 * Math.PI * (x - spring)) / YEAR_MS) + WEEK[i % 7],
    );
    let e = 0;
    const y = Float64Array.from(clean, (v) => v + (e = 0.5 * e + gauss(rng)));
    return { t, y, clean };
  }

  it('finds a yearly season in two years of history, its amplitude within 10 %', () => {
    const { t, y } = daily(800, 1);
    const terms = fitYearly(y, t, 0, y.length - 1, DAY)!;
    expect(terms).not.toBeNull();
    const [a, b] = terms.coef;
    expect(Math.hypot(a, b)).toBeGreaterThan(9);
    expect(Math.hypot(a, b)).toBeLessThan(11);
  });

  it('finds none in a weekly-only series of three years, nor in a year and a half', () => {
    const weekly = daily(1100, 2, 0);
    expect(fitYearly(weekly.y, weekly.t, 0, weekly.y.length - 1, DAY)).toBeNull();
    const short = daily(550, 3);
    expect(fitYearly(short.y, short.t, 0, short.y.length - 1, DAY)).toBeNull();
  });

  it("follows the season's rise in a 56-day forecast where the weekly model alone stays flat", () => {
    // Trained to 2022-03-06, two weeks before the season's steepest rise.
    const H = 56;
    const { t, y, clean } = daily(796 + H, 4);
    const end = 795;
    const clock = { t, step: DAY };
    const rise = (f: ArrayLike<number>) => {
      let first = 0;
      let last = 0;
      for (let k = 0; k < 7; k++) {
        first += f[k] / 7;
        last += f[H - 7 + k] / 7;
      }
      return last - first;
    };
    const truth = clean.subarray(end + 1, end + 1 + H);
    expect(rise(truth)).toBeGreaterThan(5);
    // ARIMA keeps its weekly model alone (see fitLocal).
    expect(fitLocal('arima', y, 0, end, 7, {}, clock)!.yearly).toBeUndefined();
    for (const name of ['ets', 'theta'] as const) {
      const fit = fitLocal(name, y, 0, end, 7, {}, clock)!;
      expect(fit.yearly).toBeDefined();
      // Forecast from the last 400 rows, as the forecaster packs them.
      const out = new Float64Array(H);
      const steps = t.subarray(end + 1, end + 1 + H);
      localForecast(fit, y, end - 399, end, H, out, 0, t[end], steps);
      expect(Math.abs(rise(out) - rise(truth))).toBeLessThan(1.5);
      let mae = 0;
      for (let k = 0; k < H; k++) mae += Math.abs(out[k] - truth[k]) / H;
      expect(mae).toBeLessThan(1.5);
      // The same model without the yearly terms misses most of the rise.
      const plain = fitLocal(name, y, 0, end, 7)!;
      const flat = new Float64Array(H);
      localForecast(plain, y, end - 399, end, H, flat, 0);
      expect(Math.abs(rise(flat) - rise(truth))).toBeGreaterThan(2.5);
    }
  });
});
