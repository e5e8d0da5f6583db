import { describe, expect, it } from 'vitest';
import { splitStatements } from '../lib/sql/split';
import { TOUR_LISTING, TOUR_MODEL, TOUR_STEPS } from './tour';

describe('the guided tour', () => {
  it('has 3 to 5 steps: query the demo data, train, predict, explain', () => {
    expect(TOUR_STEPS.length).toBeGreaterThanOrEqual(3);
    expect(TOUR_STEPS.length).toBeLessThanOrEqual(5);
    expect(TOUR_STEPS.map((s) => s.id)).toEqual(['query', 'train', 'predict', 'explain']);
  });

  it('replays: training drops the tour model first, then creates it', () => {
    const train = TOUR_STEPS.find((s) => s.id === 'train')!.action;
    expect(train.kind).toBe('sql');
    const statements = splitStatements(train.kind === 'sql' ? train.sql : '').map((s) => s.sql);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toBe(`DROP MODEL IF EXISTS mindsdb.${TOUR_MODEL}`);
    expect(statements[1]).toMatch(new RegExp(`^CREATE MODEL mindsdb\\.${TOUR_MODEL}\\b`));
  });

  // That only the training step changes anything is the instance's judgement, checked against a
  // real instance in e2e/security.spec.ts.
  it('the prediction names every input', () => {
    const predict = TOUR_STEPS.find((s) => s.id === 'predict')!.action;
    for (const column of Object.keys(TOUR_LISTING)) {
      expect(predict.kind === 'sql' && predict.sql).toContain(`${column} = `);
    }
  });

  it('trains without the leaking initial_price, on the columns the listing gives', () => {
    const train = TOUR_STEPS.find((s) => s.id === 'train')!.action;
    const sql = train.kind === 'sql' ? train.sql : '';
    expect(sql).not.toContain('initial_price FROM');
    expect(sql).not.toMatch(/SELECT \*/);
    expect(sql).toContain(
      `(SELECT ${[...Object.keys(TOUR_LISTING), 'rental_price'].join(', ')} FROM demo_data.home_rentals)`,
    );
    expect(Object.keys(TOUR_LISTING)).not.toContain('initial_price');
  });
});
