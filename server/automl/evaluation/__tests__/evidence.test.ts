// The evidence a training keeps (docs/evaluation.md): held-out rows scored by models that did not
// train on them, a training sample, the candidates; a lossless round trip through its JSON.
import { describe, expect, it } from 'vitest';
import { linearish, toObjects, wide } from '../../__tests__/helpers';
import {
  cellAt,
  decideWithThreshold,
  deserializeEvidence,
  evidenceOf,
  loadPredictor,
  serializeArtifact,
  serializeEvidence,
  train,
} from '../../index';

// One binary and one regression model serve every test of this file.
const binary = train(wide(4000, 5, 'binary'), { target: 'target', threads: 1 });
const regression = train(linearish(800, 3, 2), { target: 'y', threads: 1 });

describe('evidence kept by a training', () => {
  it('a classifier keeps its validation rows with classes, probabilities and contributions', () => {
    const ev = evidenceOf(binary)!;
    expect(ev.format).toBe('evidence/1');
    expect(ev.task).toBe('binary');
    expect(ev.classes).toEqual([false, true]);
    const h = ev.heldOut;
    // 4000 rows: one validation split of a fifth (per class), every held-out row kept.
    expect(h.validation).toBe('split');
    expect(Math.abs(h.total - 800)).toBeLessThanOrEqual(1);
    expect(h.sample).toBe('all');
    const n = h.rows.rowCount;
    expect(n).toBe(h.total);
    // Every column but the target, as given (the NULLs the data has stay NULL).
    expect(h.rows.columns).toEqual([...Array.from({ length: 12 }, (_, j) => `x${j}`), 'grade']);
    const x0 = h.rows.data[0];
    const cells = Array.from({ length: n }, (_, i) => cellAt(x0, i));
    expect(cells.some((v) => v === null)).toBe(true);
    expect(cells.filter((v) => v !== null).every((v) => typeof v === 'number')).toBe(true);
    for (let i = 0; i < n; i++) {
      expect([0, 1]).toContain(h.actual[i]);
      expect([0, 1]).toContain(h.predicted[i]);
      expect(h.probabilities![2 * i] + h.probabilities![2 * i + 1]).toBeCloseTo(1, 5);
    }
    // Held-out accuracy is the model's, not a memorised training fit.
    const hits = h.actual.filter((a, i) => a === h.predicted[i]).length / n;
    expect(hits).toBeGreaterThan(0.75);
    expect(hits).toBeLessThan(0.99);
    const c = h.contributions!;
    expect(c.rows).toBe(n);
    expect(c.columns).toEqual(binary.description.inputs);
    expect(c.values.length).toBe(n * c.columns.length);
  });

  it('a regression keeps honest intervals at the promised level', () => {
    const ev = evidenceOf(regression)!;
    expect(ev.level).toBe(0.9);
    const h = ev.heldOut;
    // 800 rows are cross-fitted: every row is held out once.
    expect(h.validation).toBe('cross-fitted');
    expect(h.rows.rowCount).toBe(800);
    let inside = 0;
    for (let i = 0; i < 800; i++) {
      expect(h.lower![i]).toBeLessThanOrEqual(h.predicted[i]);
      expect(h.upper![i]).toBeGreaterThanOrEqual(h.predicted[i]);
      if (h.actual[i] >= h.lower![i] && h.actual[i] <= h.upper![i]) inside++;
    }
    expect(inside / 800).toBeGreaterThan(0.86);
    expect(inside / 800).toBeLessThan(0.95);
    // The actual values are the training data's (y = 3x + ..., x in [0, 10)).
    const xs = h.rows.data[h.rows.columns.indexOf('x')];
    const err = Array.from(h.actual, (a, i) => Math.abs(a - 3 * (cellAt(xs, i) as number)));
    expect(err.reduce((s, e) => s + e, 0) / 800).toBeLessThan(4);
  });

  it('lists every candidate with two metrics, speed and size, and the one that serves', () => {
    const ev = evidenceOf(binary)!;
    expect(ev.candidates.map((c) => c.kind)).toEqual(['gbm', 'linear', 'ensemble']);
    expect(ev.candidates.map((c) => c.using)).toEqual(['gbm', 'linear', 'ensemble']);
    expect(ev.candidates.filter((c) => c.selected)).toHaveLength(1);
    for (const c of ev.candidates) {
      expect(c.score.name).toBe('balanced_accuracy_score');
      expect(c.other!.name).toBe('roc_auc_score');
      expect(c.other!.value).toBeGreaterThan(0.8);
      expect(c.predictRowsPerSecond).toBeGreaterThan(0);
      expect(c.sizeBytes).toBeGreaterThan(0);
    }
    expect(evidenceOf(regression)!.candidates[0].other!.name).toBe('mean_absolute_error');
  });

  it('keeps a training sample with the target', () => {
    const ev = evidenceOf(regression)!;
    expect(ev.training.total).toBe(800);
    expect(ev.training.rows.columns).toEqual(['id', 'x', 'color', 'const', 'y']);
    expect(ev.training.rows.rowCount).toBe(800);
  });

  it('round-trips through its JSON file unchanged', () => {
    for (const a of [binary, regression]) {
      const ev = evidenceOf(a)!;
      const text = serializeEvidence(ev);
      expect(serializeEvidence(deserializeEvidence(text))).toBe(text);
      expect(deserializeEvidence(text).heldOut.actual).toEqual(ev.heldOut.actual);
    }
    expect(() => deserializeEvidence('{"format":"x"}')).toThrow(/unsupported model evidence/);
    expect(() => deserializeEvidence('not json')).toThrow(/not valid JSON/);
  });

  it('is not part of the artifact', () => {
    expect(JSON.stringify(binary)).not.toContain('evidence/1');
  });
});

