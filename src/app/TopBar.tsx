/** The top bar: sidebar toggle, brand, views, connection, theme and help. */
import type { ReactNode } from 'react';
import { ConnectionIndicator } from '../features/connection/ConnectionIndicator';
import { SIDEBAR_ID } from './Sidebar';
import type { SidebarMode } from './use-sidebar';
import { navViewId, VIEWS } from './views';

interface Props {
  view: string;
  onView(view: string): void;
  theme: 'light' | 'dark';
  onToggleTheme(): void;
  onHelp(): void;
  sidebar: SidebarMode;
  onToggleSidebar(): void;
  /** More buttons before the theme toggle (share, present, tour). */
  actions?: ReactNode;
}

export function TopBar({
  view,
  onView,
  theme,
  onToggleTheme,
  onHelp,
  sidebar,
  onToggleSidebar,
  actions,
}: Props) {
  const shown = sidebar !== 'hidden';
  return (
    <header className="topbar">
      <button
        className="icon-btn sidebar-toggle"
        aria-label={shown ? 'Hide sidebar' : 'Show sidebar'}
        aria-expanded={shown}
        aria-controls={SIDEBAR_ID}
        title={shown ? 'Hide the explorer and history' : 'Show the explorer and history'}
        onClick={onToggleSidebar}
      >
        <span className="sidebar-glyph" aria-hidden />
      </button>
      <div className="brand">
        <span className="logo" aria-hidden>
          ◆
        </span>
        <span className="brand-name">SQL &amp; Model Playground</span>
      </div>
      <nav className="views" aria-label="Views">
        {VIEWS.map((v) => (
          <button
            key={v.id}
            className={navViewId(view) === v.id ? 'active' : ''}
            aria-current={navViewId(view) === v.id ? 'page' : undefined}
            onClick={() => onView(v.id)}
          >
            {v.label}
          </button>
        ))}
      </nav>
      <span className="spacer" />
      <ConnectionIndicator />
      {actions}
      <button
        className="icon-btn"
        aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
        title="Toggle theme"
        onClick={onToggleTheme}
      >
        {theme === 'dark' ? '☀' : '☾'}
      </button>
      <button
        className="icon-btn"
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
        onClick={onHelp}
      >
        ?
      </button>
    </header>
  );
}
