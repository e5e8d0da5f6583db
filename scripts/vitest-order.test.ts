import { describe, expect, it } from 'vitest';
import { slowFirst } from './vitest-order.mjs';

const id = (p: string) => p;

describe('vitest-order: the slowest files first', () => {
  it('starts the named files first, in the list order, and keeps the others in theirs', () => {
    expect(slowFirst(['a', 'b', 'c', 'd', 'e'], id, ['d', 'b'])).toEqual(['d', 'b', 'a', 'c', 'e']);
  });

  it('skips names no file has: a stale list leaves the order as it was', () => {
    expect(slowFirst(['a', 'b', 'c'], id, ['gone', 'renamed'])).toEqual(['a', 'b', 'c']);
    expect(slowFirst(['a', 'b', 'c'], id, ['gone', 'c'])).toEqual(['c', 'a', 'b']);
  });

  it('compares the paths it is given', () => {
    const files = [{ p: 'x/b.ts' }, { p: 'x/a.ts' }];
    expect(slowFirst(files, (f) => f.p, ['x/a.ts'])).toEqual([{ p: 'x/a.ts' }, { p: 'x/b.ts' }]);
  });
});
