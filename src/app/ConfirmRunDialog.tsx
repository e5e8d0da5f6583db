/**
 * Asks before a shared link runs SQL the instance does not judge safe to run on open (it changes
 * data or models, is expensive or unusual, or the instance could not judge it): links are input
 * anyone can craft. Shows each statement exactly as it will run, with what the instance says it
 * does and why it asks.
 */
import { useEffect, useRef } from 'react';
import type { Classification } from '../../contract';
import { Overlay } from '../components/ui/Overlay';
import { askReason, effectLabel } from './link-verdict';

/** A link's request to run a tab's SQL, with the instance's judgement (null: none). */
export interface LinkRun {
  tabId: string;
  sql: string;
  db: string;
  verdict: Classification | null;
}

interface Props {
  sql: string;
  db: string;
  verdict: Classification | null;
  onRun(): void;
  onCancel(): void;
}

export function ConfirmRunDialog({ sql, db, verdict, onRun, onCancel }: Props) {
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
          The link you opened asks to run this SQL in <code>{db}</code>. {askReason(verdict)}
        </p>
        {verdict && verdict.statements.length > 0 ? (
          <ol className="confirm-statements" aria-label="Statements that would run">
            {verdict.statements.map((s) => (
              <li key={s.start} className={`confirm-statement effect-${s.effect}`}>
                <span className="confirm-effect">{effectLabel(s)}</span>
                <pre className="confirm-sql">{s.sql}</pre>
                {s.reasons.length > 0 && (
                  <ul className="confirm-reasons">
                    {s.reasons.map((r) => (
                      <li key={r}>{r}</li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        ) : (
          <pre className="confirm-sql">{sql}</pre>
        )}
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
