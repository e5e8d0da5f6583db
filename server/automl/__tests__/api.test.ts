import { describe, expect, it } from 'vitest';
import {
  AutoMLError,
  type CellValue,
  type Dataset,
  type TrainProgress,
  deserializeArtifact,
  finetune,
  loadPredictor,
  serializeArtifact,
  train,
} from '../index';
import { Rng } from '../prng';
import { gauss, linearish, xor, toObjects } from './helpers';

function errorOf(f: () => unknown): AutoMLError {
  try {
    f();
  } catch (e) {
    if (e instanceof AutoMLError) return e;
    throw e;
  }
  throw new Error('expected an AutoMLError');
}

/** A small churn-like table: numeric, categorical, binary inputs, an identifier, a Yes/No target. */
function churnLike(n: number, seed = 7): Dataset {
  const rng = new Rng(seed);
  const plans = ['basic', 'plus', 'pro'];
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const tenure = rng.int(72);
    const plan = plans[rng.int(3)];
    const paperless = rng.next() < 0.5 ? 'Yes' : 'No';
    const charges = 20 + rng.next() * 80;
    const z =
      -1 -
      tenure / 20 +
      (plan === 'pro' ? 1 : 0) +
      (paperless === 'Yes' ? 0.7 : 0) +
      charges / 60 +
      gauss(rng);
    rows.push([
      `${1000 + i}-CUST`,
      tenure,
      plan,
      paperless,
      String(charges.toFixed(2)),
      z > 0 ? 'Yes' : 'No',
    ]);
  }
  return { columns: ['customerID', 'tenure', 'plan', 'paperless', 'charges', 'Churn'], rows };
}

describe('train + predict (regression)', () => {
  const data = linearish(1200, 3);
  const artifact = train(data, { target: 'y', using: { max_iterations: 150 } });
  const p = loadPredictor(artifact);

  it('describes the model: task, inputs without the identifier and constant, accuracies, features', () => {
    const d = p.description;
    expect(d.task).toBe('regression');
    expect(d.inputs).toEqual(['x', 'color']);
    expect(d.accuracies.r2_score).toBeGreaterThan(0.9);
    const roles = Object.fromEntries(d.features.map((f) => [f.column, f.role]));
    expect(roles).toEqual({
      id: 'identifier',
      x: 'input',
      color: 'input',
      const: 'ignored',
      y: 'target',
    });
    expect(d.inputTypes).toEqual({ x: 'float', color: 'categorical' });
    expect(d.categories.color.sort()).toEqual(['blue', 'green', 'red']);
    expect(d.numericRanges.x.min).toBeGreaterThanOrEqual(0);
    expect(d.numericRanges.x.max).toBeLessThanOrEqual(10);
    expect(d.summary.split(' --> ')[0]).toBe('TypeInference');
    expect(d.summary).toContain('Conformal(0.9)');
    expect(d.candidates.filter((c) => c.selected)).toHaveLength(1);
    expect(d.candidates.every((c) => c.accuracy_functions[0] === 'r2_score')).toBe(true);
    expect(d.confidenceLevel).toBe(0.9);
    expect(d.trainRows).toBe(1200);
  });

  it('normalises column importances to sum to 1, with x dominating', () => {
    const imp = p.description.columnImportances;
    expect(Object.keys(imp).sort()).toEqual(['color', 'x']);
    expect(imp.x + imp.color).toBeCloseTo(1, 3);
    expect(imp.x).toBeGreaterThan(imp.color);
  });

  it('predicts near the truth with an interval around the value', () => {
    const [r] = p.predict([{ x: 5, color: 'red' }]);
    expect(r.value as number).toBeGreaterThan(15.5);
    expect(r.value as number).toBeLessThan(18.5);
    expect(r.lower!).toBeLessThan(r.value as number);
    expect(r.upper!).toBeGreaterThan(r.value as number);
    expect(r.anomaly).toBeNull();
  });

  it('casts numeric strings like the numbers they spell', () => {
    const [a, b] = p.predict([
      { x: 5, color: 'red' },
      { x: '5', color: 'red' },
    ]);
    expect(b.value).toBe(a.value);
  });

  it('flags an anomaly only when the supplied truth is outside the interval', () => {
    const [inside, outside] = p.predict([
      { x: 5, color: 'red', y: 17 },
      { x: 5, color: 'red', y: 100 },
    ]);
    expect(inside.anomaly).toBe(false);
    expect(outside.anomaly).toBe(true);
  });

  it('handles unseen categories, missing values, missing keys and unknown keys', () => {
    const preds = p.predict([
      { x: 5, color: 'purple' },
      { x: null, color: null },
      {},
      { x: 5, color: 'red', extra: 1 },
    ]);
    for (const r of preds) expect(Number.isFinite(r.value as number)).toBe(true);
  });

  it('rejects an uncastable numeric input naming the column and the row', () => {
    const e = errorOf(() =>
      p.predict([
        { x: 1, color: 'red' },
        { x: 'lots', color: 'red' },
      ]),
    );
    expect(e.message).toContain("column 'x'");
    expect(e.message).toContain('row 1');
    expect(e.column).toBe('x');
    expect(e.row).toBe(1);
  });

  it('the columnar path gives the same predictions as row objects', () => {
    const rows = data.rows.slice(0, 50);
    const cols: Record<string, CellValue[]> = {};
    data.columns.forEach((c, j) => (cols[c] = rows.map((r) => r[j])));
    const viaCols = p.predictColumns!(cols, rows.length);
    const viaRows = p.predict(toObjects({ columns: data.columns, rows }));
    expect(viaCols).toEqual(viaRows);
  });
});

