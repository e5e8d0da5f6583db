/** A statement's result: view tabs (special, grid, chart), export, cell and "why" panels. */
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { SqlOkResponse, SqlTableResponse } from '../../../contract';
import { TabList } from '../../components/ui/TabList';
import { timeAxes, type ChartAxes, type ChartKind } from './chart-model';
import { download } from './download';
import { exportFileName, resultBaseName, toCsv, toJson, type ExportScope } from './export';
import { ExportMenu } from './ExportMenu';
import { toGridColumns, type CellRef } from './grid-model';
import { statusText } from './result-view';
import type { ResultGridHandle } from './ResultGrid';
import { ValuePanel } from './ValuePanel';
import { predictedColumns, rowInputs, type WhyCell } from './why-cells';

const ResultGrid = lazy(() => import('./ResultGrid').then((m) => ({ default: m.ResultGrid })));
const ChartView = lazy(() => import('./ChartView').then((m) => ({ default: m.ChartView })));

/** What the shell adds to a result's view. */
export interface ResultContentExtras {
  /** Presentation mode: larger type in the grid. */
  large?: boolean;
  /** Model target columns the statement predicts (kept in view in the grid). */
  targetsFor?(sql: string): readonly string[];
  /**
   * A richer view of a result than its table (e.g. a model's live status after CREATE MODEL);
   * undefined keeps the table. The table stays one click away.
   */
  renderResult?(
    response: SqlTableResponse | SqlOkResponse,
    sql: string,
  ): { label: string; node: ReactNode } | undefined;
  /**
   * The side panel explaining one predicted value (a cell of a column the answer's
   * `column_origins` marks as a model's prediction); undefined: such cells open as any other.
   */
  renderWhy?(why: WhyCell, onClose: () => void): ReactNode;
}

