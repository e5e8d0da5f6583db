// Interval widths per horizon step and per level from rolling-origin residuals of a known error
// distribution: each level's band covers its share of fresh errors, the widths follow the
// distribution's own quantiles (not one width scaled), and the residual quantile each level takes
// follows the latest validation period where its errors differ from the earlier folds'. Seeded
// draws, no training.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { Rng } from '../../prng';
import { levelWidths, quantileLevels } from '../calibration';
import { quantileLevelOf } from '../intervals';

const LEVELS = [0.5, 0.8, 0.9, 0.95];
const H = 4;
/** The error's spread at step k (0-based): a fan. */
const stepScale = (k: number) => 1 + 0.5 * k;

/** |error| draws of three shapes: Gaussian, Laplace, Student's t with 3 degrees of freedom. */
const shapes: Record<string, { draw: (rng: Rng) => number; q: (level: number) => number }> = {
  gaussian: {
    draw: (rng) => Math.abs(gauss(rng)),
    // Quantiles of |Z| at 0.5, 0.8, 0.9, 0.95.
    q: (l) => ({ 0.5: 0.6745, 0.8: 1.2816, 0.9: 1.6449, 0.95: 1.96 })[l]!,
  },
  laplace: {
    // |Laplace(0, 1)| is Exp(1).
    draw: (rng) => -Math.log(Math.max(rng.next(), 1e-300)),
    q: (l) => -Math.log(1 - l),
  },
  student3: {
    draw: (rng) => {
      const z = gauss(rng);
      const chi = gauss(rng) ** 2 + gauss(rng) ** 2 + gauss(rng) ** 2;
      return Math.abs(z / Math.sqrt(chi / 3));
    },
    // Quantiles of |t(3)|: t(3)'s at (1 + l) / 2.
    q: (l) => ({ 0.5: 0.7649, 0.8: 1.6377, 0.9: 2.3534, 0.95: 3.1824 })[l]!,
  },
};

/** Per step, `n` residuals of the shape times the step's spread. */
function residuals(rng: Rng, draw: (rng: Rng) => number, n: number): number[][] {
  return Array.from({ length: H }, (_, k) =>
    Array.from({ length: n }, () => stepScale(k) * draw(rng)),
  );
}

const ones = (r: number[][]) => r.map((x) => x.map(() => 1));

describe('interval widths per step and level', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    it(`covers each level's share of fresh ${name} errors at every step (40 seeded draws)`, () => {
      // Split conformal: calibrated on n residuals, a fresh error falls inside with probability
      // at least the level, at most level + 1 / (n + 1); averaged over many calibration draws.
      const n = 150;
      const draws = 40;
      const fresh = 400;
      const inside = LEVELS.map(() => Array.from({ length: H }, () => 0));
      for (let d = 0; d < draws; d++) {
        const rng = new Rng(1000 + d);
        const res = residuals(rng, shape.draw, n);
        const w = levelWidths(res, ones(res), LEVELS);
        for (let k = 0; k < H; k++) {
          for (let j = 0; j < fresh; j++) {
            const e = stepScale(k) * shape.draw(rng);
            LEVELS.forEach((_, l) => (inside[l][k] += e <= w[l][k] ? 1 : 0));
          }
        }
      }
      LEVELS.forEach((level, l) => {
        for (let k = 0; k < H; k++) {
          const cov = inside[l][k] / (draws * fresh);
          expect(cov, `${level} at step ${k + 1}`).toBeGreaterThan(level - 0.015);
          expect(cov, `${level} at step ${k + 1}`).toBeLessThan(level + 0.025);
        }
      });
    });

    it(`gives each level the ${name} distribution's own quantile, not one width scaled`, () => {
      const rng = new Rng(7);
      const res = residuals(rng, shape.draw, 3000);
      const w = levelWidths(res, ones(res), LEVELS);
      for (let k = 0; k < H; k++) {
        LEVELS.forEach((level, l) => {
          const truth = stepScale(k) * shape.q(level);
          expect(Math.abs(w[l][k] / truth - 1), `${level} at step ${k + 1}`).toBeLessThan(0.06);
        });
        // The 80/90 ratio is the distribution's (0.78 Gaussian, 0.70 Laplace, 0.70 t3).
        const ratio = shape.q(0.8) / shape.q(0.9);
        expect(Math.abs(w[1][k] / w[2][k] - ratio)).toBeLessThan(0.03);
      }
    });
  }

  it('never narrows with the step, and leans on the shape pooled over steps where one has few', () => {
    const rng = new Rng(3);
    const res = residuals(rng, shapes.gaussian.draw, 400);
    // Step 4 with only 12 residuals: its 95 % quantile from them alone would be about its largest.
    res[3] = res[3].slice(0, 12);
    const w = levelWidths(res, ones(res), LEVELS);
    for (const row of w)
      for (let k = 1; k < H; k++) expect(row[k]).toBeGreaterThanOrEqual(row[k - 1]);
    expect(w[3][3] / w[2][3]).toBeCloseTo(1.96 / 1.6449, 1);
  });
});

