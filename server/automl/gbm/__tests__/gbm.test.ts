import { describe, expect, it } from 'vitest';
import { accuracyScore, r2Score } from '../../analysis/metrics';
import { binOf, fitBinThresholds } from '../../data/binning';
import { Rng } from '../../prng';
import { gauss } from '../../__tests__/helpers';
import { trainGBM } from '../boost';
import { compileTrees, predictRawCompiled } from '../compile';
import { type BinnedData, DEFAULT_GBM_PARAMS } from '../model';
import { predictRaw } from '../predict';
import { deserializeGBM, serializeGBM } from '../serialize';

/** Bins numeric columns (row-major) the way the pipeline does. */
function binned(cols: Float64Array[], n: number, cats: number[] = []): BinnedData {
  const F = cols.length;
  const bins = new Uint8Array(n * F);
  const nBins = new Int32Array(F);
  const isCat = new Uint8Array(F);
  cols.forEach((c, f) => {
    if (cats.includes(f)) {
      isCat[f] = 1;
      nBins[f] = 256;
      for (let i = 0; i < n; i++) bins[i * F + f] = c[i];
      return;
    }
    const thr = Float64Array.from(fitBinThresholds(c, new Rng(1)));
    nBins[f] = thr.length + 2;
    for (let i = 0; i < n; i++) bins[i * F + f] = binOf(thr, c[i]);
  });
  return { n, F, bins, nBins, isCat };
}

const range = (a: number, b: number) => Int32Array.from({ length: b - a }, (_, i) => a + i);

describe('histogram GBM', () => {
  it('fits y = 3x + noise with r2 > 0.95 on held-out rows', () => {
    const rng = new Rng(5);
    const n = 1000;
    const x = Float64Array.from({ length: n }, () => rng.next() * 10);
    const y = Float64Array.from(x, (v) => 3 * v + gauss(rng));
    const data = binned([x], n);
    const res = trainGBM({
      data,
      target: { objective: 'regression', K: 1, y, weight: null },
      trainRows: range(0, 600),
      valRows: range(600, 800),
      params: DEFAULT_GBM_PARAMS,
    });
    expect(res.iterations).toBeGreaterThan(10);
    expect(res.iterations).toBeLessThan(DEFAULT_GBM_PARAMS.maxIterations);
    const out = new Float64Array(n);
    predictRaw(res.model, data.bins, data.F, n, out);
    expect(r2Score(y.subarray(800), out.subarray(800))).toBeGreaterThan(0.95);
  });

  it('learns XOR-like labels (no single feature is informative)', () => {
    const rng = new Rng(9);
    const n = 3000;
    const a = Float64Array.from({ length: n }, () => rng.next() * 2 - 1);
    const b = Float64Array.from({ length: n }, () => rng.next() * 2 - 1);
    const y = Float64Array.from({ length: n }, (_, i) => (a[i] * b[i] > 0 ? 1 : 0));
    const data = binned([a, b], n);
    const res = trainGBM({
      data,
      target: { objective: 'binary', K: 1, y, weight: null },
      trainRows: range(0, 2000),
      valRows: range(2000, 2500),
      params: DEFAULT_GBM_PARAMS,
    });
    const out = new Float64Array(n);
    predictRaw(res.model, data.bins, data.F, n, out);
    const pred = Array.from(out.subarray(2500), (v) => (v > 0 ? 1 : 0));
    expect(accuracyScore(y.subarray(2500), pred)).toBeGreaterThan(0.93);
  });

  it('does softmax multiclass with one tree per class per iteration', () => {
    const rng = new Rng(11);
    const n = 1500;
    const x = Float64Array.from({ length: n }, () => rng.next() * 3);
    const y = Float64Array.from(x, (v) => Math.floor(v));
    const data = binned([x], n);
    const res = trainGBM({
      data,
      target: { objective: 'multiclass', K: 3, y, weight: null },
      trainRows: range(0, 1000),
      valRows: range(1000, 1200),
      params: DEFAULT_GBM_PARAMS,
    });
    expect(res.model.nTrees).toBe(3 * res.iterations);
    const out = new Float64Array(n * 3);
    predictRaw(res.model, data.bins, data.F, n, out);
    let ok = 0;
    for (let i = 1200; i < n; i++) {
      const o = i * 3;
      const c = out[o] >= out[o + 1] && out[o] >= out[o + 2] ? 0 : out[o + 1] >= out[o + 2] ? 1 : 2;
      if (c === y[i]) ok++;
    }
    expect(ok / 300).toBeGreaterThan(0.97);
  });

  it('splits native categoricals by grouping categories with similar targets', () => {
    // 40 categories whose effects are not ordered by code: ordinal splits would need many cuts.
    const rng = new Rng(13);
    const effect = Array.from({ length: 40 }, () => gauss(rng) * 5);
    const n = 4000;
    const c = Float64Array.from({ length: n }, () => rng.int(40));
    const y = Float64Array.from(c, (k) => effect[k] + 0.1 * gauss(rng));
    const data = binned([c], n, [0]);
    const res = trainGBM({
      data,
      target: { objective: 'regression', K: 1, y, weight: null },
      trainRows: range(0, 3000),
      valRows: range(3000, 3500),
      params: DEFAULT_GBM_PARAMS,
    });
    const out = new Float64Array(n);
    predictRaw(res.model, data.bins, data.F, n, out);
    expect(r2Score(y.subarray(3500), out.subarray(3500))).toBeGreaterThan(0.99);
  });

  it('stops early on a pure-noise target', () => {
    const rng = new Rng(17);
    const n = 1000;
    const x = Float64Array.from({ length: n }, () => rng.next());
    const y = Float64Array.from({ length: n }, () => gauss(rng));
    const res = trainGBM({
      data: binned([x], n),
      target: { objective: 'regression', K: 1, y, weight: null },
      trainRows: range(0, 800),
      valRows: range(800, 1000),
      params: DEFAULT_GBM_PARAMS,
    });
    expect(res.iterations).toBeLessThan(30);
  });

  it('predicts identically after serialization and with compiled trees', () => {
    const rng = new Rng(19);
    const n = 800;
    const a = Float64Array.from({ length: n }, () => rng.next());
    const c = Float64Array.from({ length: n }, () => rng.int(5));
    const y = Float64Array.from(
      { length: n },
      (_, i) => a[i] * 2 + (c[i] === 3 ? 1 : 0) + 0.1 * gauss(rng),
    );
    const data = binned([a, c], n, [1]);
    const res = trainGBM({
      data,
      target: { objective: 'regression', K: 1, y, weight: null },
      trainRows: range(0, 600),
      valRows: range(600, 800),
      params: { ...DEFAULT_GBM_PARAMS, maxIterations: 50 },
    });
    const m2 = deserializeGBM(JSON.parse(JSON.stringify(serializeGBM(res.model))));
    const o1 = new Float64Array(n);
    const o2 = new Float64Array(n);
    const o3 = new Float64Array(n);
    predictRaw(res.model, data.bins, data.F, n, o1);
    predictRaw(m2, data.bins, data.F, n, o2);
    predictRawCompiled(m2, compileTrees(m2), data.bins, data.F, n, o3);
    expect(Array.from(o2)).toEqual(Array.from(o1));
    expect(Array.from(o3)).toEqual(Array.from(o1));
  });
});

