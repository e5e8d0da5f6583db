import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../options';
import { Rng } from '../../prng';
import {
  GBM_SAMPLE_MIN_ROWS,
  GBM_SAMPLE_ROWS,
  LARGE_LEARNING_RATE,
  LARGE_MAX_ITERATIONS,
  LARGE_PATIENCE,
  LARGE_RATE_MIN_ROWS,
  LARGE_VALIDATION_MIN_ROWS,
  classWeights,
  foldRows,
  gbmParams,
  splitRows,
  userChoices,
  validationShare,
} from '../sizes';

describe('GBM parameters by training-set size', () => {
  it('sample the rows of each tree only past the threshold, and cap the iterations there', () => {
    const small = gbmParams(DEFAULT_SETTINGS, GBM_SAMPLE_MIN_ROWS);
    expect(small.subsampleRows ?? 0).toBe(0);
    expect(small.maxIterations).toBe(DEFAULT_SETTINGS.maxIterations);
    const big = gbmParams(DEFAULT_SETTINGS, 800_000);
    expect(big.subsampleRows).toBe(GBM_SAMPLE_ROWS);
    expect(big.maxIterations).toBe(LARGE_MAX_ITERATIONS);
    expect(big.minRelImprovement).toBeGreaterThan(0);
    // USING max_iterations lifts the cap.
    expect(
      gbmParams({ ...DEFAULT_SETTINGS, maxIterations: 2000 }, 800_000, {
        user: { iterations: true },
      }).maxIterations,
    ).toBe(2000);
  });
});

describe('learning rate by training-set size', () => {
  it('steps larger from LARGE_RATE_MIN_ROWS rows, unless USING learning_rate was given', () => {
    expect(gbmParams(DEFAULT_SETTINGS, LARGE_RATE_MIN_ROWS - 1).learningRate).toBe(0.1);
    expect(gbmParams(DEFAULT_SETTINGS, LARGE_RATE_MIN_ROWS).learningRate).toBe(LARGE_LEARNING_RATE);
    expect(gbmParams(DEFAULT_SETTINGS, 800_000).learningRate).toBe(LARGE_LEARNING_RATE);
    // A rate the user chose is kept at every size, also when it is the default's value.
    const chosen = (rate: number, rows: number) =>
      gbmParams({ ...DEFAULT_SETTINGS, learningRate: rate }, rows, { user: { rate: true } })
        .learningRate;
    expect(chosen(0.1, 50_000)).toBe(0.1);
    expect(chosen(0.05, 50_000)).toBe(0.05);
    expect(userChoices({ Learning_Rate: 0.2, validation_fraction: 0.3 })).toEqual({
      iterations: false,
      rate: true,
      validation: true,
      patience: false,
    });
    expect(userChoices(undefined)).toEqual({
      iterations: false,
      rate: false,
      validation: false,
      patience: false,
    });
  });
});

describe('early stopping by training-set size', () => {
  it('waits LARGE_PATIENCE iterations from LARGE_RATE_MIN_ROWS rows, unless USING says', () => {
    expect(gbmParams(DEFAULT_SETTINGS, 5_000).earlyStoppingRounds).toBe(20);
    expect(gbmParams(DEFAULT_SETTINGS, 30_000).earlyStoppingRounds).toBe(LARGE_PATIENCE);
    expect(gbmParams(DEFAULT_SETTINGS, 30_000).minRelImprovement).toBeGreaterThan(0);
    const chosen = gbmParams({ ...DEFAULT_SETTINGS, earlyStoppingRounds: 40 }, 30_000, {
      user: userChoices({ early_stopping_rounds: 40 }),
    });
    expect(chosen.earlyStoppingRounds).toBe(40);
  });
});

