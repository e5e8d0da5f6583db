import { describe, expect, it } from 'vitest';
import type { CellValue, ModelDescription, Prediction, Predictor } from '../../api';
import { loadPredictor, train } from '../../index';
import { Rng } from '../../prng';
import { categoryGrid, numericGrid, partialDependence } from '../effects';

/** A stand-in model whose prediction is 2.5 x + 10 [c = 'a'] (its description is all PD reads). */
function linearFake(): Predictor {
  const description = { task: 'regression', inputs: ['x', 'c'] } as unknown as ModelDescription;
  const predictColumns = (cols: Record<string, CellValue[]>, n: number): Prediction[] =>
    Array.from({ length: n }, (_, i) => ({
      value: 2.5 * Number(cols.x[i]) + (cols.c[i] === 'a' ? 10 : 0),
      confidence: 0.9,
      lower: null,
      upper: null,
      anomaly: null,
    }));
  return { description, predict: () => [], predictColumns };
}

describe('partial dependence', () => {
  const frame = {
    columns: {
      x: [1, 2, 3, 4, 5, 6, 7, 8],
      c: ['a', 'b', 'a', 'b', 'a', 'b', 'b', 'b'],
    },
    n: 8,
  };

  it('of a model linear in an input is a line with that slope; ICE lines are parallel', () => {
    const r = partialDependence(linearFake(), frame, { column: 'x', kind: 'number' });
    expect(r.grid).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The average over rows: 2.5 g + 10 * 3/8.
    r.grid.forEach((g, j) => expect(r.average[j]).toBeCloseTo(2.5 * Number(g) + 3.75, 12));
    expect(r.ice).toHaveLength(8);
    for (const line of r.ice)
      for (let j = 1; j < line.length; j++) expect(line[j] - line[j - 1]).toBeCloseTo(2.5, 12);
    expect(r.distribution.map((d) => d.count)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('of a category is the average at each category, most frequent first', () => {
    const r = partialDependence(linearFake(), frame, { column: 'c', kind: 'category' });
    expect(r.grid).toEqual(['b', 'a']);
    expect(r.average[0]).toBeCloseTo(2.5 * 4.5, 12);
    expect(r.average[1]).toBeCloseTo(2.5 * 4.5 + 10, 12);
    expect(r.distribution).toEqual([
      { label: 'b', count: 5 },
      { label: 'a', count: 3 },
    ]);
  });

  it('of a trained linear model is a line with its fitted slope', () => {
    const rng = new Rng(3);
    const rnd = () => rng.next();
    const rows = Array.from({ length: 400 }, () => {
      const x = rnd() * 100;
      const c = rnd() < 0.5 ? 'u' : 'v';
      return [x, c, 3 * x + (c === 'v' ? 40 : 0) + (rnd() - 0.5)];
    });
    const artifact = train(
      { columns: ['x', 'c', 'y'], rows },
      { target: 'y', using: { model: 'linear' } },
    );
    const p = loadPredictor(artifact);
    const columns = { x: rows.map((r) => r[0]), c: rows.map((r) => r[1]) } as Record<
      string,
      CellValue[]
    >;
    const r = partialDependence(p, { columns, n: rows.length }, { column: 'x', kind: 'number' });
    const g = r.grid as number[];
    expect(g).toHaveLength(20);
    const slope = (r.average[19] - r.average[0]) / (g[19] - g[0]);
    expect(slope).toBeGreaterThan(2.97);
    expect(slope).toBeLessThan(3.03);
    // Every segment has the same slope: a line.
    for (let j = 1; j < g.length; j++)
      expect((r.average[j] - r.average[j - 1]) / (g[j] - g[j - 1])).toBeCloseTo(slope, 9);
  });

  it('of a classifier averages the chosen class probability', () => {
    const rng = new Rng(5);
    const rnd = () => rng.next();
    const rows = Array.from({ length: 300 }, () => {
      const x = rnd() * 10;
      return [x, rnd() * 10, x + (rnd() - 0.5) * 2 > 5 ? 'yes' : 'no'];
    });
    const p = loadPredictor(train({ columns: ['x', 'z', 'y'], rows }, { target: 'y' }));
    const columns = { x: rows.map((r) => r[0]), z: rows.map((r) => r[1]) } as Record<
      string,
      CellValue[]
    >;
    const r = partialDependence(
      p,
      { columns, n: rows.length },
      { column: 'x', kind: 'number', classLabel: 'yes', iceRows: 5 },
    );
    expect(r.ice).toHaveLength(5);
    for (const a of r.average) expect(a).toBeGreaterThanOrEqual(0);
    expect(r.average[0]).toBeLessThan(0.2);
    expect(r.average[r.average.length - 1]).toBeGreaterThan(0.8);
    expect(() =>
      partialDependence(
        p,
        { columns, n: 300 },
        { column: 'x', kind: 'number', classLabel: 'maybe' },
      ),
    ).toThrow(/'no', 'yes'|'yes', 'no'/);
  });
});

describe('grids', () => {
  it('keep few distinct values as they are', () => {
    expect(numericGrid([3, 1, 2, 2, null, 'x', 3])).toEqual([1, 2, 3]);
  });

  it('span the 5th to 95th percentile evenly, whole numbers for integer columns', () => {
    const v = Array.from({ length: 101 }, (_, i) => i);
    expect(numericGrid(v, 5)).toEqual([5, 28, 50, 73, 95]);
    const f = Array.from({ length: 101 }, (_, i) => i / 10);
    expect(numericGrid(f, 3)).toEqual([0.5, 5, 9.5]);
  });

  it('order categories by frequency, ties by value, missing left out', () => {
    expect(categoryGrid(['b', 'a', null, 'c', 'a', '', 'b'])).toEqual(['a', 'b', 'c']);
  });
});
