/**
 * The leaderboard as the page shows it: candidates best first on the model's metric, which one
 * serves, which can be made to serve, and whether a "better" score can be believed. The model's
 * warnings apply to every candidate (they were all trained on the same columns), so a leak or an
 * identifier input makes every score suspect, the best one most of all (issue 24, item 3).
 */
import type { Leaderboard } from '../../../../../contract';
import { suspectReasons } from '../../warnings';

export interface LeaderboardRow {
  name: string;
  kind: string;
  /** What `RETRAIN ... USING model = '...'` names; null: it cannot be chosen. */
  using: string | null;
  score: number;
  other: number | null;
  fitSeconds: number;
  rowsPerSecond: number | null;
  sizeBytes: number | null;
  serves: boolean;
  /** 1 = best score; equal scores share a rank. */
  rank: number;
  /** The score minus the serving candidate's (0 for it). */
  gap: number;
}

export interface LeaderboardTable {
  metric: string;
  otherMetric: string | null;
  rows: LeaderboardRow[];
  /** Why the scores cannot be taken at face value, one phrase each (empty: no reason known). */
  suspect: string[];
}

/** Every score metric the engine ranks by is "higher is better" (R², balanced accuracy, ...). */
export function leaderboardTable(b: Leaderboard): LeaderboardTable {
  const serving = b.candidates.find((c) => c.selected);
  const sorted = [...b.candidates].sort(
    (x, y) => y.score.value - x.score.value || Number(y.selected) - Number(x.selected),
  );
  const rows: LeaderboardRow[] = [];
  sorted.forEach((c, i) => {
    const prev = rows[i - 1];
    rows.push({
      name: c.name,
      kind: c.kind,
      using: c.using,
      score: c.score.value,
      other: c.other?.value ?? null,
      fitSeconds: c.fit_seconds,
      rowsPerSecond: c.predict_rows_per_second,
      sizeBytes: c.size_bytes,
      serves: c.selected,
      rank: prev && prev.score === c.score.value ? prev.rank : i + 1,
      gap: serving ? c.score.value - serving.score.value : 0,
    });
  });
  return {
    metric: b.candidates[0]?.score.name ?? 'score',
    otherMetric: b.candidates.find((c) => c.other)?.other?.name ?? null,
    rows,
    suspect: suspectReasons(b.warnings),
  };
}

/** A score's word beside it: the serving one, the best, or suspect when it beats on a leak. */
export function scoreNote(r: LeaderboardRow, t: LeaderboardTable): string {
  const notes: string[] = [];
  if (r.serves) notes.push('serves');
  if (r.rank === 1 && !r.serves) notes.push('best score');
  if (t.suspect.length > 0 && (r.rank === 1 || r.gap > 0)) notes.push('suspect');
  return notes.join(', ');
}

export function formatBytes(n: number | null): string {
  if (n === null) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatSpeed(rowsPerSecond: number | null): string {
  return rowsPerSecond === null
    ? '—'
    : `${Math.round(rowsPerSecond).toLocaleString('en-US')} rows/s`;
}
