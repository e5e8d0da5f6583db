// Adaptive (normalised) conformal intervals: the scale model, the normalised quantile and the
// conditional coverage they buy on data with quiet and noisy regions.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { type CellValue, loadPredictor, train } from '../../index';
import { Rng } from '../../prng';
import { conformalQuantile, normalisedQuantile } from '../conformal';
import { fitScale, scaleOf } from '../scale';

/** y = 2x + noise, sd 0.2 in 'quiet' rows and 3 in 'noisy' rows. */
function hetero(n: number, seed: number) {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const x = rng.next() * 10;
    const zone = rng.next() < 0.5 ? 'quiet' : 'noisy';
    rows.push([x, zone, 2 * x + (zone === 'noisy' ? 3 : 0.2) * gauss(rng)]);
  }
  return { columns: ['x', 'zone', 'y'], rows };
}

describe('normalised conformal quantile', () => {
  it('is the conformal quantile of |error| / scale', () => {
    const y = [1, 2, 3, 4];
    const raw = [0, 0, 0, 0];
    const scale = [1, 2, 3, 4];
    // Scores are all 1: every quantile is 1.
    expect(normalisedQuantile(y, raw, scale, 0.9)).toBe(1);
    expect(normalisedQuantile([2, 0], [0, 1], [1, 0.5], 0.5)).toBe(conformalQuantile([2, 2], 0.5));
  });
});

describe('scale model', () => {
  it('learns larger errors where the data is noisier, never below its floor', () => {
    const rng = new Rng(4);
    const n = 2000;
    const F = 1;
    const bins = new Uint8Array(n);
    const absErr = new Float64Array(n);
    const pred = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      bins[i] = i % 2; // feature 0: 0 = quiet, 1 = noisy
      absErr[i] = Math.abs(gauss(rng)) * (i % 2 ? 3 : 0.2);
      pred[i] = rng.next();
    }
    const m = fitScale({
      bins,
      nBins: Int32Array.of(3),
      isCat: Uint8Array.of(1),
      pred,
      absErr,
      seed: 1,
    });
    const s = scaleOf(m, Uint8Array.of(0, 1), F, 2, [0.5, 0.5]);
    expect(s[1] / s[0]).toBeGreaterThan(8);
    expect(s[0]).toBeGreaterThanOrEqual(m.floor);
  });
});

describe('adaptive intervals end to end', () => {
  const data = hetero(3000, 7);
  const trainRows = { columns: data.columns, rows: data.rows.slice(0, 2400) };
  const test = data.rows.slice(2400);
  const a = train(trainRows, { target: 'y', seed: 3 });
  const preds = loadPredictor(a).predict(test.map((r) => ({ x: r[0], zone: r[1] })));
  const cover = (zone: string) => {
    const idx = test.map((r, i) => (r[1] === zone ? i : -1)).filter((i) => i >= 0);
    const inside = idx.filter((i) => {
      const t = test[i][2] as number;
      return t >= preds[i].lower! && t <= preds[i].upper!;
    });
    return inside.length / idx.length;
  };

  it('covers ~90 % in both the quiet and the noisy zone (a constant width gives ~1.0 and ~0.8)', () => {
    expect(cover('quiet')).toBeGreaterThan(0.85);
    expect(cover('quiet')).toBeLessThan(0.97);
    expect(cover('noisy')).toBeGreaterThan(0.85);
    expect(cover('noisy')).toBeLessThan(0.95);
  });

  it('gives the noisy rows much wider intervals and reports the achieved coverage', () => {
    const width = (zone: string) => {
      const w = preds.filter((_, i) => test[i][1] === zone).map((p) => p.upper! - p.lower!);
      return w.reduce((s, v) => s + v, 0) / w.length;
    };
    expect(width('noisy') / width('quiet')).toBeGreaterThan(5);
    const iv = a.description.intervals!;
    expect(iv.adaptive).toBe(true);
    expect(iv.nominal).toBe(0.9);
    expect(iv.validation).toBeGreaterThan(0.85);
    expect(iv.validation).toBeLessThan(0.95);
    expect(a.description.summary).toContain('AdaptiveWidth');
  });
});
