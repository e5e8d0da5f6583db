// Bands from rolling-origin residuals on simulated series whose right coverage is known: naive
// forecasts of white noise, a random walk and an AR(1), their residuals laid out as training lays
// them out (the main split, the last 20 % of each series, and two earlier folds of 20 % each, each
// residual |error| over the origin's scale), through bandsOf; the bands at 50/80/90/95 % must cover
// their share of the true next HORIZON values after each series' end. Seeded, no training.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { Rng } from '../../prng';
import { bandsOf } from '../calibration';
import { weightedConformalQuantile } from '../intervals';
import { emptyResiduals } from './helpers';

const LEVELS = [0.5, 0.8, 0.9, 0.95];
type Process = (rng: Rng, n: number) => number[];
const processes: Record<string, Process> = {
  'Gaussian white noise': (rng, n) => Array.from({ length: n }, () => gauss(rng)),
  'random walk': (rng, n) => {
    let x = 0;
    return Array.from({ length: n }, () => (x += gauss(rng)));
  },
  'AR(1), phi 0.7': (rng, n) => {
    let x = 0;
    return Array.from({ length: n }, () => (x = 0.7 * x + gauss(rng)));
  },
};

/**
 * `G` series of `N` rows (and the `H` rows after them, the future) and the rolling-origin
 * residuals of naive forecasts over their last 60 %: one origin per row from WINDOW - 1 on, the
 * scale the window's mean absolute step (as features.ts scales), ages in validation periods before
 * the main split (as buildFolds ages them).
 */
function simulate(proc: Process, rng: Rng, G: number, N: number, H: number, W: number) {
  const ys = Array.from({ length: G }, () => proc(rng, N + H));
  const res = emptyResiduals(H);
  const scaleAt = (y: number[], t: number) => {
    let s = 0;
    for (let i = t - W + 2; i <= t; i++) s += Math.abs(y[i] - y[i - 1]);
    return s / (W - 1);
  };
  const cuts = [0.8, 0.6, 0.4].map((f) => Math.round(N * f));
  const span = (N - 1) * 0.2;
  ys.forEach((y, g) => {
    cuts.forEach((cut, j) => {
      const until = j === 0 ? N : cuts[j - 1];
      for (let t = Math.max(W - 1, cut - 1); t <= until - 2; t++) {
        const scale = scaleAt(y, t);
        for (let k = 1; k <= H && t + k < N; k++) {
          res.r[k - 1].push(Math.abs(y[t + k] - y[t]) / scale);
          res.age[k - 1].push(j === 0 ? 0 : (cuts[0] - t) / span);
          res.main[k - 1].push(j === 0);
          res.series[k - 1].push(g);
          res.fold[k - 1].push(j);
        }
      }
    });
  });
  // The future from each series' last row, in the same units.
  const future = ys.map((y) => {
    const scale = scaleAt(y, N - 1);
    return Array.from({ length: H }, (_, k) => Math.abs(y[N + k] - y[N - 1]) / scale);
  });
  return { res, future };
}

/** Coverage per level and step of the true futures, over `draws` simulated sets. */
function coverage(proc: Process, draws: number, G: number, N: number, H: number, W: number) {
  const inside = LEVELS.map(() => new Array<number>(H).fill(0));
  const widths = LEVELS.map(() => new Array<number>(H).fill(0));
  for (let d = 0; d < draws; d++) {
    const { res, future } = simulate(proc, new Rng(500 + d), G, N, H, W);
    const b = bandsOf(res, G, 0.9);
    LEVELS.forEach((level, l) => {
      const hw = b.levels.find((x) => x.level === level)!.halfWidths;
      future.forEach((e, g) =>
        e.forEach((x, k) => (inside[l][k] += x <= hw[k] * b.widthFactor[g] ? 1 : 0)),
      );
      hw.forEach((w, k) => (widths[l][k] += w / draws));
    });
  }
  const n = draws * G;
  return {
    steps: inside.map((s) => s.map((x) => x / n)),
    pooled: inside.map((s) => s.reduce((a, b) => a + b, 0) / (n * H)),
    widths,
  };
}

