/**
 * The connection indicator's state: from the status query (version, login) and from what every
 * other request saw (the latest of them failing to reach the instance wins at once).
 */
import type { ConnectionHealth } from '../../api/connection-health';
import type { StatusResponse } from '../../../contract';

export type ConnectionState =
  | { kind: 'checking' }
  | { kind: 'connected'; version: string; provider?: string; environment?: string }
  | { kind: 'login-required'; version: string }
  | { kind: 'unreachable'; message: string };

/** The instance's version: ours reports `version`, a real MindsDB server `mindsdb_version`. */
const instanceVersion = (s: StatusResponse) => s.version ?? s.mindsdb_version ?? 'unknown';

export function connectionState(
  data: StatusResponse | undefined,
  error: Error | null,
  isPending: boolean,
  health: ConnectionHealth['last'] = null,
): ConnectionState {
  if (health?.kind === 'unreachable') return { kind: 'unreachable', message: health.message };
  // With a status known, a later failed poll that was not a reachability problem (reported as
  // such by the request itself) does not make the instance unreachable.
  if (data && (!error || health?.kind === 'answered')) {
    if (needsLogin(data)) return { kind: 'login-required', version: instanceVersion(data) };
    return {
      kind: 'connected',
      version: instanceVersion(data),
      ...(data.provider ? { provider: data.provider } : {}),
      ...(data.environment ? { environment: data.environment } : {}),
    };
  }
  if (error) return { kind: 'unreachable', message: error.message };
  return isPending ? { kind: 'checking' } : { kind: 'unreachable', message: 'No answer' };
}

export function needsLogin(s: StatusResponse | undefined): boolean {
  return !!s?.auth?.http_auth_enabled && !s.auth.confirmed;
}
