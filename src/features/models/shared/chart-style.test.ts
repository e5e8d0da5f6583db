import { describe, expect, it } from 'vitest';
import { axisCaption, categoryAxisWidth, chartFont } from './chart-style';

describe('chart style', () => {
  it('captions a horizontal axis below its ticks, in the label size of the room', () => {
    expect(axisCaption('sqft', chartFont(false), '#123')).toEqual({
      value: 'sqft',
      position: 'insideBottom',
      offset: -12,
      fill: '#123',
      fontSize: 12,
    });
    expect(axisCaption('sqft', chartFont(true), '#123', -16)).toMatchObject({
      offset: -16,
      fontSize: 15,
    });
  });

  it('sizes a category axis to its longest label, within bounds', () => {
    expect(categoryAxisWidth(['a'], chartFont(false))).toBe(60);
    expect(categoryAxisWidth(['number_of_bathrooms'], chartFont(false))).toBe(151);
    expect(categoryAxisWidth(['x'.repeat(100)], chartFont(true))).toBe(260);
  });
});