/**
 * Residuals per step of earlier folds (spread `early`) and of the main split (spread `late`), `n`
 * of each per step, as calibrateIntervals passes them; `main` flags the main split's.
 */
function folds(rng: Rng, early: number, late: number, n: number) {
  const u: number[][] = [];
  const main: boolean[][] = [];
  for (let k = 0; k < H; k++) {
    const e = Array.from({ length: n }, () => early * stepScale(k) * Math.abs(gauss(rng)));
    const l = Array.from({ length: n }, () => late * stepScale(k) * Math.abs(gauss(rng)));
    u.push([...l, ...e]);
    main.push([...l.map(() => true), ...e.map(() => false)]);
  }
  return { u, main };
}

describe('the residual quantile each level takes', () => {
  it('is about the nominal level when the earlier folds err like the latest period', () => {
    let sum = LEVELS.map(() => 0);
    for (let d = 0; d < 10; d++) {
      const { u, main } = folds(new Rng(50 + d), 1, 1, 400);
      sum = sum.map((x, l) => x + quantileLevels(u, ones(u), main, LEVELS, H)[l]);
    }
    LEVELS.forEach((level, l) => expect(Math.abs(sum[l] / 10 - level)).toBeLessThan(0.02));
  });

  it('lowers the level where the latest errors shrank and raises it where they grew', () => {
    const calmer = folds(new Rng(4), 1.5, 1, 600);
    const wilder = folds(new Rng(5), 1, 1.5, 600);
    const down = quantileLevels(calmer.u, ones(calmer.u), calmer.main, LEVELS, H);
    const up = quantileLevels(wilder.u, ones(wilder.u), wilder.main, LEVELS, H);
    LEVELS.forEach((level, l) => {
      expect(down[l]).toBeLessThan(level - 0.02);
      expect(up[l]).toBeGreaterThan(level + 0.005);
      // Within the bounds: at most 1 - level below, a third of the miss rate left above.
      expect(down[l]).toBeGreaterThanOrEqual(level - (1 - level) - 1e-12);
      expect(up[l]).toBeLessThanOrEqual(1 - (1 - level) / 3 + 1e-12);
    });
  });

  it('brings the coverage of errors like the latest period towards each nominal level', () => {
    // Earlier folds erred 1.5 times as much as the latest period; the future errs like the latest.
    const { u, main } = folds(new Rng(8), 1.5, 1, 600);
    const nominal = levelWidths(u, ones(u), LEVELS);
    const taken = levelWidths(u, ones(u), quantileLevels(u, ones(u), main, LEVELS, H));
    const rng = new Rng(9);
    const inside = (w: number[][]) =>
      LEVELS.map((_, l) => {
        let x = 0;
        for (let j = 0; j < 20_000; j++) {
          const k = j % H;
          if (stepScale(k) * Math.abs(gauss(rng)) <= w[l][k]) x++;
        }
        return x / 20_000;
      });
    const before = inside(nominal);
    const after = inside(taken);
    LEVELS.forEach((level, l) => {
      expect(Math.abs(after[l] - level)).toBeLessThan(Math.abs(before[l] - level));
      expect(Math.abs(after[l] - level)).toBeLessThan(0.04);
    });
  });

  it('keeps the nominal levels without an earlier fold, and interpolates between trained ones', () => {
    const { u } = folds(new Rng(2), 1, 1, 50);
    const allMain = u.map((r) => r.map(() => true));
    expect(quantileLevels(u, ones(u), allMain, LEVELS, H)).toEqual(LEVELS);
    const pairs = [
      { level: 0.8, quantile: 0.76 },
      { level: 0.9, quantile: 0.88 },
    ];
    expect(quantileLevelOf(undefined, 0.9)).toBe(0.9);
    expect(quantileLevelOf(pairs, 0.9)).toBe(0.88);
    expect(quantileLevelOf(pairs, 0.85)).toBeCloseTo(0.82, 12);
    // Beyond the trained levels: the nearest one's shift scaled by the miss rate.
    expect(quantileLevelOf(pairs, 0.95)).toBeCloseTo(0.95 - 0.02 * 0.5, 12);
    expect(quantileLevelOf(pairs, 0.6)).toBeCloseTo(0.6 - 0.04 * 2, 12);
  });
});
