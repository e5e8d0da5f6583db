/** Connection indicator for the target instance (polls GET /api/status). */
import { useQuery } from '@tanstack/react-query';
import { INSTANCE_TARGET } from '../../api/http';
import { statusQueryOptions } from '../../api/status';
import { connectionState } from './connection-state';

export function ConnectionIndicator() {
  const q = useQuery(statusQueryOptions());
  const s = connectionState(q.data, q.error, q.isPending);
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
      ? `${s.message}\nTarget: ${INSTANCE_TARGET}. Retrying every 10 s.`
      : `Target: ${INSTANCE_TARGET}${s.kind === 'connected' && s.provider ? ` (${s.provider}${s.environment ? `, ${s.environment}` : ''})` : ''}`;
  return (
    <div
      className={`conn conn-${s.kind}`}
      role="status"
      aria-label={`Connection: ${label}`}
      title={title}
    >
      <span className="conn-dot" aria-hidden />
      <span className="conn-label">{label}</span>
      <span className="conn-target">{INSTANCE_TARGET.replace(/^https?:\/\//, '')}</span>
    </div>
  );
}
