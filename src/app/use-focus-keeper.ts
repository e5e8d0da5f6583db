/**
 * Keeps keyboard focus on the page when a new view replaces the control that opened it (a model
 * in the Models list, Compare…, Train model): the browser drops focus to <body>, and the next Tab
 * would start over at the top bar. Once the new view shows its heading, focus moves there
 * (tabindex -1, so the heading is no Tab stop of its own); a view that already holds focus (the
 * top bar's view buttons stay, the SQL view focuses its editor) is left alone, and so is the
 * first view a page load shows.
 */
import { useEffect, useRef, type RefObject } from 'react';

/** True when nothing on the page holds focus (or what held it was removed). */
function focusLost(doc: Document): boolean {
  const a = doc.activeElement;
  return !a || a === doc.body || !a.isConnected;
}

/** Focuses `root`'s first heading when focus was lost; false while the view has none yet. */
function focusViewHeading(root: HTMLElement): boolean {
  const doc = root.ownerDocument;
  if (!focusLost(doc)) return true;
  const heading = root.querySelector<HTMLElement>('h1');
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
  return true;
}

/**
 * On each change of `viewKey` after the first, moves lost focus to the view's heading, waiting
 * for a view that loads lazily to draw it (until the view changes again).
 */
export function useFocusOnViewChange(root: RefObject<HTMLElement | null>, viewKey: string) {
  const first = useRef(viewKey);
  useEffect(() => {
    const el = root.current;
    if (!el || viewKey === first.current) return;
    first.current = '';
    if (focusViewHeading(el)) return;
    const observer = new MutationObserver(() => {
      if (focusViewHeading(el)) observer.disconnect();
    });
    observer.observe(el, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [root, viewKey]);
}
