/**
 * A predictor answers the same numbers whichever way it scores a batch: walking the trees (a fresh
 * predictor, small batches) or with its trees compiled and warmed (`warm`, what the prediction
 * thread does when it loads a model), for every kind of model it serves, with and without
 * explanations, on rows with missing inputs and categories it never saw.
 */
import { describe, expect, it } from 'vitest';
import type { CellValue, Dataset, ModelArtifact, Predictor } from '../../api';
import { Rng } from '../../prng';
import { gauss } from '../../__tests__/helpers';
import { train } from '../../pipeline/train';
import { deserializeScale } from '../../analysis/scale';
import { GROUP_NODES, treeGroups } from '../../gbm/compile';
import type { GBMModel } from '../../gbm/model';
import { deserializeGBM } from '../../gbm/serialize';
import { loadPredictor } from '../predictor';

/** 600 rows of a numeric, a categorical and a second numeric input, and three targets. */
function table(): Dataset & { targets: string[] } {
  const rng = new Rng(17);
  const rows: CellValue[][] = [];
  for (let i = 0; i < 600; i++) {
    const x = rng.next() * 10;
    const c = ['red', 'green', 'blue', 'cyan'][rng.int(4)];
    const z = rng.int(30);
    const y = 3 * x + (c === 'red' ? 4 : 0) + z / 5 + gauss(rng);
    rows.push([
      i % 23 === 0 ? null : x,
      i % 31 === 0 ? null : c,
      z,
      y,
      y > 17 ? 'high' : 'low',
      y < 10 ? 'a' : y < 16 ? 'b' : y < 22 ? 'c' : 'd',
    ]);
  }
  return { columns: ['x', 'c', 'z', 'y', 'yes', 'band'], rows, targets: ['y', 'yes', 'band'] };
}

/** 200 rows unlike the training rows: missing inputs, unseen categories, values out of range. */
function varied(): Record<string, CellValue[]> {
  const n = 200;
  return {
    x: Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : ((i * 37) % 130) / 10 - 1)),
    c: Array.from({ length: n }, (_, i) =>
      i % 11 === 0 ? null : ['red', 'green', 'blue', 'cyan', 'mauve', ''][i % 6],
    ),
    z: Array.from({ length: n }, (_, i) => (i % 13 === 0 ? null : (i * 7) % 45)),
  };
}

describe('walked and compiled predictions', () => {
  const data = table();
  const inputs = varied();
  const n = inputs.x.length;
  const cases = [
    ['y', 'gbm'],
    ['y', 'ensemble'],
    ['yes', 'gbm'],
    ['band', 'gbm'],
  ] as const;
  for (const [target, kind] of cases) {
    const columns = data.columns.filter((c) => c === target || !data.targets.includes(c));
    const at = columns.map((c) => data.columns.indexOf(c));
    const artifact: ModelArtifact = train(
      { columns, rows: data.rows.map((r) => at.map((j) => r[j])) },
      { target, seed: 5, using: { max_iterations: 40, model: kind } },
    );

    it(`${target} (${artifact.task}, ${kind}): the same columns and explanations, bit for bit`, () => {
      const walked: Predictor = loadPredictor(artifact);
      const compiled: Predictor = loadPredictor(artifact);
      compiled.warm!();
      // The warmed predictor scores with compiled trees; the fresh one walks at this size.
      expect((compiled as unknown as { compiled: { main: unknown } }).compiled.main).toBeTruthy();
      const a = walked.predictTable!(inputs, n);
      expect((walked as unknown as { compiled: unknown }).compiled).toBeNull();
      const b = compiled.predictTable!(inputs, n);
      expect(b).toEqual(a);
      expect(compiled.explainColumns!(inputs, n)).toEqual(walked.explainColumns!(inputs, n));
      // And a batch big enough to compile the fresh one's trees (unwarmed) agrees with both.
      const big = Object.fromEntries(
        Object.entries(inputs).map(([k, v]) => [
          k,
          Array.from({ length: 600 }, (_, i) => v[i % n]),
        ]),
      );
      const again = loadPredictor(artifact).predictTable!(big, 600);
      expect(again.confidence.subarray(0, n)).toEqual(a.confidence);
      expect(Array.from(again.value).slice(0, n)).toEqual(Array.from(a.value));
      // A predictor told to walk only (a training's held-out rows) walks that big batch: nothing
      // compiled, nothing left warming, the same numbers.
      const walking = loadPredictor(artifact);
      walking.walkOnly!();
      const once = walking.predictTable!(big, 600);
      expect((walking as unknown as { compiled: unknown }).compiled).toBe(false);
      expect(walking.stillWarming!()).toBe(false);
      expect(once).toEqual(again);
    });
  }
});

