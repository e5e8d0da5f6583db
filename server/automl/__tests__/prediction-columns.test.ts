/**
 * Predictions as columns (`predictTable`): typed arrays per output and per class probability,
 * holding exactly what the `Prediction` objects hold, the probability classes in the key order
 * of the objects the predictor answered with before columns (an object assigned each label in
 * class order: array-index-like labels first, ascending, then the others in class order).
 */
import { describe, expect, it } from 'vitest';
import { compilesWell } from '../gbm/compile';
import { deserializeGBM } from '../gbm/serialize';
import { type CellValue, loadPredictor, train } from '../index';

/** 120 rows, 4 classes whose labels objects reorder ('10' and '2' are array indexes). */
function labelled(labels: string[]) {
  const rows: CellValue[][] = Array.from({ length: 120 }, (_, i) => [
    i % 8,
    (i * 5) % 7,
    labels[(i % 8) >> 1],
  ]);
  return train({ columns: ['a', 'b', 'y'], rows }, { target: 'y', using: { max_iterations: 6 } });
}

describe('predictTable', () => {
  const labels = ['zeta', '10', 'alpha', '2'];
  const artifact = labelled(labels);
  const predictor = loadPredictor(artifact);

  it("compiles a multiclass model's vector-leaf trees (in groups), to the walk's numbers", () => {
    const gbm = deserializeGBM(artifact.model.gbm!);
    expect(gbm.leafDim).toBe(4);
    expect(compilesWell(gbm)).toBe(true);
    expect(compilesWell({ leafDim: 1 })).toBe(true);
    // A batch big enough to compile, predicted by a fresh predictor and by one that has walked.
    const m = 600;
    const big = {
      a: Array.from({ length: m }, (_, i) => i % 8),
      b: Array.from({ length: m }, (_, i) => i % 7),
    };
    const fresh = loadPredictor(artifact).predictTable!(big, m);
    expect(predictor.predictTable!(big, m)).toEqual(fresh);
  });

  const n = 30;
  const cols: Record<string, CellValue[]> = {
    a: Array.from({ length: n }, (_, i) => (i * 3) % 8),
    b: Array.from({ length: n }, (_, i) => i % 7),
    y: Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 'unknown' : labels[i % 4])),
  };

  it('answers a classifier as typed columns: one Float64Array per class, no object per row', () => {
    const t = predictor.predictTable!(cols, n);
    expect(t.confidence).toBeInstanceOf(Float64Array);
    expect(t.anomaly).toBeInstanceOf(Int8Array);
    expect(t.lower).toBeNull();
    expect(t.probabilities!.columns).toHaveLength(4);
    for (const c of t.probabilities!.columns) {
      expect(c).toBeInstanceOf(Float64Array);
      expect(c).toHaveLength(n);
    }
    // The class keys in the order an object assigned them in class order keeps them.
    const order: Record<string, number> = {};
    for (const c of predictor.description.classes!) order[String(c)] = 0;
    expect(t.probabilities!.names).toEqual(Object.keys(order));
    expect(t.probabilities!.names.slice(0, 2)).toEqual(['2', '10']);
  });

  it('holds the same values as the Prediction objects, row by row and class by class', () => {
    const t = predictor.predictTable!(cols, n);
    const objects = predictor.predictColumns!(cols, n);
    const { names, columns } = t.probabilities!;
    objects.forEach((p, i) => {
      expect(p.value).toBe(t.value[i]);
      expect(p.confidence).toBe(t.confidence[i]);
      expect(p.anomaly).toBe(t.anomaly[i] < 0 ? null : t.anomaly[i] === 1);
      expect(Object.keys(p.probabilities!)).toEqual(names);
      names.forEach((c, j) => expect(p.probabilities![c]).toBe(columns[j][i]));
      expect(p.confidence).toBe(p.probabilities![String(p.value)]);
    });
    // The truth's unknown label is always an anomaly; rows without truth have none.
    expect(t.anomaly[0]).toBe(1);
    const none = predictor.predictTable!({ a: cols.a, b: cols.b }, n);
    expect([...none.anomaly].every((x) => x === -1)).toBe(true);
  });

  it('answers a regression as value, interval and confidence columns', () => {
    const rows: CellValue[][] = Array.from({ length: 80 }, (_, i) => [
      i % 9,
      (i % 9) * 2.5 + (i % 3),
    ]);
    const p = loadPredictor(
      train({ columns: ['x', 'y'], rows }, { target: 'y', using: { max_iterations: 6 } }),
    );
    const x = Array.from({ length: 12 }, (_, i) => i % 9);
    const y = x.map((v, i) => (i === 4 ? 1000 : v * 2.5));
    const t = p.predictTable!({ x, y }, 12);
    const objects = p.predictColumns!({ x, y }, 12);
    expect(t.value).toBeInstanceOf(Float64Array);
    expect(t.probabilities).toBeNull();
    objects.forEach((o, i) => {
      expect(o).toEqual({
        value: t.value[i],
        confidence: t.confidence[i],
        lower: t.lower![i],
        upper: t.upper![i],
        anomaly: t.anomaly[i] === 1,
      });
      expect(o.lower!).toBeLessThan(o.upper!);
    });
    expect(t.anomaly[4]).toBe(1);
  });
});
