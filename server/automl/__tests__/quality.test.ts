// Dataset quality on the demo CSVs (data/demo, shipped with the repo) with the bench's fixed
// seeded 80/20 split. Bounds are deliberately looser than the bench targets (docs/DESIGN.md section 6) so
// an engine regression fails CI but split noise does not; there are no timing assertions here.
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../bench/automl';
import { fixedSplit, loadCsv } from '../../../bench/automl-data';
import { loadPredictor, train } from '../index';

describe('demo dataset quality (held-out rows)', () => {
  it('home_rentals without initial_price: r2 >= 0.99, 90 % intervals cover 85-95 %', () => {
    const r = evaluate(fixedSplit(loadCsv('home_rentals.csv', ['initial_price'])), 'rental_price');
    expect(r.score).toBeGreaterThanOrEqual(0.99);
    expect(r.coverage!).toBeGreaterThanOrEqual(0.85);
    expect(r.coverage!).toBeLessThanOrEqual(0.95);
  });

  it('home_rentals types: rooms an integer scale (issue 15), bathrooms binary, sqft integer', () => {
    const a = train(loadCsv('home_rentals.csv', ['initial_price']), {
      target: 'rental_price',
      using: { max_iterations: 20 },
    });
    expect(a.description.inputTypes).toMatchObject({
      // A 0-3 scale is a number (Lightwood says categorical; issue 15 asks for numeric unless
      // there is evidence of codes); the linear model still reads its levels one-hot.
      number_of_rooms: 'integer',
      number_of_bathrooms: 'binary',
      location: 'categorical',
      days_on_market: 'integer',
      neighborhood: 'categorical',
    });
    // Two sqft cells use a decimal comma ("640,56"): still an integer column, as in Lightwood.
    expect(a.description.inputTypes.sqft).toBe('integer');
  });

  it('concrete_strength: r2 >= 0.85, coverage 85-95 %', () => {
    const r = evaluate(fixedSplit(loadCsv('concrete_strength.csv', ['id'])), 'concrete_strength');
    expect(r.score).toBeGreaterThanOrEqual(0.85);
    expect(r.coverage!).toBeGreaterThanOrEqual(0.85);
    expect(r.coverage!).toBeLessThanOrEqual(0.95);
  });

  it('bank_customer_churn: balanced accuracy >= 0.74, RowNumber/CustomerId/Surname dropped as identifiers', () => {
    const split = fixedSplit(loadCsv('bank_customer_churn.csv'));
    const r = evaluate(split, 'Exited');
    expect(r.score).toBeGreaterThanOrEqual(0.74);
    const d = loadPredictor(
      train(split.train, { target: 'Exited', using: { max_iterations: 20 } }),
    ).description;
    const ids = d.features.filter((f) => f.role === 'identifier').map((f) => f.column);
    expect(ids.sort()).toEqual(['CustomerId', 'RowNumber', 'Surname']);
    expect(d.classes).toEqual([0, 1]);
  });

  it('telco_customer_churn: balanced accuracy >= 0.72, customerID dropped, TotalCharges numeric', () => {
    const split = fixedSplit(loadCsv('telco_customer_churn.csv'));
    const r = evaluate(split, 'Churn');
    expect(r.score).toBeGreaterThanOrEqual(0.72);
    const d = loadPredictor(
      train(split.train, { target: 'Churn', using: { max_iterations: 20 } }),
    ).description;
    expect(d.features.find((f) => f.column === 'customerID')!.role).toBe('identifier');
    expect(d.inputTypes.TotalCharges).toBe('float');
    expect(d.classes).toEqual(['No', 'Yes']);
  });

  it('diabetes (long English headers, a typo label) trains and predicts', () => {
    const a = train(loadCsv('diabetes_train.csv'), { target: 'Class' });
    const p = loadPredictor(a);
    expect(p.description.inputs).toContain('Plasma glucose concentration');
    const test = loadCsv('diabetes_test.csv');
    const rows = test.rows.map((r) => Object.fromEntries(test.columns.map((c, j) => [c, r[j]])));
    const preds = p.predict(rows);
    const ok = preds.filter(
      (x, i) => x.value === test.rows[i][test.columns.indexOf('Class')],
    ).length;
    expect(ok / preds.length).toBeGreaterThan(0.6);
  });
});
