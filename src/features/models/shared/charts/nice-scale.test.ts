import { describe, expect, it } from 'vitest';
import { niceDomain, niceStep, niceTicks } from './nice-scale';

describe('nice scales', () => {
  it('steps by 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceStep(5500, 10)).toBe(1000);
    expect(niceStep(208, 10)).toBe(25);
    expect(niceStep(0.9, 8)).toBe(0.2);
  });

  it('rounds a domain outward and spaces ticks evenly inside it', () => {
    expect(niceDomain(571.2, 5531.8, 10)).toEqual([500, 6000]);
    expect(niceTicks([500, 6000], 5)).toEqual([1000, 2000, 3000, 4000, 5000, 6000]);
    expect(niceTicks([-60, 60], 4)).toEqual([-50, -25, 0, 25, 50]);
    expect(niceTicks([0, 1], 4)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
});
