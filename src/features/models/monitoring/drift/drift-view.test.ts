import { describe, expect, it } from 'vitest';
import { DriftReport } from '../../../../../contract';
import {
  columnNote,
  driftRows,
  formatP,
  histogramBars,
  predictionsText,
  psiBars,
  retrainSql,
  sortDriftRows,
  suggestedQueries,
  testText,
  trainingTable,
  verdictText,
} from './drift-view';
import { location, report, rooms, sqft } from './report-fixture';

describe('the drift verdict', () => {
  it('says the verdict in words, with what was compared with what', () => {
    expect(DriftReport.parse(report)).toEqual(report);
    const v = verdictText(report);
    expect(v.tone).toBe('bad');
    expect(v.title).toMatch(/^Retrain/);
    expect(v.sentence).toBe('2 of 3 inputs drifted, covering 70% of importance: retrain');
    expect(v.compared).toBe(
      '5,000 rows of today’s data (2,000 sampled for the tests) against 1,000 training rows kept with v1',
    );
  });

  it('names a reference read from the training query for versions without a kept sample', () => {
    const v = verdictText({
      ...report,
      reference_source: 'query',
      rows: { reference: 800, current: 900, current_sample: 900 },
      summary: { ...report.summary, verdict: 'stable' },
    });
    expect(v.tone).toBe('ok');
    expect(v.compared).toBe(
      '900 rows of today’s data against 800 rows of the training query as it reads now',
    );
  });
});

describe('tests as sentences', () => {
  it('writes p-values as people read them', () => {
    expect(formatP(1e-9)).toBe('< 0.001');
    expect(formatP(0.0342)).toBe('0.034');
    expect(formatP(0.5432)).toBe('0.54');
  });

  it('states the statistic, its p-value and both sample sizes', () => {
    expect(testText(sqft.test)).toBe(
      'KS D = 0.312, p < 0.001 (1,000 training vs 2,000 today’s rows)',
    );
    expect(testText(location.test)).toBe(
      'χ² = 45.2, 3 df, p < 0.001 (1,000 training vs 2,000 today’s rows)',
    );
    expect(testText(rooms.test)).toBe(
      'KS D = 0.020, p = 0.54 (1,000 training vs 2,000 today’s rows)',
    );
  });
});

describe('the inputs table', () => {
  it('weighs drift by importance and sorts by it, ties by name', () => {
    const rows = driftRows(report);
    const byImpact = sortDriftRows(rows, 'impact', 'descending').map((r) => [
      r.column,
      Number(r.impact.toFixed(6)),
    ]);
    expect(byImpact).toEqual([
      ['sqft', 0.305],
      ['location', 0.07],
      ['rooms', 0.003],
    ]);
    expect(sortDriftRows(rows, 'importance', 'ascending').map((r) => r.column)).toEqual([
      'location',
      'rooms',
      'sqft',
    ]);
    expect(sortDriftRows(rows, 'pValue', 'ascending').map((r) => r.column)).toEqual([
      'sqft',
      'location',
      'rooms',
    ]);
    const tied = rows.map((r) => ({ ...r, psi: 1 }));
    expect(sortDriftRows(tied, 'psi', 'descending').map((r) => r.column)).toEqual([
      'location',
      'rooms',
      'sqft',
    ]);
  });

  it('notes never-seen values, values past the training range and a missing column', () => {
    expect(columnNote(location)).toBe(
      '12% of rows have values training never saw (harbor_district)',
    );
    expect(columnNote(sqft)).toBe('18% above the training maximum');
    expect(columnNote(rooms)).toBe('');
    expect(columnNote({ ...rooms, present: false })).toBe(
      'not in today’s data (every row counts as missing)',
    );
    expect(
      columnNote({
        ...location,
        new_categories: { rows: 50, share: 0.005, distinct: 5, values: ['a', 'b', 'c', 'd', 'e'] },
        missing: { reference: 0.01, current: 0.2 },
      }),
    ).toBe(
      '< 1% of rows have values training never saw (a, b, c and 2 more); missing in 20% of rows (1% in training)',
    );
  });
});

describe('chart data', () => {
  it('draws every input by PSI, most drifted first', () => {
    expect(psiBars(report)).toEqual([
      { column: 'sqft', psi: 0.61, level: 'drifted' },
      { column: 'location', psi: 0.35, level: 'drifted' },
      { column: 'rooms', psi: 0.01, level: 'stable' },
    ]);
  });

  it('overlays shares of both sides, leaving out bins empty on both', () => {
    expect(histogramBars(location)).toEqual([
      { label: 'good', training: 0.4, today: 0.45, trainingRows: 400, todayRows: 900 },
      { label: 'poor', training: 0.6, today: 0.43, trainingRows: 600, todayRows: 860 },
      { label: 'new', training: 0, today: 0.12, trainingRows: 0, todayRows: 240 },
    ]);
  });

  it('says how the predictions moved', () => {
    expect(predictionsText(report.predictions)).toBe(
      'Predictions drifted: mean 2,710 → 3,180, PSI 0.34, KS D = 0.210, p < 0.001 (1,000 training vs 2,000 today’s rows)',
    );
    expect(predictionsText(null)).toMatch(/not compared/);
  });
});

describe('retraining and suggestions', () => {
  it('writes RETRAIN on the query in the database it ran in, quoting odd names', () => {
    expect(retrainSql('mindsdb', 'rentals', 'SELECT * FROM t;  ', 'example_db')).toBe(
      'RETRAIN mindsdb.rentals\nFROM example_db (\n  SELECT * FROM t\n);',
    );
    expect(retrainSql('my proj', 'm-1', 'SELECT 1', 'my db')).toBe(
      'RETRAIN `my proj`.`m-1`\nFROM `my db` (\n  SELECT 1\n);',
    );
  });

  it('finds the training table of a plain SELECT only', () => {
    expect(trainingTable('SELECT * FROM demo_data.home_rentals')).toEqual({
      prefix: 'demo_data.',
      name: 'home_rentals',
    });
    expect(trainingTable('select * from rentals;')).toEqual({ prefix: '', name: 'rentals' });
    expect(trainingTable('SELECT * FROM a JOIN b ON a.id = b.id')).toBeNull();
    expect(trainingTable(null)).toBeNull();
  });

  it('offers tables named like the training table with a suffix, in their database', () => {
    const tables = [
      { db: 'example_db', schema: 'demo_data', name: 'home_rentals' },
      { db: 'example_db', schema: 'demo_data', name: 'home_rentals_this_month' },
      { db: 'files', schema: 'main', name: 'home_rentals_2027' },
      { db: 'example_db', schema: 'demo_data', name: 'home_rentalsx' },
    ];
    expect(suggestedQueries('SELECT * FROM demo_data.home_rentals', tables)).toEqual([
      { table: 'home_rentals_2027', db: 'files', query: 'SELECT * FROM home_rentals_2027' },
      {
        table: 'home_rentals_this_month',
        db: 'example_db',
        query: 'SELECT * FROM demo_data.home_rentals_this_month',
      },
    ]);
    expect(suggestedQueries('SELECT a FROM x WHERE y > 1', tables)).toEqual([]);
  });
});
