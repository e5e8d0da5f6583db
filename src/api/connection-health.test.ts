import { beforeEach, describe, expect, it } from 'vitest';
import {
  connectionHealth,
  isGatewayFailure,
  reportAnswered,
  reportUnreachable,
} from './connection-health';

describe('isGatewayFailure', () => {
  it("tells a gateway's failure from the instance's own JSON errors", () => {
    expect(isGatewayFailure(502, '')).toBe(true);
    expect(isGatewayFailure(504, '{"error":"timeout"}')).toBe(true);
    expect(isGatewayFailure(500, '<h1>Internal error</h1>')).toBe(true);
    expect(isGatewayFailure(503, '{"error_code":9,"error_message":"busy"}')).toBe(false);
    expect(isGatewayFailure(500, '{"error_code":99,"error_message":"x"}')).toBe(false);
    expect(isGatewayFailure(404, 'not json')).toBe(false);
  });
});

describe('connectionHealth', () => {
  beforeEach(() => connectionHealth.set({ seq: 0, last: null }));
  it('keeps the latest report, counting each failure and the first answer after one', () => {
    reportAnswered();
    reportAnswered();
    expect(connectionHealth.get()).toEqual({ seq: 1, last: { kind: 'answered' } });
    reportUnreachable('down');
    reportUnreachable('still down');
    expect(connectionHealth.get()).toEqual({
      seq: 3,
      last: { kind: 'unreachable', message: 'still down' },
    });
    reportAnswered();
    expect(connectionHealth.get().last).toEqual({ kind: 'answered' });
  });
});