/** The private state of a predictor warming in steps (predictor.ts `warming`, `compiled`). */
interface Warming {
  compiled: { main: unknown[] | null; scale: unknown[] | null } | null | false;
  warming: { main: unknown[] | null; scale: unknown[] | null } | null;
}

/** Nodes of each tree of a model, by tree. */
const treeNodes = (m: GBMModel) =>
  Array.from(
    { length: m.nTrees },
    (_, t) => (t + 1 < m.nTrees ? m.roots[t + 1] : m.feat.length) - m.roots[t],
  );

describe('warming in steps (the instance thread: Predictor.warmInSteps)', () => {
  const data = table();
  const inputs = varied();
  // 600 rows: a batch that calls for the warm-up (from 256 rows).
  const big = Object.fromEntries(
    Object.entries(inputs).map(([k, v]) => [k, Array.from({ length: 600 }, (_, i) => v[i % 200])]),
  );
  for (const [target, kind] of [
    ['y', 'gbm'],
    ['band', 'gbm'],
  ] as const) {
    const columns = data.columns.filter((c) => c === target || !data.targets.includes(c));
    const at = columns.map((c) => data.columns.indexOf(c));
    const artifact: ModelArtifact = train(
      { columns, rows: data.rows.map((r) => at.map((j) => r[j])) },
      { target, seed: 5, using: { max_iterations: 40, model: kind } },
    );

    it(`${target} (${artifact.task}): one group of trees a step, every batch the same numbers`, () => {
      const reference = loadPredictor(artifact);
      reference.warm!();
      const expected = reference.predictTable!(big, 600);
      const p = loadPredictor(artifact);
      const handed: (() => boolean)[] = [];
      p.warmInSteps!((step) => handed.push(step));
      const state = p as unknown as Warming;
      // A small batch does not call for it; a big one hands the steps over and walks.
      expect(p.predictTable!(inputs, 200)).toEqual(reference.predictTable!(inputs, 200));
      expect(handed).toHaveLength(0);
      expect(p.predictTable!(big, 600)).toEqual(expected);
      expect(handed).toHaveLength(1);
      expect(state.compiled).toBeNull();
      // The steps: one per group of the model's trees and of the intervals' scale trees.
      const models = [deserializeGBM(artifact.model.gbm!)];
      if (artifact.calibration.scale) models.push(deserializeScale(artifact.calibration.scale).gbm);
      const groups = models.map((m) => treeGroups(m));
      const steps = groups.reduce((s, g) => s + g.length, 0);
      expect(steps).toBeGreaterThan(1);
      // A group is consecutive whole trees, at most GROUP_NODES nodes unless it is one tree.
      models.forEach((m, i) => {
        const sizes = treeNodes(m);
        expect(groups[i].flat()).toEqual(sizes.map((_, t) => t));
        for (const g of groups[i]) {
          const nodes = g.reduce((s, t) => s + sizes[t], 0);
          expect(g.length === 1 || nodes <= GROUP_NODES).toBe(true);
        }
      });
      for (let k = 1; k <= steps; k++) {
        const done = handed[0]();
        expect(done).toBe(k === steps);
        if (!done) {
          // k groups compiled, none used yet: the batch walks, the same numbers.
          const w = state.warming!;
          expect((w.main?.length ?? 0) + (w.scale?.length ?? 0)).toBe(k);
          expect(state.compiled).toBeNull();
          expect(p.predictTable!(big, 600)).toEqual(expected);
        }
      }
      expect(state.compiled && (state.compiled.main?.length ?? 0)).toBe(groups[0].length);
      expect(p.predictTable!(big, 600)).toEqual(expected);
      expect(p.explainColumns!(big, 600)).toEqual(reference.explainColumns!(big, 600));
      // Once, whatever the batches after it.
      expect(handed).toHaveLength(1);
      expect(handed[0]()).toBe(true);
    });
  }
});
