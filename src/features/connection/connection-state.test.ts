import { describe, expect, it } from 'vitest';
import { connectionState, needsLogin } from './connection-state';

describe('connectionState', () => {
  it('is connected with the version when status answers', () => {
    expect(
      connectionState(
        {
          version: '0.1.0',
          provider: 'sql-model-playground',
          auth: { http_auth_enabled: false, confirmed: true },
        },
        null,
        false,
      ),
    ).toEqual({ kind: 'connected', version: '0.1.0', provider: 'sql-model-playground' });
  });
  it('asks for login when auth is enabled and not confirmed', () => {
    const s = { version: '25.1', auth: { http_auth_enabled: true, confirmed: false } };
    expect(needsLogin(s)).toBe(true);
    expect(connectionState(s, null, false)).toEqual({ kind: 'login-required', version: '25.1' });
    expect(needsLogin({ version: 'x' })).toBe(false);
  });
  it('is unreachable on errors and checking while the first request runs', () => {
    expect(connectionState(undefined, new Error('down'), false)).toEqual({
      kind: 'unreachable',
      message: 'down',
    });
    expect(connectionState(undefined, null, true)).toEqual({ kind: 'checking' });
  });
});

describe('a real MindsDB server', () => {
  it('reads mindsdb_version when there is no version', () => {
    expect(
      connectionState(
        { mindsdb_version: '25.1.2', environment: 'local', auth: { http_auth_enabled: false } },
        null,
        false,
      ),
    ).toEqual({ kind: 'connected', version: '25.1.2', environment: 'local' });
  });
});

describe('what other requests saw', () => {
  const status = { version: '0.1.0', auth: { http_auth_enabled: false, confirmed: true } };
  it('turns unreachable at once when any request failed to reach the instance', () => {
    expect(
      connectionState(status, null, false, { kind: 'unreachable', message: 'HTTP 502' }),
    ).toEqual({ kind: 'unreachable', message: 'HTTP 502' });
  });
  it('recovers as soon as a request is answered, before the status poll succeeds again', () => {
    expect(
      connectionState(status, new Error('earlier poll failed'), false, { kind: 'answered' }),
    ).toEqual({ kind: 'connected', version: '0.1.0' });
  });
});
