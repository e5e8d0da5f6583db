import { describe, expect, it } from 'vitest';
import {
  compareValues,
  formatCell,
  fullText,
  isExpandable,
  kindFromType,
  kindFromValues,
  rowToJson,
  rowToTsv,
  toGridColumns,
} from './grid-model';

describe('toGridColumns', () => {
  it('gives duplicate names distinct index-based ids', () => {
    const cols = toGridColumns(['id', 'name', 'id'], [[1, 'a', 2]]);
    expect(cols.map((c) => [c.id, c.name])).toEqual([
      ['c0', 'id'],
      ['c1', 'name'],
      ['c2', 'id'],
    ]);
  });

  it('takes kinds from column_types when present', () => {
    const cols = toGridColumns(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
      [],
      [
        'BIGINT',
        'VARCHAR',
        'DECIMAL(10,2)',
        'TIMESTAMP WITH TIME ZONE',
        'INTEGER[]',
        'STRUCT("x" INTEGER)',
        'BOOLEAN',
      ],
    );
    expect(cols.map((c) => c.kind)).toEqual([
      'number',
      'text',
      'number',
      'date',
      'json',
      'json',
      'boolean',
    ]);
    expect(cols[0].type).toBe('BIGINT');
  });

  it('infers kinds from values when types are missing, skipping NULLs', () => {
    const rows = [
      [null, null, null, null, null],
      [1.5, 'x', true, { a: 1 }, '2024-01-02'],
      [2, 'y', false, [1], '2024-01-03 10:00:00'],
    ];
    expect(toGridColumns(['n', 't', 'b', 'j', 'd'], rows).map((c) => c.kind)).toEqual([
      'number',
      'text',
      'boolean',
      'json',
      'date',
    ]);
    expect(kindFromValues([[null], [null]], 0)).toBe('text');
    expect(kindFromValues([[1], ['a']], 0)).toBe('text');
    expect(kindFromType('GEOMETRY')).toBeUndefined();
  });

  it('handles 500 columns', () => {
    const names = Array.from({ length: 500 }, (_, i) => `col_${i}`);
    const cols = toGridColumns(names, [names.map((_, i) => i)]);
    expect(cols).toHaveLength(500);
    expect(cols[499]).toMatchObject({ id: 'c499', kind: 'number' });
  });
});

describe('cell values', () => {
  it('shows NULL for null, JSON for nested values, and cuts long text', () => {
    expect(formatCell(null)).toBe('NULL');
    expect(formatCell(undefined)).toBe('NULL');
    expect(formatCell({ a: [1, null] })).toBe('{"a":[1,null]}');
    expect(formatCell(0)).toBe('0');
    expect(formatCell(false)).toBe('false');
    expect(formatCell('x'.repeat(600))).toHaveLength(501);
    expect(fullText({ a: 1 })).toBe('{\n  "a": 1\n}');
  });

  it('marks nested and long values as expandable', () => {
    expect(isExpandable([1])).toBe(true);
    expect(isExpandable('short')).toBe(false);
    expect(isExpandable('a\nb')).toBe(true);
    expect(isExpandable(null)).toBe(false);
  });

  it('copies a row as TSV with NULL as empty', () => {
    expect(rowToTsv([1, null, 'a', { b: 2 }])).toBe('1\t\ta\t{"b":2}');
  });
});

describe('compareValues', () => {
  it('sorts NULLs first and numbers numerically, including big integers sent as text', () => {
    const vals = [10, null, 9, '18014398509481986', '18014398509481985'];
    expect([...vals].sort((a, b) => compareValues(a, b, 'number'))).toEqual([
      null,
      9,
      10,
      '18014398509481985',
      '18014398509481986',
    ]);
  });
  it('sorts text lexically', () => {
    expect(['b', 'a', null].sort((a, b) => compareValues(a, b, 'text'))).toEqual([null, 'a', 'b']);
  });
});

describe('rowToJson', () => {
  it('names values by column, a repeated name with its index, missing values as null', () => {
    const cols = toGridColumns(['id', 'name', 'id'], []);
    expect(JSON.parse(rowToJson(cols, [1, undefined, 2]))).toEqual({ id: 1, name: null, id_2: 2 });
  });
});
