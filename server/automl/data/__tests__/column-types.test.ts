import { describe, expect, it } from 'vitest';
import {
  categoryKey,
  countDistinct,
  inferColumnType,
  parseDatetime,
  parseNumber,
} from '../column-types';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
import { Rng } from '../../prng';

const range = (n: number, f: (i: number) => unknown) => Array.from({ length: n }, (_, i) => f(i));

describe('parseNumber', () => {
  it('reads numbers, numeric strings, decimal commas and thousands separators', () => {
    expect(parseNumber(12)).toBe(12);
    expect(parseNumber(' 29.85 ')).toBe(29.85);
    expect(parseNumber('640,56')).toBe(640.56);
    expect(parseNumber('1,234,567')).toBe(1234567);
    expect(parseNumber('-1e3')).toBe(-1000);
    expect(parseNumber(true)).toBe(1);
  });
  it('returns NaN for blanks, NULL and text', () => {
    expect(parseNumber(' ')).toBeNaN();
    expect(parseNumber('')).toBeNaN();
    expect(parseNumber(null)).toBeNaN();
    expect(parseNumber('abc')).toBeNaN();
    expect(parseNumber('0x10')).toBeNaN();
  });
});

describe('inferColumnType', () => {
  it('treats unique sequential integers (RowNumber, id) as identifiers', () => {
    const p = inferColumnType(
      'RowNumber',
      range(200, (i) => i + 1),
    );
    expect(p.type).toBe('identifier');
    expect(p.dataType).toBe('integer');
    expect(
      inferColumnType(
        'id',
        range(200, (i) => String(i)),
      ).type,
    ).toBe('identifier');
  });
  it('treats unique integers with an id-like name (CustomerId) as identifiers, not other unique integers', () => {
    const rng = new Rng(3);
    const vals = range(500, () => 15_000_000 + rng.int(1_000_000));
    const uniq = [...new Set(vals)];
    expect(inferColumnType('CustomerId', uniq).type).toBe('identifier');
    expect(inferColumnType('customer_id', uniq).type).toBe('identifier');
    expect(inferColumnType('balance', uniq).type).toBe('integer');
  });
  it('treats unique short strings (customerID) and rarely repeating names (Surname) as identifiers', () => {
    expect(
      inferColumnType(
        'customerID',
        range(300, (i) => `${1000 + i}-ABCDE`),
      ).type,
    ).toBe('identifier');
    // 1000 rows, 300 distinct names, most of them seen once: like Surname in the bank data.
    const names = range(1000, (i) => (i < 200 ? `Name${i}` : `Common${i % 100}`));
    expect(inferColumnType('Surname', names).type).toBe('identifier');
  });
  it('finds binary columns: 0/1, Yes/No, booleans', () => {
    expect(
      inferColumnType(
        'HasCrCard',
        range(100, (i) => i % 2),
      ).type,
    ).toBe('binary');
    const yn = inferColumnType(
      'Partner',
      range(100, (i) => (i % 3 ? 'Yes' : 'No')),
    );
    expect(yn.type).toBe('binary');
    expect(yn.valueKind).toBe('string');
    const b = inferColumnType(
      'flag',
      range(100, (i) => i % 2 === 0),
    );
    expect(b.type).toBe('binary');
    expect(b.valueKind).toBe('boolean');
  });
  it('types small-range integer scales as integer (number_of_rooms 0-3) unless they look like codes', () => {
    const rooms = inferColumnType(
      'number_of_rooms',
      range(100, (i) => i % 4),
    );
    expect(rooms.type).toBe('integer');
    expect(rooms.valueKind).toBe('number');
    // Evidence of codes: a code-like name, or values leaving most of their range unused.
    expect(inferColumnType('plan_code', range(100, (i) => i % 4)).type).toBe('categorical');
    expect(inferColumnType('segmentType', range(100, (i) => 1 + (i % 3))).type).toBe('categorical');
    const gaps = inferColumnType('x', range(100, (i) => [1, 4, 9][i % 3]));
    expect(gaps.type).toBe('categorical');
    expect(gaps.valueKind).toBe('number');
    expect(
      inferColumnType(
        'age',
        range(100, (i) => 18 + (i % 60)),
      ).type,
    ).toBe('integer');
  });
  it('types low-cardinality strings as categorical', () => {
    expect(
      inferColumnType(
        'location',
        range(100, (i) => ['good', 'great', 'poor'][i % 3]),
      ).type,
    ).toBe('categorical');
  });
  it('reads numeric strings with blanks as numbers with missing values (telco TotalCharges)', () => {
    const vals = range(100, (i) => (i === 5 ? ' ' : i === 6 ? '' : String(10 + i * 1.25)));
    const p = inferColumnType('TotalCharges', vals);
    expect(p.type).toBe('float');
    expect(p.nMissing).toBe(2);
  });
  it('tolerates a decimal comma in an integer column (home_rentals sqft)', () => {
    const vals: unknown[] = range(300, (i) => 400 + i * 3);
    vals[10] = '640,56';
    expect(inferColumnType('sqft', vals).type).toBe('integer');
  });
  it('detects ISO dates and timestamps', () => {
    const d = inferColumnType(
      'day',
      range(50, (i) => `2024-01-${String(1 + (i % 28)).padStart(2, '0')}`),
    );
    expect(d.type).toBe('datetime');
    expect(
      inferColumnType(
        'ts',
        range(50, (i) => `2024-03-01 12:${String(i).padStart(2, '0')}:00`),
      ).type,
    ).toBe('datetime');
    expect(parseDatetime('2024-03-01 12:30:00')).toBe(Date.UTC(2024, 2, 1, 12, 30));
  });
  it("reads dates written with the month's name, and types such a column datetime", () => {
    expect(parseDatetime('Jun 12 1998')).toBe(Date.UTC(1998, 5, 12));
    expect(parseDatetime('June 12, 1998')).toBe(Date.UTC(1998, 5, 12));
    expect(parseDatetime('Sept. 3 2001')).toBe(Date.UTC(2001, 8, 3));
    expect(parseDatetime('12 Jun 1998')).toBe(Date.UTC(1998, 5, 12));
    expect(parseDatetime('12-Jun-1998')).toBe(Date.UTC(1998, 5, 12));
    for (const notADate of ['Feb 30 2001', 'Jun 12', 'Juni 12 1998x', 'Mr 12 1998', 'Ju 1 2000']) {
      expect(parseDatetime(notADate), notADate).toBeNaN();
    }
    const released = range(60, (i) => `${MONTHS[i % 12]} ${String(1 + (i % 28)).padStart(2, '0')} ${1990 + (i % 20)}`);
    expect(inferColumnType('Release Date', released).type).toBe('datetime');
  });
  it('detects free text', () => {
    const words = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog'];
    const vals = range(
      200,
      (i) => range(6 + (i % 5), (j) => words[(i * 7 + j * 3) % 8]).join(' ') + ` #${i}`,
    );
    expect(inferColumnType('review', vals).type).toBe('text');
  });
  it('flags constant and empty columns', () => {
    expect(
      inferColumnType(
        'c',
        range(50, () => 'x'),
      ).constant,
    ).toBe(true);
    expect(
      inferColumnType(
        'e',
        range(50, () => null),
      ).type,
    ).toBe('empty');
  });
  it('types non-integer numbers as float', () => {
    expect(
      inferColumnType(
        'w',
        range(100, (i) => i / 3),
      ).type,
    ).toBe('float');
  });
});

