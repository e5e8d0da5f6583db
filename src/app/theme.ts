/** Light/dark theme: persisted, defaulting to the OS preference, applied as `data-theme` on <html>. */
import { createStore, type Store } from '../lib/create-store';
import { defaultStore, readJson, writeJson, type KeyValueStore } from '../lib/storage';

export type Theme = 'light' | 'dark';
const THEME_STORAGE_KEY = 'smp.theme';

function parseTheme(v: unknown): Theme | undefined {
  return v === 'light' || v === 'dark' ? v : undefined;
}

function systemTheme(): Theme {
  try {
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

function applyTheme(t: Theme) {
  document.documentElement.dataset.theme = t;
  document.documentElement.style.colorScheme = t;
}

export function createThemeStore(
  storage: KeyValueStore | undefined = defaultStore(),
): Store<Theme> {
  const initial = readJson(storage, THEME_STORAGE_KEY, parseTheme, systemTheme());
  applyTheme(initial);
  return createStore<Theme>(initial, (t) => {
    applyTheme(t);
    writeJson(storage, THEME_STORAGE_KEY, t);
  });
}
