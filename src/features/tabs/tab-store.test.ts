import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../../lib/storage';
import {
  TABS_STORAGE_KEY,
  activateTab,
  activeTab,
  addTab,
  closeTab,
  createTabStore,
  initialTabs,
  moveTab,
  parseTabsState,
  updateTab,
} from './tab-store';

const three = () => {
  let s = initialTabs();
  s = addTab(s, { sql: 'SELECT 2' });
  s = addTab(s, { sql: 'SELECT 3' });
  return s;
};

describe('tab transitions', () => {
  it('adds numbered tabs after the active one and activates them', () => {
    const s = three();
    expect(s.tabs.map((t) => t.title)).toEqual(['Query 1', 'Query 2', 'Query 3']);
    expect(activeTab(s).sql).toBe('SELECT 3');
    const s2 = addTab(activateTab(s, s.tabs[0].id));
    expect(s2.tabs.map((t) => t.title)).toEqual(['Query 1', 'Query 4', 'Query 2', 'Query 3']);
  });

  it('closing the active tab activates its neighbour; closing the last leaves a fresh tab', () => {
    const s = three();
    const closed = closeTab(s, s.tabs[2].id);
    expect(closed.tabs).toHaveLength(2);
    expect(closed.activeId).toBe(s.tabs[1].id);
    const one = closeTab(closeTab(closed, closed.tabs[0].id), closed.tabs[1].id);
    expect(one.tabs).toHaveLength(1);
    expect(one.tabs[0].sql).toBe('');
  });

  it('renames (ignoring blank names) and keeps SQL and db per tab', () => {
    const s = three();
    const id = s.tabs[1].id;
    let r = updateTab(s, id, { title: '  Rentals ' });
    r = updateTab(r, id, { db: 'example_db' });
    expect(r.tabs[1]).toMatchObject({ title: 'Rentals', db: 'example_db', sql: 'SELECT 2' });
    expect(updateTab(r, id, { title: '   ' }).tabs[1].title).toBe('Rentals');
    expect(updateTab(r, id, { sql: 'SELECT 2' })).toBe(r);
  });

  it('reorders by moving a tab to a new index', () => {
    const s = three();
    expect(moveTab(s, 0, 2).tabs.map((t) => t.sql)).toEqual(['SELECT 2', 'SELECT 3', '']);
    expect(moveTab(s, 2, 0).tabs.map((t) => t.sql)).toEqual(['SELECT 3', '', 'SELECT 2']);
    expect(moveTab(s, 1, 1)).toBe(s);
  });
});

describe('persistence', () => {
  afterEach(() => vi.useRealTimers());

  it('drops malformed persisted state', () => {
    expect(parseTabsState(null)).toBeUndefined();
    expect(parseTabsState({ tabs: [] })).toBeUndefined();
    expect(parseTabsState({ tabs: [{ id: 'a', sql: 'x' }, { id: 1 }], activeId: 'zzz' })).toEqual({
      tabs: [{ id: 'a', title: 'Query', sql: 'x', db: 'mindsdb' }],
      activeId: 'a',
    });
  });

  it('restores tabs written by a previous store', () => {
    vi.useFakeTimers();
    const storage = memoryStore();
    const a = createTabStore(storage);
    a.set((s) => addTab(s, { sql: 'SELECT 42', db: 'example_db' }));
    vi.advanceTimersByTime(500);
    expect(storage.getItem(TABS_STORAGE_KEY)).toContain('SELECT 42');
    const b = createTabStore(storage);
    expect(activeTab(b.get())).toMatchObject({ sql: 'SELECT 42', db: 'example_db' });
  });

  it('starts fresh from corrupt storage', () => {
    const b = createTabStore(memoryStore({ [TABS_STORAGE_KEY]: '{not json' }));
    expect(b.get().tabs).toHaveLength(1);
  });
});
