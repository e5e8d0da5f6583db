/**
 * The result grid (AG Grid). Values render through formatters and CSS classes, not per-cell React
 * components, so 100k rows stay smooth. Columns are index-addressed so duplicate names all show.
 */
import {
  AllCommunityModule,
  ModuleRegistry,
  type CellContextMenuEvent,
  type CellKeyDownEvent,
  type ColDef,
  type GridApi,
  type GridReadyEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo, useRef, useState, type Ref, useImperativeHandle } from 'react';
import {
  compareValues,
  type GridViewState,
  formatCell,
  fullText,
  isExpandable,
  rowToTsv,
  type GridColumn,
} from './grid-model';
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
import { layoutColumns, MAX_COLUMN_PX, spreadWidth, type MeasureText } from './column-layout';

ModuleRegistry.registerModules([AllCommunityModule]);

/** Measures text with the grid's own fonts (a canvas); undefined where there is no canvas. */
/**
 * Spreads the grid's spare width over its columns (never shrinks them): a narrow header is not cut
 * while the grid has room to its right. No column grows past MAX_COLUMN_PX this way, so a long
 * text stays capped (spreadWidth).
 */
function fillSpareWidth(api: GridApi<Row>, wrapper: HTMLElement | null) {
  if (!wrapper) return;
  const columns = api.getAllDisplayedColumns();
  const pinned = columns.filter((c) => c.getPinned()).reduce((n, c) => n + c.getActualWidth(), 0);
  const centre = columns.filter((c) => !c.getPinned());
  // Room for a vertical scroll bar and the borders, so filling never adds a horizontal one.
  const room = wrapper.clientWidth - pinned - 20;
  const before = centre.map((c) => c.getActualWidth());
  const after = spreadWidth(before, room, MAX_COLUMN_PX);
  if (after.every((w, i) => w === before[i])) return;
  api.setColumnWidths(centre.map((c, i) => ({ key: c, newWidth: after[i] })));
}

function canvasMeasure(el: Element | null, large: boolean, wide: boolean): MeasureText | undefined {
  const ctx = document.createElement('canvas').getContext?.('2d');
  if (!ctx || !el) return undefined;
  const style = getComputedStyle(el);
  const family = style.fontFamily || 'sans-serif';
  const mono = style.getPropertyValue('--mono') || 'monospace';
  const px = large ? LARGE_GRID_FONT_PX : wide ? WIDE_GRID_FONT_PX : 12.5;
  const fonts = {
    header: `600 ${px}px ${family}`,
    json: `${px - 1}px ${mono}`,
    other: `${px}px ${family}`,
  };
  const cache = new Map<string, number>();
  return (text, kind) => {
    const font = kind === 'header' ? fonts.header : kind === 'json' ? fonts.json : fonts.other;
    const key = `${font}|${text}`;
    let w = cache.get(key);
    if (w === undefined) {
      ctx.font = font;
      w = ctx.measureText(text).width;
      cache.set(key, w);
    }
    return w;
  };
}

export const GRID_RENDERED_MARK = 'grid-rendered';

type Row = unknown[];

export interface CellRef {
  column: GridColumn;
  value: unknown;
  row: Row;
  rowIndex: number;
}

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
  const columnDefs = useMemo<ColDef<Row>[]>(
    () => [
      {
        colId: '__row',
        headerName: '#',
        valueGetter: (p) => (p.node?.rowIndex ?? 0) + 1,
        width: Math.max(48, String(rows.length).length * 9 + 24),
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
        headerTooltip: `${c.name}${c.type ? ` · ${c.type}` : ''}${layout[i].prediction ? ' · prediction' : ''}${canExplain && explainable?.has(c.index) ? ' · click a value to see why' : ''}`,
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
          canExplain && explainable?.has(c.index) ? 'cell-why' : '',
        ],
        cellClassRules: {
          'cell-null': (p) => p.value === null || p.value === undefined,
          'cell-expandable': (p) => isExpandable(p.value),
        },
        width: layout[i].width,
        ...(layout[i].pinned ? { pinned: 'left' as const } : {}),
      })),
    ],
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

  const menuAction = (fn: (c: CellRef) => void) => () => {
    if (menu) fn(menu.cell);
    setMenu(null);
  };

  return (
    // Escape closes the cell menu wherever the focus is (the menu or the grid); the wrapper is
    // no widget of its own.
    <div
      ref={wrapperRef}
      className="result-grid"
      role="presentation"
      onKeyDown={(e) => e.key === 'Escape' && setMenu(null)}
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
        defaultColDef={{ sortable: true, resizable: true, filter: true, minWidth: 60 }}
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
        <>
          {/* Click-away for the mouse; the keyboard's way out is Escape. */}
          <div
            className="menu-backdrop"
            role="presentation"
            onClick={() => setMenu(null)}
            onContextMenu={(e) => {
              e.preventDefault();
              setMenu(null);
            }}
          />
          <div className="context-menu" role="menu" style={{ left: menu.x, top: menu.y }}>
            <button
              role="menuitem"
              onClick={menuAction((c) => {
                void copy(fullText(c.value, false));
                onCopied('cell');
              })}
            >
              Copy value
            </button>
            <button
              role="menuitem"
              onClick={menuAction((c) => {
                void copy(rowToTsv(c.row));
                onCopied('row');
              })}
            >
              Copy row (TSV)
            </button>
            <button
              role="menuitem"
              onClick={menuAction((c) => {
                const o: Record<string, unknown> = {};
                columns.forEach(
                  (col) =>
                    (o[col.name in o ? `${col.name}_${col.index}` : col.name] =
                      c.row[col.index] ?? null),
                );
                void copy(JSON.stringify(o, null, 2));
                onCopied('row as JSON');
              })}
            >
              Copy row as JSON
            </button>
            <button role="menuitem" onClick={menuAction(onOpenCell)}>
              Show full value
            </button>
          </div>
        </>
      )}
    </div>
  );
}
