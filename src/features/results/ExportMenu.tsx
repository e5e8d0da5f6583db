/**
 * "Export" menu of a result: CSV or JSON, of the current view (the grid's filters and sort) or of
 * every row as returned, each choice saying how many rows it holds.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { exportScopeLabel, type ExportScope } from './export';
import type { GridViewState } from './grid-model';

interface Props {
  total: number;
  /** Read when the menu opens (the grid's filters and sort at that moment). */
  viewState(): GridViewState;
  onExport(format: 'csv' | 'json', scope: ExportScope): void;
  disabled?: boolean;
}

export function ExportMenu({ total, viewState, onExport, disabled }: Props) {
  const [view, setView] = useState<GridViewState | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const open = view !== null;

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!menuRef.current?.contains(t) && !buttonRef.current?.contains(t)) setView(null);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => {
    setView(null);
    buttonRef.current?.focus();
  };
  const choose = (format: 'csv' | 'json', scope: ExportScope) => {
    onExport(format, scope);
    close();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') close();
    else if (e.key === 'ArrowDown') items[(i + 1) % items.length]?.focus();
    else if (e.key === 'ArrowUp') items[(i - 1 + items.length) % items.length]?.focus();
    else return;
    e.preventDefault();
  };

  return (
    <div className="menu-anchor">
      <button
        ref={buttonRef}
        className="btn small"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => (open ? setView(null) : setView(viewState()))}
      >
        Export ▾
      </button>
      {view && (
        <div
          ref={menuRef}
          className="popover-menu"
          role="menu"
          aria-label="Export"
          tabIndex={-1}
          onKeyDown={onKeyDown}
        >
          {(['csv', 'json'] as const).map((format) => (
            <div key={format} role="group" aria-label={format.toUpperCase()}>
              <div className="menu-heading" aria-hidden>
                {format.toUpperCase()}
              </div>
              {(['view', 'all'] as const).map((scope) => (
                <button
                  key={scope}
                  role="menuitem"
                  aria-label={`${format.toUpperCase()}: ${exportScopeLabel(scope, total, view)}`}
                  onClick={() => choose(format, scope)}
                >
                  {exportScopeLabel(scope, total, view)}
                </button>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
