// Misses shared across series at the same dates (session 19): how a band's misses cluster on the
// dates the residuals forecast (calibration.ts sharedMisses), on seeded draws of 50 series x 40
// dates x 4 steps whose misses are independent, come together on three isolated dates (a holiday)
// or stay raised from one date on (a recession); and the level check (quantileLevels) on
// simulated residuals with shocks shared by every series, transient or persistent. No training.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { Rng } from '../../prng';
import { quantileLevels, sharedMisses } from '../calibration';

const G = 50;
const DATES = 40;
const H = 4;

/** Per step, each series' miss at each date with probability `p(date)`, and the dates. */
function misses(seed: number, p: (d: number) => number) {
  const rng = new Rng(seed);
  const miss: boolean[][] = [];
  const at: number[][] = [];
  for (let k = 0; k < H; k++) {
    const m: boolean[] = [];
    const t: number[] = [];
    for (let d = 0; d < DATES; d++) {
      for (let g = 0; g < G; g++) {
        m.push(rng.next() < p(d));
        t.push(d);
      }
    }
    miss.push(m);
    at.push(t);
  }
  return sharedMisses(miss, at);
}

const SEEDS = [1, 2, 3, 4, 5, 6];

describe('misses shared across series at the same dates', () => {
  // Over 2,000 seeds of each shape: independent misses' design effect 1.00-1.44; the holiday's
  // 15.4-19.2 with persistence 0; the recession's persistence 0.82-0.96, design 1.38-2.92. The
  // bounds below sit beyond every one of them (for a fresh seed, a failure is below 1 in 2,000).
  it('counts independent misses as independent', () => {
    for (const seed of SEEDS) {
      const s = misses(seed, () => 0.1);
      expect(s.rate).toBeGreaterThan(0.08);
      expect(s.rate).toBeLessThan(0.12);
      expect(s.size).toBe(G);
      expect(s.design).toBeLessThan(1.6);
    }
  });

  it('counts a holiday, a miss of every series on isolated dates, as one series', () => {
    for (const seed of SEEDS) {
      const s = misses(seed, (d) => ([8, 19, 31].includes(d) ? 0.9 : 0.1));
      expect(s.rho).toBeGreaterThan(0.25);
      expect(s.persistence).toBeLessThan(0.2);
      expect(s.design).toBeGreaterThan(12);
    }
  });

  it('keeps a recession, misses raised from one date on, as evidence that persists', () => {
    for (const seed of SEEDS) {
      const s = misses(seed, (d) => (d >= 28 ? 0.5 : 0.1));
      expect(s.rho).toBeGreaterThan(0.12);
      expect(s.persistence).toBeGreaterThan(0.7);
      expect(s.design).toBeLessThan(3.5);
    }
  });

  it('has no design effect for one series, or for series that share no date', () => {
    const rng = new Rng(9);
    const one = [Array.from({ length: 60 }, () => rng.next() < 0.2)];
    const s = sharedMisses(one, [one[0].map((_, i) => i)]);
    expect(s.size).toBe(1);
    expect(s.design).toBe(1);
    expect(sharedMisses([[true, false]], [[0, 0]]).design).toBe(1);
  });
});

/**
 * |errors| of 20 series over 90 dates and 3 steps (spread growing with the step), the last 30
 * dates the main split: independent Gaussian errors (`iid`), with a shock of 4-6 sds shared by
 * every series on four isolated dates, two of them in the main split (`holiday`), or with their
 * sd doubled for every series from date 72 on (`recession`).
 */
function shocks(seed: number, kind: 'iid' | 'holiday' | 'recession') {
  const rng = new Rng(seed);
  const u: number[][] = [];
  const main: boolean[][] = [];
  const at: number[][] = [];
  for (let k = 0; k < 3; k++) {
    u.push([]);
    main.push([]);
    at.push([]);
    for (let d = 0; d < 90; d++) {
      const sd = kind === 'recession' && d >= 72 ? 2 : 1;
      const hit = kind === 'holiday' && [20, 45, 68, 81].includes(d);
      for (let g = 0; g < 20; g++) {
        u[k].push((1 + 0.3 * k) * Math.abs(sd * gauss(rng) + (hit ? 4 + 2 * rng.next() : 0)));
        main[k].push(d >= 60);
        at[k].push(d);
      }
    }
  }
  return { u, main, at, w: u.map((r) => r.map(() => 1)) };
}

const CHECKED = [0.8, 0.9, 0.95];

describe('the level check with misses shared across series', () => {
  // Over 300 seeds each (quantile levels with the residuals' dates minus without): independent
  // errors -0.0003..0.0002; holidays at 90 / 95 % -0.0092..-0.0033 / -0.0108..-0.0061; the
  // recession -0.0041..0 at every level, its 80 % level 0.895 or more without the dates. Every
  // draw is asserted, with margins beyond all 300.
  const levels = (s: ReturnType<typeof shocks>, dated: boolean) =>
    quantileLevels(s.u, s.w, s.main, CHECKED, 3, dated ? s.at : undefined);

  it('moves nothing where misses are independent', () => {
    for (const seed of [1, 2, 3, 4]) {
      const s = shocks(seed, 'iid');
      const off = levels(s, false);
      levels(s, true).forEach((q, l) => expect(Math.abs(q - off[l])).toBeLessThan(0.001));
    }
  });

  it('counts a holiday in the latest period as one event, not 20 series of evidence', () => {
    for (const seed of [1, 2, 3, 4]) {
      const s = shocks(seed, 'holiday');
      const off = levels(s, false);
      const on = levels(s, true);
      // The band the holiday widened moves back towards its nominal level, never below it.
      expect(on[1]).toBeLessThan(off[1] - 0.002);
      expect(on[2]).toBeLessThan(off[2] - 0.002);
      on.forEach((q, l) => expect(q).toBeGreaterThanOrEqual(CHECKED[l]));
    }
  });

  it('keeps widening for a recession, misses shared across series that persist', () => {
    for (const seed of [1, 2, 3, 4]) {
      const s = shocks(seed, 'recession');
      const off = levels(s, false);
      const on = levels(s, true);
      on.forEach((q, l) => expect(q).toBeGreaterThan(off[l] - 0.006));
      expect(on[0]).toBeGreaterThan(0.88);
    }
  });
});
