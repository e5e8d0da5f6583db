import { describe, expect, it } from 'vitest';
import type { EvaluationSummary } from '../../../../contract';
import { chosenSection, defaultGroupColumn, evalSections } from './eval-tabs';

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

  it('opens the section asked for, else the first that applies', () => {
    expect(chosenSection(summary, 'intervals')).toBe('intervals');
    expect(chosenSection(summary, 'threshold')).toBe('threshold');
    expect(chosenSection(summary, null)).toBe('leaderboard');
    const noBoard = { ...summary, views: { ...summary.views, leaderboard: no('none kept') } };
    expect(chosenSection(noBoard, null)).toBe('intervals');
  });
});

it('opens groups on a category input first (columns set aside are often identifiers)', () => {
  expect(defaultGroupColumn(summary)).toBe('location');
  expect(defaultGroupColumn({ ...summary, columns: [summary.columns[2]] })).toBe('agent');
  expect(defaultGroupColumn({ ...summary, columns: [summary.columns[0]] })).toBe('');
});
