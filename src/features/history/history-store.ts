/**
 * Query history: every run with its time, duration and row count or error, newest first, capped
 * and persisted in localStorage; plus the search used by the history panel.
 */
import { createStore, type Store } from '../../lib/create-store';
import { newId } from '../../lib/ids';
import { defaultStore, readJson, writeJson, type KeyValueStore } from '../../lib/storage';

export interface HistoryEntry {
  id: string;
  sql: string;
  db: string;
  /** Epoch ms when the run started. */
  at: number;
  durationMs: number;
  status: 'ok' | 'error' | 'cancelled';
  rowCount?: number;
  affectedRows?: number | null;
  error?: string;
}

export const HISTORY_STORAGE_KEY = 'smp.history.v1';
export const HISTORY_LIMIT = 200;
/** SQL longer than this is cut in history (the tab still has all of it). */
export const HISTORY_SQL_MAX = 20_000;

export function addEntry(entries: HistoryEntry[], e: Omit<HistoryEntry, 'id'>): HistoryEntry[] {
  const sql = e.sql.length > HISTORY_SQL_MAX ? e.sql.slice(0, HISTORY_SQL_MAX) : e.sql;
  const error = e.error && e.error.length > 2000 ? e.error.slice(0, 2000) + '…' : e.error;
  const entry: HistoryEntry = { ...e, sql, ...(error !== undefined ? { error } : {}), id: newId() };
  return [entry, ...entries].slice(0, HISTORY_LIMIT);
}

export function removeEntry(entries: HistoryEntry[], id: string): HistoryEntry[] {
  return entries.filter((e) => e.id !== id);
}

/** Case-insensitive search over SQL, database and error; every word must match. */
export function searchHistory(entries: HistoryEntry[], query: string): HistoryEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return entries;
  return entries.filter((e) => {
    const hay = `${e.sql}\n${e.db}\n${e.error ?? ''}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

export function parseHistory(v: unknown): HistoryEntry[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v
    .filter(
      (e): e is HistoryEntry =>
        !!e &&
        typeof e === 'object' &&
        typeof e.id === 'string' &&
        typeof e.sql === 'string' &&
        typeof e.at === 'number' &&
        typeof e.durationMs === 'number' &&
        (e.status === 'ok' || e.status === 'error' || e.status === 'cancelled'),
    )
    .map((e) => ({ ...e, db: typeof e.db === 'string' ? e.db : 'mindsdb' }))
    .slice(0, HISTORY_LIMIT);
}

export function createHistoryStore(
  storage: KeyValueStore | undefined = defaultStore(),
): Store<HistoryEntry[]> {
  const initial = readJson(storage, HISTORY_STORAGE_KEY, parseHistory, []);
  return createStore(initial, (s) => {
    // On quota errors keep the newer half rather than nothing.
    if (!writeJson(storage, HISTORY_STORAGE_KEY, s)) {
      writeJson(storage, HISTORY_STORAGE_KEY, s.slice(0, Math.ceil(s.length / 2)));
    }
  });
}
