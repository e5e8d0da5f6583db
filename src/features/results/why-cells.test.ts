import { describe, expect, it } from 'vitest';
import { predictedColumns, rowInputs } from './why-cells';

const origin = {
  project: 'mindsdb',
  model: 'm',
  version: 2,
  column: 'rental_price',
  predicted: true,
  inputs: { sqft: 0, location: 2 },
};

describe('why cells', () => {
  it('only the predicted value opens a why, not its confidence or a data column', () => {
    const conf = { ...origin, column: 'rental_price_confidence', predicted: false };
    expect([...predictedColumns([null, origin, conf, null])]).toEqual([1]);
    expect(predictedColumns(undefined).size).toBe(0);
  });

  it("reads a row's inputs from the columns the origin names, values given to every row included", () => {
    const r = rowInputs({ ...origin, values: { days_on_market: 10 } }, [917, 3000, 'good']);
    expect(r).toEqual({ days_on_market: 10, sqft: 917, location: 'good' });
  });
});
