import { describe, expect, it } from 'vitest';
import { classProbabilities, conformalQuantile, fitClassCalibration } from '../conformal';
import { loadPredictor, train } from '../../index';
import { Rng } from '../../prng';
import { gauss, linearish, splitDataset, toObjects } from '../../__tests__/helpers';

describe('split conformal', () => {
  it('takes the ceil((n + 1) * level)-th smallest score', () => {
    expect(conformalQuantile([5, 1, 3, 2, 4, 9, 8, 7, 6], 0.9)).toBe(9);
    const s = Array.from({ length: 19 }, (_, i) => i + 1);
    expect(conformalQuantile(s, 0.9)).toBe(18);
    expect(conformalQuantile(s, 0.5)).toBe(10);
  });

  it('90 % regression intervals cover 87-93 % of new rows', () => {
    const d = linearish(5000, 21, 2);
    const { train: tr, test } = splitDataset(d, 3000);
    const a = train(tr, { target: 'y', using: { max_iterations: 200 } });
    const preds = loadPredictor(a).predict(toObjects(test));
    let inside = 0;
    preds.forEach((p, i) => {
      const y = test.rows[i][4] as number;
      if (y >= p.lower! && y <= p.upper!) inside++;
      expect(p.confidence).toBe(0.9);
    });
    const cov = inside / preds.length;
    expect(cov).toBeGreaterThan(0.87);
    expect(cov).toBeLessThan(0.93);
  });

  it('wider intervals for a higher USING confidence', () => {
    const d = linearish(1500, 22, 2);
    const a90 = loadPredictor(train(d, { target: 'y', using: { max_iterations: 100 } }));
    const a99 = loadPredictor(
      train(d, { target: 'y', using: { max_iterations: 100, confidence: 0.99 } }),
    );
    const row = { x: 5, color: 'red' };
    const [p90] = a90.predict([row]);
    const [p99] = a99.predict([row]);
    expect(p99.upper! - p99.lower!).toBeGreaterThan(p90.upper! - p90.lower!);
    expect(p99.confidence).toBe(0.99);
  });

  it('calibrates class probabilities: shifted logits, fitted temperature, probabilities sum to 1', () => {
    // Scores that are twice as confident as the truth: the fitted temperature should be ~2.
    const rng = new Rng(5);
    const n = 4000;
    const raw = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const z = gauss(rng) * 2;
      y[i] = rng.next() < 1 / (1 + Math.exp(-z)) ? 1 : 0;
      raw[i] = 2 * z;
    }
    const cal = fitClassCalibration(raw, y, { K: 1, nClasses: 2, shift: [0], level: 0.9 });
    expect(cal.temperature).toBeGreaterThan(1.7);
    expect(cal.temperature).toBeLessThan(2.3);
    const p = new Float64Array(2);
    classProbabilities(Float64Array.from([1.5]), 0, 1, cal, p);
    expect(p[0] + p[1]).toBeCloseTo(1, 12);
  });
});
