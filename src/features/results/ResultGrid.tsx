/**
 * The result grid (AG Grid). Values render through formatters and CSS classes, not per-cell React
 * components, so 100k rows stay smooth. Columns are index-addressed so duplicate names all show.
 */
import {
  AllCommunityModule,
  ModuleRegistry,
  type CellContextMenuEvent,
  type CellKeyDownEvent,
  type GridApi,
  type GridReadyEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo, useRef, useState, type Ref, useImperativeHandle } from 'react';
import {
  darkGridTheme,
  LARGE_GRID_FONT_PX,
  WIDE_GRID_FONT_PX,
  WIDE_SCREEN,
  wideGridTheme,
  largeGridTheme,
  lightGridTheme,
} from '../../components/ui/grid-theme';
import { useMediaQuery } from '../../lib/use-media-query';
import { CellMenu } from './CellMenu';
import { layoutColumns } from './column-layout';
import { toColumnDefs, type Row } from './grid-columns';
import { canvasMeasure, fillSpareWidth } from './grid-measure';
import {
  fullText,
  rowToTsv,
  type CellRef,
  type GridColumn,
  type GridViewState,
} from './grid-model';

ModuleRegistry.registerModules([AllCommunityModule]);

/**
 * One object for every render: AG Grid takes a new defaultColDef as a change of every column and
 * rebuilds them (and may move the focus back to the grid's cell) each time the parent renders.
 */
const DEFAULT_COL_DEF = { sortable: true, resizable: true, filter: true, minWidth: 60 } as const;

export const GRID_RENDERED_MARK = 'grid-rendered';

export interface ResultGridHandle {
  /** Rows in the grid's current sort and filter order. */
  displayedRows(): Row[];
  viewState(): GridViewState;
}

interface Props {
  columns: GridColumn[];
  rows: Row[];
  theme: 'light' | 'dark';
  onOpenCell(cell: CellRef): void;
  onCopied(what: string): void;
  /** Rows left after filtering (undefined when no filter is active). */
  onFilterChanged?(shown: number | undefined): void;
  /** Target columns of models the statement queried (pinned in view with their confidence). */
  knownTargets?: readonly string[];
  /** Presentation mode: larger type and rows. */
  large?: boolean;
  /**
   * Result columns (by index) holding a model's predicted value: a click or Enter on one of
   * their cells calls `onExplainCell` (the "why" of that prediction) instead of `onOpenCell`.
   */
  explainable?: ReadonlySet<number>;
  onExplainCell?(cell: CellRef): void;
  ref?: Ref<ResultGridHandle>;
}

function copy(text: string) {
  return navigator.clipboard?.writeText(text).catch(() => undefined);
}

