/**
 * "Share": a link that restores this view (the SQL and database, or the model page with its tab
 * and form values), optionally asking to run it when opened. Whoever opens it is asked before a
 * statement that changes anything runs.
 */
import { useEffect, useRef, useState } from 'react';
import { DialogHeader, Overlay } from '../components/ui/Overlay';

interface Props {
  /** The link, with or without the request to run on open. */
  linkFor(run: boolean): string;
  /** What running on open does in this view; absent when the view has nothing to run. */
  runLabel?: string;
  onClose(): void;
}

export function ShareDialog({ linkFor, runLabel, onClose }: Props) {
  const [run, setRun] = useState(false);
  const [copiedLink, setCopiedLink] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const link = linkFor(run);
  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [link]);
  const copied = copiedLink === link;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopiedLink(link);
    } catch {
      inputRef.current?.select(); // the user can still copy the selected text
    }
  };

  return (
    <Overlay onBackdropClick={onClose} onEscape={onClose}>
      <div className="dialog share" role="dialog" aria-modal="true" aria-label="Share this view">
        <DialogHeader title="Share this view" onClose={onClose} />
        <p className="muted">
          The link opens this view as it is now: the SQL and its database, or the model page with
          its tab and form values.
        </p>
        <div className="share-link">
          <input ref={inputRef} readOnly aria-label="Link to this view" value={link} />
          <button className="btn primary" onClick={() => void copy()}>
            {copied ? '✓ Copied' : 'Copy link'}
          </button>
        </div>
        {runLabel && (
          <label className="share-run">
            <input type="checkbox" checked={run} onChange={(e) => setRun(e.target.checked)} />
            {runLabel}
          </label>
        )}
        {runLabel && (
          <p className="muted small">
            Statements that change data or models never run from a link without asking first.
          </p>
        )}
      </div>
    </Overlay>
  );
}
