/** The connection indicator's state, from the status query. */
import type { StatusResponse } from '../../../contract';

export type ConnectionState =
  | { kind: 'checking' }
  | { kind: 'connected'; version: string; provider?: string; environment?: string }
  | { kind: 'login-required'; version: string }
  | { kind: 'unreachable'; message: string };

/** The instance's version: ours reports `version`, a real MindsDB server `mindsdb_version`. */
export const instanceVersion = (s: StatusResponse) => s.version ?? s.mindsdb_version ?? 'unknown';

export function connectionState(
  data: StatusResponse | undefined,
  error: Error | null,
  isPending: boolean,
): ConnectionState {
  if (error && !data) return { kind: 'unreachable', message: error.message };
  if (error) return { kind: 'unreachable', message: error.message };
  if (!data)
    return isPending ? { kind: 'checking' } : { kind: 'unreachable', message: 'No answer' };
  if (needsLogin(data)) return { kind: 'login-required', version: instanceVersion(data) };
  return {
    kind: 'connected',
    version: instanceVersion(data),
    ...(data.provider ? { provider: data.provider } : {}),
    ...(data.environment ? { environment: data.environment } : {}),
  };
}

export function needsLogin(s: StatusResponse | undefined): boolean {
  return !!s?.auth?.http_auth_enabled && !s.auth.confirmed;
}
