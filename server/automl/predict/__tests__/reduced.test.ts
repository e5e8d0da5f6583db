// Rows missing the dominant input are scored by the reduced trees alone and the other rows by the
// main model alone: each row once. The main model used to score every row, those missing the
// dominant input included, before their scores were replaced by the reduced model's.
import { describe, expect, it, vi } from 'vitest';
import type { CellValue, Dataset } from '../../api';
import { Rng } from '../../prng';
import { gauss } from '../../__tests__/helpers';

// The rows of each tree walk, by model (the same walk, observed).
const walked = vi.hoisted(() => ({ rows: new Map<object, number>() }));
vi.mock('../../gbm/predict', async (original) => {
  const m = await original<typeof import('../../gbm/predict')>();
  return {
    ...m,
    predictRaw: (...args: Parameters<typeof m.predictRaw>) => {
      walked.rows.set(args[0], (walked.rows.get(args[0]) ?? 0) + args[3]);
      return m.predictRaw(...args);
    },
  };
});

// Test files share their worker's modules (vitest.config.ts: isolate false): the predictor and
// the training pipeline may already be loaded, bound to the real tree walk, by an earlier file.
// Loaded again here, after the module registry is reset, they take the observed walk above.
vi.resetModules();
const { train } = await import('../../pipeline/train');
const { loadPredictor } = await import('../predictor');

/**
 * y follows `price`, bent (importance ~1: a reduced model is trained), plus a little of a and b; over 3,000 rows, as a model that is not cross-fitted.
 */
function dominated(n: number, seed: number): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const price = 1000 + rng.next() * 4000;
    const a = rng.next() * 10;
    const b = ['x', 'y', 'z'][rng.int(3)];
    const bend = price > 3000 ? 2 * price : 9000 - price;
    rows.push([price, a, b, bend + 3 * a * a + (b === 'x' ? 50 : 0) + 5 * gauss(rng)]);
  }
  return { columns: ['price', 'a', 'b', 'y'], rows };
}

describe('rows missing the dominant input', () => {
  const artifact = train(dominated(3100, 5), { target: 'y', seed: 3 });
  const rows = Array.from({ length: 40 }, (_, i) => ({
    price: i % 3 === 0 ? null : 1500 + 50 * i,
    a: (i * 7) % 10,
    b: ['x', 'y', 'z'][i % 3],
  }));
  const missing = rows.map((r, i) => (r.price === null ? i : -1)).filter((i) => i >= 0);

  it('has a reduced model for the dominant column', () => {
    expect(artifact.model.reduced?.column).toBe('price');
    expect(missing.length).toBe(14);
  });

  it('scores each row with one model: the reduced trees or the main model, never both', () => {
    const p = loadPredictor(artifact);
    walked.rows.clear();
    p.predict(rows);
    // The main trees 26 rows, the reduced 14, and the adaptive interval's scale trees all 40.
    // Before: the main trees walked all 40 rows, the 14 missing ones for nothing.
    expect(artifact.calibration.scale).toBeTruthy();
    expect([...walked.rows.values()].sort((x, y) => x - y)).toEqual([14, 26, 40]);
  });

  it('answers the reduced model’s values for rows missing it and the main model’s for the rest', () => {
    const mixed = loadPredictor(artifact).predict(rows);
    const red = artifact.model.reduced!;
    // The main model alone (no reduced model) and the reduced trees alone as the model.
    const mainOnly = loadPredictor({
      ...artifact,
      model: { ...artifact.model, reduced: undefined },
    }).predict(rows);
    const reducedOnly = loadPredictor({
      ...artifact,
      model: { gbm: red.gbm, linear: null },
    }).predict(rows);
    rows.forEach((_, i) => {
      const want = missing.includes(i) ? reducedOnly[i].value : mainOnly[i].value;
      expect(mixed[i].value).toBe(want);
    });
    // The two models disagree on those rows, so the check above tells them apart.
    for (const i of missing) expect(mainOnly[i].value).not.toBe(reducedOnly[i].value);
    // One row at a time, and the missing rows on their own, answer the same values.
    rows.forEach((r, i) => expect(loadPredictor(artifact).predict([r])[0]).toEqual(mixed[i]));
    const alone = loadPredictor(artifact).predict(missing.map((i) => rows[i]));
    expect(alone.map((x) => x.value)).toEqual(missing.map((i) => mixed[i].value));
  });

  it('explains a missing row by the reduced trees: base + contributions = its value', () => {
    const p = loadPredictor(artifact);
    const pred = p.predict(rows);
    const ex = p.explain!(rows);
    for (const i of [0, 1, 3]) {
      const sum = Object.values(ex[i].contributions).reduce((s, v) => s + v, ex[i].baseValue);
      expect(ex[i].value).toBe(pred[i].value);
      expect(sum).toBeCloseTo(pred[i].value as number, 6);
    }
  });
});
