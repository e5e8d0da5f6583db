// Missing inputs at prediction time: the reduced model for a dominant column, and conformal
// calibration per pattern of missing inputs (intervals for regression, temperature for
// classifiers). The home_rentals checks use the bench's fixed split. (Tree routing of missing
// values: gbm/__tests__/missing-routing.test.ts.)
import { describe, expect, it } from 'vitest';
import { fixedSplit, loadCsv } from '../../../../bench/automl-data';
import { type ModelArtifact, type Prediction, loadPredictor, train } from '../../index';
import { missingGroups } from '../missing';

function coverage(preds: Prediction[], truth: number[]): { cov: number; width: number } {
  let inside = 0;
  let width = 0;
  preds.forEach((p, i) => {
    if (truth[i] >= p.lower! && truth[i] <= p.upper!) inside++;
    width += p.upper! - p.lower!;
  });
  return { cov: inside / preds.length, width: width / preds.length };
}

describe('missingGroups', () => {
  it('keeps up to 4 columns single, otherwise the top 3 single and the rest pooled', () => {
    expect(missingGroups([0.1, 0.6, 0.3])).toEqual([[1], [2], [0]]);
    expect(missingGroups([0.1, 0.5, 0, 0.3, 0.1])).toEqual([[1], [3], [0], [2, 4]]);
  });
});

describe('home_rentals with initial_price (rental_price ~ initial_price)', () => {
  const split = fixedSplit(loadCsv('home_rentals.csv'));
  const artifact = train(split.train, { target: 'rental_price' });
  const p = loadPredictor(artifact);
  const cols = split.test.columns;
  const ti = cols.indexOf('rental_price');
  const truth = split.test.rows.map((r) => Number(r[ti]));
  const rows = (drop: string[]) =>
    split.test.rows.map((r) =>
      Object.fromEntries(cols.map((c, j) => [c, drop.includes(c) ? null : r[j]])),
    );
  const complete = coverage(p.predict(rows([])), truth);

  it('complete rows keep tight intervals with ~90 % coverage', () => {
    expect(artifact.description.columnImportances.initial_price).toBeGreaterThan(0.9);
    expect(complete.cov).toBeGreaterThanOrEqual(0.87);
    expect(complete.cov).toBeLessThanOrEqual(0.93);
    expect(complete.width).toBeLessThan(40);
  });

  it('rows without initial_price get honest intervals (coverage 0.85-0.95)', () => {
    expect(artifact.model.reduced?.column).toBe('initial_price');
    const r = coverage(p.predict(rows(['initial_price'])), truth);
    expect(r.cov).toBeGreaterThanOrEqual(0.85);
    expect(r.cov).toBeLessThanOrEqual(0.95);
    expect(r.width).toBeGreaterThan(complete.width);
  });

  it('every pattern of one or two missing inputs covers at least ~85 %', () => {
    const inputs = artifact.description.inputs;
    for (const a of inputs) {
      for (const b of [null, 'sqft', 'location']) {
        const r = coverage(p.predict(rows(b ? [a, b] : [a])), truth);
        expect(r.cov, `${a} + ${b}`).toBeGreaterThanOrEqual(0.85);
      }
    }
  });

  it('the playground row (only sqft, location, rooms) gets the conditional mean and a wide interval', () => {
    // Good-location 2-room homes of 723-923 sqft rent for 3207-3473 (5-95 %), mean 3350.
    const [x] = p.predict([{ sqft: 823, location: 'good', number_of_rooms: 2 }]);
    expect(x.value as number).toBeGreaterThan(3100);
    expect(x.value as number).toBeLessThan(3600);
    expect(x.lower!).toBeLessThan(3207);
    expect(x.upper!).toBeGreaterThan(3473);
  });

  it('a model saved before missing-input calibration (and adaptive widths) still loads and predicts as before', () => {
    // An older artifact: no missing-input calibration, no reduced model, one constant width.
    const old = JSON.parse(JSON.stringify(artifact)) as ModelArtifact;
    delete old.calibration.missing;
    delete old.model.reduced;
    delete old.calibration.scale;
    old.calibration.halfWidth = 123.5;
    const [x] = loadPredictor(old).predict([{ sqft: 823, location: 'good' }]);
    expect(x.upper! - (x.value as number)).toBeCloseTo(123.5, 6);
    const [y] = p.predict([rows([])[0]]);
    const [z] = loadPredictor(old).predict([rows([])[0]]);
    expect(z.value).toBe(y.value);
    expect(z.upper! - (z.value as number)).toBeCloseTo(123.5, 6);
  });
});

describe('classifier confidence with missing inputs', () => {
  it('bank churn: confidence drops when the most important input is missing, and stays calibrated', () => {
    const split = fixedSplit(loadCsv('bank_customer_churn.csv'));
    const a = train(split.train, { target: 'Exited' });
    const p = loadPredictor(a);
    const cols = split.test.columns;
    const ti = cols.indexOf('Exited');
    const imp = Object.entries(a.description.columnImportances).sort((x, y) => y[1] - x[1]);
    const stats = (drop: string | null) => {
      const preds = p.predict(
        split.test.rows.map((r) =>
          Object.fromEntries(cols.map((c, j) => [c, c === drop ? null : r[j]])),
        ),
      );
      let ok = 0;
      let conf = 0;
      preds.forEach((x, i) => {
        if (String(x.value) === String(split.test.rows[i][ti])) ok++;
        conf += x.confidence;
      });
      return { acc: ok / preds.length, conf: conf / preds.length };
    };
    const full = stats(null);
    const masked = stats(imp[0][0]);
    expect(masked.conf).toBeLessThan(full.conf - 0.05);
    // Calibrated: mean confidence tracks accuracy on the masked rows too.
    expect(Math.abs(masked.conf - masked.acc)).toBeLessThan(0.05);
  });
});
