/**
 * Many input rows in an editable AG Grid (virtualized, so a 5k-row paste stays smooth). Cells
 * edit the same rows as the form; invalid numbers are marked; `null` shows an explicit null.
 */
import {
  AllCommunityModule,
  ModuleRegistry,
  type ColDef,
  type ValueSetterParams,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo, type Dispatch } from 'react';
import { framed } from '../../../components/ui/grid-theme';
import {
  cellText,
  cellToJson,
  type Cell,
  type FormField,
  type FormRow,
  type PredictAction,
} from '../inputs';

ModuleRegistry.registerModules([AllCommunityModule]);

interface Props {
  fields: FormField[];
  rows: FormRow[];
  selected: number;
  dispatch: Dispatch<PredictAction>;
  theme: 'light' | 'dark';
}

/** Text typed into a cell -> the cell value (`null` is an explicit null). */
function parseTyped(field: FormField, text: unknown): Cell {
  if (text === null || text === undefined) return undefined;
  const t = String(text);
  if (t.trim().toLowerCase() === 'null') return null;
  if (t === '') return undefined;
  if (field.kind === 'choice') return field.options.find((o) => String(o) === t) ?? t;
  return t;
}

export function RowsTable({ fields, rows, selected, dispatch, theme }: Props) {
  const columnDefs = useMemo<ColDef<FormRow>[]>(
    () => [
      {
        colId: '__n',
        headerName: '#',
        valueGetter: (p) => (p.node?.rowIndex ?? 0) + 1,
        width: 60,
        pinned: 'left',
        editable: false,
        sortable: false,
        cellClass: 'cell-rownum',
      },
      ...fields.map<ColDef<FormRow>>((f) => ({
        colId: f.name,
        headerName: f.name,
        headerTooltip: `${f.name} · ${f.type}`,
        editable: true,
        valueGetter: (p) => cellText(p.data?.cells[f.name]),
        valueSetter: (p: ValueSetterParams<FormRow>) => {
          const index = p.node?.rowIndex ?? -1;
          if (index >= 0)
            dispatch({
              type: 'cell',
              row: index,
              column: f.name,
              value: parseTyped(f, p.newValue),
            });
          return false;
        },
        ...(f.kind === 'choice'
          ? {
              cellEditor: 'agSelectCellEditor',
              cellEditorParams: { values: ['', 'null', ...f.options.map(String)] },
            }
          : {}),
        cellClassRules: {
          'cell-null': (p) => p.data?.cells[f.name] === null,
          'cell-invalid': (p) => !!p.data && !!cellToJson(f, p.data.cells[f.name]).error,
        },
        cellClass: f.kind === 'number' ? 'ag-right-aligned-cell' : undefined,
        width: Math.min(220, Math.max(110, f.name.length * 8 + 40)),
      })),
      {
        colId: '__actions',
        headerName: '',
        width: 86,
        pinned: 'right',
        editable: false,
        sortable: false,
        cellRenderer: (p: { node: { rowIndex: number | null } }) => (
          <span className="m-row-actions">
            <button
              className="icon-btn small"
              title="Duplicate row"
              aria-label={`Duplicate row ${(p.node.rowIndex ?? 0) + 1}`}
              onClick={() => dispatch({ type: 'duplicate-row', row: p.node.rowIndex ?? 0 })}
            >
              +
            </button>
            <button
              className="icon-btn small"
              title="Remove row"
              aria-label={`Remove row ${(p.node.rowIndex ?? 0) + 1}`}
              onClick={() => dispatch({ type: 'remove-row', row: p.node.rowIndex ?? 0 })}
            >
              ×
            </button>
          </span>
        ),
      },
    ],
    [fields, dispatch],
  );

  return (
    <div className="m-rows-grid" aria-label="Input rows">
      <AgGridReact<FormRow>
        theme={theme === 'dark' ? framed.dark : framed.light}
        rowData={rows}
        columnDefs={columnDefs}
        getRowId={(p) => p.data.id}
        defaultColDef={{ resizable: true, sortable: false, filter: false, minWidth: 50 }}
        singleClickEdit
        stopEditingWhenCellsLoseFocus
        onCellClicked={(e) => {
          if (e.rowIndex !== null && e.rowIndex !== selected)
            dispatch({ type: 'select', row: e.rowIndex });
        }}
        animateRows={false}
      />
    </div>
  );
}
