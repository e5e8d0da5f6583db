/**
 * The shell's keyboard shortcuts (listed in the `?` sheet): `?` opens the sheet, Alt+N a new query
 * tab, Alt+W closes the active one, Alt+Left/Right move between tabs. `?` never fires while typing.
 */
import { useEffect } from 'react';
import { activateTab, addTab, closeTab, type TabsState } from '../features/tabs/tab-store';
import { tabStore } from './stores';

type Key = Pick<KeyboardEvent, 'key' | 'code' | 'altKey' | 'ctrlKey' | 'metaKey' | 'target'>;

/** What a key press does: open the sheet, change the query tabs (closing one), or nothing. */
export type Shortcut = { kind: 'help' } | { kind: 'tabs'; next: TabsState; closed?: string } | null;

function isTypingTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return (
    !!el &&
    (el.isContentEditable ||
      /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) ||
      !!el.closest?.('.monaco-editor'))
  );
}

export function shortcutFor(e: Key, s: TabsState): Shortcut {
  if (e.key === '?' && !isTypingTarget(e.target)) return { kind: 'help' };
  if (!e.altKey || e.ctrlKey || e.metaKey) return null;
  const i = s.tabs.findIndex((t) => t.id === s.activeId);
  if (e.code === 'KeyN') return { kind: 'tabs', next: addTab(s) };
  if (e.code === 'KeyW') return { kind: 'tabs', next: closeTab(s, s.activeId), closed: s.activeId };
  if (e.key === 'ArrowRight' && i < s.tabs.length - 1)
    return { kind: 'tabs', next: activateTab(s, s.tabs[i + 1].id) };
  if (e.key === 'ArrowLeft' && i > 0)
    return { kind: 'tabs', next: activateTab(s, s.tabs[i - 1].id) };
  return null;
}

/** `showHelp(true)` opens the sheet; `forgetTab` drops a closed tab's run. */
export function useAppShortcuts(
  showHelp: (open: boolean) => void,
  forgetTab: (tabId: string) => void,
) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = shortcutFor(e, tabStore.get());
      if (!action) return;
      e.preventDefault();
      if (action.kind === 'help') return showHelp(true);
      if (action.closed) forgetTab(action.closed);
      tabStore.set(action.next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [showHelp, forgetTab]);
}
