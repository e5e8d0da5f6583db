/**
 * The prediction thread's kept predictors (predict-thread/kept.ts): using a version keeps its
 * compiled predictor, so a batch of many slices compiles its model once; the least recently used
 * goes past the limit, and a dropped version goes at once.
 */
import { describe, expect, it } from 'vitest';
import { KeptVersions } from '../predict-thread/kept';

const v = (name: string, version = 1) => ({ project: 'mindsdb', name, version });

function kept(max: number) {
  const evicted: string[] = [];
  const k = new KeptVersions({ delete: (x) => evicted.push(`${x.name}.${x.version}`) }, max);
  return { k, evicted };
}

describe('the prediction thread keeps compiled predictors', () => {
  it('keeps a version across all the slices of a batch', () => {
    const { k, evicted } = kept(4);
    for (let slice = 0; slice < 25; slice++) k.use(v('rentals'));
    expect(evicted).toEqual([]);
  });

  it('evicts the least recently used past its limit, and a dropped version at once', () => {
    const { k, evicted } = kept(2);
    k.use(v('a'));
    k.use(v('b'));
    k.use(v('a')); // a is now the most recent
    k.use(v('c'));
    expect(evicted).toEqual(['b.1']);
    k.use(v('a', 2)); // another version of a is another predictor: a.1 is now the least recent
    expect(evicted).toEqual(['b.1', 'a.1']);
    k.forget(v('a', 2));
    expect(evicted).toEqual(['b.1', 'a.1', 'a.2']);
  });
});
