import { describe, expect, it } from 'vitest';
import { categoryAxisWidth, chartAxes, chartFont } from './chart-style';

describe('chart style', () => {
  it('captions a horizontal axis below its ticks, in the label size of the room', () => {
    expect(chartAxes(chartFont(false), '#123').x('sqft')).toEqual({
      stroke: '#123',
      tick: { fill: '#123', fontSize: 11 },
      label: { value: 'sqft', position: 'insideBottom', offset: -12, fill: '#123', fontSize: 12 },
    });
    expect(chartAxes(chartFont(true), '#123').x('sqft', -16)).toMatchObject({
      tick: { fontSize: 14 },
      label: { offset: -16, fontSize: 15 },
    });
  });

  it('captions a vertical axis along its left side, read bottom to top, centred', () => {
    expect(chartAxes(chartFont(false), '#abc').y('rental_price')).toEqual({
      stroke: '#abc',
      tick: { fill: '#abc', fontSize: 11 },
      label: {
        value: 'rental_price',
        position: 'insideLeft',
        angle: -90,
        style: { textAnchor: 'middle' },
        fill: '#abc',
        fontSize: 12,
      },
    });
    expect(chartAxes(chartFont(true), '#abc').y('y', -12).label).toMatchObject({
      offset: -12,
      fontSize: 15,
    });
  });

  it('draws no caption where none is given', () => {
    const axes = chartAxes(chartFont(false), '#000');
    expect(axes.x()).not.toHaveProperty('label');
    expect(axes.y('')).not.toHaveProperty('label');
  });

  it('shows every category of a category axis, on an axis as wide as its longest label', () => {
    expect(chartAxes(chartFont(false), '#000').category(['sqft', 'number_of_bathrooms'])).toEqual({
      type: 'category',
      stroke: '#000',
      tick: { fill: '#000', fontSize: 11 },
      interval: 0,
      width: 151,
    });
    expect(chartAxes(chartFont(true), '#000').category(['x'.repeat(100)]).width).toBe(260);
  });

  it('labels a reference line above it, in the ticks’ type', () => {
    expect(chartAxes(chartFont(true), '#fff').mark('drift')).toEqual({
      value: 'drift',
      position: 'top',
      fill: '#fff',
      fontSize: 14,
    });
  });

  it('sizes a category axis to its longest label, within bounds', () => {
    expect(categoryAxisWidth(['a'], chartFont(false))).toBe(60);
    expect(categoryAxisWidth(['number_of_bathrooms'], chartFont(false))).toBe(151);
    expect(categoryAxisWidth(['x'.repeat(100)], chartFont(true))).toBe(260);
  });
});
