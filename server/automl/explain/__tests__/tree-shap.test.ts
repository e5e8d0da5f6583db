// TreeSHAP against brute-force Shapley values (every coalition of features, the tree's
// cover-weighted expectation over the features left out), and additivity on every model kind.
import { describe, expect, it } from 'vitest';
import { gauss, linearish } from '../../__tests__/helpers';
import { fixedSplit, loadCsv } from '../../../../bench/automl-data';
import { type CellValue, type Dataset, finetune, loadPredictor, train } from '../../index';
import { trainGBM } from '../../gbm/boost';
import { type BinnedData, DEFAULT_GBM_PARAMS, type GBMModel, leafDimOf } from '../../gbm/model';
import { Rng } from '../../prng';
import { TreeExplainer } from '../tree-shap';

/** v(S) of one tree: features in S follow the row, the others split by cover. */
function value(m: GBMModel, t: number, bins: Uint8Array, S: Set<number>, j: number): number {
  const D = leafDimOf(m);
  const rec = (node: number): number => {
    const f = m.feat[node];
    if (f < 0) return m.value[node * D + j];
    const b = bins[f];
    const th = m.thr[node];
    const left = m.isCatNode[node] ? ((m.catBits[th + (b >>> 5)] >>> (b & 31)) & 1) === 1 : b <= th;
    if (S.has(f)) return rec(left ? m.left[node] : m.right[node]);
    const cl = m.cover![m.left[node]];
    const cr = m.cover![m.right[node]];
    return (cl * rec(m.left[node]) + cr * rec(m.right[node])) / (cl + cr);
  };
  return rec(m.roots[t]);
}

function bruteForce(m: GBMModel, bins: Uint8Array, F: number, k: number): Float64Array {
  const phi = new Float64Array(F);
  const D = leafDimOf(m);
  const fact = (x: number): number => (x <= 1 ? 1 : x * fact(x - 1));
  for (let t = 0; t < m.nTrees; t++) {
    if (D === 1 && t % m.K !== k) continue;
    const j = D > 1 ? k : 0;
    for (let i = 0; i < F; i++) {
      for (let mask = 0; mask < 1 << F; mask++) {
        if (mask & (1 << i)) continue;
        const S = new Set<number>();
        for (let f = 0; f < F; f++) if (mask & (1 << f)) S.add(f);
        const w = (fact(S.size) * fact(F - S.size - 1)) / fact(F);
        const withI = new Set(S).add(i);
        phi[i] += w * (value(m, t, bins, withI, j) - value(m, t, bins, S, j));
      }
    }
  }
  return phi;
}

/** 4 features: numbers with missing bins and repeated splits, one categorical. */
function data(n: number, seed: number): { d: BinnedData; y: Float64Array; cls: Float64Array } {
  const rng = new Rng(seed);
  const F = 4;
  const bins = new Uint8Array(n * F);
  const y = new Float64Array(n);
  const cls = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    bins[i * F] = rng.next() < 0.1 ? 20 : rng.int(20);
    bins[i * F + 1] = rng.int(20);
    bins[i * F + 2] = rng.int(6);
    bins[i * F + 3] = rng.int(20);
    const a = bins[i * F] === 20 ? 5 : bins[i * F];
    y[i] =
      Math.sin(a / 3) * 3 +
      (bins[i * F + 1] > 10 ? 2 : 0) +
      [0, 3, -1, 2, 0, 1][bins[i * F + 2]] +
      0.3 * gauss(rng);
    cls[i] = y[i] > 3 ? 2 : y[i] > 0 ? 1 : 0;
  }
  const d: BinnedData = {
    n,
    F,
    bins,
    nBins: Int32Array.of(21, 21, 8, 21),
    isCat: Uint8Array.of(0, 0, 1, 0),
  };
  return { d, y, cls };
}

describe('TreeSHAP', () => {
  const { d, y, cls } = data(800, 3);
  const rows = Int32Array.from({ length: 800 }, (_, i) => i);
  const params = { ...DEFAULT_GBM_PARAMS, maxIterations: 6, maxLeaves: 12, minSamplesLeaf: 5 };
  const cases: [string, GBMModel][] = [
    [
      'regression',
      trainGBM({
        data: d,
        target: { objective: 'regression', K: 1, y, weight: null },
        trainRows: rows,
        valRows: new Int32Array(0),
        params,
      }).model,
    ],
    [
      'multiclass, one tree per class',
      trainGBM({
        data: d,
        target: { objective: 'multiclass', K: 3, y: cls, weight: null },
        trainRows: rows,
        valRows: new Int32Array(0),
        params,
      }).model,
    ],
    [
      'multiclass, vector leaves',
      trainGBM({
        data: d,
        target: { objective: 'multiclass', K: 3, y: cls, weight: null },
        trainRows: rows,
        valRows: new Int32Array(0),
        params: { ...params, vectorLeaves: true },
      }).model,
    ],
  ];
  for (const [name, m] of cases) {
    it(`equals brute-force Shapley values and adds up to the trees' output (${name})`, () => {
      const ex = new TreeExplainer(m, 4);
      for (const r of [0, 7, 123, 456, 799]) {
        const row = d.bins.subarray(r * 4, r * 4 + 4);
        for (let k = 0; k < m.K; k++) {
          const phi = new Float64Array(4);
          ex.explain(d.bins, r * 4, k, phi);
          const bf = bruteForce(m, row, 4, k);
          for (let f = 0; f < 4; f++) expect(phi[f]).toBeCloseTo(bf[f], 9);
          // Additivity: expected + sum = the raw score.
          let out = m.base[k];
          const D = leafDimOf(m);
          for (let t = 0; t < m.nTrees; t++) {
            if (D === 1 && t % m.K !== k) continue;
            out += value(m, t, row, new Set([0, 1, 2, 3]), D > 1 ? k : 0);
          }
          expect(ex.expected(k) + phi.reduce((s, v) => s + v, 0)).toBeCloseTo(out, 9);
          // The cached pattern gives the same values.
          const again = new Float64Array(4);
          ex.explain(d.bins, r * 4, k, again);
          expect(Array.from(again)).toEqual(Array.from(phi));
        }
      }
    });

    it(`explains rows tree by tree with the same values, bit for bit, as row by row (${name})`, () => {
      // A fresh explainer each way, so neither reads the other's cached patterns.
      const byRow = new TreeExplainer(m, 4);
      const byTree = new TreeExplainer(m, 4);
      const some = Int32Array.from({ length: 300 }, (_, r) => (r * 7) % 800);
      const ks = Int32Array.from({ length: 800 }, (_, i) => (i * 5) % m.K);
      const phi = new Float64Array(800 * 4);
      byTree.explainRows(d.bins, 4, some, ks, phi);
      for (let i = 0; i < 800; i++) {
        const want = new Float64Array(4);
        if (some.includes(i)) byRow.explain(d.bins, i * 4, ks[i], want);
        expect(Array.from(phi.subarray(i * 4, i * 4 + 4))).toStrictEqual(Array.from(want));
      }
    });
  }
});

