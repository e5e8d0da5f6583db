/**
 * What the connection indicator adds about the instance's engine (ours only; a MindsDB server
 * reports none of it): that it restarted after a crash (recently), with the statements that are
 * refused from now on; and that queries are waiting for an engine connection.
 */
import type { StatusResponse } from '../../../contract';

/** How long after a crash the indicator keeps saying so. */
const CRASH_NOTICE_MS = 30 * 60_000;

export interface EngineNotice {
  kind: 'crash' | 'busy';
  /** Short text beside the connection state. */
  text: string;
  /** The whole story, for the tooltip and screen readers. */
  detail: string;
}

export function engineNotice(status: StatusResponse | undefined, now: number): EngineNotice | null {
  const engine = status?.engine;
  if (!engine) return null;
  const crash = engine.last_crash;
  if (crash && now - Date.parse(crash.at) < CRASH_NOTICE_MS) {
    const how = crash.signal ?? `exit code ${crash.code}`;
    const time = new Date(crash.at).toLocaleTimeString();
    const running = crash.statements.length
      ? ` Running then: ${crash.statements.map((s) => s.slice(0, 120)).join(' · ')}.`
      : '';
    return {
      kind: 'crash',
      text: 'Restarted after a crash',
      detail: `The engine crashed (${how}) at ${time} and the instance restarted; committed data is kept.${running}${crash.quarantined ? ' Those statements are refused from now on.' : ''}`,
    };
  }
  if (engine.waiting > 0) {
    const n = engine.waiting;
    return {
      kind: 'busy',
      text: `${n} ${n === 1 ? 'query' : 'queries'} waiting`,
      detail: `All ${engine.limit} engine connections are busy; ${n} ${n === 1 ? 'query waits' : 'queries wait'} for one.`,
    };
  }
  return null;
}
