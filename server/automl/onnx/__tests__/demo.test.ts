// The demo tabular models exported to ONNX give the engine's predictions on their held-out rows
// (the bench's fixed 80/20 split): regression values and interval bounds to 1e-5, classifiers
// the same classes and probabilities to 1e-5. Boosting is capped at 100 rounds to keep the suite
// quick; every other part (encoders, blend, reduced model, calibration) is as users get it.

import { describe, expect, it } from 'vitest';
import { fixedSplit, loadCsv } from '../../../../bench/automl-data';
import { train } from '../../index';
import { expectOnnxEqual } from './helpers';

const DEMOS = [
  { file: 'home_rentals.csv', target: 'rental_price', drop: [] },
  { file: 'concrete_strength.csv', target: 'concrete_strength', drop: ['id'] },
  { file: 'bank_customer_churn.csv', target: 'Exited', drop: [] },
  { file: 'telco_customer_churn.csv', target: 'Churn', drop: [] },
  { file: 'diabetes_train.csv', target: 'Class', drop: [] },
];

describe('demo models exported to ONNX predict as the instance does on held-out rows', () => {
  for (const { file, target, drop } of DEMOS) {
    it(`${file} (${target})`, async () => {
      const s = fixedSplit(loadCsv(file, drop));
      const a = train(s.train, { target, using: { max_iterations: 100 } });
      const r = await expectOnnxEqual(a, s.test);
      expect(r.rows).toBe(s.test.rows.length);
      if (a.model.reduced) {
        // Rows without the dominant input (home_rentals' initial_price) take the reduced trees
        // and that pattern's interval width.
        const j = s.test.columns.indexOf(a.model.reduced.column);
        const blanked = {
          columns: s.test.columns,
          rows: s.test.rows.map((row) => row.map((v, k) => (k === j ? null : v))),
        };
        await expectOnnxEqual(a, blanked);
      }
    });
  }
});