describe('determinism and serialization', () => {
  const data = churnLike(800);
  const strip = (s: string) => s.replace(/"(trainingTimeMs|training_time)":[0-9.e-]+/g, '');

  it('the same seed gives the same model and predictions', () => {
    const a = train(data, { target: 'Churn', seed: 5, using: { max_iterations: 60 } });
    const b = train(data, { target: 'Churn', seed: 5, using: { max_iterations: 60 } });
    expect(strip(serializeArtifact(a))).toBe(strip(serializeArtifact(b)));
    const rows = toObjects(data).slice(0, 100);
    expect(loadPredictor(a).predict(rows)).toEqual(loadPredictor(b).predict(rows));
  });

  it('a serialization round trip (and plain JSON) gives identical predictions', () => {
    const a = train(data, { target: 'Churn', using: { max_iterations: 60 } });
    const rows = toObjects(data).slice(0, 300);
    const before = loadPredictor(a).predict(rows);
    expect(loadPredictor(deserializeArtifact(serializeArtifact(a))).predict(rows)).toEqual(before);
    expect(loadPredictor(JSON.parse(JSON.stringify(a))).predict(rows)).toEqual(before);
  });

  it('rejects a foreign or corrupt artifact', () => {
    expect(errorOf(() => deserializeArtifact('{"format":"other/2"}')).message).toContain(
      "expected 'automl/1'",
    );
    expect(errorOf(() => deserializeArtifact('not json')).message).toContain('not valid JSON');
  });
});

