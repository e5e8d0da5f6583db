/**
 * `predictionRows` builds each row with one object literal of the model's columns: the objects
 * are those assigning the keys one by one made (keys in the same order, a repeated key in its
 * first place with its last value, index-like keys first, any text as a key), and a `__proto__`
 * column is an own key as before.
 */
import { describe, expect, it } from 'vitest';
import type { ModelDescription } from '../../automl/index';
import type { JsonValue } from '../../engine/values';
import { type ColumnarPrediction, predictionRows } from '../predict/batch';

/** The objects as assignments make them (the builder before the literal). */
function assigned(p: ColumnarPrediction, n: number): Record<string, JsonValue>[] {
  return Array.from({ length: n }, (_, i) => {
    const o: Record<string, JsonValue> = {};
    for (const c of p.description.inputs) o[c] = p.inputs[c][i];
    p.columns.forEach((c, j) => (o[c.name] = p.values[j][i]));
    o.__service_row_id = i;
    o.select_data_query = null;
    o.when_data = null;
    return o;
  });
}

function prediction(inputs: string[], outputs: string[]): ColumnarPrediction {
  const n = 5;
  return {
    record: {} as ColumnarPrediction['record'],
    description: { inputs, inputTypes: {}, categories: {} } as unknown as ModelDescription,
    inputs: Object.fromEntries(
      inputs.map((c, j) => [c, Array.from({ length: n }, (_, i) => `${c}${i}${j}`)]),
    ),
    columns: outputs.map((name) => ({ name, type: 'DOUBLE' as const })),
    values: outputs.map((_, j) =>
      Array.from({ length: n }, (_, i) => (i === 2 ? null : i * 10 + j)),
    ),
    explained: false,
  };
}

describe('predictionRows', () => {
  const shapes: [string, string[], string[]][] = [
    ['plain names', ['sqft', 'location'], ['price', 'price_confidence']],
    ['names to quote', ['a b', 'quote"d', 'back\\slash', 'line\u2028sep', 'é', ''], ['t']],
    ['index-like names', ['10', '2', 'x'], ['1']],
    ['a name used twice', ['when_data', 'a', '__service_row_id'], ['a', 't']],
    ['__proto__', ['__proto__', 'b'], ['t']],
  ];
  for (const [what, inputs, outputs] of shapes) {
    it(`${what}: the objects assignments make`, () => {
      const p = prediction(inputs, outputs);
      const got = predictionRows(p, 5);
      const want = assigned(p, 5);
      expect(got.map((o) => Object.keys(o))).toEqual(want.map((o) => Object.keys(o)));
      expect(got).toEqual(want);
      for (let i = 0; i < 5; i++) {
        expect(Object.getPrototypeOf(got[i])).toBe(Object.getPrototypeOf(want[i]));
        expect(JSON.stringify(got[i])).toBe(JSON.stringify(want[i]));
      }
    });
  }
});
