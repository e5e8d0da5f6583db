/**
 * The sidebar: explorer (with file upload) and history. Docked beside the main view, or a drawer
 * over it on narrow screens (see use-sidebar.ts); it stays mounted while hidden so open tree nodes
 * and the history search survive.
 */
import { TabList } from '../components/ui/TabList';
import { useEffect, useRef, useState } from 'react';
import { Explorer, type ExplorerModelActions } from '../features/explorer/Explorer';
import { FileUploadArea, UploadFileButton } from '../features/files/FileUpload';
import { HistoryPanel } from '../features/history/HistoryPanel';
import type { HistoryEntry } from '../features/history/history-store';
import type { SidebarMode } from './use-sidebar';

interface Props extends ExplorerModelActions {
  mode: SidebarMode;
  onClose(): void;
  history: HistoryEntry[];
  onOpenHistory(entry: HistoryEntry, run: boolean): void;
  onClearHistory(): void;
  onInsert(text: string): void;
  onQuery(sql: string, title?: string): void;
}

export const SIDEBAR_ID = 'app-sidebar';

export function Sidebar({
  mode,
  onClose,
  history,
  onOpenHistory,
  onClearHistory,
  onInsert,
  onQuery,
  onOpenModel,
  onCreateModel,
}: Props) {
  const [panel, setPanel] = useState<'explorer' | 'history'>('explorer');
  const ref = useRef<HTMLElement>(null);
  const drawer = mode === 'drawer';
  useEffect(() => {
    if (!drawer) return;
    ref.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawer, onClose]);

  return (
    <>
      {drawer && <div className="drawer-backdrop" onClick={onClose} aria-hidden />}
      <aside
        ref={ref}
        id={SIDEBAR_ID}
        className={`sidebar sidebar-${mode}`}
        aria-label="Sidebar"
        hidden={mode === 'hidden'}
      >
        <TabList
          className="segmented full"
          label="Sidebar panels"
          tabs={[
            { id: 'explorer', label: 'Explorer' },
            { id: 'history', label: 'History' },
          ]}
          selected={panel}
          onSelect={setPanel}
        />
        {panel === 'explorer' ? (
          <FileUploadArea onQuery={(sql, name) => onQuery(sql, name)}>
            <Explorer
              onInsert={onInsert}
              onQuery={(sql) => onQuery(sql, /FROM\s+(\S+)/i.exec(sql)?.[1]?.split('.').pop())}
              onOpenModel={onOpenModel}
              onCreateModel={onCreateModel}
              headerActions={<UploadFileButton />}
            />
          </FileUploadArea>
        ) : (
          <HistoryPanel
            entries={history}
            onOpen={(e) => onOpenHistory(e, false)}
            onRerun={(e) => onOpenHistory(e, true)}
            onClear={onClearHistory}
          />
        )}
      </aside>
    </>
  );
}
