import { describe, expect, it } from 'vitest';
import type { ThresholdView } from '../../../../../contract/evaluation';
import {
  gainsPoints,
  outcomeNames,
  parsePayoff,
  prPoints,
  profitPoints,
  rocPoints,
  thresholdModel,
} from './threshold-model';

// Ten steps; positives at p = 0.9, 0.8, 0.7, 0.3; negatives at p = 0.6, 0.2, 0.1, 0.1.
const table = {
  steps: 10,
  positives: [0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0],
  negatives: [0, 2, 1, 0, 0, 0, 1, 0, 0, 0, 0],
};

const view = {
  table,
  roc: { fpr: [0, 0, 0.25, 1], tpr: [0, 0.75, 1, 1], auc: 0.9375 },
  pr: { precision: [1, 1, 0.8, 0.5], recall: [0, 0.75, 1, 1], average_precision: 0.95 },
  gains: [
    { share: 0.5, gain: 0.75, lift: 1.5 },
    { share: 1, gain: 1, lift: 1 },
  ],
} as unknown as ThresholdView;

describe('thresholdModel', () => {
  it('gives the confusion matrix and rates at a threshold from the held-out counts', () => {
    const p = thresholdModel(view).at(0.5);
    expect(p).toMatchObject({ tp: 3, fp: 1, fn: 1, tn: 3, precision: 0.75, recall: 0.75 });
    expect(p.fpr).toBe(0.25);
    expect(p.flagged).toBe(0.5);
    expect(p.profit).toBeNull();
  });

  it('snaps a dragged threshold to the grid and flags rows at or above it', () => {
    const m = thresholdModel(view);
    expect(m.at(0.649).threshold).toBeCloseTo(0.6);
    expect(m.at(0.649).fp).toBe(1);
    expect(m.at(0.66).threshold).toBeCloseTo(0.7);
    expect(m.at(0.66).fp).toBe(0);
    expect(m.at(0).flagged).toBe(1);
    expect(m.at(1).flagged).toBe(0);
    expect(m.at(1).precision).toBeNull();
  });

  it('adds the payoff of the four outcomes as profit', () => {
    const p = thresholdModel(view).at(0.5, { tp: 100, fp: -10, tn: 0, fn: -50 });
    expect(p.profit).toBe(3 * 100 - 10 - 50);
  });
});

describe('profitPoints', () => {
  it('finds the best threshold (flag the four likeliest while a false alarm is cheap)', () => {
    const m = thresholdModel(view);
    const { curve, best } = profitPoints(m, { tp: 100, fp: -10, tn: 0, fn: -100 });
    // Flagging p >= 0.3 catches every positive for one false alarm: 400 - 10.
    expect(best.profit).toBe(390);
    expect(best.threshold).toBeCloseTo(0.3);
    expect(curve.map((c) => c.threshold)).toEqual([0, 1]);
  });

  it('moves the best threshold up when false alarms cost more than misses', () => {
    const { best } = profitPoints(thresholdModel(view), { tp: 10, fp: -100, tn: 0, fn: 0 });
    expect(best.threshold).toBeGreaterThan(0.6);
    expect(best.profit).toBe(30);
  });
});

describe('curve points', () => {
  it('pairs ROC and PR arrays into chart points, PR with the positives share as baseline', () => {
    expect(rocPoints(view)).toEqual([
      { x: 0, y: 0 },
      { x: 0, y: 0.75 },
      { x: 0.25, y: 1 },
      { x: 1, y: 1 },
    ]);
    const pr = prPoints(view);
    expect(pr.base).toBe(0.5);
    expect(pr.points[2]).toEqual({ x: 1, y: 0.8 });
  });

  it('starts the gains curve at the origin', () => {
    expect(gainsPoints(view)[0]).toEqual({ share: 0, gain: 0, random: 0, lift: null });
    expect(gainsPoints(view)[1]).toEqual({ share: 0.5, gain: 0.75, random: 0.5, lift: 1.5 });
  });
});

describe('parsePayoff', () => {
  it('reads typed numbers with thousands separators, empty as 0', () => {
    expect(parsePayoff({ tp: '1,200', fp: '-50', tn: '', fn: ' -300 ' })).toEqual({
      tp: 1200,
      fp: -50,
      tn: 0,
      fn: -300,
    });
  });

  it('refuses a value that is not a number', () => {
    expect(parsePayoff({ tp: '12e', fp: '0', tn: '0', fn: '0' })).toBeNull();
  });
});

it('names the four outcomes in the user words', () => {
  expect(outcomeNames('churner', 'stayer').fp).toBe('False alarm (predicted churner, was stayer)');
});
