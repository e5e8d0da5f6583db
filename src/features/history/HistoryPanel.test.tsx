import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { addEntry, type HistoryEntry } from './history-store';
import { HistoryPanel } from './HistoryPanel';

const entries = [
  { sql: 'SELECT 1 AS one', status: 'ok' as const, rowCount: 1 },
  { sql: 'SELEC 2', status: 'error' as const, error: 'Parser Error: syntax error' },
].reduce<HistoryEntry[]>(
  (h, e) => addEntry(h, { db: 'mindsdb', at: Date.now(), durationMs: 5, ...e }),
  [],
);

describe('HistoryPanel', () => {
  it('filters by search and re-runs an entry', () => {
    const onRerun = vi.fn();
    render(<HistoryPanel entries={entries} onOpen={vi.fn()} onRerun={onRerun} onClear={vi.fn()} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search history' }), {
      target: { value: 'parser' },
    });
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByRole('listitem')).toHaveTextContent('error');
    fireEvent.click(screen.getByRole('button', { name: /Run again: SELEC 2/ }));
    expect(onRerun).toHaveBeenCalledWith(expect.objectContaining({ sql: 'SELEC 2' }));
  });
});
