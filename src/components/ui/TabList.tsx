/**
 * A row of tabs as the WAI-ARIA tabs pattern has them: one Tab stop (the selected tab), arrow
 * keys move between tabs and select (Home/End to the ends), and the selected tab names the panel
 * it controls when there is one. Used for page tabs and for segmented switches alike.
 */
import { useRef, type KeyboardEvent, type ReactNode } from 'react';

interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
}

interface Props<T extends string> {
  tabs: readonly TabItem<NoInfer<T>>[];
  selected: T;
  onSelect(id: NoInfer<T>): void;
  /** The tablist's accessible name. */
  label: string;
  className?: string;
  /** With a prefix, tab `x` is `<prefix>-tab-x` and controls the panel `<prefix>-panel-x`. */
  idPrefix?: string;
}

/** The tab that a key press moves to, or null when the key is not a tabs key. */
export function nextTabIndex(key: string, current: number, count: number): number | null {
  if (count === 0) return null;
  if (key === 'ArrowRight' || key === 'ArrowDown') return (current + 1) % count;
  if (key === 'ArrowLeft' || key === 'ArrowUp') return (current - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

export function TabList<T extends string>({
  tabs,
  selected,
  onSelect,
  label,
  className,
  idPrefix,
}: Props<T>) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const next = nextTabIndex(e.key, i, tabs.length);
    if (next === null || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    refs.current[next]?.focus();
    if (tabs[next].id !== selected) onSelect(tabs[next].id);
  };
  return (
    <div className={className} role="tablist" aria-label={label}>
      {tabs.map((t, i) => (
        <button
          key={t.id}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={idPrefix ? `${idPrefix}-tab-${t.id}` : undefined}
          // Only the selected tab's panel is in the page.
          aria-controls={idPrefix && t.id === selected ? `${idPrefix}-panel-${t.id}` : undefined}
          aria-selected={t.id === selected}
          tabIndex={t.id === selected ? 0 : -1}
          onClick={() => onSelect(t.id)}
          onKeyDown={(e) => onKeyDown(e, i)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