describe('classification', () => {
  it('predicts labels in their original type with calibrated probabilities', () => {
    const data = churnLike(1500);
    const a = train(data, { target: 'Churn' });
    const p = loadPredictor(a);
    const d = p.description;
    expect(d.task).toBe('binary');
    expect(d.classes).toEqual(['No', 'Yes']);
    expect(d.accuracies.balanced_accuracy_score).toBeGreaterThan(0.7);
    expect(d.features.find((f) => f.column === 'customerID')!.role).toBe('identifier');
    expect(d.inputTypes.charges).toBe('float');
    const preds = p.predict(toObjects(data).slice(0, 200));
    for (const r of preds) {
      expect(['Yes', 'No']).toContain(r.value);
      expect(r.lower).toBeNull();
      const probs = r.probabilities!;
      expect(probs.Yes + probs.No).toBeCloseTo(1, 9);
      expect(r.confidence).toBeCloseTo(probs[r.value as string], 12);
      expect(typeof r.anomaly).toBe('boolean');
    }
  });

  it('keeps numeric class labels numeric (0/1 targets) and learns XOR', () => {
    const d = xor(2000);
    const rows = d.rows.map((r) => [r[0], r[1], r[2] === 'Yes' ? 1 : 0]);
    const a = train({ columns: d.columns, rows }, { target: 'label' });
    const p = loadPredictor(a);
    expect(p.description.classes).toEqual([0, 1]);
    const [r] = p.predict([{ a: 0.5, b: 0.5 }]);
    expect(r.value).toBe(1);
    expect(Object.keys(r.probabilities!).sort()).toEqual(['0', '1']);
    expect(p.description.accuracies.balanced_accuracy_score).toBeGreaterThan(0.9);
  });

  it('trains a multiclass model', () => {
    const rng = new Rng(8);
    const rows: CellValue[][] = [];
    for (let i = 0; i < 900; i++) {
      const x = rng.next() * 3;
      rows.push([x, rng.next(), ['low', 'mid', 'high'][Math.floor(x)]]);
    }
    const p = loadPredictor(train({ columns: ['x', 'noise', 'level'], rows }, { target: 'level' }));
    expect(p.description.task).toBe('multiclass');
    expect(p.description.accuracies.balanced_accuracy_score).toBeGreaterThan(0.9);
    expect(p.predict([{ x: 2.5, noise: 0.3 }])[0].value).toBe('high');
  });
});

describe('other column types', () => {
  it('trains on datetime and text inputs', () => {
    const rng = new Rng(12);
    const rows: CellValue[][] = [];
    const words = ['good', 'bad', 'service', 'slow', 'fast', 'friendly', 'staff', 'price'];
    for (let i = 0; i < 600; i++) {
      const day = 1 + rng.int(28);
      const len = 4 + rng.int(12);
      const text = Array.from({ length: len }, () => words[rng.int(8)]).join(' ');
      rows.push([
        `2024-02-${String(day).padStart(2, '0')}`,
        text,
        day * 2 + len + gauss(rng) * 0.5,
      ]);
    }
    const p = loadPredictor(
      train({ columns: ['date', 'review', 'score'], rows }, { target: 'score' }),
    );
    expect(p.description.inputTypes).toEqual({ date: 'datetime', review: 'text' });
    expect(p.description.accuracies.r2_score).toBeGreaterThan(0.9);
    const [r] = p.predict([{ date: '2024-02-10', review: 'good staff good price' }]);
    expect(r.value as number).toBeGreaterThan(20);
    expect(r.value as number).toBeLessThan(28);
    expect(errorOf(() => p.predict([{ date: 'yesterday' }])).message).toContain(
      "column 'date' in row 0",
    );
  });

  it('a 100k-row column with 50k distinct values trains without blowing up', () => {
    const rng = new Rng(14);
    const n = 100_000;
    const rows: CellValue[][] = [];
    for (let i = 0; i < n; i++) {
      const x = rng.next();
      rows.push([
        `k${i % 50_000}`,
        `u${i}`,
        x,
        2 * x + (i % 50_000 < 10 ? 1 : 0) + 0.01 * gauss(rng),
      ]);
    }
    const a = train(
      { columns: ['key', 'uniq', 'x', 'y'], rows },
      { target: 'y', using: { max_iterations: 30 } },
    );
    const f = Object.fromEntries(a.description.features.map((x) => [x.column, x]));
    expect(f.key.role).toBe('input');
    expect(f.key.type).toBe('categorical');
    expect(f.uniq.role).toBe('identifier');
    expect(a.description.categories.key.length).toBe(100);
    expect(serializeArtifact(a).length).toBeLessThan(2_000_000);
  });
});

