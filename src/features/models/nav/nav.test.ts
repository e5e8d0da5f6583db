import { describe, expect, it } from 'vitest';
import { asVersion, modelUrlParams } from './nav';

describe('model version in the URL', () => {
  it('reads version= as a positive integer, else the active version', () => {
    expect(asVersion('2')).toBe(2);
    expect(asVersion('10')).toBe(10);
    for (const bad of [undefined, '', '0', '-1', '1.5', 'x', '2x', '1e3'])
      expect(asVersion(bad)).toBeUndefined();
  });

  it('builds the model page parameters, version only when pinned', () => {
    expect(modelUrlParams('mindsdb', 'm')).toEqual({ project: 'mindsdb', model: 'm' });
    expect(modelUrlParams('mindsdb', 'm', 'overview', 1)).toEqual({
      project: 'mindsdb',
      model: 'm',
      version: '1',
    });
    expect(modelUrlParams('p', 'm', 'predict', 2)).toEqual({
      project: 'p',
      model: 'm',
      tab: 'predict',
      version: '2',
    });
  });
});
