import { describe, expect, it } from 'vitest';
import { intervalCoverageTable } from './interval-coverage';

describe('intervalCoverageTable', () => {
  it('puts each level beside the share it held, pooled and per step, in increasing level', () => {
    const table = intervalCoverageTable([
      { level: 0.9, coverage: 0.8233, steps: [0.9, 0.8] },
      { level: 0.5, coverage: 0.5712, steps: [0.6, 0.5] },
      { level: 0.95, coverage: 0.95, steps: [0.96, 0.941] },
    ]);
    expect(table).toEqual({
      caption:
        "Intervals: does a 90% band hold 90% of actual values? Each band's share on validation, and its difference from the promise in percentage points.",
      levels: ['50% band', '90% band', '95% band'],
      rows: [
        {
          label: 'All steps',
          cells: [
            { held: '57%', gap: '+7 pts' },
            { held: '82%', gap: '−8 pts' },
            { held: '95%', gap: '±0 pts' },
          ],
        },
        {
          label: 'Step 1',
          cells: [
            { held: '60%', gap: '+10 pts' },
            { held: '90%', gap: '±0 pts' },
            { held: '96%', gap: '+1 pts' },
          ],
        },
        {
          label: 'Step 2',
          cells: [
            { held: '50%', gap: '±0 pts' },
            { held: '80%', gap: '−10 pts' },
            { held: '94%', gap: '−1 pts' },
          ],
        },
      ],
    });
  });

  it('shows the gap from the rounded share, so 89.6% against 90% reads 90% and ±0', () => {
    const table = intervalCoverageTable([{ level: 0.9, coverage: 0.896 }]);
    expect(table?.rows).toEqual([{ label: 'All steps', cells: [{ held: '90%', gap: '±0 pts' }] }]);
  });

  it('keeps a level that is not a whole percent and the pooled row alone without steps', () => {
    const table = intervalCoverageTable([
      { level: 0.85, coverage: 0.8, steps: [0.8] },
      { level: 0.975, coverage: 0.95, steps: [] },
    ]);
    expect(table?.levels).toEqual(['85% band', '97.5% band']);
    expect(table?.rows.map((r) => r.label)).toEqual(['All steps']);
    expect(table?.rows[0].cells).toEqual([
      { held: '80%', gap: '−5 pts' },
      { held: '95%', gap: '−2.5 pts' },
    ]);
  });

  it('shows a dash, not 0%, at a step the validation never reached (null)', () => {
    const table = intervalCoverageTable([
      { level: 0.8, coverage: 0.81, steps: [0.8, null] },
      { level: 0.9, coverage: 0.9, steps: [0.9, null] },
    ]);
    expect(table?.rows[2]).toEqual({
      label: 'Step 2',
      cells: [
        { held: '—', gap: 'none counted' },
        { held: '—', gap: 'none counted' },
      ],
    });
  });

  it('is null when the description has no coverage (MindsDB, older models)', () => {
    expect(intervalCoverageTable(undefined)).toBeNull();
    expect(intervalCoverageTable([])).toBeNull();
  });

  it('says whether the shares were counted out of fold or in sample, as the instance flags them', () => {
    const caption = (outOfFold: (boolean | undefined)[]) =>
      intervalCoverageTable(
        outOfFold.map((o, i) => ({ level: 0.5 + i / 10, coverage: 0.5, outOfFold: o })),
      )!.caption;
    expect(caption([true, true])).toMatch(/with bands fitted without it \(data they did not see\)/);
    // One level in sample is enough to say so; a mix of flagged and unflagged says neither.
    expect(caption([true, false])).toMatch(/counted in sample: .* the figures flatter the bands/);
    expect(caption([false, undefined])).toMatch(/counted in sample/);
    for (const c of [caption([true, undefined]), caption([undefined])]) {
      expect(c).toMatch(/share on validation, and its difference/);
      expect(c).not.toMatch(/did not see|in sample/);
    }
  });
});
