/** The connection indicator's state, from the status query. */
import type { StatusResponse } from '../../api/contract';

export type ConnectionState =
  | { kind: 'checking' }
  | { kind: 'connected'; version: string; provider?: string; environment?: string }
  | { kind: 'login-required'; version: string }
  | { kind: 'unreachable'; message: string };

export function connectionState(
  data: StatusResponse | undefined,
  error: Error | null,
  isPending: boolean,
): ConnectionState {
  if (error && !data) return { kind: 'unreachable', message: error.message };
  if (error) return { kind: 'unreachable', message: error.message };
  if (!data)
    return isPending ? { kind: 'checking' } : { kind: 'unreachable', message: 'No answer' };
  if (needsLogin(data)) return { kind: 'login-required', version: data.version };
  return {
    kind: 'connected',
    version: data.version,
    ...(data.provider ? { provider: data.provider } : {}),
    ...(data.environment ? { environment: data.environment } : {}),
  };
}

export function needsLogin(s: StatusResponse | undefined): boolean {
  return !!s?.auth?.http_auth_enabled && !s.auth.confirmed;
}
