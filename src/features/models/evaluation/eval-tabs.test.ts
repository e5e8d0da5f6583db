import { describe, expect, it } from 'vitest';
import type { EvaluationSummary } from '../../../../contract';
import { chosenSection, defaultGroupColumn, evalSections, nextSection } from './eval-tabs';

const yes = { applies: true, reason: null };
const no = (reason: string) => ({ applies: false, reason });

const summary: EvaluationSummary = {
  available: true,
  reason: null,
  version: 1,
  task: 'regression',
  target: 'rental_price',
  classes: null,
  positive: null,
  level: 0.9,
  held_out: { rows: 100, total: 100, validation: 'split', sample: 'all' },
  columns: [
    { name: 'sqft', in_model: true, kind: 'number' },
    { name: 'location', in_model: true, kind: 'category' },
    { name: 'agent', in_model: false, kind: 'category' },
  ],
  views: {
    leaderboard: yes,
    threshold: no('A regression predicts a number'),
    calibration: no('No probabilities'),
    intervals: yes,
    slices: yes,
    groups: yes,
  },
  saved: null,
};

describe('sections', () => {
  it('says why a section does not apply', () => {
    const s = evalSections(summary).find((x) => x.id === 'threshold')!;
    expect(s.applies).toBe(false);
    expect(s.reason).toBe('A regression predicts a number');
  });

  it('opens the section asked for only when it applies', () => {
    expect(chosenSection(summary, 'intervals')).toBe('intervals');
    expect(chosenSection(summary, 'threshold')).toBe('leaderboard');
    expect(chosenSection(summary, null)).toBe('leaderboard');
  });

  it('moves along the tablist with arrow keys, wrapping, and Home/End', () => {
    const ids = evalSections(summary).map((x) => x.id);
    expect(nextSection(ids, 'leaderboard', 'ArrowRight')).toBe('threshold');
    expect(nextSection(ids, 'leaderboard', 'ArrowLeft')).toBe('groups');
    expect(nextSection(ids, 'slices', 'End')).toBe('groups');
    expect(nextSection(ids, 'slices', 'Home')).toBe('leaderboard');
    expect(nextSection(ids, 'slices', 'a')).toBeNull();
  });
});

it('opens groups on a category input first (columns set aside are often identifiers)', () => {
  expect(defaultGroupColumn(summary)).toBe('location');
  expect(defaultGroupColumn({ ...summary, columns: [summary.columns[2]] })).toBe('agent');
  expect(defaultGroupColumn({ ...summary, columns: [summary.columns[0]] })).toBe('');
});
