import { describe, expect, it } from 'vitest';
import { percent, progressText, timeLeft, type ScoringProgress } from './scoring-progress';

const p = (o: Partial<ScoringProgress>): ScoringProgress => ({
  statement: 'CREATE TABLE pg.x (SELECT ...)',
  what: 'pg.big -> pg.x',
  rows_done: 1_200_000,
  rows_total: 20_000_000,
  rows_per_s: 153_000,
  eta_s: 124,
  running_ms: 8000,
  ...o,
});

describe('scoring progress words', () => {
  it('says rows done of total with the share, the rate and the time left', () => {
    expect(progressText(p({}))).toBe(
      '1,200,000 of 20,000,000 rows (6%) · 153,000 rows/s · about 2 min 4 s left',
    );
  });

  it('says when the total is not known, without a time left', () => {
    expect(progressText(p({ rows_total: null, eta_s: null }))).toBe(
      '1,200,000 rows (total not known yet) · 153,000 rows/s',
    );
    expect(percent(p({ rows_total: null }))).toBe(0);
  });

  it('keeps the share within 0-100 and says hours past an hour', () => {
    expect(percent(p({ rows_done: 30, rows_total: 20 }))).toBe(100);
    expect(timeLeft(3900)).toBe('1 h 5 min');
    expect(timeLeft(42.4)).toBe('42 s');
  });
});
