/**
 * Asks before a link runs SQL that may change data or models: links are input anyone can craft,
 * so nothing but a read-only query runs on open without the user's say.
 */
import { useEffect, useRef } from 'react';
import { Overlay } from '../components/ui/Overlay';

interface Props {
  sql: string;
  db: string;
  onRun(): void;
  onCancel(): void;
}

export function ConfirmRunDialog({ sql, db, onRun, onCancel }: Props) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <Overlay onEscape={onCancel}>
      <div
        className="dialog confirm-run"
        role="alertdialog"
        aria-modal="true"
        aria-label="Run the shared SQL?"
      >
        <h2>Run the shared SQL?</h2>
        <p>
          The link you opened asks to run this SQL in <code>{db}</code>. It is not a read-only
          query: it may create, change or delete data or models.
        </p>
        <pre className="confirm-sql">{sql}</pre>
        <div className="dialog-actions">
          <button ref={cancelRef} className="btn" onClick={onCancel}>
            Don’t run
          </button>
          <button className="btn danger" onClick={onRun}>
            Run it
          </button>
        </div>
      </div>
    </Overlay>
  );
}
