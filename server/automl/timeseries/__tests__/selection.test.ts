// Selection among candidates whose validation forecasts are made up here, so the right answer is
// known: two candidates of equal skill with independent errors are averaged (the mean errs less
// than either, and is chosen), a clearly worse one is not averaged in, and "clearly" depends on
// how many windows the evidence has.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { Rng } from '../../prng';
import { type Fold, type Scored, ensembleOf, outclassed } from '../candidates';
import type { Candidate, Origins } from '../model';
import { selectCandidates, tiedCandidates } from '../selection';
import type { CandidateName } from '../types';

/** One series' fold of `n` one-step origins, its truth a random walk. */
function foldOf(n: number, rng: Rng): { fold: Fold; truth: number[] } {
  const truth: number[] = [];
  let y = 100;
  for (let i = 0; i < n; i++) truth.push((y += gauss(rng)));
  return { fold: oneStepFold(truth), truth };
}

/** One series' fold of one-step origins whose truths are `truth`. */
function oneStepFold(truth: number[]): Fold {
  const n = truth.length;
  return {
    index: 0,
    cut: new Int32Array([0]),
    origins: truth.map((_, i): [number, number] => [0, i]),
    packed: { n, H: 1 } as Origins,
    truth: (i, k) => (k === 1 ? truth[i] : NaN),
    age: new Float64Array(n),
  };
}

/** A candidate forecasting the truth plus `noise` times its own independent errors. */
function candidate(name: CandidateName, truth: number[], noise: number, rng: Rng): Scored {
  const pred = Float64Array.from(truth, (y) => y + noise * gauss(rng));
  return {
    name,
    candidate: { name } as Candidate,
    runs: [{ pred, scale: new Float64Array(truth.length).fill(1), factor: 1 }],
    trainingTime: 0,
  };
}

/** Mean absolute error of a candidate's forecasts. */
function mae(s: Scored, truth: number[]): number {
  return truth.reduce((a, y, i) => a + Math.abs(y - s.runs[0]!.pred[i]), 0) / truth.length;
}

/** A candidate forecasting the truth plus the given errors, origin by origin. */
function withErrors(name: CandidateName, fold: Fold, truth: number[], err: number[]): Scored {
  return {
    name,
    candidate: { name } as Candidate,
    runs: [
      {
        pred: Float64Array.from(truth, (y, i) => y + err[i]),
        scale: fold.age.map(() => 1),
        factor: 1,
      },
    ],
    trainingTime: 0,
  };
}

/** Seasonal-naive, ETS erring `e`, and ARIMA erring ETS's errors in reverse order times `ratio`. */
function etsAndArima(fold: Fold, truth: number[], e: number[], ratio: number, rng: Rng): Scored[] {
  return [
    candidate('seasonal_naive', truth, 3, rng),
    withErrors('ets', fold, truth, e),
    withErrors(
      'arima',
      fold,
      truth,
      [...e].reverse().map((x) => ratio * x),
    ),
  ];
}

