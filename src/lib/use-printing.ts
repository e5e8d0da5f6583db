/**
 * Whether the page is being printed (between `beforeprint` and `afterprint`). The switch is
 * rendered synchronously inside `beforeprint`, so what depends on it (charts drawn for the paper's
 * width) is in the DOM before the browser lays the page out for print; a ResizeObserver would
 * answer too late.
 */
import { useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';

let printing = false;
const listeners = new Set<() => void>();

function set(on: boolean) {
  if (printing === on) return;
  printing = on;
  flushSync(() => listeners.forEach((l) => l()));
}

function subscribe(cb: () => void) {
  if (listeners.size === 0) {
    window.addEventListener('beforeprint', onBefore);
    window.addEventListener('afterprint', onAfter);
  }
  listeners.add(cb);
  return () => {
    listeners.delete(cb);
    if (listeners.size === 0) {
      window.removeEventListener('beforeprint', onBefore);
      window.removeEventListener('afterprint', onAfter);
    }
  };
}

function onBefore() {
  set(true);
}
function onAfter() {
  set(false);
}

export function usePrinting(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => printing,
    () => false,
  );
}
