/**
 * Editor tabs: pure state transitions plus a store persisted in localStorage. Each tab keeps its
 * SQL and its `context.db` (sent back with each query so `USE x` sticks to that tab).
 */
import { createStore, type Store } from '../../lib/create-store';
import { newId } from '../../lib/ids';
import { defaultStore, readJson, writeJson, type KeyValueStore } from '../../lib/storage';

export interface Tab {
  id: string;
  title: string;
  sql: string;
  db: string;
}

export interface TabsState {
  tabs: Tab[];
  activeId: string;
}

const DEFAULT_DB = 'mindsdb';
export const TABS_STORAGE_KEY = 'smp.tabs.v1';

function nextTitle(tabs: Tab[]): string {
  const used = new Set(tabs.map((t) => t.title));
  for (let i = 1; ; i++) if (!used.has(`Query ${i}`)) return `Query ${i}`;
}

function makeTab(tabs: Tab[], init: Partial<Omit<Tab, 'id'>> = {}): Tab {
  return {
    id: newId(),
    title: init.title ?? nextTitle(tabs),
    sql: init.sql ?? '',
    db: init.db ?? DEFAULT_DB,
  };
}

export function initialTabs(): TabsState {
  const tab = makeTab([]);
  return { tabs: [tab], activeId: tab.id };
}

export function addTab(s: TabsState, init: Partial<Omit<Tab, 'id'>> = {}): TabsState {
  const tab = makeTab(s.tabs, init);
  const at = s.tabs.findIndex((t) => t.id === s.activeId);
  const tabs = [...s.tabs];
  tabs.splice(at < 0 ? tabs.length : at + 1, 0, tab);
  return { tabs, activeId: tab.id };
}

/** Closes a tab; the neighbour becomes active, and closing the last tab leaves a fresh one. */
export function closeTab(s: TabsState, id: string): TabsState {
  const idx = s.tabs.findIndex((t) => t.id === id);
  if (idx < 0) return s;
  const tabs = s.tabs.filter((t) => t.id !== id);
  if (tabs.length === 0) return initialTabs();
  const activeId = s.activeId === id ? tabs[Math.min(idx, tabs.length - 1)].id : s.activeId;
  return { tabs, activeId };
}

export function activateTab(s: TabsState, id: string): TabsState {
  return s.tabs.some((t) => t.id === id) && s.activeId !== id ? { ...s, activeId: id } : s;
}

export function updateTab(s: TabsState, id: string, patch: Partial<Omit<Tab, 'id'>>): TabsState {
  let changed = false;
  const tabs = s.tabs.map((t) => {
    if (t.id !== id) return t;
    const next = { ...t, ...patch };
    if (patch.title !== undefined) next.title = patch.title.trim() || t.title;
    changed = (Object.keys(next) as (keyof Tab)[]).some((k) => next[k] !== t[k]);
    return next;
  });
  return changed ? { ...s, tabs } : s;
}

/** Moves the tab at `from` to index `to` (drag and drop). */
export function moveTab(s: TabsState, from: number, to: number): TabsState {
  if (from === to || from < 0 || from >= s.tabs.length) return s;
  const tabs = [...s.tabs];
  const [t] = tabs.splice(from, 1);
  tabs.splice(Math.max(0, Math.min(to, tabs.length)), 0, t);
  return { ...s, tabs };
}

export function activeTab(s: TabsState): Tab {
  return s.tabs.find((t) => t.id === s.activeId) ?? s.tabs[0];
}

/** Validates persisted state (anything malformed is dropped). */
export function parseTabsState(v: unknown): TabsState | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as { tabs?: unknown; activeId?: unknown };
  if (!Array.isArray(o.tabs)) return undefined;
  const tabs: Tab[] = o.tabs
    .filter((t): t is Record<string, unknown> => !!t && typeof t === 'object')
    .filter((t) => typeof t.id === 'string' && typeof t.sql === 'string')
    .map((t) => ({
      id: t.id as string,
      title: typeof t.title === 'string' && t.title ? t.title : 'Query',
      sql: t.sql as string,
      db: typeof t.db === 'string' && t.db ? t.db : DEFAULT_DB,
    }));
  if (tabs.length === 0) return undefined;
  const activeId =
    typeof o.activeId === 'string' && tabs.some((t) => t.id === o.activeId)
      ? o.activeId
      : tabs[0].id;
  return { tabs, activeId };
}

export function createTabStore(
  storage: KeyValueStore | undefined = defaultStore(),
): Store<TabsState> {
  const initial = readJson(storage, TABS_STORAGE_KEY, parseTabsState, initialTabs());
  let timer: ReturnType<typeof setTimeout> | undefined;
  return createStore(initial, (s) => {
    // Typing changes the SQL on every key: write at most a few times a second.
    clearTimeout(timer);
    timer = setTimeout(() => writeJson(storage, TABS_STORAGE_KEY, s), 150);
  });
}

/** Writes immediately (used on page hide so nothing typed is lost). */
export function persistTabs(s: TabsState, storage: KeyValueStore | undefined = defaultStore()) {
  writeJson(storage, TABS_STORAGE_KEY, s);
}
