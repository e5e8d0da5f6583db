import { describe, expect, it } from 'vitest';
import { missingInputs, sameValue, whyRequestBody, whyTitle } from './why';

const w = {
  project: 'mindsdb',
  model: 'home_rentals_model',
  version: 2,
  column: 'rental_price',
  inputs: { sqft: 917, location: 'good' },
};

describe('why of a predicted value', () => {
  it('asks the version for the row with its explanation', () => {
    expect(whyRequestBody(w)).toEqual({
      data: [{ sqft: 917, location: 'good' }],
      params: { explain: true },
    });
  });

  it('names the inputs the result did not carry, whatever their case', () => {
    expect(missingInputs(['SQFT', 'location', 'days_on_market'], w.inputs)).toEqual([
      'days_on_market',
    ]);
    expect(missingInputs(undefined, w.inputs)).toEqual([]);
  });

  it('tells the explained prediction from the shown value', () => {
    expect(sameValue(3901.25, 3901.2500000001)).toBe(true);
    expect(sameValue('3901.25', 3901.25)).toBe(true);
    expect(sameValue(3901, 3950)).toBe(false);
    expect(sameValue('good', 'good')).toBe(true);
    expect(sameValue('good', 'poor')).toBe(false);
  });

  it('titles the panel with the column, value and row', () => {
    expect(whyTitle('predicted', 'great', 0)).toBe('Why predicted = great (row 1)');
    expect(whyTitle('rental_price', 3901.5, 4)).toBe('Why rental_price = 3,901.5 (row 5)');
  });
});
