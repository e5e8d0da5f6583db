// Classifier probabilities on small data: cross-fitting, the round cap, the temperature fitted
// out of fold and the uniform floor keep them honest (never exactly 0 or 1).
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { type CellValue, type Dataset, loadPredictor, train } from '../../index';
import { Rng } from '../../prng';
import { classProbabilities, fitClassCalibration } from '../conformal';

/** Three well-separated classes in 4 numbers (iris-like: a validation split is often perfect). */
function separable(n: number, seed: number): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const c = i % 3;
    rows.push([c * 3 + gauss(rng), c * 2 + gauss(rng), gauss(rng), gauss(rng), ['a', 'b', 'c'][c]]);
  }
  return { columns: ['p', 'q', 'r', 's', 'label'], rows };
}

describe('calibrated probabilities', () => {
  it('the floor keeps every probability strictly inside (0, 1), even for huge logits', () => {
    const out = new Float64Array(3);
    classProbabilities(
      Float64Array.of(1000, -1000, 0),
      0,
      3,
      { shift: [0, 0, 0], temperature: 1, setThreshold: 1, floor: 0.01 },
      out,
    );
    expect(out[0]).toBeLessThan(1);
    expect(out[1]).toBeGreaterThan(0);
    expect(out[0] + out[1] + out[2]).toBeCloseTo(1, 12);
    const bin = new Float64Array(2);
    classProbabilities(
      Float64Array.of(800),
      0,
      1,
      { shift: [0], temperature: 1, setThreshold: 1, floor: 0.001 },
      bin,
    );
    expect(bin[0]).toBeCloseTo(0.001 / 1.002, 12);
  });

  it('fitting the temperature softens overconfident scores that make mistakes', () => {
    // Scores say +-6 (p = 0.9975) but 1 row in 5 is wrong: the fitted temperature must grow.
    const raw = Float64Array.from({ length: 200 }, (_, i) => (i % 2 ? 6 : -6));
    const y = Float64Array.from({ length: 200 }, (_, i) => (i % 5 === 0 ? 1 - (i % 2) : i % 2));
    const cal = fitClassCalibration(raw, y, { K: 1, nClasses: 2, shift: [0], level: 0.9 });
    expect(cal.temperature).toBeGreaterThan(3);
    const p = new Float64Array(2);
    classProbabilities(raw, 1, 1, cal, p);
    expect(p[1]).toBeGreaterThan(0.7);
    expect(p[1]).toBeLessThan(0.9);
  });

  it('small separable data: a capped number of trees, out-of-fold calibration, no 0 or 1', () => {
    const data = separable(150, 3);
    const a = train(data, { target: 'label', seed: 1 });
    expect(a.description.validation).toBe('cross-fitted');
    // 3 trees per round; the round cap and the log-loss tolerance stop far below 1000 rounds.
    expect(a.model.gbm === null || a.model.gbm.nTrees < 3 * 200).toBe(true);
    const test = separable(300, 4);
    const preds = loadPredictor(a).predict(
      test.rows.map((r) => Object.fromEntries(test.columns.map((c, j) => [c, r[j]]))),
    );
    let ll = 0;
    for (const [i, p] of preds.entries()) {
      for (const v of Object.values(p.probabilities!)) {
        expect(v).toBeGreaterThan(0);
        expect(v).toBeLessThan(1);
      }
      ll -= Math.log(p.probabilities![String(test.rows[i][4])]);
    }
    // Classes overlap a little (sd 1 around centres 3 apart): a well-calibrated model scores
    // ~0.2; the uncalibrated 0/1 answers scored > 1.
    expect(ll / preds.length).toBeLessThan(0.35);
  });
});
