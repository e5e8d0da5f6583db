/**
 * Keeps the URL hash and the app in step: a `#sql=` link opens its query (in a matching tab or a
 * new one, in the link's database), the active tab's SQL and database are written back
 * (replaceState, debounced), `view=` picks the view, and a `run=1` request is taken out of the URL
 * once (so a reload does not run it again) and handed to the shell.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { activateTab, activeTab, addTab, updateTab } from '../features/tabs/tab-store';
import { tabStore } from './stores';
import { decodeHash, encodeHash, type UrlState } from './url-state';

/** Applies a hash's SQL (and database) to the tabs: activates a tab holding it, or opens one. */
export function openSqlFromHash(hash: string) {
  const { sql, db } = decodeHash(hash);
  if (sql === undefined || sql.trim() === '') return;
  tabStore.set((s) => {
    const withDb = (st: typeof s) => (db ? updateTab(st, st.activeId, { db }) : st);
    if (activeTab(s).sql === sql) return withDb(s);
    const same = s.tabs.find((t) => t.sql === sql);
    if (same) return withDb(activateTab(s, same.id));
    const active = activeTab(s);
    if (active.sql.trim() === '') return withDb(updateTab(s, active.id, { sql }));
    return addTab(s, { sql, title: 'Shared query', ...(db ? { db } : {}) });
  });
}

/** Fired after an in-place write (replaceState fires no hashchange), so views see their keys. */
const REPLACED = 'playground:hashreplaced';

function replaceHash(next: string) {
  if (next === (window.location.hash || '')) return;
  history.replaceState(
    history.state,
    '',
    `${window.location.pathname}${window.location.search}${next}`,
  );
  window.dispatchEvent(new Event(REPLACED));
}

/** Takes a `run=1` request out of the URL (once) and returns the state it came with. */
export function takeRunRequest(): UrlState | undefined {
  const state = decodeHash(window.location.hash);
  if (!state.run) return undefined;
  replaceHash(encodeHash({ ...state, run: undefined }));
  return state;
}

function subscribeHash(cb: () => void) {
  window.addEventListener('hashchange', cb);
  window.addEventListener(REPLACED, cb);
  return () => {
    window.removeEventListener('hashchange', cb);
    window.removeEventListener(REPLACED, cb);
  };
}

/** The URL's state, current after navigations and in-place writes alike. */
export function useHashState(): UrlState {
  const hash = useSyncExternalStore(
    subscribeHash,
    () => window.location.hash,
    () => '',
  );
  return decodeHash(hash);
}

/** Opens a view (a history entry); `run` asks it to run on open, as a shared link would. */
export function setView(view: string, extra: Record<string, string> = {}, run = false) {
  const cur = decodeHash(window.location.hash);
  window.location.hash =
    encodeHash({ ...cur, view, extra, run: run || undefined }).slice(1) || 'view=sql';
}

/** Updates some of the view's own keys in place (no history entry): e.g. a model page's form. */
export function replaceViewParams(params: Record<string, string | undefined>) {
  const cur = decodeHash(window.location.hash);
  const extra = { ...cur.extra };
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) delete extra[k];
    else extra[k] = v;
  }
  replaceHash(encodeHash({ ...cur, extra }));
}

/** Writes the SQL view's state (the active tab's SQL and database) into the hash now; a blank
 * editor leaves the hash clean. `view` is the view the write was meant for: when the URL has moved
 * to another view since (a link opened, a navigation while a debounced write waited), the write
 * is dropped, never turning the URL back to the old view. */
export function writeSqlToUrl(sql: string, db: string, view: string) {
  const cur = decodeHash(window.location.hash);
  if (cur.view !== view) return;
  const inSql = view === 'sql' && sql.trim() !== '';
  replaceHash(
    encodeHash({ ...cur, view, sql: inSql ? sql : undefined, db: inSql ? db : undefined }),
  );
}

/** Writes the active tab's SQL and database into the hash while the SQL view is shown. */
export function useSqlInUrl(sql: string, db: string, view: string) {
  useEffect(() => {
    const onHash = () => openSqlFromHash(window.location.hash);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    const t = setTimeout(() => writeSqlToUrl(sql, db, view), 250);
    return () => clearTimeout(t);
  }, [sql, db, view]);
}
