import { describe, expect, it } from 'vitest';
import type { Leaderboard } from '../../../../../contract';
import { formatBytes, formatSpeed, leaderboardTable, scoreNote } from './leaderboard-model';

const cand = (name: string, score: number, selected = false) => ({
  name,
  kind: name,
  score: { name: 'balanced_accuracy_score', value: score },
  other: { name: 'roc_auc_score', value: score + 0.05 },
  fit_seconds: 1.5,
  predict_rows_per_second: 12000,
  size_bytes: 2048,
  selected,
  using: name,
});

const board = (warnings: Leaderboard['warnings'] = []): Leaderboard => ({
  version: 3,
  candidates: [cand('linear', 0.71), cand('gbm', 0.8, true), cand('ensemble', 0.83)],
  warnings,
});

describe('leaderboardTable', () => {
  it('ranks candidates best first with the gap to the serving one', () => {
    const t = leaderboardTable(board());
    expect(t.rows.map((r) => r.name)).toEqual(['ensemble', 'gbm', 'linear']);
    expect(t.rows.map((r) => r.rank)).toEqual([1, 2, 3]);
    expect(t.rows[0].gap).toBeCloseTo(0.03);
    expect(t.rows[1].gap).toBe(0);
    expect(t.metric).toBe('balanced_accuracy_score');
    expect(t.otherMetric).toBe('roc_auc_score');
    expect(t.suspect).toEqual([]);
  });

  it('gives equal scores one rank, the serving one first', () => {
    const b = board();
    b.candidates = [cand('linear', 0.8), cand('gbm', 0.8, true)];
    const t = leaderboardTable(b);
    expect(t.rows.map((r) => [r.name, r.rank])).toEqual([
      ['gbm', 1],
      ['linear', 1],
    ]);
  });

  it('flags a better score from a leaky model as suspect, naming the column', () => {
    const leak = {
      kind: 'dominant_input',
      column: 'initial_price',
      message: "'initial_price' explains 99.8% of the model",
    };
    const t = leaderboardTable(
      board([leak, { kind: 'mostly_missing', column: 'x', message: 'x' }]),
    );
    expect(t.suspect).toEqual(["its score leans on 'initial_price', a likely leak"]);
    expect(scoreNote(t.rows[0], t)).toBe('best score, suspect');
    expect(scoreNote(t.rows[1], t)).toBe('serves');
    expect(scoreNote(t.rows[2], t)).toBe('');
  });

  it('does not call scores suspect for warnings that do not inflate them', () => {
    const t = leaderboardTable(board([{ kind: 'rare_class', column: null, message: 'rare' }]));
    expect(t.suspect).toEqual([]);
    expect(scoreNote(t.rows[0], t)).toBe('best score');
  });
});

it('formats sizes and speeds for people', () => {
  expect(formatBytes(2048)).toBe('2.0 KB');
  expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  expect(formatBytes(null)).toBe('—');
  expect(formatSpeed(12345.6)).toBe('12,346 rows/s');
});