export function ResultContent({
  response,
  durationMs,
  sql,
  theme,
  note,
  targetsFor,
  renderResult,
  renderWhy,
  large,
}: {
  response: SqlTableResponse | SqlOkResponse;
  durationMs: number;
  sql: string;
  theme: 'light' | 'dark';
  note?: string;
} & ResultContentExtras) {
  // Decided once per result (the shell's renderer is a new function on every render).
  const [special] = useState(() => renderResult?.(response, sql));
  // Kept by value: a new array on every render would reset the grid's columns.
  const targetsKey = (targetsFor?.(sql) ?? []).join('\u0000');
  const knownTargets = useMemo(() => (targetsKey ? targetsKey.split('\u0000') : []), [targetsKey]);
  const [view, setView] = useState<'special' | 'grid' | 'chart'>(special ? 'special' : 'grid');
  // The chart's opening kind and axes (the one-click line chart over time sets them).
  const [chartStart, setChartStart] = useState<{ kind: ChartKind; axes: ChartAxes; n: number }>();
  const [cell, setCell] = useState<CellRef | null>(null);
  const [why, setWhy] = useState<WhyCell | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  const [shown, setShown] = useState<number | undefined>(undefined);
  const gridRef = useRef<ResultGridHandle>(null);
  const table = response.type === 'table' ? response : undefined;
  const columns = useMemo(
    () => (table ? toGridColumns(table.column_names, table.data, table.column_types) : []),
    [table],
  );

  const origins = table?.column_origins;
  const explainable = useMemo(
    () => (renderWhy ? predictedColumns(origins) : undefined),
    [origins, renderWhy],
  );
  const openWhy = useMemo(
    () => (c: CellRef) => {
      const origin = origins?.[c.column.index];
      if (!origin) return;
      setCell(null);
      setWhy({
        origin,
        columnName: c.column.name,
        value: c.value,
        rowIndex: c.rowIndex,
        inputs: rowInputs(origin, c.row),
      });
    },
    [origins],
  );

  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(() => setToast(null), 1500);
    return () => clearTimeout(t);
  }, [toast]);

  if (!table) {
    if (special) return <div className="result-special">{special.node}</div>;
    return (
      <div className="ok-result" role="status">
        <span className="ok-icon" aria-hidden>
          ✓
        </span>
        {statusText(response, durationMs)}
      </div>
    );
  }

  // A line needs two points: no one-click line chart for a one-row result.
  const overTime = table.data.length > 1 ? timeAxes(columns) : undefined;
  const exportAs = (fmt: 'csv' | 'json', scope: ExportScope) => {
    const rows = scope === 'view' ? (gridRef.current?.displayedRows() ?? table.data) : table.data;
    const name = exportFileName(resultBaseName(sql), fmt);
    if (fmt === 'csv') download(toCsv(table.column_names, rows), name, 'text/csv;charset=utf-8');
    else download(toJson(table.column_names, rows), name, 'application/json');
  };

  return (
    <div className="result-content">
      <div className="result-toolbar">
        <TabList
          className="segmented"
          label="Result view"
          tabs={[
            ...(special ? [{ id: 'special' as const, label: special.label }] : []),
            { id: 'grid', label: 'Results' },
            { id: 'chart', label: 'Chart' },
          ]}
          selected={view}
          onSelect={setView}
        />
        {overTime && (
          <button
            className="btn small"
            aria-label={`Line chart of ${columns[overTime.y].name} over ${columns[overTime.x].name}`}
            title={`Line chart of ${columns[overTime.y].name} over ${columns[overTime.x].name}`}
            onClick={() => {
              setChartStart({ kind: 'line', axes: overTime, n: (chartStart?.n ?? 0) + 1 });
              setView('chart');
            }}
          >
            Line chart
          </button>
        )}
        {note && <span className="muted small">{note}</span>}
        <span className="spacer" />
        {toast && <span className="toast">Copied {toast}</span>}
        <ExportMenu
          total={table.data.length}
          viewState={() =>
            gridRef.current?.viewState() ?? {
              shown: table.data.length,
              filtered: false,
              sorted: false,
            }
          }
          onExport={exportAs}
          disabled={table.column_names.length === 0}
        />
      </div>
      {/* Escape closes the why panel wherever the focus is in the result (the panel, or the grid's
          cell when the grid kept or took it back); the wrapper is no widget of its own. */}
      <div
        className="result-main"
        role="presentation"
        onKeyDown={(e) => {
          if (e.key === 'Escape' && why) setWhy(null);
        }}
      >
        {view === 'special' && special ? (
          <div className="result-special">{special.node}</div>
        ) : table.column_names.length === 0 ? (
          <div className="empty-note">The statement returned no columns.</div>
        ) : view === 'grid' ? (
          <Suspense fallback={<div className="empty-note">Loading grid…</div>}>
            <ResultGrid
              ref={gridRef}
              columns={columns}
              rows={table.data}
              theme={theme}
              onOpenCell={(c) => {
                setWhy(null);
                setCell(c);
              }}
              explainable={explainable}
              onExplainCell={explainable?.size ? openWhy : undefined}
              onCopied={setToast}
              onFilterChanged={setShown}
              knownTargets={knownTargets}
              large={large}
            />
          </Suspense>
        ) : (
          <Suspense fallback={<div className="empty-note">Loading chart…</div>}>
            <ChartView
              key={chartStart?.n ?? 0}
              columns={columns}
              rows={table.data}
              theme={theme}
              initial={chartStart}
              large={large}
            />
          </Suspense>
        )}
        {cell && view === 'grid' && (
          <ValuePanel cell={cell} onClose={() => setCell(null)} onCopied={setToast} />
        )}
        {why && view === 'grid' && renderWhy?.(why, () => setWhy(null))}
      </div>
      <div className="status-line" role="status" aria-label="Result status">
        {statusText(table, durationMs, shown)}
        {table.data.length === 0 && <span className="muted"> · no rows</span>}
      </div>
    </div>
  );
}
