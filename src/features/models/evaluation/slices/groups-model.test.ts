import { describe, expect, it } from 'vitest';
import type { GroupsView } from '../../../../../contract';
import { fourFifthsSentence, groupsTable } from './groups-model';

const classifier: GroupsView = {
  column: 'gender',
  in_model: false,
  task: 'binary',
  positive: 1,
  threshold: 0.5,
  groups: [
    {
      label: 'Female',
      where: "gender = 'Female'",
      rows: 500,
      small: null,
      accuracy: 0.8,
      tpr: 0.7,
      fpr: 0.1,
      selection_rate: 0.3,
      selection_ratio: 1,
      tpr_ratio: 1,
    },
    {
      label: 'Male',
      where: "gender = 'Male'",
      rows: 480,
      small: null,
      accuracy: 0.85,
      tpr: 0.6,
      fpr: 0.05,
      selection_rate: 0.21,
      selection_ratio: 0.7,
      tpr_ratio: 0.857,
    },
    {
      label: 'Other',
      where: "gender = 'Other'",
      rows: 8,
      small: 'Only 8 rows',
      accuracy: 1,
      tpr: null,
      fpr: 0,
      selection_rate: 0,
      selection_ratio: 0,
      tpr_ratio: null,
    },
  ],
  four_fifths: { applies: true, min_ratio: 0.7, flagged: ['Male'] },
  warnings: [],
};

describe('groupsTable', () => {
  it('marks a selection ratio below 4/5, except for groups too small to judge', () => {
    const t = groupsTable(classifier);
    expect(t.head).toHaveLength(7);
    expect(t.rows.map((r) => r.flagged)).toEqual([false, true, false]);
    expect(t.rows[1].cells).toEqual([
      'Male',
      '480',
      '85.0%',
      '60.0%',
      '5.0%',
      '21.0%',
      '70.0% (below 4/5)',
    ]);
    expect(t.rows[2].small).toBe('Only 8 rows');
  });

  it('shows MAE and bias for a regression', () => {
    const t = groupsTable({
      ...classifier,
      task: 'regression',
      positive: null,
      threshold: null,
      four_fifths: { applies: false, min_ratio: null, flagged: [] },
      groups: [
        { label: 'a', where: "g = 'a'", rows: 40, small: null, mae: 12.5, bias: -3, mae_ratio: 1 },
      ],
    });
    expect(t.head[2]).toBe('Mean absolute error');
    expect(t.rows[0].cells).toEqual(['a', '40', '12.5', '-3', '1']);
  });
});

it('says which groups the four-fifths rule flags', () => {
  expect(fourFifthsSentence(classifier)).toMatch(/^'Male' is flagged less than 4\/5.*70\.0%/);
  expect(
    fourFifthsSentence({
      ...classifier,
      four_fifths: { applies: true, min_ratio: 0.9, flagged: [] },
    }),
  ).toMatch(/lowest ratio 90\.0%/);
});
