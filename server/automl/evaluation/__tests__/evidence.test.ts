// The evidence a training keeps (docs/evaluation.md): held-out rows scored by models that did not
// train on them, a training sample, the candidates; a lossless round trip through its JSON.
import { describe, expect, it } from 'vitest';
import { linearish, wide } from '../../__tests__/helpers';
import { cellAt, deserializeEvidence, evidenceOf, serializeEvidence, train } from '../../index';

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