describe('train / validation split', () => {
  it('holds out a fifth, on large tables 4,000 rows or a tenth, unless USING says', () => {
    const share = (n: number, validation = false) =>
      validationShare(DEFAULT_SETTINGS, n, { validation });
    expect(share(5_000)).toBe(0.2);
    expect(share(LARGE_VALIDATION_MIN_ROWS - 1)).toBe(0.2);
    expect(share(LARGE_VALIDATION_MIN_ROWS)).toBe(0.2);
    expect(share(30_000) * 30_000).toBeCloseTo(4_000, 6);
    expect(share(200_000)).toBe(0.1);
    expect(share(200_000, true)).toBe(0.2);
    expect(validationShare({ ...DEFAULT_SETTINGS, validationFraction: 0.05 }, 200_000, {})).toBe(
      0.05,
    );
  });

  it('is seeded, covers every row once and stratifies classes by their share', () => {
    const y = Float64Array.from({ length: 200 }, (_, i) => (i < 190 ? 0 : i < 197 ? 1 : 2));
    const split = (seed: number) =>
      splitRows({ n: 200, fraction: 0.2, rng: new Rng(seed), classes: y, nClasses: 3 });
    const a = split(1);
    expect(split(1)).toEqual(a);
    expect(split(2).val).not.toEqual(a.val);
    expect([...a.train, ...a.val].sort((p, q) => p - q)).toEqual(
      Array.from({ length: 200 }, (_, i) => i),
    );
    const count = (rows: Int32Array, c: number) => rows.filter((r) => y[r] === c).length;
    expect([0, 1, 2].map((c) => count(a.val, c))).toEqual([38, 1, 1]);
    expect([0, 1, 2].map((c) => count(a.train, c))).toEqual([152, 6, 2]);
  });

  it('gives each class the same total weight', () => {
    const y = Float64Array.of(0, 0, 0, 1);
    const w = classWeights(y, 2);
    expect(w[0] * 3).toBeCloseTo(w[1] * 1, 12);
    expect(w[0] * 3 + w[1]).toBeCloseTo(4, 12);
  });
});

describe('cross-fitting folds', () => {
  it('validate every row exactly once, train on the rest, and deal classes evenly', () => {
    const y = Float64Array.from({ length: 103 }, (_, i) => (i < 90 ? 0 : 1));
    const folds = foldRows({ n: 103, folds: 5, rng: new Rng(3), classes: y, nClasses: 2 });
    expect(folds).toHaveLength(5);
    const seen = new Array(103).fill(0);
    for (const f of folds) {
      for (const r of f.val) seen[r]++;
      expect(f.train.length + f.val.length).toBe(103);
      expect([...f.train].some((r) => f.val.includes(r))).toBe(false);
      // 13 positives over 5 folds: 2 or 3 each.
      const pos = [...f.val].filter((r) => y[r] === 1).length;
      expect(pos).toBeGreaterThanOrEqual(2);
      expect(pos).toBeLessThanOrEqual(3);
    }
    expect(seen.every((c) => c === 1)).toBe(true);
    expect(foldRows({ n: 103, folds: 5, rng: new Rng(3), classes: y, nClasses: 2 })).toEqual(folds);
  });

  it('small data caps the boosting rounds; classifiers stop on a log-loss tolerance', () => {
    expect(gbmParams(DEFAULT_SETTINGS, 120).maxIterations).toBe(240);
    expect(gbmParams(DEFAULT_SETTINGS, 50).maxIterations).toBe(200);
    expect(gbmParams(DEFAULT_SETTINGS, 5000).maxIterations).toBe(1000);
    expect(
      gbmParams({ ...DEFAULT_SETTINGS, maxIterations: 900 }, 50, { user: { iterations: true } })
        .maxIterations,
    ).toBe(900);
    expect(
      gbmParams(DEFAULT_SETTINGS, 5000, { classifier: true }).minAbsImprovement,
    ).toBeGreaterThan(0);
    expect(gbmParams(DEFAULT_SETTINGS, 5000).minAbsImprovement).toBeUndefined();
  });
});