export function ResultGrid({
  columns,
  rows,
  theme,
  onOpenCell,
  onCopied,
  onFilterChanged,
  knownTargets,
  large = false,
  explainable,
  onExplainCell,
  ref,
}: Props) {
  const canExplain = !!onExplainCell;
  const explains = (c: GridColumn) => canExplain && !!explainable?.has(c.index);
  const apiRef = useRef<GridApi<Row> | null>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState<{ x: number; y: number; cell: CellRef } | null>(null);

  useImperativeHandle(ref, () => ({
    displayedRows() {
      const api = apiRef.current;
      if (!api) return rows;
      const out: Row[] = [];
      api.forEachNodeAfterFilterAndSort((n) => {
        if (n.data) out.push(n.data);
      });
      return out;
    },
    viewState() {
      const api = apiRef.current;
      if (!api) return { shown: rows.length, filtered: false, sorted: false };
      return {
        shown: api.getDisplayedRowCount(),
        filtered: api.isAnyFilterPresent(),
        sorted: api.getColumnState().some((c) => !!c.sort),
      };
    },
  }));

  const wide = useMediaQuery(WIDE_SCREEN) && !large;
  const measure = useMemo(
    () => canvasMeasure(document.documentElement, large, wide),
    [large, wide],
  );
  const layout = useMemo(
    () =>
      layoutColumns(
        columns,
        rows,
        knownTargets,
        measure,
        large ? LARGE_GRID_FONT_PX / 12.5 : wide ? WIDE_GRID_FONT_PX / 12.5 : 1,
      ),
    [columns, rows, knownTargets, measure, large, wide],
  );
  const columnDefs = useMemo(
    () =>
      toColumnDefs(columns, layout, rows.length, (c) => canExplain && !!explainable?.has(c.index)),
    [columns, rows.length, layout, explainable, canExplain],
  );

  const cellOf = (colId: string | undefined, data: Row | undefined, rowIndex: number | null) => {
    const column = columns.find((c) => c.id === colId);
    if (!column || !data) return undefined;
    return { column, value: data[column.index], row: data, rowIndex: rowIndex ?? 0 };
  };

  const onCellKeyDown = (e: CellKeyDownEvent<Row>) => {
    const ev = e.event as KeyboardEvent | null;
    if (!ev || !('colDef' in e)) return;
    const cell = cellOf(e.column.getColId(), e.data, e.rowIndex);
    if (!cell) return;
    if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 'c') {
      if (ev.shiftKey) {
        void copy(rowToTsv(cell.row));
        onCopied('row');
      } else {
        void copy(fullText(cell.value, false));
        onCopied('cell');
      }
    } else if (ev.key === 'Enter' && !ev.ctrlKey && !ev.metaKey) {
      if (explains(cell.column)) onExplainCell!(cell);
      else onOpenCell(cell);
    }
  };

  const onContextMenu = (e: CellContextMenuEvent<Row>) => {
    const ev = e.event as MouseEvent | null;
    const cell = cellOf(e.column.getColId(), e.data, e.rowIndex);
    if (!ev || !cell) return;
    setMenu({ x: ev.clientX, y: ev.clientY, cell });
  };

  return (
    // Escape closes the cell menu wherever the focus is (the menu or the grid); the wrapper is
    // no widget of its own.
    <div
      ref={wrapperRef}
      className="result-grid"
      role="presentation"
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !menu) return;
        // This Escape is the menu's: a panel beside the grid stays open.
        e.stopPropagation();
        setMenu(null);
      }}
    >
      <AgGridReact<Row>
        theme={
          large
            ? largeGridTheme[theme]
            : wide
              ? wideGridTheme[theme]
              : theme === 'dark'
                ? darkGridTheme
                : lightGridTheme
        }
        rowData={rows}
        columnDefs={columnDefs}
        defaultColDef={DEFAULT_COL_DEF}
        onGridReady={(e: GridReadyEvent<Row>) => {
          apiRef.current = e.api;
        }}
        onFirstDataRendered={(e) => {
          fillSpareWidth(e.api, wrapperRef.current);
          performance.clearMarks(GRID_RENDERED_MARK);
          performance.mark(GRID_RENDERED_MARK);
        }}
        onCellClicked={(e) => {
          const cell = cellOf(e.column.getColId(), e.data, e.rowIndex);
          if (cell && explains(cell.column)) onExplainCell!(cell);
        }}
        onCellDoubleClicked={(e) => {
          const cell = cellOf(e.column.getColId(), e.data, e.rowIndex);
          if (cell && !explains(cell.column)) onOpenCell(cell);
        }}
        onCellKeyDown={onCellKeyDown}
        onFilterChanged={(e) => {
          e.api.refreshCells({ columns: ['__row'], force: true });
          onFilterChanged?.(e.api.isAnyFilterPresent() ? e.api.getDisplayedRowCount() : undefined);
        }}
        onSortChanged={(e) => {
          e.api.refreshCells({ columns: ['__row'], force: true });
          // A sorted result is read from its top: the view does not stay mid-table.
          if (e.api.getDisplayedRowCount() > 0) e.api.ensureIndexVisible(0, 'top');
        }}
        onGridSizeChanged={(e) => fillSpareWidth(e.api, wrapperRef.current)}
        onCellContextMenu={onContextMenu}
        preventDefaultOnContextMenu
        enableCellTextSelection
        ensureDomOrder={false}
        suppressDragLeaveHidesColumns
        tooltipShowDelay={400}
        animateRows={false}
      />
      {menu && (
        <CellMenu
          at={menu}
          onClose={() => setMenu(null)}
          onCopy={(text, what) => {
            void copy(text);
            onCopied(what);
          }}
          onOpen={() => onOpenCell(menu.cell)}
          columns={columns}
        />
      )}
    </div>
  );
}
