/** The results area of a tab: running state, errors, the grid or chart, status line and export. */
import { TabList } from '../../components/ui/TabList';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ColumnOrigin, SqlOkResponse, SqlTableResponse } from '../../../contract';
import { formatDuration } from '../../lib/format';
import { exportFileName, resultBaseName, toCsv, toJson, type ExportScope } from './export';
import { errorWords } from './error-words';
import { ExportMenu } from './ExportMenu';
import { timeAxes, type ChartAxes, type ChartKind } from './chart-model';
import { toGridColumns } from './grid-model';
import { scriptSummary, statusText, type ResultState } from './result-view';
import type { CellRef, ResultGridHandle } from './ResultGrid';
import { QueuePlace } from './QueuePlace';
import { ScoringProgress } from './ScoringProgress';
import { ValuePanel } from './ValuePanel';
import { predictedColumns, rowInputs } from './why-cells';

const ResultGrid = lazy(() => import('./ResultGrid').then((m) => ({ default: m.ResultGrid })));
const ChartView = lazy(() => import('./ChartView').then((m) => ({ default: m.ChartView })));

/** Starts loading the grid code early (idle time after the first paint). */
export function preloadResultGrid() {
  void import('./ResultGrid');
}

interface Props {
  state: ResultState;
  theme: 'light' | 'dark';
  onCancel(): void;
  /** Shown before the first run (e.g. example queries). */
  emptyState: ReactNode;
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

/** A predicted value to explain: its model, the row's inputs as the result carries them. */
export interface WhyCell {
  origin: ColumnOrigin;
  /** The column's name in the result (an alias, maybe). */
  columnName: string;
  value: unknown;
  rowIndex: number;
  /** The inputs the result carries (an input absent here was in neither result nor query). */
  inputs: Record<string, unknown>;
}

type ContentExtras = Pick<Props, 'targetsFor' | 'renderResult' | 'renderWhy' | 'large'>;

function download(text: string, name: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const t = setInterval(() => setNow(performance.now()), 100);
    return () => clearInterval(t);
  }, []);
  return <>{formatDuration(Math.max(0, now - since))}</>;
}

export function ResultsPanel({
  state,
  theme,
  onCancel,
  emptyState,
  targetsFor,
  renderResult,
  renderWhy,
  large,
}: Props) {
  if (state.kind === 'idle') return <div className="results-empty">{emptyState}</div>;
  if (state.kind === 'notice') {
    return (
      <div className="results-body">
        <div className="notice" role="status">
          {state.text}
        </div>
      </div>
    );
  }
  if (state.kind === 'running') {
    return (
      <div className="results-body running" aria-busy="true">
        <div className="running-box" role="status">
          <span className="spinner" aria-hidden />
          Running{state.total > 1
            ? ` statement ${state.done + 1} of ${state.total}`
            : ' query'}… <Elapsed since={state.startedAt} />
          <button className="btn" onClick={onCancel}>
            Cancel
          </button>
        </div>
        <QueuePlace />
        <ScoringProgress />
      </div>
    );
  }
  const o = state.outcome;
  const summary = scriptSummary(o);
  const errorText = o.error?.response.error_message ?? o.failure?.message;
  const failedSql = (o.error ?? o.failure)?.statement.sql;
  const words = o.error
    ? errorWords(
        o.error.response.error_code,
        o.error.response.error_message,
        o.error.response.error_position,
      )
    : undefined;
  return (
    <div className="results-body">
      {(errorText || o.cancelled || summary) && (
        <div className="banners">
          {errorText && (
            <div className="error-banner" role="alert" aria-label="Query error">
              <strong>{words ? words.headline : 'Request failed'}</strong>
              {summary ? <span className="muted"> · {summary}</span> : null}
              {words?.suggestion && (
                <div className="error-hint">
                  Did you mean <code>{words.suggestion}</code>?
                </div>
              )}
              <div className="error-message">
                {words && <span className="error-source">The engine says: </span>}
                {errorText}
              </div>
              {o.total > 1 && failedSql && (
                <pre className="error-sql">{failedSql.slice(0, 500)}</pre>
              )}
            </div>
          )}
          {o.cancelled && (
            <div className="notice" role="status">
              Query cancelled after {formatDuration(o.durationMs)}.
            </div>
          )}
          {!errorText && !o.cancelled && summary && <div className="notice subtle">{summary}</div>}
        </div>
      )}
      {o.last ? (
        <ResultContent
          key={state.id}
          response={o.last.response}
          durationMs={o.last.durationMs}
          sql={o.last.statement.sql}
          theme={theme}
          targetsFor={targetsFor}
          renderResult={renderResult}
          renderWhy={renderWhy}
          large={large}
          note={
            errorText && o.total > 1
              ? `Result of the last statement that ran (${o.results.length - 1} of ${o.total})`
              : undefined
          }
        />
      ) : null}
    </div>
  );
}

function ResultContent({
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
} & ContentExtras) {
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
      <div className="result-main">
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
