/**
 * The SQL workspace: query tabs, the toolbar (run, database), the Monaco editor, the draggable
 * split and the results of the active tab.
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState, type ReactNode, type RefObject } from 'react';
import type { SqlOkResponse, SqlTableResponse } from '../../contract';
import { modelUrlParams, type ModelTab } from '../features/models/nav';
import { databasesQueryOptions } from '../api/catalog';
import { preloadResultGrid, ResultsPanel, type WhyCell } from '../features/results/ResultsPanel';
import { modelTargetsIn } from '../features/sql-editor/completion';
import type { CompletionSource } from '../features/sql-editor/monaco-setup';
import type { SqlEditorHandle } from '../features/sql-editor/SqlEditor';
import type { RunMode } from '../features/sql-editor/run-plan';
import { TabBar } from '../features/tabs/TabBar';
import {
  activateTab,
  activeTab,
  addTab,
  closeTab,
  moveTab,
  updateTab,
} from '../features/tabs/tab-store';
import { useStore } from '../lib/use-store';
import { EXAMPLES } from './examples';
import { trainedModelOf } from './model-answer';
import { tabStore } from './stores';
import type { useSqlRunner } from './use-sql-runner';
import { encodeHash } from './url-state';
import { useSplit } from './use-split';

const SqlEditor = lazy(() => import('../features/sql-editor/SqlEditor'));
const TrainingCard = lazy(() =>
  import('../features/models/create').then((m) => ({ default: m.TrainingCard })),
);

const WhyPanel = lazy(() =>
  import('../features/models/monitoring').then((m) => ({ default: m.WhyPanel })),
);

/** The grid's code loads once the editor is up (not competing with it on the first visit). */
function preloadAfterEditor() {
  const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 300));
  idle(() => preloadResultGrid());
}

/** The live status card in place of the models-table row a CREATE MODEL / RETRAIN returns. */
function renderResult(response: SqlTableResponse | SqlOkResponse, sql: string) {
  const trained = trainedModelOf(response, sql);
  if (!trained) return undefined;
  const hrefFor = (tab?: ModelTab) =>
    encodeHash({ view: 'model', extra: modelUrlParams(trained.project, trained.model, tab) });
  return {
    label: 'Model',
    node: (
      <Suspense fallback={<div className="empty-note">Loading…</div>}>
        <TrainingCard {...trained} hrefFor={hrefFor} />
      </Suspense>
    ),
  };
}

interface Props {
  theme: 'light' | 'dark';
  runner: ReturnType<typeof useSqlRunner>;
  editorRef: RefObject<SqlEditorHandle | null>;
  completion: CompletionSource;
  onOpenSql(sql: string, opts?: { title?: string }): void;
  /** Extra content above the examples in the empty results area. */
  welcomeExtra?: ReactNode;
  /** Presentation mode: no query tabs, the editor without chrome, large type in the grid. */
  presenting?: boolean;
}

