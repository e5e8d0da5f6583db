// Large tables: per-tree row sampling, the iteration cap and early stopping keep a 250k-row
// training bounded (the sampler: gbm/__tests__/sampler.test.ts; the parameters:
// pipeline/__tests__/sizes.test.ts). Only time-independent properties are checked (no timing assertions).
import { describe, expect, it } from 'vitest';
import type { CellValue, Dataset } from '../index';
import { loadPredictor, train } from '../index';
import { r2Score } from '../analysis/metrics';
import { Rng } from '../prng';
import { LARGE_MAX_ITERATIONS } from '../pipeline/sizes';
import { gauss } from './helpers';

const EFFECT: Record<string, number> = { red: 5, green: -3, blue: 0, black: 8, white: -6 };
const CATS = Object.keys(EFFECT);

/** y = 3a + 2b + effect(cat) + 0.05c + noise, with a noise column `d` (as the 1M-row bench). */
function table(n: number, seed: number): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = rng.next() * 10;
    const b = rng.next() * 10;
    const c = rng.int(101);
    const cat = CATS[i % 5];
    rows[i] = [a, b, c, cat, rng.next(), 3 * a + 2 * b + EFFECT[cat] + 0.05 * c + gauss(rng)];
  }
  return { columns: ['a', 'b', 'c', 'cat', 'd', 'y'], rows };
}

describe('large tables', () => {
  it('trains a 250k-row table with capped trees and r2 >= 0.98', () => {
    const data = table(250_000, 5);
    const art = train(data, { target: 'y' });
    const nTrees = art.model.gbm!.nTrees;
    expect(nTrees).toBeGreaterThan(20);
    // Early stopping on the relative threshold ends well before the large-table cap.
    expect(nTrees).toBeLessThan(LARGE_MAX_ITERATIONS);
    expect(art.description.candidates.map((c) => c.name)).toEqual(['GBM']);
    expect(art.description.accuracies.r2_score).toBeGreaterThanOrEqual(0.98);
    const test = table(20_000, 6);
    const cols = Object.fromEntries(test.columns.map((c, j) => [c, test.rows.map((r) => r[j])]));
    const preds = loadPredictor(art).predictColumns!(cols, test.rows.length);
    const truth = test.rows.map((r) => r[5] as number);
    expect(
      r2Score(
        truth,
        preds.map((p) => p.value as number),
      ),
    ).toBeGreaterThanOrEqual(0.98);
    let inside = 0;
    preds.forEach((p, i) => (inside += truth[i] >= p.lower! && truth[i] <= p.upper! ? 1 : 0));
    expect(inside / preds.length).toBeGreaterThan(0.87);
    expect(inside / preds.length).toBeLessThan(0.93);
  });
});
