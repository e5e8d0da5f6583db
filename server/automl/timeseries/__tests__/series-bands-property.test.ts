// Bands that hold per series, not only pooled over a set (session 20): rolling-origin residuals of
// series whose errors run at different multiples of their origin's scale (a quiet series beside
// a noisy one, 16 times apart), laid out as training lays them out; each series' band (the set's
// half-width per step times its width factor, calibration.ts chooseFactors) scored by its exact
// coverage of that series' known error distribution, so the only noise is the calibration's own.
// With the factors shrunk by the fixed prior of 8 windows alone (before; 8 series 0.25-4, 30
// origins a fold, 200 seeds), the quietest series' 80 % band held 0.977-0.994 and the noisiest's
// 0.594-0.696 of its errors, a short noisy one's 0.34-0.49. No training.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { Rng } from '../../prng';
import { bandsOf } from '../calibration';
import { emptyResiduals, gaussianCoverage } from './helpers';

const H = 4;
/** Origins per fold of a series with the full history. */
const ORIGINS = 40;
/** Each series' error sd at step k, over sqrt(k): from a quarter of the typical to 4 times. */
const SPREAD = [0.25, 0.5, 1, 1, 2, 4];

/**
 * |errors| of the series in `sd`, `perFold(g)` origins of series g in each of three folds (the main
 * split and two earlier ones, aged as buildFolds ages them; a series with fewer than 24 has them
 * in the main split alone), step k's error sd(g) sqrt(k), the dates shared by the series.
 */
function draw(seed: number, sd: number[], perFold: (g: number) => number) {
  const rng = new Rng(seed);
  const res = emptyResiduals(H);
  const target: number[][] = res.r.map(() => []);
  const rows: number[][] = res.r.map(() => []);
  Object.assign(res, { target, row: rows });
  sd.forEach((s, g) => {
    const n = perFold(g);
    for (let j = 0; j < 3; j++) {
      if (j > 0 && n < 24) continue;
      for (let i = 0; i < n; i++) {
        const row = 200 - ORIGINS * (j + 1) + i;
        for (let k = 0; k < H; k++) {
          res.r[k].push(s * Math.sqrt(k + 1) * Math.abs(gauss(rng)));
          res.age[k].push(j === 0 ? 0 : j - 1 + (n - i) / n);
          res.main[k].push(j === 0);
          res.series[k].push(g);
          res.fold[k].push(j);
          target[k].push(row + k + 1);
          rows[k].push(row);
        }
      }
    }
  });
  return res;
}

/**
 * Per series, its bands' exact coverage at 80 and 90 % (averaged over the steps), and whether the
 * series got widths of their own (the quietest's factor under an eighth of the noisiest's).
 */
function coverage(seed: number, sd: number[], perFold: (g: number) => number) {
  const b = bandsOf(draw(seed, sd, perFold), sd.length, 0.9);
  const own = b.widthFactor[0] < b.widthFactor[sd.length - 1] / 8;
  const held = [0.8, 0.9].map((level) => {
    const hw = b.levels.find((l) => l.level === level)!.halfWidths;
    return sd.map((s, g) => {
      const at = hw.map((w, k) =>
        gaussianCoverage((w * b.widthFactor[g]) / (s * Math.sqrt(k + 1))),
      );
      return at.reduce((a, c) => a + c, 0) / H;
    });
  });
  return { own, held };
}

describe('bands per series of unlike noise', () => {
  // Over 1,000 seeds the series got widths of their own in 923 (the main split's check keeps the
  // prior's when the evidence's interval score is not better by a standard error); in those every
  // series' band held 0.713-0.869 at 80 % and 0.838-0.944 at 90 %. A share is asserted, at least
  // 5 of 8 draws with widths of their own: at the 7.7 % rate, 4 or more of 8 keep the prior's
  // with probability 70 x 0.077^4 x 0.923^4 = 0.002 on fresh seeds. Every draw that has them is
  // asserted, the bounds beyond each of the 1,000.
  it('covers each series its share, the quiet and the noisy alike', () => {
    let own = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const c = coverage(seed, SPREAD, () => ORIGINS);
      if (!c.own) continue;
      own++;
      for (const x of c.held[0]) {
        expect(x).toBeGreaterThan(0.69);
        expect(x).toBeLessThan(0.89);
      }
      for (const x of c.held[1]) {
        expect(x).toBeGreaterThan(0.82);
        expect(x).toBeLessThan(0.96);
      }
    }
    expect(own).toBeGreaterThanOrEqual(5);
  });

  // Series alike: the factors stay near 1 (over 1,000 seeds: 0.898-1.108), so a set of like
  // series keeps one pooled width.
  it('keeps one width for series that are alike', () => {
    for (const seed of [1, 2, 3]) {
      const b = bandsOf(
        draw(
          seed,
          SPREAD.map(() => 1),
          () => ORIGINS,
        ),
        SPREAD.length,
        0.9,
      );
      for (const f of b.widthFactor) {
        expect(f).toBeGreaterThan(0.88);
        expect(f).toBeLessThan(1.13);
      }
    }
  });

  // A short series beside long ones (8 origins, the main split alone) leans on the set: over
  // 1,000 seeds the quietest one's 80 % band held 0.594-1.000 (mean 0.889), the noisiest's
  // 0.300-0.888 (mean 0.616); the check kept the prior's factors in 423 of them.
  it('shrinks a short series towards the set, not past it', () => {
    for (const seed of [1, 2, 3]) {
      const short = (g: number) => (g === 0 || g === SPREAD.length - 1 ? 8 : ORIGINS);
      const [c] = coverage(seed, SPREAD, short).held;
      expect(c[SPREAD.length - 1]).toBeGreaterThan(0.28);
      expect(c[0]).toBeGreaterThan(0.57);
    }
  });
});
