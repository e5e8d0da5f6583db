/** Draggable editor/results split (fraction of the height for the editor, persisted). */
import { useCallback, useRef, useState, type PointerEvent } from 'react';
import { defaultStore, readJson, writeJson } from '../lib/storage';

const KEY = 'smp.split';
const clamp = (v: number) => Math.min(0.8, Math.max(0.15, v));

export function useSplit() {
  const [fraction, setFraction] = useState(() =>
    readJson(defaultStore(), KEY, (v) => (typeof v === 'number' ? clamp(v) : undefined), 0.42),
  );
  const containerRef = useRef<HTMLDivElement>(null);
  const onPointerDown = useCallback(
    (e: PointerEvent<HTMLDivElement>) => {
      const el = containerRef.current;
      if (!el) return;
      e.preventDefault();
      const top = el.querySelector<HTMLElement>('.editor-pane')?.getBoundingClientRect().top ?? 0;
      const bottom = el.getBoundingClientRect().bottom;
      let last = fraction;
      const move = (ev: globalThis.PointerEvent) => {
        last = clamp((ev.clientY - top) / Math.max(1, bottom - top));
        setFraction(last);
      };
      const up = () => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
        writeJson(defaultStore(), KEY, last);
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
    },
    [fraction],
  );
  return { fraction, containerRef, onPointerDown };
}