function additive(a: ReturnType<typeof train>, rows: Record<string, unknown>[]) {
  const p = loadPredictor(a);
  const ex = p.explain!(rows);
  const preds = p.predict(rows);
  ex.forEach((e, i) => {
    const sum = Object.values(e.contributions).reduce((s, v) => s + v, 0);
    expect(e.baseValue + sum).toBeCloseTo(e.value, 8);
    expect(Object.keys(e.contributions).sort()).toEqual([...a.description.inputs].sort());
    if (a.task === 'regression') expect(e.value).toBeCloseTo(preds[i].value as number, 8);
    else expect(e.class).toBe(preds[i].value);
  });
  return ex;
}

const objects = (d: Dataset) =>
  d.rows.map((r) => Object.fromEntries(d.columns.map((c, j) => [c, r[j]])));

describe('explain() on every model kind', () => {
  it('regression: GBM, linear, their blend; the base plus contributions is the prediction', () => {
    const d = linearish(600, 5);
    for (const model of ['gbm', 'linear', 'auto'])
      additive(train(d, { target: 'y', seed: 1, using: { model } }), objects(d).slice(0, 60));
  });

  it('a linear model is explained exactly: weight x (input - its mean)', () => {
    const rng = new Rng(6);
    const rows: CellValue[][] = Array.from({ length: 400 }, () => {
      const x = rng.next() * 10;
      return [x, 3 * x + 0.01 * gauss(rng)];
    });
    const a = train({ columns: ['x', 'y'], rows }, { target: 'y', using: { model: 'linear' } });
    const mean = rows.reduce((s, r) => s + (r[0] as number), 0) / rows.length;
    const [e] = loadPredictor(a).explain!([{ x: 8 }]);
    expect(e.contributions.x).toBeCloseTo(3 * (8 - mean), 1);
  });

  it('classifiers: binary and multiclass, under both decision rules', () => {
    const rng = new Rng(7);
    const rows: CellValue[][] = Array.from({ length: 900 }, () => {
      const a = gauss(rng);
      const b = gauss(rng);
      return [
        a,
        b,
        ['red', 'blue', 'green'][rng.int(3)],
        a + b > 0.5 ? 'yes' : 'no',
        a > 0.7 ? 'x' : b > 0 ? 'y' : 'z',
      ];
    });
    const d = { columns: ['a', 'b', 'c', 'bin', 'multi'], rows };
    const sub = (drop: string) => ({
      columns: d.columns.filter((c) => c !== drop),
      rows: rows.map((r) => r.filter((_, j) => d.columns[j] !== drop)),
    });
    const ask = objects(d).slice(0, 80);
    additive(train(sub('multi'), { target: 'bin', seed: 2 }), ask);
    additive(train(sub('multi'), { target: 'bin', seed: 2, using: { decision: 'argmax' } }), ask);
    const ex = additive(train(sub('bin'), { target: 'multi', seed: 2 }), ask);
    // The class explained is the predicted one; 'a' decides 'x'.
    const xRow = ex.findIndex((e) => e.class === 'x');
    expect(ex[xRow].contributions.a).toBeGreaterThan(0);
  });

  it('missing inputs (the reduced model), text, and a finetuned linear model with trees on top', () => {
    const s = fixedSplit(loadCsv('home_rentals.csv'));
    const a = train(s.train, { target: 'rental_price' });
    expect(a.model.reduced).toBeDefined();
    const rows = objects(s.test).slice(0, 40);
    rows.forEach((r, i) => {
      if (i % 3 === 0) delete r.initial_price;
    });
    additive(a, rows);
    const rng = new Rng(8);
    const words = ['good', 'bad', 'fast', 'slow', 'price', 'staff'];
    const text: CellValue[][] = Array.from({ length: 500 }, () => {
      const w = Array.from({ length: 6 }, () => words[rng.int(6)]);
      return [
        w.join(' '),
        w.filter((x) => x === 'good').length - w.filter((x) => x === 'bad').length,
      ];
    });
    const td = { columns: ['review', 'score'], rows: text };
    additive(train(td, { target: 'score' }), objects(td).slice(0, 30));
    const base = train(linearish(300, 9), { target: 'y', using: { model: 'linear' } });
    additive(
      finetune(base, linearish(300, 10), { using: { max_iterations: 20 } }),
      objects(linearish(30, 11)),
    );
  });
});
