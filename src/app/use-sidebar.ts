/**
 * Where the sidebar (explorer, history, upload) shows: docked beside the main view on wide
 * screens (the user may hide it; remembered), or below 900 CSS px (a narrow window, or 200% zoom)
 * as a drawer over the main view that a toolbar button opens and Escape or a click outside closes.
 */
import { useCallback, useState } from 'react';
import { defaultStore, readJson, writeJson } from '../lib/storage';
import { useMediaQuery } from '../lib/use-media-query';

const NARROW_QUERY = '(max-width: 900px)';
const KEY = 'smp.sidebar-docked';

export type SidebarMode = 'docked' | 'drawer' | 'hidden';

export function sidebarMode(narrow: boolean, docked: boolean, drawerOpen: boolean): SidebarMode {
  if (narrow) return drawerOpen ? 'drawer' : 'hidden';
  return docked ? 'docked' : 'hidden';
}

/** `presenting`: the sidebar behaves as on a narrow screen (out of the way until asked for). */
export function useSidebar(presenting = false) {
  const narrow = useMediaQuery(NARROW_QUERY) || presenting;
  const [docked, setDocked] = useState(() =>
    readJson(defaultStore(), KEY, (v) => (typeof v === 'boolean' ? v : undefined), true),
  );
  const [drawerOpen, setDrawerOpen] = useState(false);
  const mode = sidebarMode(narrow, docked, drawerOpen);
  const toggle = useCallback(() => {
    if (narrow) setDrawerOpen((o) => !o);
    else
      setDocked((d) => {
        writeJson(defaultStore(), KEY, !d);
        return !d;
      });
  }, [narrow]);
  /** After an action that moves the user's attention to the main view, a drawer gets out of the way. */
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  return { mode, narrow, toggle, closeDrawer };
}
