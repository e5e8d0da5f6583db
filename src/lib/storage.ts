/**
 * localStorage access that never throws: private mode, quota errors and corrupt JSON fall back to
 * the default value (the app keeps working, it just forgets).
 */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function defaultStore(): KeyValueStore | undefined {
  try {
    return typeof window !== 'undefined' ? window.localStorage : undefined;
  } catch {
    return undefined;
  }
}

export function readJson<T>(
  store: KeyValueStore | undefined,
  key: string,
  parse: (v: unknown) => T | undefined,
  fallback: T,
): T {
  try {
    const raw = store?.getItem(key);
    if (raw == null) return fallback;
    return parse(JSON.parse(raw)) ?? fallback;
  } catch {
    return fallback;
  }
}

/** Writes JSON; returns false when the store refused it (e.g. quota exceeded). */
export function writeJson(store: KeyValueStore | undefined, key: string, value: unknown): boolean {
  try {
    store?.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

export function memoryStore(init: Record<string, string> = {}): KeyValueStore {
  const m = new Map(Object.entries(init));
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
}
