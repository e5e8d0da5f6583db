import { describe, expect, it } from 'vitest';
import {
  accuracyLabel,
  formatMetric,
  formatRatio,
  metricLabel,
  pipelineSteps,
  sortImportances,
  stepParts,
} from './describe-model';

describe('sortImportances', () => {
  it('orders the most important first, ties by name, unknown last', () => {
    expect(sortImportances({ b: 0.1, a: 0.1, c: 0.9, d: null, e: 0 }).map((i) => i.column)).toEqual(
      ['c', 'a', 'b', 'e', 'd'],
    );
    expect(sortImportances(undefined)).toEqual([]);
  });
});

describe('pipeline', () => {
  it('splits the model summary on " --> "', () => {
    const s =
      'TypeInference --> Encoders(num:quantile-bins, cat:codes) --> GBM(414 trees, 15 leaves)';
    expect(pipelineSteps(s)).toEqual([
      'TypeInference',
      'Encoders(num:quantile-bins, cat:codes)',
      'GBM(414 trees, 15 leaves)',
    ]);
    expect(stepParts('GBM(414 trees, 15 leaves)')).toEqual({
      name: 'GBM',
      detail: '414 trees, 15 leaves',
    });
    expect(stepParts('TypeInference')).toEqual({ name: 'TypeInference', detail: null });
    expect(pipelineSteps(undefined)).toEqual([]);
  });
});

describe('metrics', () => {
  it('labels and formats accuracies', () => {
    expect(metricLabel('r2_score')).toBe('R² score');
    expect(metricLabel('some_metric')).toBe('some metric');
    expect(formatMetric(0.99995)).toBe('0.99995');
    expect(formatMetric(0.5)).toBe('0.5');
    expect(formatMetric(null)).toBe('—');
  });

  it('formats a column of ratios with the same three decimals on every row', () => {
    expect([0.1113, 0.15086, 0.17315, 1, 2.0643].map(formatRatio)).toEqual([
      '0.111×',
      '0.151×',
      '0.173×',
      '1.000×',
      '2.064×',
    ]);
    expect(formatRatio(undefined)).toBe('—');
    expect(formatRatio(NaN)).toBe('—');
  });

  it('labels a model’s accuracy by its metric, so r2 and balanced accuracy are told apart', () => {
    expect(accuracyLabel('r2_score')).toBe('R² score');
    expect(accuracyLabel('balanced_accuracy_score')).toBe('Balanced accuracy');
    expect(accuracyLabel(null)).toBe('accuracy');
  });
});
