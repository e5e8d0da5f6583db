/** History sidebar: searchable list of past runs; open one in the editor or run it again. */
import { useMemo, useState } from 'react';
import { formatCount, formatDuration, formatTime } from '../../lib/format';
import { searchHistory, type HistoryEntry } from './history-store';

interface Props {
  entries: HistoryEntry[];
  onOpen(entry: HistoryEntry): void;
  onRerun(entry: HistoryEntry): void;
  onClear(): void;
}

export function HistoryPanel({ entries, onOpen, onRerun, onClear }: Props) {
  const [q, setQ] = useState('');
  const shown = useMemo(() => searchHistory(entries, q), [entries, q]);
  return (
    <div className="history">
      <div className="panel-header">
        <span>History</span>
        <button className="btn small ghost" onClick={onClear} disabled={entries.length === 0}>
          Clear
        </button>
      </div>
      <input
        className="search"
        type="search"
        placeholder="Search history"
        aria-label="Search history"
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      {entries.length === 0 && <div className="tree-note">Queries you run appear here.</div>}
      {entries.length > 0 && shown.length === 0 && <div className="tree-note">No match.</div>}
      <ul className="history-list" aria-label="Query history">
        {shown.slice(0, 100).map((e) => (
          <li key={e.id} className={`history-item ${e.status}`}>
            <button className="history-sql" title="Open in the editor" onClick={() => onOpen(e)}>
              <code>{e.sql.length > 300 ? e.sql.slice(0, 300) + '…' : e.sql}</code>
            </button>
            <div className="history-meta">
              <span>{formatTime(e.at)}</span>
              <span>{formatDuration(e.durationMs)}</span>
              <span className={e.status === 'ok' ? '' : 'history-err'} title={e.error}>
                {e.status === 'error'
                  ? 'error'
                  : e.status === 'cancelled'
                    ? 'cancelled'
                    : e.rowCount !== undefined
                      ? formatCount(e.rowCount, 'row')
                      : 'ok'}
              </span>
              <span className="muted">{e.db}</span>
              <button
                className="btn small ghost"
                aria-label={`Run again: ${e.sql.slice(0, 60)}`}
                onClick={() => onRerun(e)}
              >
                Run again
              </button>
            </div>
            {e.error && <div className="history-error">{e.error.slice(0, 200)}</div>}
          </li>
        ))}
      </ul>
    </div>
  );
}
