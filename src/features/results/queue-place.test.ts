import { describe, expect, it } from 'vitest';
import { ordinal, queuePlaceText } from './queue-place';

const entry = (query_id: string, position: number) => ({
  query_id,
  position,
  waiting_ms: 1200,
  short: false,
});

describe('ordinal', () => {
  it('says places as people say them', () => {
    expect(
      [1, 2, 3, 4, 10, 11, 12, 13, 14, 21, 22, 23, 101, 102, 111, 112, 113].map(ordinal),
    ).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '10th',
      '11th',
      '12th',
      '13th',
      '14th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '102nd',
      '111th',
      '112th',
      '113th',
    ]);
  });
});

describe('queuePlaceText', () => {
  it('names the place of the user own query, not of the others in line', () => {
    const queue = [entry('other-1', 1), entry('other-2', 2), entry('mine', 3)];
    expect(queuePlaceText(queue, ['mine'])).toBe('Waiting: 3rd in line');
  });

  it('takes the nearest of several own queries', () => {
    const queue = [entry('a', 1), entry('mine-2', 2), entry('b', 3), entry('mine-1', 4)];
    expect(queuePlaceText(queue, ['mine-1', 'mine-2'])).toBe('Waiting: 2nd in line');
  });

  it('says nothing while the query runs (it is no longer in line)', () => {
    expect(queuePlaceText([entry('other', 1)], ['mine'])).toBeNull();
    expect(queuePlaceText([], ['mine'])).toBeNull();
    expect(queuePlaceText([entry('mine', 1)], [])).toBeNull();
  });
});
