import type { ValueGetterParams } from 'ag-grid-community';
import { describe, expect, it } from 'vitest';
import { toColumnDefs, type Row } from './grid-columns';
import { toGridColumns } from './grid-model';

const columns = toGridColumns(
  ['id', 'price', 'id'],
  [[1, 2.5, 'x']],
  ['INTEGER', 'DOUBLE', 'VARCHAR'],
);
const layout = [
  { width: 80, pinned: true, prediction: false },
  { width: 120, pinned: false, prediction: true },
  { width: 90, pinned: false, prediction: false },
];
const get = (def: { valueGetter?: unknown }, data: Row) =>
  (def.valueGetter as (p: Partial<ValueGetterParams<Row>>) => unknown)({ data });

describe('toColumnDefs', () => {
  const defs = toColumnDefs(columns, layout, 12_345, (c) => c.name === 'price');

  it('starts with a pinned row number wide enough for the row count', () => {
    expect(defs[0]).toMatchObject({ colId: '__row', headerName: '#', pinned: 'left', width: 69 });
    expect(defs[0].sortable).toBe(false);
  });

  it('reads each column by its index, so repeated names keep their own values', () => {
    expect(defs.slice(1).map((d) => [d.colId, d.headerName])).toEqual([
      ['c0', 'id'],
      ['c1', 'price'],
      ['c2', 'id'],
    ]);
    expect([1, 2, 3].map((i) => get(defs[i], [7, 9.5, 'z']))).toEqual([7, 9.5, 'z']);
  });

  it('marks predictions and explainable columns in header, tooltip and cells', () => {
    expect(defs[2].headerTooltip).toBe('price · DOUBLE · prediction · click a value to see why');
    expect(defs[2].headerClass).toEqual(['ag-right-aligned-header', 'col-prediction']);
    expect(defs[2].cellClass).toEqual([
      'cell-number ag-right-aligned-cell',
      'cell-prediction',
      'cell-why',
    ]);
    expect(defs[3].headerTooltip).toBe('id · VARCHAR');
    expect(defs[3].cellClass).toEqual(['cell-text', '', '']);
  });

  it('filters numbers as numbers and the rest as text; sorts numbers by value', () => {
    expect(defs[1].filter).toBe('agNumberColumnFilter');
    expect(defs[3].filter).toBe('agTextColumnFilter');
    const cmp = defs[1].comparator as (a: unknown, b: unknown) => number;
    expect([10, 9, 100].sort(cmp)).toEqual([9, 10, 100]);
  });

  it('takes width and pinning from the layout', () => {
    expect(defs.slice(1).map((d) => [d.width, d.pinned])).toEqual([
      [80, 'left'],
      [120, undefined],
      [90, undefined],
    ]);
  });
});
