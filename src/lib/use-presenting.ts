/**
 * Whether presentation mode is on (`<html class="presenting">`, set by the app shell), for
 * components that size things in script (chart axes, label widths) rather than in CSS.
 */
import { useSyncExternalStore } from 'react';

const PRESENTING_CLASS = 'presenting';

function subscribe(cb: () => void) {
  const obs = new MutationObserver(cb);
  obs.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => obs.disconnect();
}

export function usePresenting(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => document.documentElement.classList.contains(PRESENTING_CLASS),
    () => false,
  );
}