describe('a saved threshold and the candidate that serves', () => {
  it('decides with the threshold: predictions, held-out evidence and metrics follow it', () => {
    const ev = evidenceOf(binary)!;
    // The balanced rule, as a threshold on P(true), lies strictly between 0 and 1.
    expect(ev.decision!.rule).toBe('balanced');
    expect(ev.decision!.threshold).toBeGreaterThan(0);
    expect(ev.decision!.threshold).toBeLessThan(1);
    const { artifact, evidence } = decideWithThreshold(binary, ev, {
      threshold: 0.8,
      positive: true,
    });
    expect(artifact.settings).toMatchObject({ threshold: 0.8, positiveClass: 'true' });
    expect(artifact.description.metrics!.threshold).toEqual({ value: 0.8, positive: true });
    const h = evidence!.heldOut;
    for (let i = 0; i < h.actual.length; i++)
      expect(h.predicted[i]).toBe(h.probabilities![2 * i + 1] >= 0.8 ? 1 : 0);
    // The shipped model predicts with it too.
    const rows = toObjects(wide(300, 9, 'binary'));
    const p = loadPredictor(JSON.parse(serializeArtifact(artifact))).predict(rows);
    for (const r of p) expect(r.value).toBe(r.probabilities!.true >= 0.8);
    const flagged = p.filter((r) => r.value === true).length;
    const before = loadPredictor(binary)
      .predict(rows)
      .filter((r) => r.value === true).length;
    expect(flagged).toBeLessThan(before);
    expect(() => decideWithThreshold(regression, null, { threshold: 0.5, positive: 1 })).toThrow(
      /binary classifiers/,
    );
  });

  it('USING threshold and model at training: the named candidate serves, the others stay listed', () => {
    const a = train(wide(1200, 4, 'binary'), {
      target: 'target',
      threads: 1,
      using: { model: 'linear', threshold: 0.3, positive_class: 'true' },
    });
    const ev = evidenceOf(a)!;
    expect(ev.candidates.map((c) => [c.kind, c.selected])).toEqual([
      ['gbm', false],
      ['linear', true],
      ['ensemble', false],
    ]);
    expect(a.model.gbm).toBeNull();
    expect(ev.decision).toEqual({ rule: 'threshold', positive: 1, threshold: 0.3 });
    expect(a.description.metrics!.threshold).toEqual({ value: 0.3, positive: true });
    expect(() => train(linearish(200, 1), { target: 'y', using: { threshold: 0.3 } })).toThrow(
      /USING threshold applies to binary classifiers/,
    );
    expect(() =>
      train(wide(300, 4, 'binary'), {
        target: 'target',
        using: { threshold: 0.3, positive_class: 'maybe' },
      }),
    ).toThrow(/positive_class 'maybe' is not a class/);
  });
});
