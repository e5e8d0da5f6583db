/** A status as a coloured pill: complete (ok), training and its kin (busy, pulsing), error. */
import { statusTone } from './status-tone';
import './ui.css';

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  const tone = statusTone(status);
  return (
    <span className={`status-badge status-${tone}`} aria-label={label ?? `Status: ${status}`}>
      {tone === 'busy' && <span className="status-pulse" aria-hidden />}
      {status}
    </span>
  );
}
