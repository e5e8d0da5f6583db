/** Editor tabs: add, rename by double-click, close, reorder by dragging. */
import { useState } from 'react';
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
  return (
    <div className="tabbar">
      <div className="tabs" role="tablist" aria-label="Query tabs">
        {tabs.map((t, i) => (
          <div
            key={t.id}
            role="tab"
            aria-selected={t.id === activeId}
            tabIndex={t.id === activeId ? 0 : -1}
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
            onClick={() => onActivate(t.id)}
            onDoubleClick={() => setEditing(t.id)}
            onKeyDown={(e) => {
              if (e.key === 'F2') setEditing(t.id);
              if (e.key === 'ArrowRight' && i < tabs.length - 1) onActivate(tabs[i + 1].id);
              if (e.key === 'ArrowLeft' && i > 0) onActivate(tabs[i - 1].id);
            }}
            title={`${t.title} · ${t.db} (double-click to rename, drag to reorder)`}
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
            <button
              className="tab-close"
              aria-label={`Close ${t.title}`}
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
