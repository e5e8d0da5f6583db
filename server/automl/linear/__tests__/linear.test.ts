import { describe, expect, it } from 'vitest';
import { fitEncoders } from '../../data/encoders';
import { buildLayout, linearRows, parseStreams } from '../../data/layout';
import { choleskySolve, fitLogistic, fitRidge, predictLinearRows } from '../linear';
import { Rng } from '../../prng';
import { inferColumnType } from '../../data/column-types';

function design(cols: unknown[][], names: string[]) {
  const profiles = names.map((nm, j) => inferColumnType(nm, cols[j]));
  const encs = fitEncoders(profiles, cols, new Rng(1));
  const layout = buildLayout(encs);
  const n = cols[0].length;
  return { X: linearRows(layout, parseStreams(encs, cols, n, false), n), d: layout.linDims, n };
}

describe('linear models', () => {
  it('solves a small SPD system with Cholesky', () => {
    const x = choleskySolve(Float64Array.from([4, 2, 2, 3]), Float64Array.from([10, 8]), 2);
    expect(x[0]).toBeCloseTo(1.75, 10);
    expect(x[1]).toBeCloseTo(1.5, 10);
  });

  it('ridge recovers exact linear data (numbers + one-hot category)', () => {
    const rng = new Rng(3);
    const n = 300;
    const a = Array.from({ length: n }, () => rng.next() * 10);
    const b = Array.from({ length: n }, () => rng.next() * 5 - 2);
    const c = Array.from({ length: n }, () => ['x', 'y', 'z'][rng.int(3)]);
    const y = Float64Array.from(
      { length: n },
      (_, i) => 2 * a[i] - 3 * b[i] + 5 + (c[i] === 'y' ? 4 : 0),
    );
    const { X, d } = design([a, b, c], ['a', 'b', 'c']);
    const rows = Int32Array.from({ length: n }, (_, i) => i);
    const m = fitRidge(X, rows, y, null, d, 1e-9);
    const out = new Float64Array(n);
    predictLinearRows(m, X, rows, out);
    for (let i = 0; i < n; i++) expect(out[i]).toBeCloseTo(y[i], 6);
  });

  it('logistic regression separates linearly separable classes', () => {
    const rng = new Rng(4);
    const n = 400;
    const a = Array.from({ length: n }, () => rng.next() * 2 - 1);
    const b = Array.from({ length: n }, () => rng.next() * 2 - 1);
    const y = Float64Array.from({ length: n }, (_, i) => (a[i] + 2 * b[i] > 0.1 ? 1 : 0));
    const { X, d } = design([a, b], ['a', 'b']);
    const rows = Int32Array.from({ length: n }, (_, i) => i);
    const m = fitLogistic(X, rows, y, 2, null, d, 0.01);
    const out = new Float64Array(n);
    predictLinearRows(m, X, rows, out);
    let ok = 0;
    for (let i = 0; i < n; i++) if ((out[i] > 0 ? 1 : 0) === y[i]) ok++;
    expect(ok / n).toBeGreaterThan(0.98);
  });

  it('a logistic fit started from weights fitted on most of the rows reaches the same optimum', () => {
    const rng = new Rng(5);
    const n = 600;
    const a = Array.from({ length: n }, () => rng.next() * 2 - 1);
    const b = Array.from({ length: n }, () => rng.next() * 2 - 1);
    // Three noisy classes (one-vs-rest), so the optimum is finite.
    const y = Float64Array.from({ length: n }, (_, i) => {
      const z = a[i] + b[i] + (rng.next() - 0.5);
      return z < -0.4 ? 0 : z < 0.4 ? 1 : 2;
    });
    const { X, d } = design([a, b], ['a', 'b']);
    const all = Int32Array.from({ length: n }, (_, i) => i);
    const most = all.subarray(0, 480);
    const cold = fitLogistic(X, all, y, 3, null, d, 1);
    const warm = fitLogistic(X, all, y, 3, null, d, 1, fitLogistic(X, most, y, 3, null, d, 1).w);
    expect(warm.w.length).toBe(cold.w.length);
    for (let j = 0; j < cold.w.length; j++) expect(warm.w[j]).toBeCloseTo(cold.w[j], 3);
  });
});