export function SqlWorkspace({
  theme,
  runner,
  editorRef,
  completion,
  onOpenSql,
  welcomeExtra,
  presenting = false,
}: Props) {
  const tabsState = useStore(tabStore);
  const tab = activeTab(tabsState);
  const dbs = useQuery(databasesQueryOptions());
  const { fraction, containerRef: splitRef, onPointerDown: onSplitDown } = useSplit();
  const run = runner.runs[tab.id];
  const marker = run?.marker && run.script === tab.sql ? run.marker : undefined;
  const runningIds = new Set(
    Object.entries(runner.runs)
      .filter(([, r]) => r.state.kind === 'running')
      .map(([id]) => id),
  );
  const isRunning = run?.state.kind === 'running';
  const [leaveArmed, setLeaveArmed] = useState(false);
  const dbOptions = dbs.data?.map((d) => d.name) ?? [];
  if (!dbOptions.includes(tab.db)) dbOptions.unshift(tab.db);
  const runActive = (mode: RunMode) => editorRef.current?.run(mode);
  const targetsFor = (sql: string) => modelTargetsIn(sql, completion.catalog(), tab.db);
  // A click on a predicted value (column_origins) explains it beside the grid.
  const renderWhy = useCallback(
    (why: WhyCell, onClose: () => void) => {
      const { project, model, version, column } = why.origin;
      const href = encodeHash({
        view: 'model',
        extra: modelUrlParams(project, model, 'predict', version),
      });
      return (
        <Suspense fallback={<aside className="value-panel" aria-busy="true" />}>
          <WhyPanel
            key={`${project}.${model}.${version}:${why.rowIndex}:${column}`}
            project={project}
            model={model}
            version={version}
            column={column}
            columnName={why.columnName}
            inputs={why.inputs}
            value={why.value}
            rowIndex={why.rowIndex}
            theme={theme}
            modelHref={href}
            onClose={onClose}
          />
        </Suspense>
      );
    },
    [theme],
  );

  return (
    <div
      className="workspace"
      ref={splitRef}
      style={{
        gridTemplateRows: `${presenting ? '' : 'auto '}auto ${fraction}fr 6px ${1 - fraction}fr`,
      }}
    >
      {!presenting && (
        <TabBar
          tabs={tabsState.tabs}
          activeId={tabsState.activeId}
          runningIds={runningIds}
          onActivate={(id) => tabStore.set((s) => activateTab(s, id))}
          onAdd={() => tabStore.set((s) => addTab(s))}
          onClose={(id) => {
            runner.forget(id);
            tabStore.set((s) => closeTab(s, id));
          }}
          onRename={(id, title) => tabStore.set((s) => updateTab(s, id, { title }))}
          onMove={(from, to) => tabStore.set((s) => moveTab(s, from, to))}
        />
      )}
      <div className="toolbar">
        {isRunning ? (
          <button className="btn danger" onClick={() => runner.cancel(tab.id)}>
            ■ Cancel
          </button>
        ) : (
          <button
            className="btn primary"
            onClick={() => runActive('current')}
            title="Run selection or statement at cursor (Ctrl+Enter)"
          >
            ▶ Run
          </button>
        )}
        <button
          className="btn"
          onClick={() => runActive('script')}
          disabled={isRunning}
          title="Run the whole script (Ctrl+Shift+Enter)"
        >
          Run script
        </button>
        <button
          className="btn"
          onClick={() => runActive('explain')}
          disabled={isRunning}
          title="How the query at the cursor would run: its steps and DuckDB's plan (Ctrl+Shift+E)"
        >
          Explain
        </button>
        <label className="db-picker">
          <span>Database</span>
          <select
            aria-label="Database"
            value={tab.db}
            onChange={(e) => tabStore.set((s) => updateTab(s, tab.id, { db: e.target.value }))}
          >
            {dbOptions.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <span className="spacer" />
        <span className="muted small hint" aria-live="polite">
          {leaveArmed ? (
            <>
              <kbd>Tab</kbd> now leaves the editor
            </>
          ) : (
            <>
              <kbd>Ctrl</kbd>+<kbd>Enter</kbd> run · <kbd>Esc</kbd> <kbd>Tab</kbd> leave the editor
              · <kbd>?</kbd> shortcuts
            </>
          )}
        </span>
      </div>
      <div className="editor-pane">
        <Suspense fallback={<div className="editor-loading">Loading editor…</div>}>
          <SqlEditor
            ref={editorRef}
            path={`tab-${tab.id}.sql`}
            value={tab.sql}
            theme={theme}
            onChange={(sql) => tabStore.set((s) => updateTab(s, tab.id, { sql }))}
            onRun={(req) => void runner.run(tab.id, req)}
            onCancel={() => runner.cancel(tab.id)}
            marker={marker}
            completion={completion}
            onReady={preloadAfterEditor}
            presenting={presenting}
            onLeaveArmed={setLeaveArmed}
          />
        </Suspense>
      </div>
      <div
        className="splitter"
        role="separator"
        aria-orientation="horizontal"
        aria-label="Resize editor and results"
        onPointerDown={onSplitDown}
      />
      <section className="results" aria-label="Results">
        <ResultsPanel
          state={run?.state ?? { kind: 'idle' }}
          theme={theme}
          onCancel={() => runner.cancel(tab.id)}
          targetsFor={targetsFor}
          renderResult={renderResult}
          renderWhy={renderWhy}
          large={presenting}
          emptyState={
            <div className="welcome">
              {welcomeExtra}
              <h2>Run a query to see results here</h2>
              <p className="muted">
                Write SQL above and press <kbd>Ctrl</kbd>+<kbd>Enter</kbd>, or start from an example
                on the embedded demo data:
              </p>
              <ul className="examples" aria-label="Example queries">
                {EXAMPLES.map((ex) => (
                  <li key={ex.title}>
                    <button onClick={() => onOpenSql(ex.sql, { title: ex.title })}>
                      <strong>{ex.title}</strong>
                      <code>{ex.sql.split('\n')[0]}</code>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          }
        />
      </section>
    </div>
  );
}
