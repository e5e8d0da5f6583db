import { describe, expect, it } from 'vitest';
import { type TableColumn, cellAt, cellsAt, tableFromDataset } from '../table';

describe('columnar tables', () => {
  it('turn a row-major dataset into columns of the same cells', () => {
    const t = tableFromDataset({
      columns: ['a', 'b'],
      rows: [
        [1, 'x'],
        [null, 'y'],
      ],
    });
    expect(t.rowCount).toBe(2);
    expect(cellsAt(t.data[0], [0, 1])).toEqual([1, null]);
    expect(cellsAt(t.data[1], [1, 0])).toEqual(['y', 'x']);
  });

  it('read typed columns back as the cells they stand for (NULL numbers as NaN, unboxed)', () => {
    const cols: TableColumn[] = [
      { kind: 'number', values: Float64Array.of(1.5, 0, 3), nulls: Uint8Array.of(0, 1, 0) },
      { kind: 'boolean', values: Uint8Array.of(1, 2, 0) },
      { kind: 'text', codes: Int32Array.of(1, -1, 0), dict: ['a', 'b'] },
      { kind: 'mixed', values: [1, 'two', null] },
      { kind: 'null' },
    ];
    expect(cols.map((c) => Array.from(cellsAt(c, [0, 1, 2])))).toEqual([
      [1.5, NaN, 3],
      [true, null, false],
      ['b', null, 'a'],
      [1, 'two', null],
      [null, null, null],
    ]);
    expect(cellAt(cols[0], 1)).toBeNull();
    // A complete number column with every row kept is not copied.
    const full: TableColumn = { kind: 'number', values: Float64Array.of(1, 2), nulls: null };
    expect(cellsAt(full, [0, 1])).toBe(full.values);
  });
});
