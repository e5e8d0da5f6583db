import { describe, expect, it } from 'vitest';
import { DiffReport } from '../../../../../contract';
import type { ModelVersion } from '../../api';
import { againstChoices, diffTableRows, signed, sourceText, weightBars } from './diff-view';
import { diff } from './diff-fixture';

const v = (version: number, status = 'complete') => ({ version, status }) as ModelVersion;

describe('what to compare with', () => {
  it('offers the other complete versions, newest first, starting with the previous one', () => {
    const versions = [v(1), v(2), v(3, 'error'), v(4), v(5, 'training')];
    expect(againstChoices(versions, 4)).toEqual({ choices: [2, 1], initial: 2 });
    expect(againstChoices(versions, 1)).toEqual({ choices: [4, 2], initial: 4 });
    expect(againstChoices([v(1)], 1)).toEqual({ choices: [], initial: undefined });
  });
});

describe('the diff in words and rows', () => {
  it('keeps the fixture a valid report', () => {
    expect(DiffReport.parse(diff)).toEqual(diff);
  });

  it('says where the rows came from and how many changed', () => {
    expect(sourceText(diff)).toBe(
      'v1 against v2 on 200 held-out rows kept with v2: 2 (1.0%) changed by more than 190.',
    );
    expect(
      sourceText({
        ...diff,
        task: 'binary',
        before: { model: 'churn_gbm', version: 3 },
        source: { kind: 'query', query: 'SELECT * FROM t' },
      }),
    ).toBe('churn_gbm.3 against v2 on 200 rows of the query: 2 (1.0%) changed class.');
  });

  it('lists each changed row with its change and the contributions that moved, signed', () => {
    expect(diffTableRows(diff)).toEqual([
      {
        row: 17,
        before: '3,100',
        after: '3,521',
        change: '+421',
        flipped: false,
        moved: 'sqft +310, location −45.1',
        inputs: 'sqft 1,020, location great, rooms 2, days 10, …',
      },
      {
        row: 3,
        before: '1,500',
        after: '1,290',
        change: '−210',
        flipped: false,
        moved: 'sqft −190',
        inputs: 'sqft 400, location missing',
      },
    ]);
  });

  it('gives classifiers their class flip and the probability change in percentage points', () => {
    const c: DiffReport = {
      ...diff,
      task: 'binary',
      threshold: null,
      changed_rows: [
        { row: 0, inputs: {}, before: 'No', after: 'Yes', change: 0.123, flipped: true, moved: [] },
      ],
    };
    expect(diffTableRows(c)[0]).toMatchObject({
      before: 'No',
      after: 'Yes',
      change: '+12.3 pp',
      flipped: true,
    });
    expect(signed(-0.00412)).toBe('−0.00412');
    expect(signed(0)).toBe('0');
  });

  it('draws the inputs whose weight moved most first', () => {
    expect(weightBars(diff)).toEqual([
      { column: 'sqft', before: 200, after: 450 },
      { column: 'location', before: 100, after: 90 },
    ]);
  });
});
