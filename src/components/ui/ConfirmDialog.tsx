/**
 * A question before an action that cannot be taken back (drop, retrain): Cancel has the focus, so
 * Enter does no harm; Escape and a click outside cancel.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Overlay } from './Overlay';
import './ui.css';

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  danger,
  busy,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <Overlay onBackdropClick={onCancel} onEscape={onCancel}>
      <div
        className="dialog confirm-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-label={title}
      >
        <h2>{title}</h2>
        <div className="confirm-body">{children}</div>
        <div className="m-actions end">
          <button className="btn" onClick={onCancel} ref={ref}>
            Cancel
          </button>
          <button
            className={`btn ${danger ? 'danger' : 'primary'}`}
            onClick={onConfirm}
            disabled={busy}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </Overlay>
  );
}
