/**
 * Editor tabs: add, rename by double-click (or F2), close (its × or Delete), reorder by dragging.
 * Arrow keys, Home and End move between tabs. The × sits beside the tab, not inside it (a tab
 * holds no other control), and is for the mouse: the keyboard closes with Delete or Alt+W.
 */
import { useRef, useState } from 'react';
import type { Tab } from './tab-store';

interface Props {
  tabs: Tab[];
  activeId: string;
  runningIds: ReadonlySet<string>;
  onActivate(id: string): void;
  onAdd(): void;
  onClose(id: string): void;
  onRename(id: string, title: string): void;
  onMove(from: number, to: number): void;
}

export function TabBar({
  tabs,
  activeId,
  runningIds,
  onActivate,
  onAdd,
  onClose,
  onRename,
  onMove,
}: Props) {
  const [editing, setEditing] = useState<string | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const refs = useRef(new Map<string, HTMLDivElement>());
  const listRef = useRef<HTMLDivElement>(null);
  // Arrow keys move the focus with the selection (the WAI-ARIA tabs pattern).
  const activateAndFocus = (id: string) => {
    onActivate(id);
    refs.current.get(id)?.focus();
  };
  return (
    <div className="tabbar">
      <div className="tabs" role="tablist" aria-label="Query tabs" ref={listRef}>
        {tabs.map((t, i) => (
          <div
            key={t.id}
            role="presentation"
            className={`tab${t.id === activeId ? ' active' : ''}${dropAt === i && dragFrom !== i ? ' drop' : ''}`}
            draggable={editing !== t.id}
            onDragStart={(e) => {
              setDragFrom(i);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', t.title);
            }}
            onDragOver={(e) => {
              if (dragFrom === null) return;
              e.preventDefault();
              setDropAt(i);
            }}
            onDrop={(e) => {
              e.preventDefault();
              if (dragFrom !== null) onMove(dragFrom, i);
              setDragFrom(null);
              setDropAt(null);
            }}
            onDragEnd={() => {
              setDragFrom(null);
              setDropAt(null);
            }}
            title={`${t.title} · ${t.db} (double-click to rename, drag to reorder)`}
          >
            <div
              ref={(el) => {
                if (el) refs.current.set(t.id, el);
                else refs.current.delete(t.id);
              }}
              role="tab"
              className="tab-label"
              aria-selected={t.id === activeId}
              aria-keyshortcuts="Delete F2"
              tabIndex={t.id === activeId ? 0 : -1}
              onClick={() => onActivate(t.id)}
              onDoubleClick={() => setEditing(t.id)}
              onKeyDown={(e) => {
                if (e.key === 'F2') setEditing(t.id);
                else if (e.key === 'Delete') {
                  onClose(t.id);
                  // The focus goes to the tab that is active now.
                  setTimeout(() =>
                    listRef.current
                      ?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')
                      ?.focus(),
                  );
                } else if (e.key === 'ArrowRight' && i < tabs.length - 1)
                  activateAndFocus(tabs[i + 1].id);
                else if (e.key === 'ArrowLeft' && i > 0) activateAndFocus(tabs[i - 1].id);
                else if (e.key === 'Home') activateAndFocus(tabs[0].id);
                else if (e.key === 'End') activateAndFocus(tabs[tabs.length - 1].id);
                else return;
                e.preventDefault();
              }}
            >
              {runningIds.has(t.id) && <span className="tab-running" aria-label="running" />}
              {editing === t.id ? (
                <input
                  className="tab-rename"
                  aria-label="Tab name"
                  defaultValue={t.title}
                  // Shown when the user asks to rename the tab (double-click): type there at once.
                  // eslint-disable-next-line jsx-a11y/no-autofocus
                  autoFocus
                  onFocus={(e) => e.currentTarget.select()}
                  onClick={(e) => e.stopPropagation()}
                  onBlur={(e) => {
                    onRename(t.id, e.currentTarget.value);
                    setEditing(null);
                  }}
                  onKeyDown={(e) => {
                    e.stopPropagation();
                    if (e.key === 'Enter') e.currentTarget.blur();
                    if (e.key === 'Escape') setEditing(null);
                  }}
                />
              ) : (
                <span className="tab-title">{t.title}</span>
              )}
            </div>
            <button
              className="tab-close"
              aria-hidden="true"
              tabIndex={-1}
              title={`Close ${t.title} (Delete on the tab)`}
              onClick={(e) => {
                e.stopPropagation();
                onClose(t.id);
              }}
            >
              ×
            </button>
          </div>
        ))}
      </div>
      <button
        className="icon-btn add-tab"
        aria-label="New tab"
        title="New tab (Alt+T)"
        onClick={onAdd}
      >
        +
      </button>
    </div>
  );
}