describe('bad input', () => {
  const data = linearish(100, 4);
  it('names the missing target and the available columns', () => {
    expect(
      errorOf(() => train({ columns: ['a', 'b'], rows: [[1, 2]] }, { target: 'x' })).message,
    ).toBe("target column 'x' is not in the data; columns are: a, b");
  });
  it('rejects an all-NULL target', () => {
    const rows = data.rows.map((r) => [...r.slice(0, 4), null]);
    expect(
      errorOf(() => train({ columns: data.columns, rows }, { target: 'y' })).message,
    ).toContain('all 100 rows are NULL');
  });
  it('rejects a single-class target', () => {
    const rows = data.rows.map((r) => [...r.slice(0, 4), 'Yes']);
    expect(
      errorOf(() => train({ columns: data.columns, rows }, { target: 'y' })).message,
    ).toContain("only one class ('Yes')");
  });
  it('rejects too few rows', () => {
    expect(
      errorOf(() => train({ columns: data.columns, rows: data.rows.slice(0, 1) }, { target: 'y' }))
        .message,
    ).toContain('at least 5 rows');
    expect(
      errorOf(() => train({ columns: data.columns, rows: [] }, { target: 'y' })).message,
    ).toContain('no rows');
  });
  it('trains on a tiny table (5 rows) without crashing', () => {
    const p = loadPredictor(
      train({ columns: data.columns, rows: data.rows.slice(0, 5) }, { target: 'y' }),
    );
    expect(Number.isFinite(p.predict([{ x: 1, color: 'red' }])[0].value as number)).toBe(true);
  });
  it('rejects unknown and invalid USING options with the allowed list', () => {
    const e = errorOf(() => train(data, { target: 'y', using: { learning_rat: 0.1 } }));
    expect(e.message).toContain("unknown USING option 'learning_rat'");
    expect(e.message).toContain('learning_rate');
    expect(
      errorOf(() => train(data, { target: 'y', using: { confidence: 1.5 } })).message,
    ).toContain('between 0 and 1');
    expect(
      errorOf(() => train(data, { target: 'y', using: { ignore_columns: ['nope'] } })).message,
    ).toContain("'nope'");
  });
  it('rejects data whose inputs are all identifiers or ignored', () => {
    expect(
      errorOf(() => train(data, { target: 'y', using: { ignore_columns: ['x', 'color'] } }))
        .message,
    ).toContain('no usable input columns');
  });
  it('honours USING ignore_columns and model', () => {
    const a = train(data, { target: 'y', using: { ignore_columns: 'color', model: 'linear' } });
    expect(a.description.inputs).toEqual(['x']);
    // The named candidate serves; the others stay on the leaderboard (issue 26).
    expect(a.description.candidates.filter((c) => c.selected).map((c) => c.name)).toEqual([
      'Linear(ridge)',
    ]);
    expect(a.description.features.find((f) => f.column === 'color')!.role).toBe('ignored');
  });
});

describe('progress and finetune', () => {
  it('reports the five training phases in order', () => {
    const seen: TrainProgress[] = [];
    train(linearish(200, 5), { target: 'y', onProgress: (p) => seen.push(p) });
    expect(seen.map((p) => p.phase)).toEqual([1, 2, 3, 4, 5]);
    expect(seen[0]).toEqual({ phase: 1, total: 5, name: 'analyzing data' });
  });

  it('finetune continues boosting on new rows and adapts to them', () => {
    const base = train(linearish(800, 6), { target: 'y', using: { max_iterations: 100 } });
    // New data: the relation shifted by +5; one new category appears.
    const fresh = linearish(600, 7);
    fresh.rows = fresh.rows.map((r, i) => [
      r[0],
      r[1],
      i % 10 === 0 ? 'violet' : r[2],
      r[3],
      (r[4] as number) + 5,
    ]);
    const tuned = finetune(base, fresh);
    const row = { x: 5, color: 'green' };
    const before = loadPredictor(base).predict([row])[0].value as number;
    const after = loadPredictor(tuned).predict([row])[0].value as number;
    expect(after - before).toBeGreaterThan(3);
    expect(tuned.description.candidates.at(-1)!.selected).toBe(true);
    expect(tuned.description.candidates.at(-1)!.name).toContain('finetuned');
    expect(loadPredictor(tuned).predict([{ x: 5, color: 'violet' }])[0].value).toBeTypeOf('number');
    // The base artifact is not modified.
    expect(loadPredictor(base).predict([row])[0].value).toBe(before);
  });

  it('finetune of a classifier rejects a class it has never seen', () => {
    const base = train(churnLike(300), { target: 'Churn', using: { max_iterations: 30 } });
    const fresh = churnLike(50, 9);
    fresh.rows[3][5] = 'Maybe';
    expect(errorOf(() => finetune(base, fresh)).message).toContain("'Maybe'");
  });
});
