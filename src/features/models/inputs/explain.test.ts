import { describe, expect, it } from 'vitest';
import { detectTarget, intervalPoints, parseExplain, toPredictionViews } from './explain';

const regression = {
  sqft: 823,
  location: 'good',
  rental_price: 5435.4,
  rental_price_confidence: 0.9,
  rental_price_min: 5422.7,
  rental_price_max: 5448.1,
  rental_price_anomaly: null,
  rental_price_original: null,
  rental_price_explain:
    '{"predicted_value":5435.4,"confidence":0.9,"anomaly":null,"truth":null,"confidence_lower_bound":5422.7,"confidence_upper_bound":5448.1}',
  __service_row_id: 0,
  select_data_query: null,
  when_data: null,
};

const classifier = {
  Age: 50,
  Exited: 1,
  Exited_confidence: 0.62,
  Exited_anomaly: false,
  Exited_original: 0,
  Exited_explain:
    '{"predicted_value":1,"confidence":0.62,"anomaly":false,"truth":0,"confidence_lower_bound":null,"confidence_upper_bound":null,"probability_class_1":0.62,"probability_class_0":0.38}',
  __service_row_id: 0,
  select_data_query: null,
  when_data: null,
};

describe('parseExplain', () => {
  it('parses the JSON string and accepts an object too', () => {
    const a = parseExplain(regression.rental_price_explain);
    expect(a.ok && a.value.confidence_upper_bound).toBe(5448.1);
    const b = parseExplain({ ...JSON.parse(regression.rental_price_explain) });
    expect(b.ok).toBe(true);
  });

  it('reports text that is not JSON', () => {
    expect(parseExplain('{oops')).toEqual({ ok: false, error: 'explain is not valid JSON' });
  });
});

describe('toPredictionViews', () => {
  it('reads the prediction, confidence and interval of a regression', () => {
    const [v] = toPredictionViews([regression], 'rental_price', ['sqft', 'location']);
    expect(v).toMatchObject({
      prediction: 5435.4,
      confidence: 0.9,
      lower: 5422.7,
      upper: 5448.1,
      anomaly: null,
      probabilities: {},
      explainError: null,
      inputs: { sqft: 823, location: 'good' },
    });
  });

  it('reads class probabilities (sorted by class) and the anomaly flag of a classifier', () => {
    const [v] = toPredictionViews([classifier], 'Exited', ['Age']);
    expect(Object.keys(v.probabilities)).toEqual(['0', '1']);
    expect(v.probabilities).toEqual({ '0': 0.38, '1': 0.62 });
    expect(v.anomaly).toBe(false);
    expect(v.original).toBe(0);
    expect(v.lower).toBeNull();
  });

  it('marks an explain it cannot read instead of failing', () => {
    const [v] = toPredictionViews(
      [{ ...regression, rental_price_explain: 'nope' }],
      'rental_price',
      [],
    );
    expect(v.explainError).toBe('explain is not valid JSON');
    expect(v.prediction).toBe(5435.4);
  });
});

describe('detectTarget and intervalPoints', () => {
  it('finds the target from the _explain key', () => {
    expect(detectTarget([classifier])).toBe('Exited');
    expect(detectTarget([])).toBeUndefined();
  });

  it('turns bounds into asymmetric error distances', () => {
    const views = toPredictionViews([regression], 'rental_price', []);
    const [p] = intervalPoints(views);
    expect(p.row).toBe(1);
    expect(p.error[0]).toBeCloseTo(12.7);
    expect(p.error[1]).toBeCloseTo(12.7);
    expect(intervalPoints(toPredictionViews([classifier], 'Exited', []))).toEqual([]);
  });
});