describe('vector leaves (multiclass)', () => {
  const rng = new Rng(21);
  const n = 1500;
  const x = Float64Array.from({ length: n }, () => rng.next() * 4);
  const z = Float64Array.from({ length: n }, () => rng.int(3));
  const y = Float64Array.from(x, (v) => Math.floor(v));
  const data = binned([x, z], n, [1]);
  const res = trainGBM({
    data,
    target: { objective: 'multiclass', K: 4, y, weight: null },
    trainRows: range(0, 1000),
    valRows: range(1000, 1200),
    params: { ...DEFAULT_GBM_PARAMS, vectorLeaves: true },
  });

  it('grows one tree per iteration with a value per class in each leaf, and learns the classes', () => {
    expect(res.model.leafDim).toBe(4);
    expect(res.model.nTrees).toBe(res.iterations);
    expect(res.model.value.length).toBe(4 * res.model.feat.length);
    const out = new Float64Array(n * 4);
    predictRaw(res.model, data.bins, data.F, n, out);
    let ok = 0;
    for (let i = 1200; i < n; i++) {
      let best = 0;
      for (let k = 1; k < 4; k++) if (out[i * 4 + k] > out[i * 4 + best]) best = k;
      if (best === y[i]) ok++;
    }
    expect(ok / 300).toBeGreaterThan(0.97);
  });

  it('predicts identically after serialization, compiled, and matches the training scores', () => {
    const m2 = deserializeGBM(JSON.parse(JSON.stringify(serializeGBM(res.model))));
    expect(m2.leafDim).toBe(4);
    const o1 = new Float64Array(n * 4);
    const o2 = new Float64Array(n * 4);
    predictRaw(res.model, data.bins, data.F, n, o1);
    predictRawCompiled(m2, compileTrees(m2), data.bins, data.F, n, o2);
    expect(Array.from(o2)).toEqual(Array.from(o1));
    // The validation rows' scores from training are the model's.
    for (let i = 1000; i < 1200; i++)
      for (let k = 0; k < 4; k++) expect(res.raw[i * 4 + k]).toBeCloseTo(o1[i * 4 + k], 10);
  });
});
