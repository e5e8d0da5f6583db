/**
 * Brings a new result into view: when `result` is an object this element has not shown before (a
 * new prediction, a new sweep), the element scrolls to the top of the view, so a presenter's
 * audience sees the answer at once, even on a short screen. Showing the same result again (back
 * on its tab) leaves the scroll alone.
 */
import { useEffect, type RefObject } from 'react';

const revealed = new WeakSet<object>();

export function useReveal(ref: RefObject<HTMLElement | null>, result: object | null | undefined) {
  useEffect(() => {
    if (!result || revealed.has(result) || !ref.current) return;
    revealed.add(result);
    ref.current.scrollIntoView({ block: 'start', behavior: 'auto' });
  }, [ref, result]);
}
