/**
 * The words of a waiting query's place in the instance's line (`engine.queue` of the status):
 * "Waiting: 3rd in line" while the user's query waits for an engine connection.
 */
import type { EngineStatus } from '../../../contract';

type QueueEntry = NonNullable<EngineStatus['queue']>[number];

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 102nd... */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The place in line of the user's own queries (`mine`: their query ids), the nearest one when
 * several wait; null when none of them waits.
 */
export function queuePlaceText(
  queue: readonly QueueEntry[],
  mine: readonly string[],
): string | null {
  const own = queue.filter((w) => mine.includes(w.query_id));
  if (own.length === 0) return null;
  const first = Math.min(...own.map((w) => w.position));
  return `Waiting: ${ordinal(first)} in line`;
}
