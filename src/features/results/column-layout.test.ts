import { describe, expect, it } from 'vitest';
import {
  MAX_COLUMN_PX,
  MAX_PINNED_PX,
  MIN_COLUMN_PX,
  columnWidth,
  layoutColumns,
  predictionColumns,
  sampleRows,
  spreadWidth,
} from './column-layout';
import { toGridColumns } from './grid-model';

describe('columnWidth', () => {
  it('fits a timestamp and a model name that a header-only width would cut', () => {
    const rows = [
      ['2026-11-23 10:58:51.123', 'home_rentals_model_with_a_long_name', 7],
      ['2026-11-23 11:00:00', 'm2', 8],
    ];
    const [at, name, n] = toGridColumns(['at', 'model', 'n'], rows);
    // 23 characters of timestamp at ~7 px, plus padding: wider than "at" alone would give.
    expect(columnWidth(at, rows)).toBeGreaterThanOrEqual(23 * 7 + 20);
    expect(columnWidth(name, rows)).toBeGreaterThanOrEqual(35 * 7 + 20);
    expect(columnWidth(n, rows)).toBe(MIN_COLUMN_PX);
  });

  it('caps long values and keeps short columns readable', () => {
    const rows = [['x'.repeat(5000), 1]];
    const [long, short] = toGridColumns(['doc', 'i'], rows);
    expect(columnWidth(long, rows)).toBe(MAX_COLUMN_PX);
    expect(columnWidth(short, rows)).toBeGreaterThanOrEqual(MIN_COLUMN_PX);
  });

  it('sizes from the header when it is the widest text', () => {
    const rows = [[1], [2]];
    const [c] = toGridColumns(['number_of_bathrooms'], rows);
    expect(columnWidth(c, rows)).toBeGreaterThan(19 * 7);
  });
});

describe('sampleRows', () => {
  it('takes every row of a small result and spreads over a large one', () => {
    expect(sampleRows(3)).toEqual([0, 1, 2]);
    const s = sampleRows(100_000, 200);
    expect(s).toHaveLength(200);
    expect(s.slice(0, 3)).toEqual([0, 1, 2]);
    expect(s[199]).toBeGreaterThan(99_000);
    expect(new Set(s).size).toBe(200);
  });
});

describe('predictionColumns', () => {
  it("finds a model query's target by its siblings, with its confidence", () => {
    const names = [
      'sqft',
      'location',
      'rental_price',
      'rental_price_confidence',
      'rental_price_min',
      'rental_price_max',
      'rental_price_explain',
    ];
    expect(predictionColumns(names)).toEqual([2, 3]);
  });
  it('takes targets named by the caller (a JOIN that selected only the prediction)', () => {
    expect(predictionColumns(['sqft', 'Rental_Price'], ['rental_price'])).toEqual([1]);
    expect(predictionColumns(['sqft', 'price'])).toEqual([]);
  });
});

describe('layoutColumns', () => {
  it('pins the prediction and its confidence, narrower than the cap, and nothing else', () => {
    const names = ['sqft', 'churn', 'churn_confidence', 'churn_explain'];
    const rows = [
      [1, 'Yes', 0.9, JSON.stringify({ predicted_value: 'Yes', note: 'y'.repeat(500) })],
    ];
    const layout = layoutColumns(toGridColumns(names, rows), rows);
    expect(layout.map((l) => l.pinned)).toEqual([false, true, true, false]);
    expect(layout.every((l) => l.width <= MAX_COLUMN_PX)).toBe(true);
    expect(layout.filter((l) => l.pinned).every((l) => l.width <= MAX_PINNED_PX)).toBe(true);
  });
  it('does not pin when the prediction is all there is', () => {
    const rows = [[1]];
    expect(layoutColumns(toGridColumns(['y'], rows), rows, ['y'])[0].pinned).toBe(false);
  });
});

describe('spreadWidth', () => {
  it('spreads spare width evenly and never shrinks a column', () => {
    expect(spreadWidth([50, 60, 70], 300, 360)).toEqual([90, 100, 110]);
    expect(spreadWidth([200, 200], 300, 360)).toEqual([200, 200]);
  });

  it('grows no column past the cap; what a capped column cannot take goes to the others', () => {
    // A long text already at the cap stays there; the three short ones share all the room.
    expect(spreadWidth([360, 100, 100, 100], 1000, 360)).toEqual([360, 213, 213, 213]);
    // One column reaches the cap midway; its leftover goes on to the other.
    expect(spreadWidth([340, 100], 800, 360)).toEqual([360, 360]);
  });

  it('leaves a column wider than the cap as it is', () => {
    expect(spreadWidth([400, 50], 600, 360)).toEqual([400, 200]);
  });
});
