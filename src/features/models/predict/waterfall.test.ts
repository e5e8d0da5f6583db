import { describe, expect, it } from 'vitest';
import {
  explainedTask,
  hasContributions,
  waterfallAxisLabel,
  waterfallSentence,
  waterfallSteps,
  waterfallSummary,
} from './waterfall';

const rental = {
  base_value: 2410.2,
  feature_contributions: { location: 95.4, sqft: 380.1, days_on_market: 39.6, neighborhood: 0 },
  explained_value: 2925.3,
  explained_class: null,
};

describe('waterfallSteps', () => {
  it('starts at the base value, pushes the largest input first and ends at the prediction', () => {
    const w = waterfallSteps(rental, { sqft: 917, location: 'great', days_on_market: 13 })!;
    expect(w.steps.map((s) => s.label)).toEqual([
      'Average prediction',
      'sqft = 917',
      'location = great',
      'days_on_market = 13',
      'neighborhood = missing',
      'Prediction',
    ]);
    const sqft = w.steps[1];
    expect(sqft.start).toBe(2410.2);
    expect(sqft.end).toBeCloseTo(2790.3, 9);
    // Each step starts where the previous one ended; the last push lands on the prediction.
    for (let i = 2; i < w.steps.length - 1; i++) {
      expect(w.steps[i].start).toBeCloseTo(w.steps[i - 1].end, 9);
    }
    expect(w.steps.at(-2)!.end).toBeCloseTo(2925.3, 9);
    expect(w.steps.at(-1)).toMatchObject({ kind: 'total', start: 2925.3, end: 2925.3 });
    expect(w.additive).toBe(true);
  });

  it('folds the smallest pushes into one "other inputs" step that keeps the sum', () => {
    const contributions = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`x${i}`, (i % 2 ? -1 : 1) * (i + 1)]),
    );
    const sum = Object.values(contributions).reduce((a, b) => a + b, 0);
    const w = waterfallSteps(
      { base_value: 10, feature_contributions: contributions, explained_value: 10 + sum },
      {},
      { maxInputs: 4 },
    )!;
    expect(w.steps.filter((s) => s.kind === 'push').map((s) => s.column)).toEqual([
      'x11',
      'x10',
      'x9',
      'x8',
    ]);
    const others = w.steps.find((s) => s.kind === 'others')!;
    expect(others.label).toBe('8 other inputs');
    expect(others.delta).toBe(1 - 2 + 3 - 4 + 5 - 6 + 7 - 8);
    expect(others.end).toBeCloseTo(10 + sum, 9);
    expect(w.folded).toHaveLength(8);
  });

  it('shows a single leftover input by name rather than as "1 other inputs"', () => {
    const w = waterfallSteps(
      { base_value: 0, feature_contributions: { a: 3, b: 2, c: 1 }, explained_value: 6 },
      {},
      { maxInputs: 2 },
    )!;
    expect(w.steps.filter((s) => s.kind === 'push')).toHaveLength(3);
    expect(w.steps.some((s) => s.kind === 'others')).toBe(false);
  });

  it('says when the contributions do not add up to the explained value', () => {
    const w = waterfallSteps({ ...rental, explained_value: 3000 })!;
    expect(w.additive).toBe(false);
    expect(w.gap).toBeCloseTo(-74.7, 6);
    expect(w.total).toBe(3000);
  });

  it('draws nothing without a base value or contributions (older servers, MindsDB)', () => {
    expect(waterfallSteps({ explained_value: 1 })).toBeNull();
    expect(hasContributions({ base_value: 1, feature_contributions: null })).toBe(false);
    expect(hasContributions(null)).toBe(false);
  });
});

describe('waterfall sentences', () => {
  it('reads a regression in the target’s own numbers', () => {
    const w = waterfallSteps(rental)!;
    expect(explainedTask(rental, {})).toBe('regression');
    expect(waterfallSentence(w, 'regression', { target: 'rental_price' })).toBe(
      'The model’s average rental_price is 2,410.2; each bar is how far one input moved this ' +
        'row’s prediction from there, up or down, ending at 2,925.3.',
    );
    expect(waterfallAxisLabel('regression', 'rental_price')).toBe('rental_price');
  });

  it('explains a binary score as log-odds and converts it to a probability', () => {
    const ex = {
      base_value: -1,
      feature_contributions: { Age: 1.5, Balance: 0.5 },
      explained_value: 1,
      explained_class: 'Yes',
    };
    const task = explainedTask(ex, { No: 0.3, Yes: 0.7 });
    expect(task).toBe('binary');
    expect(
      waterfallSentence(waterfallSteps(ex)!, task, { target: 'Exited', explainedClass: 'Yes' }),
    ).toBe(
      'The bars add up to the model’s raw score for “Yes”, the predicted class, in log-odds (0 is ' +
        'a toss-up; each +1 multiplies the odds by about 2.7): 1 here, about 73% before calibration.',
    );
    // With the calibrated probability known, the sentence points to it instead (sigmoid(1) = 73%).
    expect(
      waterfallSentence(waterfallSteps(ex)!, task, {
        target: 'Exited',
        explainedClass: 'Yes',
        probability: 0.3,
      }),
    ).toContain('1 here, which calibration turns into the 30.0% probability shown above.');
  });

  it('calls a multiclass number the predicted class’s raw score', () => {
    const ex = {
      base_value: 0,
      feature_contributions: { a: 1 },
      explained_value: 1,
      explained_class: 'b',
    };
    const task = explainedTask(ex, { a: 0.2, b: 0.5, c: 0.3 });
    expect(task).toBe('multiclass');
    expect(
      waterfallSentence(waterfallSteps(ex)!, task, { target: 't', explainedClass: 'b' }),
    ).toMatch(/^The bars add up to the model’s raw score for “b”, the predicted class/);
    expect(waterfallAxisLabel(task, 't')).toBe('raw score of the predicted class');
  });

  it('summarises the chart for screen readers with signed pushes', () => {
    const w = waterfallSteps(
      { base_value: 100, feature_contributions: { a: -20, b: 5 }, explained_value: 85 },
      { a: 'x', b: 2 },
    )!;
    expect(waterfallSummary(w)).toBe('starts at 100; a = x −20; b = 2 +5; ends at 85');
  });
});
