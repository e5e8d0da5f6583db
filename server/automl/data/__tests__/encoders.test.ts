import { describe, expect, it } from 'vitest';
import { AutoMLError } from '../../errors';
import { Rng } from '../../prng';
import { inferColumnType } from '../column-types';
import { MAX_CATEGORIES, fitCategories, fitEncoders, type CategoricalEncoder } from '../encoders';
import { buildLayout, encodeCategories, parseStreams } from '../layout';
import { parseNumericColumn } from '../parse';

describe('categorical codes', () => {
  it('orders categories by frequency and maps unseen and missing values to their own codes', () => {
    const enc: CategoricalEncoder = {
      kind: 'categorical',
      column: 'loc',
      type: 'categorical',
      valueKind: 'string',
      keys: fitCategories(['b', 'a', 'b', 'c', 'b', 'a'], 'string'),
      nOneHot: 3,
    };
    expect(enc.keys).toEqual(['b', 'a', 'c']);
    expect(Array.from(encodeCategories(enc, ['a', 'zzz', null, ' b', ''], 5))).toEqual([
      1, 3, 4, 0, 4,
    ]);
  });
  it('caps a 100k-distinct column at 253 categories', () => {
    const vals = Array.from({ length: 100_000 }, (_, i) => `v${i % 100_000}`);
    const keys = fitCategories(vals, 'string');
    expect(keys.length).toBe(MAX_CATEGORIES);
  });
  it('keys numeric categories the same for numbers and numeric strings', () => {
    const enc: CategoricalEncoder = {
      kind: 'categorical',
      column: 'rooms',
      type: 'categorical',
      valueKind: 'number',
      keys: fitCategories([0, 1, 2, 1], 'number'),
      nOneHot: 3,
    };
    expect(Array.from(encodeCategories(enc, [1, '1', '2.0', 3], 4))).toEqual([0, 0, 2, 3]);
  });
});

describe('parsing prediction inputs', () => {
  it('casts numeric strings and names column and row of an uncastable value', () => {
    expect(
      Array.from(parseNumericColumn(['1000', 5, '', null, '640,56'], 5, true, 'sqft')),
    ).toEqual([1000, 5, NaN, NaN, 640.56]);
    let err: unknown;
    try {
      parseNumericColumn([1, 2, 'abc'], 3, true, 'sqft');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AutoMLError);
    expect((err as AutoMLError).message).toContain("column 'sqft' in row 2");
    expect((err as AutoMLError).column).toBe('sqft');
    expect((err as AutoMLError).row).toBe(2);
  });
  it('splits datetimes into year, month, day, weekday, hour and epoch days', () => {
    const vals = ['2024-03-15 10:30:00', '2024-03-16 00:00:00', '2024-03-17 00:00:00'];
    const encs = fitEncoders([inferColumnType('ts', vals)], [vals], new Rng(1));
    expect(encs[0].kind).toBe('datetime');
    const streams = parseStreams(encs, [['2024-03-15T10:30:00Z']], 1, true);
    expect(streams.map((s) => s[0])).toEqual([
      2024,
      3,
      15,
      5,
      10.5,
      Date.UTC(2024, 2, 15, 10, 30) / 86_400_000,
    ]);
    expect(buildLayout(encs).encoderFeatures[0]).toHaveLength(6);
  });
});
