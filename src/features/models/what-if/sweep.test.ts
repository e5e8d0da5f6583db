import { describe, expect, it } from 'vitest';
import { toPredictionViews, type FormField, type OptionValue } from '../inputs';
import {
  buildSweepRows,
  fallbackRange,
  sweepableFields,
  sweepCategories,
  sweepKind,
  sweepSeries,
  sweepValues,
} from './sweep';

describe('sweepValues', () => {
  it('spaces N values evenly from min to max, both included', () => {
    const v = sweepValues(0, 10, 5, false);
    expect(v).toEqual([0, 2.5, 5, 7.5, 10]);
    expect(sweepValues(101, 1249, 50, false)).toHaveLength(50);
  });

  it('rounds integers and drops repeats', () => {
    expect(sweepValues(0, 3, 10, true)).toEqual([0, 1, 2, 3]);
  });

  it('orders a reversed range, and gives one value for an empty range', () => {
    expect(sweepValues(10, 0, 3, true)).toEqual([0, 5, 10]);
    expect(sweepValues(4, 4, 50, true)).toEqual([4]);
    expect(sweepValues(Number.NaN, 4, 50, true)).toEqual([]);
  });
});

describe('buildSweepRows and sweepSeries', () => {
  it('keeps the other inputs fixed and sets the swept one', () => {
    expect(buildSweepRows({ sqft: 1, location: 'good' }, 'sqft', [5, 6])).toEqual([
      { sqft: 5, location: 'good' },
      { sqft: 6, location: 'good' },
    ]);
  });

  it('charts the prediction with its band, and class probabilities', () => {
    const views = toPredictionViews(
      [
        {
          y: 10,
          y_min: 8,
          y_max: 12,
          __service_row_id: 0,
          select_data_query: null,
          when_data: null,
        },
        {
          y: 'a',
          y_explain:
            '{"predicted_value":"a","confidence":0.7,"anomaly":null,"truth":null,"confidence_lower_bound":null,"confidence_upper_bound":null,"probability_class_a":0.7,"probability_class_b":0.3}',
          __service_row_id: 1,
          select_data_query: null,
          when_data: null,
        },
      ],
      'y',
      [],
    );
    const s = sweepSeries([1, 2], views);
    expect(s.points[0]).toEqual({ x: 1, label: '1', prediction: 10, band: [8, 12] });
    expect(s.points[1]).toMatchObject({ x: 2, prediction: null, band: null, p_a: 0.7, p_b: 0.3 });
    expect(s.classes).toEqual(['a', 'b']);
  });

  it('falls back to a range around the current value', () => {
    expect(fallbackRange(100)).toEqual([50, 150]);
    expect(fallbackRange(undefined)).toEqual([0, 100]);
  });
});

describe('categorical sweeps', () => {
  it('sets each category in turn and labels the points with it', () => {
    expect(buildSweepRows({ sqft: 900, location: 'good' }, 'location', ['great', 'poor'])).toEqual([
      { sqft: 900, location: 'great' },
      { sqft: 900, location: 'poor' },
    ]);
    const rows = [0, 1].map((i) => ({
      y: 5 + i,
      __service_row_id: i,
      select_data_query: null,
      when_data: null,
    }));
    const s = sweepSeries([true, false], toPredictionViews(rows, 'y', []));
    expect(s.points.map((p) => [p.label, p.prediction])).toEqual([
      ['true', 5],
      ['false', 6],
    ]);
  });
});

describe('sweepable inputs', () => {
  const field = (
    name: string,
    kind: FormField['kind'],
    importance: number,
    options: OptionValue[] = [],
  ) => ({
    name,
    type: kind,
    kind,
    integer: false,
    options,
    importance,
  });

  it('offers numeric inputs and categorical inputs with known values, most important first', () => {
    const fields = [
      field('sqft', 'number', 0.2),
      field('location', 'choice', 0.5, ['good', 'great', 'poor']),
      field('note', 'text', 0.9),
      field('neighborhood', 'choice', 0.9, []),
    ];
    expect(sweepableFields(fields).map((f) => f.name)).toEqual(['location', 'sqft']);
    expect(sweepKind(fields[0])).toBe('range');
    expect(sweepKind(fields[1])).toBe('categories');
    expect(sweepKind(fields[3])).toBeNull();
    expect(sweepCategories(fields[1])).toEqual(['good', 'great', 'poor']);
  });
});
