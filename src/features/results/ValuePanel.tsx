/** Side panel with the full value of a cell (long text, JSON pretty-printed) and copy. */
import { fullText, type GridColumn } from './grid-model';

interface Props {
  cell: { column: GridColumn; value: unknown; rowIndex: number };
  onClose(): void;
  onCopied(what: string): void;
}

export function ValuePanel({ cell, onClose, onCopied }: Props) {
  const text = fullText(cell.value);
  const isNull = cell.value === null || cell.value === undefined;
  return (
    <aside className="value-panel" aria-label="Cell value">
      <header>
        <div>
          <strong>{cell.column.name}</strong>
          <span className="muted small">
            {' '}
            · row {cell.rowIndex + 1}
            {cell.column.type ? ` · ${cell.column.type}` : ''}
          </span>
        </div>
        <button
          className="btn small"
          onClick={() => {
            void navigator.clipboard?.writeText(
              fullText(cell.value, typeof cell.value === 'object'),
            );
            onCopied('value');
          }}
        >
          Copy
        </button>
        <button className="icon-btn" aria-label="Close value panel" onClick={onClose}>
          ×
        </button>
      </header>
      <pre className={isNull ? 'value null' : 'value'}>{text}</pre>
    </aside>
  );
}
