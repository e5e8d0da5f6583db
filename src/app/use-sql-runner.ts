/**
 * Runs a tab's SQL: threads the tab's context, keeps one AbortController per tab (Cancel aborts
 * the fetch; the server stops the engine when the connection closes), records history, marks
 * errors, and refreshes open views when the server's answer says the catalog changed.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { changesCatalog, refreshCatalog } from '../api/catalog-change';
import { runSql } from '../api/sql-query';
import { addEntry } from '../features/history/history-store';
import type { ResultState } from '../features/results/result-view';
import type { EditorMarker } from '../features/sql-editor/SqlEditor';
import type { RunRequest } from '../features/sql-editor/run-plan';
import { updateTab } from '../features/tabs/tab-store';
import { newId } from '../lib/ids';
import { executeScript } from '../lib/sql/execute-script';
import { historyEntryFor, markerFor } from './run-record';
import { historyStore, tabStore } from './stores';

export interface TabRun {
  state: ResultState;
  /** The script the marker refers to (the marker hides once the text changes). */
  script?: string;
  marker?: EditorMarker;
}

export function useSqlRunner() {
  const qc = useQueryClient();
  const [runs, setRuns] = useState<Record<string, TabRun>>({});
  const controllers = useRef(new Map<string, AbortController>());

  const set = useCallback(
    (tabId: string, run: TabRun) => setRuns((r) => ({ ...r, [tabId]: run })),
    [],
  );

  const run = useCallback(
    async (tabId: string, req: RunRequest) => {
      if (req.statements.length === 0) {
        set(tabId, { state: { kind: 'notice', text: req.emptyReason ?? 'Nothing to run.' } });
        return;
      }
      controllers.current.get(tabId)?.abort();
      const ac = new AbortController();
      controllers.current.set(tabId, ac);
      const tab = tabStore.get().tabs.find((t) => t.id === tabId);
      const db = tab?.db ?? 'mindsdb';
      const at = Date.now();
      const startedAt = performance.now();
      set(tabId, { state: { kind: 'running', startedAt, done: 0, total: req.statements.length } });
      const outcome = await executeScript(
        req.statements,
        db,
        (query, ctxDb, signal) =>
          runSql({
            query,
            context: { db: ctxDb },
            signal,
            markResponse: true,
            stream: true,
            trackQueue: true,
          }),
        ac.signal,
        (done, total) => {
          if (!ac.signal.aborted && done < total) {
            set(tabId, { state: { kind: 'running', startedAt, done, total } });
          }
        },
      );
      const current = controllers.current.get(tabId);
      // A newer run on this tab replaced this one: drop this outcome.
      if (current && current !== ac) return;
      controllers.current.delete(tabId);
      tabStore.set((s) => updateTab(s, tabId, { db: outcome.db }));
      historyStore.set((h) => addEntry(h, historyEntryFor(req, outcome, db, at)));
      set(tabId, {
        state: { kind: 'done', outcome, id: newId() },
        script: req.script,
        marker: markerFor(req, outcome),
      });
      if (outcome.results.some((r) => changesCatalog(r.response))) void refreshCatalog(qc);
    },
    [qc, set],
  );

  const cancel = useCallback((tabId: string) => {
    controllers.current.get(tabId)?.abort();
  }, []);

  const forget = useCallback((tabId: string) => {
    controllers.current.get(tabId)?.abort();
    controllers.current.delete(tabId);
    setRuns((r) => {
      const next = { ...r };
      delete next[tabId];
      return next;
    });
  }, []);

  return { runs, run, cancel, forget };
}
