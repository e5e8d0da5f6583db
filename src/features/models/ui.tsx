/** Small building blocks of the model pages: status badge, confirmation dialog, copy button. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Overlay } from '../../components/ui/Overlay';

export { formatNumber } from './format-number';

function statusTone(status: string): 'ok' | 'busy' | 'error' | 'idle' {
  const s = status.toLowerCase();
  if (s === 'complete') return 'ok';
  if (s === 'error' || s === 'failed') return 'error';
  if (/generating|training|creating|retraining/.test(s)) return 'busy';
  return 'idle';
}

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  const tone = statusTone(status);
  return (
    <span className={`m-status m-status-${tone}`} aria-label={label ?? `Status: ${status}`}>
      {tone === 'busy' && <span className="m-pulse" aria-hidden />}
      {status}
    </span>
  );
}

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
      <div className="dialog m-confirm" role="alertdialog" aria-modal="true" aria-label={title}>
        <h2>{title}</h2>
        <div className="m-confirm-body">{children}</div>
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

export function CopyButton({
  text,
  label,
  title,
}: {
  text: string;
  label: string;
  title?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      className="btn small"
      title={title}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      {copied ? '✓ Copied' : label}
    </button>
  );
}

export function Card({
  title,
  actions,
  children,
  className,
  label,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  label?: string;
}) {
  return (
    <section className={`m-card ${className ?? ''}`} aria-label={label}>
      {(title || actions) && (
        <header className="m-card-header">
          {title && <h3>{title}</h3>}
          {actions && <div className="m-card-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

export function formatSeconds(s: number | null | undefined): string {
  if (s === null || s === undefined) return '—';
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  if (s < 60) return `${s.toFixed(2)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** The breadcrumb above a models page's title: a way back to the list, then where we are. */
export function Crumbs({ onHome, children }: { onHome(): void; children: ReactNode }) {
  return (
    <div className="m-crumbs">
      <button className="link" onClick={onHome}>
        Models
      </button>
      <span aria-hidden> / </span>
      <span>{children}</span>
    </div>
  );
}
