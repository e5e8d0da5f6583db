/**
 * Reachability of the instance as every request sees it: each HTTP exchange reports whether the
 * instance answered, so the connection indicator turns red on the first failed request of any
 * kind (not at the next status poll) and green again on the first answer.
 */
import { createStore } from '../lib/create-store';

export interface ConnectionHealth {
  /** Increases with every report: orders reports without trusting clocks. */
  seq: number;
  /** The latest report: the instance answered, or a request could not reach it. */
  last: { kind: 'answered' } | { kind: 'unreachable'; message: string } | null;
}

export const connectionHealth = createStore<ConnectionHealth>({ seq: 0, last: null });

export function reportAnswered() {
  connectionHealth.set((h) =>
    h.last?.kind === 'answered' ? h : { seq: h.seq + 1, last: { kind: 'answered' } },
  );
}

export function reportUnreachable(message: string) {
  connectionHealth.set((h) => ({ seq: h.seq + 1, last: { kind: 'unreachable', message } }));
}

/**
 * Whether an HTTP response came from a gateway that could not reach the instance (the dev/preview
 * proxy answers 502 with an empty body; load balancers 502/504 or a non-JSON 5xx page) rather than
 * from the instance itself, whose errors are JSON (a 503 "busy" included).
 */
export function isGatewayFailure(status: number, bodyText: string): boolean {
  if (status === 502 || status === 504) return true;
  if (status < 500) return false;
  try {
    JSON.parse(bodyText);
    return false;
  } catch {
    return true;
  }
}
