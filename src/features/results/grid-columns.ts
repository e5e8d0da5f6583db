/**
 * The grid's column definitions from the result's columns and their layout: the pinned row
 * number, then one column per result column read by index (so duplicate names all show), with
 * formatting, sorting and filtering by kind, prediction and "why" marks, width and pinning.
 */
import type { ColDef } from 'ag-grid-community';
import type { ColumnLayout } from './column-layout';
import { compareValues, formatCell, fullText, isExpandable, type GridColumn } from './grid-model';

export type Row = unknown[];

export function toColumnDefs(
  columns: readonly GridColumn[],
  layout: readonly ColumnLayout[],
  rowCount: number,
  /** Whether a column's values open their "why" on click. */
  explains: (c: GridColumn) => boolean,
): ColDef<Row>[] {
  return [
    {
      colId: '__row',
      headerName: '#',
      valueGetter: (p) => (p.node?.rowIndex ?? 0) + 1,
      width: Math.max(48, String(rowCount).length * 9 + 24),
      pinned: 'left',
      sortable: false,
      filter: false,
      resizable: false,
      suppressMovable: true,
      cellClass: 'cell-rownum',
    },
    ...columns.map<ColDef<Row>>((c, i) => ({
      colId: c.id,
      headerName: c.name,
      headerTooltip: `${c.name}${c.type ? ` · ${c.type}` : ''}${layout[i].prediction ? ' · prediction' : ''}${explains(c) ? ' · click a value to see why' : ''}`,
      valueGetter: (p) => p.data?.[c.index],
      valueFormatter: (p) => formatCell(p.value, 300),
      comparator: (a, b) => compareValues(a, b, c.kind),
      filter: c.kind === 'number' ? 'agNumberColumnFilter' : 'agTextColumnFilter',
      filterValueGetter:
        c.kind === 'number'
          ? (p) => {
              const v = p.data?.[c.index];
              return v === null || v === undefined ? null : Number(v);
            }
          : (p) => {
              const v = p.data?.[c.index];
              return v === null || v === undefined ? null : fullText(v, false);
            },
      headerClass: [
        c.kind === 'number' ? 'ag-right-aligned-header' : '',
        layout[i].prediction ? 'col-prediction' : '',
      ],
      cellClass: [
        c.kind === 'number' ? 'cell-number ag-right-aligned-cell' : `cell-${c.kind}`,
        layout[i].prediction ? 'cell-prediction' : '',
        explains(c) ? 'cell-why' : '',
      ],
      cellClassRules: {
        'cell-null': (p) => p.value === null || p.value === undefined,
        'cell-expandable': (p) => isExpandable(p.value),
      },
      width: layout[i].width,
      ...(layout[i].pinned ? { pinned: 'left' as const } : {}),
    })),
  ];
}
