/** The grid's right-click menu on a cell: copy it, its row (TSV or JSON), show it in full. */
import { fullText, rowToJson, rowToTsv, type CellRef, type GridColumn } from './grid-model';

export function CellMenu({
  at,
  columns,
  onCopy,
  onOpen,
  onClose,
}: {
  at: { x: number; y: number; cell: CellRef };
  columns: readonly GridColumn[];
  onCopy(text: string, what: string): void;
  onOpen(): void;
  onClose(): void;
}) {
  const { cell } = at;
  const item = (label: string, run: () => void) => (
    <button
      role="menuitem"
      onClick={() => {
        onClose();
        run();
      }}
    >
      {label}
    </button>
  );
  return (
    <>
      {/* Click-away for the mouse; the keyboard's way out is Escape. */}
      <div
        className="menu-backdrop"
        role="presentation"
        onClick={onClose}
        onContextMenu={(e) => {
          e.preventDefault();
          onClose();
        }}
      />
      <div className="context-menu" role="menu" style={{ left: at.x, top: at.y }}>
        {item('Copy value', () => onCopy(fullText(cell.value, false), 'cell'))}
        {item('Copy row (TSV)', () => onCopy(rowToTsv(cell.row), 'row'))}
        {item('Copy row as JSON', () => onCopy(rowToJson(columns, cell.row), 'row as JSON'))}
        {item('Show full value', onOpen)}
      </div>
    </>
  );
}
