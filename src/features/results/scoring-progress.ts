/**
 * The words of a scoring statement's progress (rows done of total, rate, time left), as the
 * running-query view shows them while CREATE TABLE / INSERT ... JOIN model scores in batches.
 */
import type { EngineStatus } from '../../../contract';

export type ScoringProgress = NonNullable<EngineStatus['scoring']>[number];

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** Seconds left as people say them: `45 s`, `3 min 20 s`, `1 h 5 min`. */
export function timeLeft(s: number): string {
  if (s < 60) return `${Math.max(0, Math.round(s))} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

/** `1,200,000 of 20,000,000 rows (6%) · 153,000 rows/s · about 2 min 4 s left`. */
export function progressText(p: ScoringProgress): string {
  const of =
    p.rows_total === null
      ? `${count(p.rows_done)} rows (total not known yet)`
      : `${count(p.rows_done)} of ${count(p.rows_total)} rows (${percent(p)}%)`;
  const rate = `${count(p.rows_per_s)} rows/s`;
  const left = p.eta_s === null ? null : `about ${timeLeft(p.eta_s)} left`;
  return [of, rate, left].filter(Boolean).join(' · ');
}

/** Whole percent done, 0-100 (0 while the total is unknown). */
export function percent(p: ScoringProgress): number {
  if (p.rows_total === null || p.rows_total <= 0) return 0;
  return Math.min(100, Math.floor((p.rows_done / p.rows_total) * 100));
}
