import { describe, expect, it } from 'vitest';
import type { DescribeSummaryRow } from '../../../../contract';
import {
  otherModelToCompare,
  compareImportances,
  compareMetrics,
  comparePredictions,
  formatModelRef,
  parseModelRef,
  refLabel,
  rowsSource,
} from './compare';
import type { PredictionView } from '../inputs';

const summary = (over: Partial<DescribeSummaryRow>): DescribeSummaryRow => ({
  accuracies: {},
  column_importances: {},
  inputs: [],
  outputs: ['y'],
  ...over,
});

const regressionMetrics = (mae: number, r2: number, train: number) => ({
  task: 'regression' as const,
  target: 'y',
  rows: { train, validation: 100 },
  primary: { name: 'r2_score', label: 'R²', value: r2 },
  regression: {
    mae,
    rmse: mae * 1.5,
    r2,
    baseline: { kind: 'mean' as const, mae: 900, rmse: 1100, r2: 0 },
    sample: { actual: [], predicted: [] },
  },
});

const view = (prediction: unknown, original: unknown = null): PredictionView => ({
  index: 0,
  prediction,
  confidence: null,
  lower: null,
  upper: null,
  anomaly: null,
  original,
  probabilities: {},
  explain: null,
  explainError: null,
  inputs: {},
});

describe('model references in the compare URL', () => {
  it('reads project.model and project.model.N and writes them back', () => {
    expect(parseModelRef('mindsdb.home_rentals_model')).toEqual({
      project: 'mindsdb',
      model: 'home_rentals_model',
    });
    expect(parseModelRef('mindsdb.m_2.3')).toEqual({
      project: 'mindsdb',
      model: 'm_2',
      version: 3,
    });
    expect(formatModelRef({ project: 'p', model: 'm', version: 3 })).toBe('p.m.3');
    expect(parseModelRef('nodot')).toBeUndefined();
    expect(parseModelRef(undefined)).toBeUndefined();
    expect(refLabel({ project: 'p', model: 'm' }, 2)).toBe('m v2');
  });
});

describe('compareMetrics', () => {
  it('lines up the same metric on both sides and marks the better one by its direction', () => {
    const rows = compareMetrics(
      summary({ metrics: regressionMetrics(12, 0.99, 800), accuracies: { r2_score: 0.99 } }),
      summary({ metrics: regressionMetrics(15, 0.995, 800), accuracies: { r2_score: 0.995 } }),
    );
    expect(rows.map((r) => r.key)).toEqual(['mae', 'rmse', 'r2', 'rows_train', 'rows_validation']);
    expect(rows[0]).toMatchObject({ a: 12, b: 15, better: 'a' }); // lower error wins
    expect(rows[2]).toMatchObject({ a: 0.99, b: 0.995, better: 'b' }); // higher r2 wins
    expect(rows[3]).toMatchObject({ a: 800, b: 800, better: null }); // counts are not "better"
  });

  it('falls back to the accuracies of servers without metrics, by meaning and in words', () => {
    const rows = compareMetrics(
      summary({ accuracies: { balanced_accuracy_score: 0.7, mase: 0.8, some_metric: 2 } }),
      summary({
        accuracies: { balanced_accuracy_score: 0.7, f1_score: 0.6, mase: 0.5, some_metric: 3 },
      }),
    );
    expect(rows).toEqual([
      expect.objectContaining({ key: 'balanced_accuracy', a: 0.7, b: 0.7, better: 'tie' }),
      expect.objectContaining({ key: 'acc:f1_score', name: 'F1 score', a: null, b: 0.6 }),
      // MASE: lower is better, so B's 0.5 beats A's 0.8.
      expect.objectContaining({
        key: 'acc:mase',
        name: 'Error vs repeating last season',
        higherIsBetter: false,
        better: 'b',
      }),
      // A key nobody knows: readable, and no side called better.
      expect.objectContaining({ key: 'acc:some_metric', name: 'some metric', better: null }),
    ]);
  });
});

describe('compareImportances', () => {
  it('takes the union of columns, most important on either side first', () => {
    expect(compareImportances({ a: 0.1, b: 0.5 }, { b: 0.2, c: 0.9 })).toEqual([
      { column: 'c', a: null, b: 0.9 },
      { column: 'b', a: 0.5, b: 0.2 },
      { column: 'a', a: 0.1, b: null },
    ]);
  });
});

describe('comparePredictions', () => {
  it('pairs numeric predictions row by row with their difference and error against the truth', () => {
    const rows = [
      { sqft: 1, y: 100 },
      { sqft: 2, y: 200 },
    ];
    const c = comparePredictions(rows, 'y', [view(110), view(190)], [view(100), view(230)]);
    expect(c.numeric).toBe(true);
    expect(c.pairs.map((p) => [p.actual, p.a, p.b, p.diff])).toEqual([
      [100, 110, 100, -10],
      [200, 190, 230, 40],
    ]);
    expect(c.meanAbsDiff).toBe(25);
    expect(c.maxAbsDiff).toBe(40);
    expect(c.errorA).toBe(10);
    expect(c.errorB).toBe(15);
    expect(c.agreeing).toBe(0);
  });

  it('counts agreement for classes and the share each side got right', () => {
    const rows = [{ x: 1 }, { x: 2 }, { x: 3 }];
    const c = comparePredictions(
      rows,
      'label',
      [view('Yes', 'Yes'), view('No', 'Yes'), view('No', 'No')],
      [view('Yes'), view('Yes'), view('Yes')],
    );
    expect(c.numeric).toBe(false);
    expect(c.agreeing).toBe(1);
    expect(c.pairs[1].actual).toBe('Yes');
    expect(c.errorA).toBeCloseTo(2 / 3, 9);
    expect(c.errorB).toBeCloseTo(2 / 3, 9);
    expect(c.meanAbsDiff).toBeNull();
  });

  it('only pairs the rows both sides answered', () => {
    const c = comparePredictions([{ a: 1 }, { a: 2 }], undefined, [view(1)], [view(1), view(2)]);
    expect(c.pairs).toHaveLength(1);
    expect(c.pairs[0].agree).toBe(true);
  });
});

describe('rowsSource', () => {
  it('predicts on the rows of the side whose inputs cover the other’s', () => {
    expect(rowsSource(['sqft', 'location'], ['sqft', 'location', 'initial_price'])).toEqual({
      side: 'b',
      missing: [],
    });
    expect(rowsSource(['sqft', 'Location'], ['location'])).toEqual({ side: 'a', missing: [] });
  });

  it('falls back to A and names what B will get as missing', () => {
    expect(rowsSource(['sqft', 'x'], ['sqft', 'y'])).toEqual({ side: 'a', missing: ['y'] });
  });
});

describe('otherModelToCompare', () => {
  const m = (name: string, predict: string, status = 'complete') => ({ name, predict, status });
  it('prefers a complete model of the same target, in any spelling', () => {
    const models = [
      m('house_forecaster', 'ma'),
      m('rentals_training', 'rental_price', 'training'),
      m('rentals_b', 'Rental_Price'),
      m('rentals_a', 'rental_price'),
    ];
    expect(otherModelToCompare(models, 'RENTALS_A', 'rental_price')?.name).toBe('rentals_b');
  });
  it('falls back to any other complete model, and to none', () => {
    expect(otherModelToCompare([m('a', 'y'), m('b', 'z')], 'a', 'y')?.name).toBe('b');
    expect(otherModelToCompare([m('a', 'y'), m('b', 'z', 'error')], 'a', 'y')).toBeUndefined();
  });
});
