import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../lib/storage';
import {
  HISTORY_LIMIT,
  HISTORY_SQL_MAX,
  HISTORY_STORAGE_KEY,
  addEntry,
  createHistoryStore,
  parseHistory,
  removeEntry,
  searchHistory,
  type HistoryEntry,
} from './history-store';

const run = (sql: string, extra: Partial<HistoryEntry> = {}) => ({
  sql,
  db: 'mindsdb',
  at: 1_700_000_000_000,
  durationMs: 12,
  status: 'ok' as const,
  rowCount: 3,
  ...extra,
});

describe('history entries', () => {
  it('adds newest first and caps the list', () => {
    let h: HistoryEntry[] = [];
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) h = addEntry(h, run(`SELECT ${i}`));
    expect(h).toHaveLength(HISTORY_LIMIT);
    expect(h[0].sql).toBe(`SELECT ${HISTORY_LIMIT + 4}`);
  });

  it('cuts very long SQL and errors', () => {
    const h = addEntry([], run('x'.repeat(HISTORY_SQL_MAX + 10), { error: 'e'.repeat(5000) }));
    expect(h[0].sql).toHaveLength(HISTORY_SQL_MAX);
    expect(h[0].error!.length).toBeLessThan(2100);
  });

  it('removes one entry', () => {
    const h = addEntry(addEntry([], run('a')), run('b'));
    expect(removeEntry(h, h[0].id).map((e) => e.sql)).toEqual(['a']);
  });

  it('searches SQL, database and error text, all words case-insensitively', () => {
    let h: HistoryEntry[] = [];
    h = addEntry(h, run('SELECT * FROM home_rentals', { db: 'example_db' }));
    h = addEntry(h, run('SELEC 1', { status: 'error', error: 'Parser Error: syntax' }));
    h = addEntry(h, run('SHOW DATABASES'));
    expect(searchHistory(h, 'home').map((e) => e.sql)).toEqual(['SELECT * FROM home_rentals']);
    expect(searchHistory(h, 'EXAMPLE_DB select')).toHaveLength(1);
    expect(searchHistory(h, 'parser')).toHaveLength(1);
    expect(searchHistory(h, '  ')).toHaveLength(3);
  });
});

describe('history persistence', () => {
  it('survives a reload and ignores malformed entries', () => {
    const storage = memoryStore();
    const a = createHistoryStore(storage);
    a.set((h) => addEntry(h, run('SELECT 1')));
    const b = createHistoryStore(storage);
    expect(b.get().map((e) => e.sql)).toEqual(['SELECT 1']);
    expect(parseHistory([{ id: 'x' }, 'junk', null])).toEqual([]);
    expect(createHistoryStore(memoryStore({ [HISTORY_STORAGE_KEY]: '42' })).get()).toEqual([]);
  });
});
