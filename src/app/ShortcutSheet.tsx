/** Keyboard shortcut sheet (opened with `?`). */
import { useEffect, useRef } from 'react';
import { DialogHeader, Overlay } from '../components/ui/Overlay';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const mod = isMac ? '⌘' : 'Ctrl';

const SHORTCUTS: [string, string][] = [
  [`${mod} + Enter`, 'Run the selection or the statement under the cursor'],
  [`${mod} + Shift + Enter`, 'Run the whole script, statement by statement'],
  [`${mod} + Shift + E`, 'Explain the query under the cursor: its steps and DuckDB plan'],
  [`${mod} + .`, 'Cancel the running query'],
  [`${mod} + Space`, 'Autocomplete (databases, tables, columns, models)'],
  ['Esc, then Tab', 'Leave the editor (Shift + Tab: to the control before it); Tab alone indents'],
  ['Ctrl + M', 'In an editor: Tab moves the focus until pressed again (Monaco’s own switch)'],
  ['← / → (tabs)', 'Move between tabs of a tab row (model tabs, result views, panels)'],
  ['Alt + N', 'New tab'],
  ['Alt + W', 'Close tab'],
  ['Alt + ← / →', 'Previous / next tab'],
  ['Double-click a tab', 'Rename it (or F2)'],
  ['Click (explorer)', 'Select a name; open or close it'],
  ['Double-click / drag (explorer)', 'Insert the name into the editor (or its + action)'],
  [`${mod} + C (grid)`, 'Copy the focused cell'],
  [`${mod} + Shift + C (grid)`, 'Copy the focused row'],
  ['Enter / double-click (grid)', 'Show the full value'],
  ['?', 'Show this sheet'],
];

export function ShortcutSheet({ onClose }: { onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <Overlay onBackdropClick={onClose} onEscape={onClose}>
      <div
        ref={ref}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        tabIndex={-1}
      >
        <DialogHeader title="Keyboard shortcuts" onClose={onClose} />
        <table className="shortcuts">
          <tbody>
            {SHORTCUTS.map(([k, what]) => (
              <tr key={k}>
                <td>
                  <kbd>{k}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Overlay>
  );
}
