/**
 * Connection indicator for the target instance: polls GET /api/status, and reflects every other
 * request at once (a failed one turns it red; the first answer turns it green again).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { connectionHealth } from '../../api/connection-health';
import { instanceTarget } from '../../api/http';
import { STATUS_RETRY_MS, statusQueryOptions } from '../../api/status';
import { useStore } from '../../lib/use-store';
import { connectionState } from './connection-state';
import { engineNotice } from './engine-notice';

export function ConnectionIndicator() {
  const qc = useQueryClient();
  const q = useQuery(statusQueryOptions());
  const health = useStore(connectionHealth);
  const lastKind = useRef(health.last?.kind);
  useEffect(() => {
    const was = lastKind.current;
    const now = health.last?.kind;
    lastKind.current = now;
    if (now === was) return;
    // Just lost the instance: check the status now (it then polls every few seconds until an
    // answer). Just got it back: fetch again what failed meanwhile (explorer, completions).
    if (now === 'unreachable') void qc.refetchQueries({ queryKey: statusQueryOptions().queryKey });
    else if (now === 'answered' && was === 'unreachable')
      void qc.refetchQueries({
        type: 'active',
        predicate: (query) => query.state.status === 'error',
      });
  }, [health, qc]);

  const s = connectionState(q.data, q.error, q.isPending, health.last);
  // A crash is news for a while after it; measured when the status was read.
  const notice = s.kind === 'connected' ? engineNotice(q.data, q.dataUpdatedAt) : null;
  const label =
    s.kind === 'connected'
      ? `Connected · v${s.version}`
      : s.kind === 'login-required'
        ? 'Login required'
        : s.kind === 'checking'
          ? 'Connecting…'
          : 'Instance unreachable';
  const title =
    s.kind === 'unreachable'
      ? `${s.message}\nTarget: ${instanceTarget()}. Retrying every ${STATUS_RETRY_MS / 1000} s.`
      : `Target: ${instanceTarget()}${s.kind === 'connected' && s.provider ? ` (${s.provider}${s.environment ? `, ${s.environment}` : ''})` : ''}`;
  return (
    <div
      className={`conn conn-${s.kind}${notice ? ` conn-notice-${notice.kind}` : ''}`}
      role="status"
      aria-label={`Connection: ${label}${notice ? ` · ${notice.detail}` : ''}`}
      title={notice ? `${title}\n${notice.detail}` : title}
    >
      <span className="conn-dot" aria-hidden />
      <span className="conn-label">{label}</span>
      {notice && <span className="conn-notice">{notice.text}</span>}
      <span className="conn-target">{instanceTarget().replace(/^https?:\/\//, '')}</span>
    </div>
  );
}
