import { describe, expect, it } from 'vitest';
import {
  exportFileName,
  exportScopeLabel,
  resultBaseName,
  toCsv,
  toJson,
  uniqueNames,
} from './export';

describe('toCsv', () => {
  it('writes a header and rows with RFC 4180 quoting', () => {
    const csv = toCsv(
      ['id', 'note', 'id'],
      [
        [1, 'plain', 2],
        [2, 'has, comma', null],
        [3, 'say "hi"\nbye', 4],
      ],
    );
    expect(csv).toBe('id,note,id\r\n1,plain,2\r\n2,"has, comma",\r\n3,"say ""hi""\nbye",4\r\n');
  });

  it('writes nested values as JSON and NULL as empty', () => {
    expect(toCsv(['j', 'n'], [[{ a: [1, 2] }, null]])).toBe('j,n\r\n"{""a"":[1,2]}",\r\n');
  });

  it('quotes values with leading or trailing spaces', () => {
    expect(toCsv(['s'], [[' x']])).toBe('s\r\n" x"\r\n');
  });
});

describe('toJson', () => {
  it('writes row objects with unique keys for duplicate names', () => {
    expect(JSON.parse(toJson(['a', 'a', 'b'], [[1, 2, null]]))).toEqual([
      { a: 1, a_2: 2, b: null },
    ]);
    expect(uniqueNames(['x', 'x', 'x_2', 'x'])).toEqual(['x', 'x_2', 'x_2_2', 'x_3']);
  });
  it('keeps nested values and big integers as sent', () => {
    expect(JSON.parse(toJson(['v', 'big'], [[{ k: [true] }, '18014398509481986']]))).toEqual([
      { v: { k: [true] }, big: '18014398509481986' },
    ]);
  });
});

describe('file names', () => {
  it('derives a safe name from the SQL', () => {
    expect(resultBaseName('SELECT * FROM example_db.demo_data.home_rentals LIMIT 10')).toBe(
      'home_rentals',
    );
    expect(resultBaseName('SHOW DATABASES')).toBe('result');
    expect(exportFileName('a b/c', 'csv', new Date('2024-05-01T10:20:30Z'))).toBe(
      'a_b_c-2024-05-01T10-20-30.csv',
    );
  });
});

describe('exportScopeLabel', () => {
  it('says how the current view differs from everything', () => {
    expect(exportScopeLabel('view', 40, { shown: 15, filtered: true, sorted: true })).toBe(
      'Current view: 15 of 40 rows, filtered and sorted',
    );
    expect(exportScopeLabel('view', 40, { shown: 40, filtered: false, sorted: true })).toBe(
      'Current view: 40 rows, sorted',
    );
    expect(exportScopeLabel('view', 1, { shown: 1, filtered: false, sorted: false })).toBe(
      'Current view: 1 row',
    );
    expect(exportScopeLabel('all', 1234, { shown: 15, filtered: true, sorted: false })).toBe(
      'All 1,234 rows, as returned',
    );
  });
});
