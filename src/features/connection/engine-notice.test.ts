import { describe, expect, it } from 'vitest';
import type { StatusResponse } from '../../../contract';
import { engineNotice } from './engine-notice';

const engine = (extra: object): StatusResponse => ({
  version: '0.1.0',
  engine: { active: 1, limit: 4, waiting: 0, oldest_ms: 5, healthy: true, ...extra },
});
const AT = '2026-01-02T10:00:00.000Z';
const now = Date.parse(AT) + 60_000;

describe('engineNotice', () => {
  it('says the instance restarted after a recent crash, and what is refused', () => {
    const n = engineNotice(
      engine({
        restarts: 1,
        last_crash: {
          at: AT,
          signal: 'SIGSEGV',
          code: null,
          statements: ['SELECT boom()'],
          quarantined: true,
        },
      }),
      now,
    );
    expect(n?.kind).toBe('crash');
    expect(n?.text).toBe('Restarted after a crash');
    expect(n?.detail).toMatch(
      /crashed \(SIGSEGV\) .* Running then: SELECT boom\(\)\. Those statements are refused/,
    );
    // An old crash is history, not news.
    const later = engineNotice(
      engine({
        last_crash: { at: AT, signal: 'SIGSEGV', code: null, statements: [], quarantined: false },
      }),
      now + 3600_000,
    );
    expect(later).toBeNull();
  });

  it('shows queries waiting for an engine connection', () => {
    expect(engineNotice(engine({ waiting: 3 }), now)).toMatchObject({
      kind: 'busy',
      text: '3 queries waiting',
    });
    expect(engineNotice(engine({ waiting: 0 }), now)).toBeNull();
    expect(engineNotice({ mindsdb_version: '25.1' }, now)).toBeNull();
  });
});