describe('the ensemble of candidates validation cannot tell apart', () => {
  it('averages two equally good candidates with independent errors, and the mean errs less than either', () => {
    const rng = new Rng(3);
    const { fold, truth } = foldOf(60, rng);
    const scored = [
      candidate('seasonal_naive', truth, 3, rng),
      candidate('theta', truth, 1.8, rng),
      candidate('ets', truth, 1, rng),
      candidate('arima', truth, 1, rng),
    ];
    const tied = tiedCandidates(scored, [fold], 1, [0]).map((c) => scored[c].name);
    // Theta errs 1.8 times as much: not within the tie ratio, whatever its windows say.
    expect(tied.sort()).toEqual(['arima', 'ets']);
    const ens = ensembleOf(
      scored.filter((s) => tied.includes(s.name)),
      [fold],
    );
    expect(ens.members!.sort()).toEqual(['arima', 'ets']);
    // The mean of the two forecasts, origin by origin.
    const [a, b] = scored.filter((s) => tied.includes(s.name));
    truth.forEach((_, i) => {
      expect(ens.runs[0]!.pred[i]).toBeCloseTo((a.runs[0]!.pred[i] + b.runs[0]!.pred[i]) / 2, 12);
    });
    // Independent errors of equal size: the mean's error is about 1 / sqrt(2) of either's.
    expect(mae(ens, truth)).toBeLessThan(0.85 * Math.min(mae(a, truth), mae(b, truth)));
    const all = [...scored, ens];
    const sel = selectCandidates(all, [fold], 1, [0], null);
    expect(all[sel.setChoice].name).toBe('ensemble');
    expect(sel.choice[0]).toBe(all.length - 1);
    expect(sel.reason[0]).toMatch(/^the set's choice: the mean of (ets, arima|arima, ets)/);
    // Forcing a candidate never takes the ensemble.
    const forced = selectCandidates(all, [fold], 1, [0], 'ets');
    expect(all[forced.setChoice].name).toBe('ets');
  });

  it('does not average in a candidate the windows show clearly worse, but does when they are few', () => {
    const rng = new Rng(8);
    // ARIMA's errors are ETS's, in another order and 12 % larger: within the tie ratio on any
    // number of windows, so only the evidence (their paired differences) decides.
    const make = (n: number) => {
      const { fold, truth } = foldOf(n, rng);
      const e = truth.map(() => gauss(rng));
      const scored = etsAndArima(fold, truth, e, 1.12, rng);
      return tiedCandidates(scored, [fold], 1, [0]).map((c) => scored[c].name);
    };
    // 4,000 windows tell 12 % apart (several standard errors) ...
    expect(make(4000)).toEqual([]);
    // ... 10 cannot.
    expect(make(10)).toEqual(['ets', 'arima']);
  });
  /**
   * Ten one-step windows on which the candidates err alike: the same errors, each in another
   * order (paired differences within noise), `better`'s scaled by 0.95.
   */
  const alike = (names: readonly CandidateName[], seed: number, better?: CandidateName) => {
    const rng = new Rng(seed);
    const { fold, truth } = foldOf(10, rng);
    const e = truth.map(() => gauss(rng));
    const scored = names.map((name, j) =>
      withErrors(
        name,
        fold,
        truth,
        [...e.slice(2 * j), ...e.slice(0, 2 * j)].map((x) => (name === better ? 0.95 : 1) * x),
      ),
    );
    const tied = (n = names.length) =>
      tiedCandidates(scored.slice(0, n), [fold], 1, [0]).map((c) => scored[c].name);
    return tied;
  };

  it('never averages in a baseline, however close its few windows score', () => {
    // All five with the same MASE: ties go to the simplest first.
    const tied = alike(['seasonal_naive', 'naive', 'drift', 'ets', 'arima'], 5);
    expect(tied().sort()).toEqual(['arima', 'ets']);
    // With only one model beside the baselines there is nothing to combine.
    expect(tied(4)).toEqual([]);
  });

  it('never averages in the combination beside its own members', () => {
    // The combination is the best of them; as a member it would weigh Theta, ETS and ARIMA, its
    // own members, twice.
    const tied = alike(
      ['seasonal_naive', 'theta', 'ets', 'arima', 'combination'],
      6,
      'combination',
    );
    expect(tied()).toEqual(['theta', 'ets', 'arima']);
  });

  it("is the set's choice when the pick is not within 1 % of it, the margin any candidate needs", () => {
    const rng = new Rng(9);
    const { fold, truth } = foldOf(40, rng);
    const e = truth.map(() => gauss(rng));
    const choose = (factor: number) => {
      const scored = etsAndArima(fold, truth, e, 1.05, rng);
      // An ensemble whose errors are ETS's times `factor`: its MASE is ETS's times `factor`.
      const ens: Scored = {
        ...withErrors(
          'ensemble',
          fold,
          truth,
          e.map((x) => factor * x),
        ),
        members: ['ets', 'arima'],
      };
      const all = [...scored, ens];
      return all[selectCandidates(all, [fold], 1, [0], null).setChoice].name;
    };
    // 1.5 % less error than ETS, the pick (the margin was 2 %); within 1 % the simpler pick stays.
    expect(choose(0.985)).toBe('ensemble');
    expect(choose(0.995)).toBe('ets');
  });
});

describe('a GBM the last fold already rules out', () => {
  // The GBM's errors are ETS's, in another order and `ratio` times as large, on n origins.
  const make = (n: number, ratio: number) => {
    const rng = new Rng(21);
    const { fold, truth } = foldOf(n, rng);
    const e = truth.map(() => gauss(rng));
    const scored = [candidate('seasonal_naive', truth, 3, rng), withErrors('ets', fold, truth, e)];
    const gbm = withErrors(
      'gbm_recursive',
      fold,
      truth,
      [...e].reverse().map((x) => ratio * x),
    );
    return outclassed(gbm, scored, fold);
  };

  it('is not refitted on the earlier folds when the best candidate beats it beyond the noise', () => {
    // 30 % more error on 2,000 windows: many standard errors.
    expect(make(2000, 1.3)).toMatch(
      /^it erred 30 % more than ets on the last validation fold \(\d+\.\d standard errors\), so it could not be chosen/,
    );
  });

  it('is refitted when the windows are too few to tell, or it is as good', () => {
    expect(make(12, 1.3)).toBeNull();
    expect(make(2000, 1)).toBeNull();
    expect(make(2000, 0.9)).toBeNull();
  });
});

describe("a series leaving the set's choice", () => {
  it('counts H overlapping origins as one window of evidence, not H', () => {
    // Two series, 60 origins each, 6 steps per origin: on series 1 ARIMA errs 0.45 less than ETS
    // per origin, 5 standard errors if the 60 origins were independent, 2 with their overlap
    // counted (10 windows): not the clear evidence a series needs to leave the set's ETS.
    const rng = new Rng(5);
    const H = 6;
    const n = 60;
    const origins: [number, number][] = [];
    for (let g = 0; g < 2; g++) for (let i = 0; i < n; i++) origins.push([g, 20 + i]);
    const fold: Fold = {
      index: 0,
      cut: new Int32Array([20, 20]),
      origins,
      packed: { n: origins.length, H } as Origins,
      truth: () => 0,
      age: new Float64Array(origins.length),
    };
    const make = (name: CandidateName, err: (g: number) => number): Scored => {
      const pred = new Float64Array(origins.length * H);
      origins.forEach(([g], i) => pred.fill(err(g), i * H, (i + 1) * H));
      return {
        name,
        candidate: { name } as Candidate,
        runs: [{ pred, scale: new Float64Array(origins.length).fill(1), factor: 1 }],
        trainingTime: 0,
      };
    };
    const scored = [
      make('seasonal_naive', () => 3),
      make('ets', () => 1 + 0.5 * gauss(rng)),
      make('arima', (g) => (g === 0 ? 2 : 0.55) + 0.5 * gauss(rng)),
    ];
    const sel = selectCandidates(scored, [fold], 2, [0, 1], null);
    expect(scored[sel.setChoice].name).toBe('ets');
    expect([...sel.choice].map((c) => scored[c].name)).toEqual(['ets', 'ets']);
    expect(sel.reason[1]).toMatch(/this group's 10\.0 validation windows favour arima/);
  });
});

describe('a GBM scored on the last fold alone', () => {
  // One series, two folds of 400 one-step origins: the main (last) one and an earlier one. ETS
  // forecasts both; the GBM, too few rows to refit before the earlier cut, the main fold alone.
  const make = (etsNoise: [number, number], gbmNoise: number) => {
    const rng = new Rng(13);
    const n = 400;
    const folds = [0, 1].map((index) => {
      const { fold, truth } = foldOf(n, rng);
      return { fold: { ...fold, index }, truth };
    });
    const runOf = (truth: number[], noise: number) => ({
      pred: Float64Array.from(truth, (y) => y + noise * gauss(rng)),
      scale: new Float64Array(n).fill(1),
      factor: 1,
    });
    const scoredOf = (name: CandidateName, noise: (f: number) => number | null): Scored => ({
      name,
      candidate: { name } as Candidate,
      runs: folds.map(({ truth }, f) => {
        const x = noise(f);
        return x === null ? null : runOf(truth, x);
      }),
      trainingTime: 0,
    });
    const scored = [
      scoredOf('seasonal_naive', () => 3),
      scoredOf('ets', (f) => etsNoise[f]),
      scoredOf('gbm_direct', (f) => (f === 0 ? gbmNoise : null)),
    ];
    const sel = selectCandidates(
      scored,
      folds.map((f) => f.fold),
      1,
      [0],
      null,
    );
    return { name: scored[sel.setChoice].name, sel };
  };

  it('is chosen when it beats the pick on the windows both forecast', () => {
    // ETS errs twice as much on the earlier fold: over all its windows it scores better than the
    // GBM's last-fold figure would suggest, but on the last fold the GBM errs 15 % less.
    const { name, sel } = make([1, 0.5], 0.85);
    expect(sel.mase[1]).toBeLessThan(sel.mase[2]);
    expect(name).toBe('gbm_direct');
    expect(sel.reason[0]).toMatch(
      /^the set's choice: on the last validation fold's windows, the only ones it forecast, MASE 0\.2\d against 0\.3\d for ets/,
    );
    // Its own MASE on the group is on those windows.
    expect(sel.ownMase[0]).toBeCloseTo(sel.mase[2], 12);
  });

  it('is not chosen when the pick errs less on those windows, whatever its figure on all of them', () => {
    // ETS errs twice as much on the earlier fold, so its pooled MASE is above the GBM's; on the
    // last fold it errs 10 % less.
    const { name, sel } = make([1, 2], 1.1);
    expect(sel.mase[2]).toBeLessThan(sel.mase[1]);
    expect(name).toBe('ets');
    // Nor within the 2 % margin it needs (1 % less error).
    expect(make([1, 1], 0.99).name).toBe('ets');
  });
});

describe('what DESCRIBE says of a series whose scale collapses after a run of zeros', () => {
  // 40 one-step origins: the first 10 after a dry month (scale 1e-12, the floor) when it rained
  // 5 and both candidates forecast 0; on the other 30 (scale 1) seasonal-naive errs 4, TSB 1.
  const n = 40;
  const truth = Array.from({ length: n }, (_, i) => (i < 10 ? 5 : 2));
  const scale = Float64Array.from(truth, (_, i) => (i < 10 ? 1e-12 : 1));
  const fold = oneStepFold(truth);
  const run = (err: number): Scored['runs'][number] => ({
    pred: Float64Array.from(truth, (y, i) => (i < 10 ? 0 : y + err)),
    scale,
    factor: 1,
  });
  const scored: Scored[] = [
    {
      name: 'seasonal_naive',
      candidate: { name: 'seasonal_naive' },
      runs: [run(4)],
      trainingTime: 0,
    },
    { name: 'tsb', candidate: { name: 'seasonal_naive' }, runs: [run(1)], trainingTime: 0 },
  ];

  it('gives its errors in the target\'s units over seasonal-naive\'s: 80 / 170 = 0.47, not "1.00 against 1.00"', () => {
    const sel = selectCandidates(scored, [fold], 1, [0], null);
    // The choice is the scaled errors' as before: TSB beats seasonal-naive on 30 of 40 origins.
    expect(scored[sel.choice[0]].name).toBe('tsb');
    expect(sel.ownMase[0]).toBeCloseTo(80 / 170, 10);
    expect(sel.reason[0]).toBe(
      "beats the set's seasonal_naive clearly on this group's 40.0 validation windows (MASE 0.47 against 1.00)",
    );
    // Its weight in the model's MASE: seasonal-naive's 170 over the median origin scale, 1.
    expect(sel.baseError[0]).toBeCloseTo(170, 10);
    // The leaderboard's figure alike; the one the set's choice rests on stays the scaled errors'.
    expect(sel.shownMase[1]).toBeCloseTo(80 / 170, 10);
    expect(sel.mase[1]).toBeCloseTo(1, 10);
  });

  it('is described as before when no origin scale collapses (the same errors, scale 1 throughout)', () => {
    const steady: Scored[] = scored.map((s) => ({
      ...s,
      runs: [{ ...s.runs[0]!, scale: new Float64Array(n).fill(1) }],
    }));
    const sel = selectCandidates(steady, [fold], 1, [0], null);
    expect(sel.ownMase[0]).toBeCloseTo(80 / 170, 10);
    // Scale 2 on the dry origins (not collapsed): the scaled errors', 55 / 145.
    const halved: Scored[] = scored.map((s) => ({
      ...s,
      runs: [{ ...s.runs[0]!, scale: Float64Array.from(scale, (v) => (v < 1 ? 2 : 1)) }],
    }));
    expect(selectCandidates(halved, [fold], 1, [0], null).ownMase[0]).toBeCloseTo(55 / 145, 10);
  });
});