describe('bands from rolling-origin residuals of simulated series', () => {
  const H = 6;
  for (const [name, proc] of Object.entries(processes)) {
    it(`cover each level's share of the ${name}'s future, pooled and at every step`, () => {
      // 600 series (60 sets of 10), 80 rows each: about 1,900 residuals per step and set. The
      // futures of a set's series at its 6 steps share much (one origin per series), so the
      // pooled coverage carries about 1.5 points of sampling noise; a step's, over 600 futures,
      // the binomial standard error: within three of them.
      const { steps, pooled } = coverage(proc, 60, 10, 80, H, 8);
      LEVELS.forEach((level, l) => {
        const tolerance = 3 * Math.sqrt((level * (1 - level)) / 600) + 0.005;
        expect(pooled[l], `${level} pooled`).toBeGreaterThan(level - 0.03);
        expect(pooled[l], `${level} pooled`).toBeLessThan(level + 0.03);
        steps[l].forEach((c, k) => {
          expect(c, `${level} at step ${k + 1}`).toBeGreaterThan(level - tolerance);
          expect(c, `${level} at step ${k + 1}`).toBeLessThan(level + tolerance);
        });
      });
    });
  }

  it("widen like the error's spread: flat for white noise, like the square root of the step for a random walk", () => {
    const flat = coverage(processes['Gaussian white noise'], 20, 10, 80, H, 8).widths;
    const walk = coverage(processes['random walk'], 20, 10, 80, H, 8).widths;
    LEVELS.forEach((_, l) => {
      // Naive on white noise errs e[t+k] - e[t] at every step: one spread.
      expect(flat[l][H - 1] / flat[l][0]).toBeGreaterThan(0.9);
      expect(flat[l][H - 1] / flat[l][0]).toBeLessThan(1.15);
      // On a random walk the k-step error is a sum of k steps: sqrt(6) = 2.45 times step 1's.
      expect(walk[l][H - 1] / walk[l][0]).toBeGreaterThan(2.45 * 0.85);
      expect(walk[l][H - 1] / walk[l][0]).toBeLessThan(2.45 * 1.15);
    });
  });
});

describe('the conformal quantile', () => {
  it('is the ceil((n + 1) level)-th smallest of n scores, the largest when that rank passes n', () => {
    const nine = [7, 3, 9, 1, 5, 8, 2, 6, 4];
    const ones = nine.map(() => 1);
    // n = 9: ranks ceil(10 x 0.5) = 5, ceil(10 x 0.8) = 8, ceil(10 x 0.9) = 9.
    expect(weightedConformalQuantile(nine, ones, 0.5)).toBe(5);
    expect(weightedConformalQuantile(nine, ones, 0.8)).toBe(8);
    expect(weightedConformalQuantile(nine, ones, 0.9)).toBe(9);
    // The plain empirical 90 % quantile of nine scores would be the 9 x 0.9 = 8.1 -> 9th too,
    // but at 0.85 it is the 8th where the conformal rank is ceil(8.5) = 9.
    expect(weightedConformalQuantile(nine, ones, 0.85)).toBe(9);
    // Four scores cannot give a 90 % band (rank 5 of 4): the largest.
    expect(weightedConformalQuantile([4, 1, 3, 2], [1, 1, 1, 1], 0.9)).toBe(4);
    // Weights count as that many scores, plus 1 for the forecast: total 3 + 1 + 1 + 1 = 6.
    expect(weightedConformalQuantile([1, 2, 3], [3, 1, 1], 0.5)).toBe(1); // 3 >= 0.5 x 6
    expect(weightedConformalQuantile([1, 2, 3], [3, 1, 1], 0.6)).toBe(2); // 4 >= 3.6
    expect(weightedConformalQuantile([1, 2, 3], [3, 1, 1], 0.7)).toBe(3); // 5 >= 4.2
  });
});
