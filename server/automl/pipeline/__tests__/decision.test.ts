// USING decision: the balanced rule (class-weighted arg-max, best balanced accuracy; the default)
// and the argmax rule (the most probable class, best accuracy), both reported in DESCRIBE.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { AutoMLError, type CellValue, type Dataset, loadPredictor, train } from '../../index';
import { Rng } from '../../prng';

/** 12 % positives that overlap the negatives: the two rules disagree near the boundary. */
function imbalanced(n: number, seed: number): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const pos = rng.next() < 0.12;
    rows.push([gauss(rng) + (pos ? 1.2 : 0), gauss(rng), pos ? 'yes' : 'no']);
  }
  return { columns: ['a', 'b', 'churn'], rows };
}

const data = imbalanced(3000, 5);
const test = imbalanced(3000, 6);
const objs = test.rows.map((r) => ({ a: r[0], b: r[1] }));

function scores(preds: { value: unknown }[]) {
  let ok = 0;
  const hit = [0, 0];
  const count = [0, 0];
  preds.forEach((p, i) => {
    const t = test.rows[i][2] === 'yes' ? 1 : 0;
    count[t]++;
    if (p.value === test.rows[i][2]) {
      ok++;
      hit[t]++;
    }
  });
  return { accuracy: ok / preds.length, balanced: (hit[0] / count[0] + hit[1] / count[1]) / 2 };
}

describe('decision rule', () => {
  const balanced = train(data, { target: 'churn', seed: 2 });
  const argmax = train(data, { target: 'churn', seed: 2, using: { decision: 'argmax' } });

  it("'balanced' (default) wins balanced accuracy, 'argmax' wins accuracy, on unseen rows", () => {
    const b = scores(loadPredictor(balanced).predict(objs));
    const a = scores(loadPredictor(argmax).predict(objs));
    expect(b.balanced).toBeGreaterThan(a.balanced + 0.03);
    expect(a.accuracy).toBeGreaterThan(b.accuracy + 0.03);
  });

  it('argmax predicts the most probable class; probabilities are the same under both rules', () => {
    const pa = loadPredictor(argmax).predict(objs.slice(0, 200));
    const pb = loadPredictor(balanced).predict(objs.slice(0, 200));
    pa.forEach((p, i) => {
      const probs = p.probabilities!;
      expect(p.value).toBe(probs.yes > probs.no ? 'yes' : 'no');
      expect(probs).toEqual(pb[i].probabilities);
    });
  });

  it('DESCRIBE names the rule and reports both rules, the accuracy metric follows the rule', () => {
    const d = balanced.description.decision!;
    expect(d.rule).toBe('balanced');
    expect(d.balanced.balanced_accuracy).toBeGreaterThan(d.argmax.balanced_accuracy);
    expect(d.argmax.accuracy).toBeGreaterThan(d.balanced.accuracy);
    expect(balanced.description.accuracies.balanced_accuracy_score).toBe(
      d.balanced.balanced_accuracy,
    );
    const da = argmax.description.decision!;
    expect(da.rule).toBe('argmax');
    expect(argmax.description.accuracies.balanced_accuracy_score).toBe(da.argmax.balanced_accuracy);
  });

  it('rejects an unknown rule listing the allowed ones; models without the setting stay balanced', () => {
    let err: unknown;
    try {
      train(data, { target: 'churn', using: { decision: 'majority' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AutoMLError);
    expect((err as Error).message).toContain("USING decision must be 'balanced'");
    const old = JSON.parse(JSON.stringify(balanced));
    delete old.settings.decision;
    delete old.description.decision;
    expect(loadPredictor(old).predict(objs.slice(0, 50))).toEqual(
      loadPredictor(balanced).predict(objs.slice(0, 50)),
    );
  });
});
