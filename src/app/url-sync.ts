/**
 * Keeps the URL hash and the app in step: a `#sql=` link opens its query (in a matching tab or a
 * new one), the active tab's SQL is written back (replaceState, debounced), `view=` picks the view.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { activateTab, activeTab, addTab } from '../features/tabs/tab-store';
import { tabStore } from './stores';
import { decodeHash, encodeHash, type UrlState } from './url-state';

/** Applies a hash's SQL to the tabs: activates a tab holding it, or opens a new one. */
export function openSqlFromHash(hash: string) {
  const { sql } = decodeHash(hash);
  if (sql === undefined || sql.trim() === '') return;
  tabStore.set((s) => {
    if (activeTab(s).sql === sql) return s;
    const same = s.tabs.find((t) => t.sql === sql);
    if (same) return activateTab(s, same.id);
    const active = activeTab(s);
    if (active.sql.trim() === '')
      return { ...s, tabs: s.tabs.map((t) => (t.id === active.id ? { ...t, sql } : t)) };
    return addTab(s, { sql, title: 'Shared query' });
  });
}

function subscribeHash(cb: () => void) {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
}

export function useUrlState(): UrlState {
  const hash = useSyncExternalStore(
    subscribeHash,
    () => window.location.hash,
    () => '',
  );
  return decodeHash(hash);
}

export function setView(view: string, extra: Record<string, string> = {}) {
  const cur = decodeHash(window.location.hash);
  window.location.hash = encodeHash({ ...cur, view, extra }).slice(1) || 'view=sql';
}

/** Writes the active tab's SQL into the hash while the SQL view is shown. */
export function useSqlInUrl(sql: string, view: string) {
  useEffect(() => {
    const onHash = () => openSqlFromHash(window.location.hash);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    const t = setTimeout(() => {
      const cur = decodeHash(window.location.hash);
      const next = encodeHash({ ...cur, view, sql: view === 'sql' ? sql : undefined });
      if (next !== (window.location.hash || '')) {
        history.replaceState(
          history.state,
          '',
          `${window.location.pathname}${window.location.search}${next}`,
        );
      }
    }, 250);
    return () => clearTimeout(t);
  }, [sql, view]);
}
