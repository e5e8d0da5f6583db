/**
 * The app shell: top bar (views, connection, theme, help), sidebar (explorer, history) and the main
 * view chosen by URL state. Wires the features together; holds no business logic itself.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { databasesQueryOptions } from '../api/catalog';
import { statusQueryOptions } from '../api/status';
import { ConnectionIndicator } from '../features/connection/ConnectionIndicator';
import { needsLogin } from '../features/connection/connection-state';
import { LoginForm } from '../features/connection/LoginForm';
import { Explorer } from '../features/explorer/Explorer';
import { FileUploadArea, UploadFileButton } from '../features/files/FileUpload';
import { HistoryPanel } from '../features/history/HistoryPanel';
import type { HistoryEntry } from '../features/history/history-store';
import { preloadResultGrid, ResultsPanel } from '../features/results/ResultsPanel';
import type { SqlEditorHandle } from '../features/sql-editor/SqlEditor';
import { planRun, type RunMode } from '../features/sql-editor/run-plan';
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
import { createCompletionSource } from './completion-source';
import { EXAMPLES } from './examples';
import { ShortcutSheet } from './ShortcutSheet';
import { historyStore, tabStore, themeStore } from './stores';
import { setView, useSqlInUrl, useUrlState } from './url-sync';
import { isModelsView, ModelsView, navViewId, VIEWS } from './views';
import { useSqlRunner } from './use-sql-runner';
import { useSplit } from './use-split';

const SqlEditor = lazy(() => import('../features/sql-editor/SqlEditor'));

function isTypingTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return (
    !!el &&
    (el.isContentEditable ||
      /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) ||
      !!el.closest?.('.monaco-editor'))
  );
}

export function App() {
  const theme = useStore(themeStore);
  const tabsState = useStore(tabStore);
  const history = useStore(historyStore);
  const url = useUrlState();
  const tab = activeTab(tabsState);
  const qc = useQueryClient();
  const status = useQuery(statusQueryOptions());
  const dbs = useQuery(databasesQueryOptions());
  const runner = useSqlRunner();
  const editorRef = useRef<SqlEditorHandle>(null);
  const completion = useMemo(() => createCompletionSource(qc), [qc]);
  const [sidebar, setSidebar] = useState<'explorer' | 'history'>('explorer');
  const [help, setHelp] = useState(false);
  const { fraction, containerRef: splitRef, onPointerDown: onSplitDown } = useSplit();
  useSqlInUrl(tab.sql, url.view);

  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 300));
    idle(() => preloadResultGrid());
  }, []);

  /** Puts SQL in the editor (the active tab when empty, else a new tab), optionally running it. */
  const openSql = useCallback(
    (sql: string, opts: { run?: boolean; title?: string; db?: string } = {}) => {
      if (url.view !== 'sql') setView('sql');
      const cur = activeTab(tabStore.get());
      if (cur.sql.trim() === '' || cur.sql === sql) {
        tabStore.set((s) => updateTab(s, cur.id, { sql, ...(opts.db ? { db: opts.db } : {}) }));
      } else {
        tabStore.set((s) => addTab(s, { sql, title: opts.title, db: opts.db ?? cur.db }));
      }
      const id = tabStore.get().activeId;
      if (opts.run) void runner.run(id, planRun(sql, 'script', 0));
      else setTimeout(() => editorRef.current?.focus(), 0);
    },
    [runner, url.view],
  );

  const runActive = (mode: RunMode) => editorRef.current?.run(mode);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '?' && !isTypingTarget(e.target)) {
        e.preventDefault();
        setHelp(true);
      } else if (e.altKey && !e.ctrlKey && !e.metaKey) {
        const s = tabStore.get();
        const i = s.tabs.findIndex((t) => t.id === s.activeId);
        if (e.code === 'KeyN') tabStore.set(addTab(s));
        else if (e.code === 'KeyW') {
          runner.forget(s.activeId);
          tabStore.set(closeTab(s, s.activeId));
        } else if (e.key === 'ArrowRight' && i < s.tabs.length - 1)
          tabStore.set(activateTab(s, s.tabs[i + 1].id));
        else if (e.key === 'ArrowLeft' && i > 0) tabStore.set(activateTab(s, s.tabs[i - 1].id));
        else return;
        e.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [runner]);

  const run = runner.runs[tab.id];
  const marker = run?.marker && run.script === tab.sql ? run.marker : undefined;
  const runningIds = new Set(
    Object.entries(runner.runs)
      .filter(([, r]) => r.state.kind === 'running')
      .map(([id]) => id),
  );
  const isRunning = run?.state.kind === 'running';
  const dbOptions = dbs.data?.map((d) => d.name) ?? [];
  if (!dbOptions.includes(tab.db)) dbOptions.unshift(tab.db);

  const onHistory = (e: HistoryEntry, runIt: boolean) => openSql(e.sql, { run: runIt, db: e.db });

  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <span className="logo" aria-hidden>
            ◆
          </span>
          SQL &amp; Model Playground
        </div>
        <nav className="views" aria-label="Views">
          {VIEWS.map((v) => (
            <button
              key={v.id}
              className={navViewId(url.view) === v.id ? 'active' : ''}
              aria-current={navViewId(url.view) === v.id ? 'page' : undefined}
              onClick={() => setView(v.id)}
            >
              {v.label}
            </button>
          ))}
        </nav>
        <span className="spacer" />
        <ConnectionIndicator />
        <button
          className="icon-btn"
          aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          title="Toggle theme"
          onClick={() => themeStore.set(theme === 'dark' ? 'light' : 'dark')}
        >
          {theme === 'dark' ? '☀' : '☾'}
        </button>
        <button
          className="icon-btn"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          onClick={() => setHelp(true)}
        >
          ?
        </button>
      </header>
      <div className="body">
        <aside className="sidebar" aria-label="Sidebar">
          <div className="segmented full" role="tablist" aria-label="Sidebar panels">
            <button
              role="tab"
              aria-selected={sidebar === 'explorer'}
              onClick={() => setSidebar('explorer')}
            >
              Explorer
            </button>
            <button
              role="tab"
              aria-selected={sidebar === 'history'}
              onClick={() => setSidebar('history')}
            >
              History
            </button>
          </div>
          {sidebar === 'explorer' ? (
            <FileUploadArea onQuery={(sql, name) => openSql(sql, { run: true, title: name })}>
              <Explorer
                onInsert={(text) => {
                  if (url.view !== 'sql') setView('sql');
                  editorRef.current?.insertText(text);
                }}
                onQuery={(sql) =>
                  openSql(sql, {
                    run: true,
                    title: /FROM\s+(\S+)/i.exec(sql)?.[1]?.split('.').pop(),
                  })
                }
                onOpenModel={(project, model) => setView('model', { project, model })}
                onCreateModel={({ db, schema, table }) =>
                  setView('create-model', { db, ...(schema ? { schema } : {}), table })
                }
                headerActions={<UploadFileButton />}
              />
            </FileUploadArea>
          ) : (
            <HistoryPanel
              entries={history}
              onOpen={(e) => onHistory(e, false)}
              onRerun={(e) => onHistory(e, true)}
              onClear={() => historyStore.set([])}
            />
          )}
        </aside>
        <main className="main">
          {isModelsView(url.view) ? (
            <ModelsView url={url} theme={theme} onOpenSql={openSql} />
          ) : (
            <div
              className="workspace"
              ref={splitRef}
              style={{ gridTemplateRows: `auto auto ${fraction}fr 6px ${1 - fraction}fr` }}
            >
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
                <label className="db-picker">
                  <span>Database</span>
                  <select
                    aria-label="Database"
                    value={tab.db}
                    onChange={(e) =>
                      tabStore.set((s) => updateTab(s, tab.id, { db: e.target.value }))
                    }
                  >
                    {dbOptions.map((d) => (
                      <option key={d} value={d}>
                        {d}
                      </option>
                    ))}
                  </select>
                </label>
                <span className="spacer" />
                <span className="muted small hint">
                  <kbd>Ctrl</kbd>+<kbd>Enter</kbd> run · <kbd>?</kbd> shortcuts
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
                  emptyState={
                    <div className="welcome">
                      <h2>Run a query to see results here</h2>
                      <p className="muted">
                        Write SQL above and press <kbd>Ctrl</kbd>+<kbd>Enter</kbd>, or start from an
                        example on the embedded demo data:
                      </p>
                      <ul className="examples" aria-label="Example queries">
                        {EXAMPLES.map((ex) => (
                          <li key={ex.title}>
                            <button onClick={() => openSql(ex.sql, { title: ex.title })}>
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
          )}
        </main>
      </div>
      {help && <ShortcutSheet onClose={() => setHelp(false)} />}
      {needsLogin(status.data) && <LoginForm />}
    </div>
  );
}
