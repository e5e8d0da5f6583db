/**
 * The app shell: top bar (views, connection, theme, help), sidebar (explorer, history) and the main
 * view chosen by URL state. Wires the features together; holds no business logic itself.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { classifySql } from '../api/sql-classify';
import { statusQueryOptions } from '../api/status';
import { needsLogin } from '../features/connection/connection-state';
import { LoginForm } from '../features/connection/LoginForm';
import type { SqlEditorHandle } from '../features/sql-editor/SqlEditor';
import { planRun } from '../features/sql-editor/run-plan';
import { activeTab, addTab, updateTab } from '../features/tabs/tab-store';
import { useStore } from '../lib/use-store';
import { createCompletionSource } from './completion-source';
import { ConfirmRunDialog, type LinkRun } from './ConfirmRunDialog';
import { ShareDialog } from './ShareDialog';
import { ShortcutSheet } from './ShortcutSheet';
import { Sidebar } from './Sidebar';
import { SqlWorkspace } from './SqlWorkspace';
import { historyStore, presentationStore, tabStore, themeStore } from './stores';
import { TourPanel } from './TourPanel';
import { TopBar } from './TopBar';
import { decodeHash, encodeHash } from './url-state';
import {
  openSqlFromHash,
  setView,
  takeRunRequest,
  useSqlInUrl,
  useHashState,
  writeSqlToUrl,
} from './url-sync';
import { isModelsView, ModelsView } from './views';
import { useFocusOnViewChange } from './use-focus-keeper';
import { useAppShortcuts } from './use-app-shortcuts';
import { useSidebar } from './use-sidebar';
import { useSqlRunner } from './use-sql-runner';
import { useTour } from './use-tour';

export function App() {
  const theme = useStore(themeStore);
  const tabsState = useStore(tabStore);
  const history = useStore(historyStore);
  const url = useHashState();
  const tab = activeTab(tabsState);
  const qc = useQueryClient();
  const status = useQuery(statusQueryOptions());
  const runner = useSqlRunner();
  const editorRef = useRef<SqlEditorHandle>(null);
  const mainRef = useRef<HTMLElement>(null);
  useFocusOnViewChange(
    mainRef,
    [url.view, url.extra.project ?? '', url.extra.model ?? ''].join('\u0000'),
  );
  const completion = useMemo(() => createCompletionSource(qc), [qc]);
  const presenting = useStore(presentationStore);
  const sidebar = useSidebar(presenting);
  const [help, setHelp] = useState(false);
  useAppShortcuts(setHelp, runner.forget);
  useSqlInUrl(tab.sql, tab.db, url.view);
  const [share, setShare] = useState(false);
  const [confirmRun, setConfirmRun] = useState<LinkRun | null>(null);
  const [modelRun, setModelRun] = useState(false);
  const runTab = runner.run;
  const tour = useTour(url.view, runTab);

  // A link with run=1 runs at once only when the instance judges (POST /api/sql/classify) that
  // every statement only reads and none is expensive or unusual; anything else, or an instance
  // that cannot judge (a MindsDB server), shows the statements and asks. The SPA never reads the
  // SQL for meaning itself. On a model page the page runs (a prediction only reads). The request
  // leaves the URL here.
  // The latest runner, for a judgement that arrives after a re-render.
  const runTabRef = useRef(runTab);
  useEffect(() => {
    runTabRef.current = runTab;
  }, [runTab]);
  const pendingLink = useRef<AbortController | null>(null);
  useEffect(() => {
    const handle = () => {
      const req = takeRunRequest();
      // Navigating elsewhere drops a run the model page did not get to.
      setModelRun(!!req && req.view === 'model' && /^(predict|what-if)$/.test(req.extra.tab ?? ''));
      if (!req || req.view !== 'sql') return;
      if (!req.sql) return;
      openSqlFromHash(window.location.hash);
      const t = activeTab(tabStore.get());
      // A newer link replaces a judgement still on its way; nothing else cancels it (the run
      // request has left the URL, so a re-mounted effect would not see it again).
      pendingLink.current?.abort();
      const ac = new AbortController();
      pendingLink.current = ac;
      classifySql(t.sql, { db: t.db }, ac.signal).then(
        (verdict) => {
          if (ac.signal.aborted) return;
          if (verdict?.run_without_asking)
            void runTabRef.current(t.id, planRun(t.sql, 'script', 0));
          else setConfirmRun({ tabId: t.id, sql: t.sql, db: t.db, verdict });
        },
        () => undefined,
      );
    };
    handle();
    window.addEventListener('hashchange', handle);
    return () => window.removeEventListener('hashchange', handle);
  }, []);

  /** The link to the current view (the SQL view's state written first), optionally with run=1. */
  const linkFor = (run: boolean) => {
    if (url.view === 'sql') writeSqlToUrl(tab.sql, tab.db, url.view);
    const state = decodeHash(window.location.hash);
    return `${window.location.origin}${window.location.pathname}${encodeHash({ ...state, run })}`;
  };
  const runLabel =
    url.view === 'sql'
      ? tab.sql.trim()
        ? 'Run the query when the link is opened'
        : undefined
      : url.view === 'model' && url.extra.tab === 'predict'
        ? 'Send the prediction when the link is opened'
        : url.view === 'model' && url.extra.tab === 'what-if'
          ? 'Run the sweep when the link is opened'
          : undefined;

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

  return (
    <div className="app">
      <TopBar
        view={url.view}
        onView={(v) => setView(v)}
        theme={theme}
        onToggleTheme={() => themeStore.set(theme === 'dark' ? 'light' : 'dark')}
        onHelp={() => setHelp(true)}
        sidebar={sidebar.mode}
        onToggleSidebar={sidebar.toggle}
        actions={
          <>
            <button
              className="btn small"
              aria-haspopup="dialog"
              title="A link that opens this view as it is now"
              onClick={() => setShare(true)}
            >
              Share
            </button>
            <button
              className="btn small"
              aria-pressed={tour.step !== null}
              title="A guided sample in four steps: query, train, predict, see why"
              onClick={() => (tour.step === null ? tour.start() : tour.setStep(null))}
            >
              Tour
            </button>
            <button
              className={`btn small${presenting ? ' primary' : ''}`}
              aria-pressed={presenting}
              title="Larger type and no editor chrome, for demos"
              onClick={() => presentationStore.set(!presenting)}
            >
              {presenting ? 'Exit presentation' : 'Present'}
            </button>
          </>
        }
      />
      <div className={`body${sidebar.mode === 'docked' ? ' docked' : ''}`}>
        <Sidebar
          mode={sidebar.mode}
          onClose={sidebar.closeDrawer}
          history={history}
          onOpenHistory={(e, runIt) => {
            sidebar.closeDrawer();
            openSql(e.sql, { run: runIt, db: e.db });
          }}
          onClearHistory={() => historyStore.set([])}
          onInsert={(text) => {
            if (url.view !== 'sql') setView('sql');
            editorRef.current?.insertText(text);
          }}
          onQuery={(sql, title) => {
            sidebar.closeDrawer();
            openSql(sql, { run: true, title });
          }}
          onOpenModel={(project, model) => {
            sidebar.closeDrawer();
            setView('model', { project, model });
          }}
          onCreateModel={({ db, schema, table }) => {
            sidebar.closeDrawer();
            setView('create-model', { db, ...(schema ? { schema } : {}), table });
          }}
        />
        <main className="main" ref={mainRef}>
          {isModelsView(url.view) ? (
            <ModelsView
              url={url}
              theme={theme}
              onOpenSql={openSql}
              autoRun={modelRun}
              onAutoRunDone={() => setModelRun(false)}
            />
          ) : (
            <SqlWorkspace
              theme={theme}
              runner={runner}
              editorRef={editorRef}
              completion={completion}
              onOpenSql={openSql}
              presenting={presenting}
              welcomeExtra={
                <div className={`tour-offer${tour.seen ? ' seen' : ''}`}>
                  <div>
                    <strong>
                      {tour.seen ? 'The guided tour' : 'New here? Take the guided tour'}
                    </strong>
                    <span className="muted">
                      Four steps on the demo data: query it, train a model, predict, see why.
                    </span>
                  </div>
                  <button className={`btn${tour.seen ? '' : ' primary'}`} onClick={tour.start}>
                    {tour.seen ? 'Replay the tour' : 'Start the tour'}
                  </button>
                </div>
              }
            />
          )}
        </main>
      </div>
      {tour.step !== null && (
        <TourPanel
          step={tour.step}
          onStep={tour.setStep}
          onClose={() => tour.setStep(null)}
          onRun={tour.run}
        />
      )}
      {help && <ShortcutSheet onClose={() => setHelp(false)} />}
      {share && (
        <ShareDialog linkFor={linkFor} runLabel={runLabel} onClose={() => setShare(false)} />
      )}
      {confirmRun && (
        <ConfirmRunDialog
          sql={confirmRun.sql}
          db={confirmRun.db}
          verdict={confirmRun.verdict}
          onCancel={() => setConfirmRun(null)}
          onRun={() => {
            void runTab(confirmRun.tabId, planRun(confirmRun.sql, 'script', 0));
            setConfirmRun(null);
          }}
        />
      )}
      {needsLogin(status.data) && <LoginForm />}
    </div>
  );
}