describe('countDistinct', () => {
  it('counts distinct numbers as a Map keys them, quickly also for integers and repeats', () => {
    const rng = new Rng(4);
    const cases = [
      Float64Array.from({ length: 50_000 }, (_, i) => i),
      Float64Array.from({ length: 50_000 }, (_, i) => i % 7),
      Float64Array.from({ length: 50_000 }, () => rng.next() * 100),
      Float64Array.from({ length: 50_000 }, () => Math.round(rng.next() * 1000) / 10),
      Float64Array.of(0, -0, 1e-300, -1e300, 2 ** 53, 2 ** 53 + 2, 0.1 + 0.2, 0.3),
      new Float64Array(0),
    ];
    for (const xs of cases) expect(countDistinct(xs)).toBe(new Set(xs).size);
  });
});

describe('categoryKey', () => {
  it('keys numeric categories alike whether they arrive as 1, "1" or "1.0"', () => {
    expect(categoryKey(1, 'number')).toBe('1');
    expect(categoryKey('1', 'number')).toBe('1');
    expect(categoryKey('1.0', 'number')).toBe('1');
    expect(categoryKey(' Yes ', 'string')).toBe('Yes');
    expect(categoryKey(true, 'boolean')).toBe('true');
    expect(categoryKey(0, 'boolean')).toBe('false');
    expect(categoryKey('', 'string')).toBeNull();
  });
});
