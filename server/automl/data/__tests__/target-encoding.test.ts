import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng';
import { fitTargetEncoding, targetEncodingStreams } from '../target-encoding';

describe('target encoding', () => {
  const values = ['a', 'a', 'a', 'a', 'b', 'b', 'c', null];
  const targets = Float64Array.of(1, 1, 1, 1, 0, 0, 1, 0);
  const fit = fitTargetEncoding({ values, kind: 'string', targets, K: 1, rng: new Rng(1) });

  it('stores smoothed means of categories seen at least twice, the prior for the rest', () => {
    const prior = 5 / 8;
    expect(fit.encoding.prior[0]).toBeCloseTo(prior, 12);
    expect(fit.encoding.keys).toEqual(['a', 'b']);
    const [s] = targetEncodingStreams(fit.encoding, ['a', 'b', 'c', 'zzz', null], 'string', 5);
    expect(s[0]).toBeCloseTo((4 + 10 * prior) / (4 + 10), 12);
    expect(s[1]).toBeCloseTo((0 + 10 * prior) / (2 + 10), 12);
    expect([s[2], s[3], s[4]]).toEqual([prior, prior, prior].map((p) => expect.closeTo(p, 12)));
  });

  it('gives training rows a value without their own target (out of fold)', () => {
    // 'c' occurs once: its only row never sees itself, so it gets the prior.
    expect(fit.oof[0][6]).toBeCloseTo(fit.encoding.prior[0], 12);
    // Every 'a' row's value comes from the other 'a' rows only (all 1), so it is above the prior.
    for (let i = 0; i < 4; i++) expect(fit.oof[0][i]).toBeGreaterThan(fit.encoding.prior[0]);
  });
});
