/**
 * Presentation mode: larger type everywhere, the editor without its chrome (no line numbers,
 * gutter or tabs), the sidebar out of the way. Remembered, and marked as `presenting` on <html>
 * so plain CSS can follow.
 */
import { createStore, type Store } from '../lib/create-store';
import { defaultStore, readJson, writeJson, type KeyValueStore } from '../lib/storage';

const PRESENT_STORAGE_KEY = 'smp.present';

function applyPresentation(on: boolean) {
  document.documentElement.classList.toggle('presenting', on);
}

export function createPresentationStore(
  storage: KeyValueStore | undefined = defaultStore(),
): Store<boolean> {
  const initial = readJson(
    storage,
    PRESENT_STORAGE_KEY,
    (v) => (typeof v === 'boolean' ? v : undefined),
    false,
  );
  applyPresentation(initial);
  return createStore(initial, (on) => {
    applyPresentation(on);
    writeJson(storage, PRESENT_STORAGE_KEY, on);
  });
}
