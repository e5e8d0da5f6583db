import { describe, expect, it } from 'vitest';
import { encodeBase64Url } from '../../../lib/base64url';
import { decodeCreateForm, encodeCreateForm } from './create-form';

describe('create-model form in the URL', () => {
  it('round-trips the form and drops what it does not know or is too long', () => {
    const form = {
      sourceKind: 'query' as const,
      db: 'example_db',
      query: 'SELECT * FROM demo_data.home_rentals',
      target: 'rental_price',
      project: 'mindsdb',
      name: 'rentals',
      using: [{ key: 'engine', value: 'lightwood' }],
    };
    expect(decodeCreateForm(encodeCreateForm(form))).toEqual(form);
    const craft = encodeBase64Url(
      JSON.stringify({ target: 'x'.repeat(500), evil: '<script>', sourceKind: 'other', db: 3 }),
    );
    expect(decodeCreateForm(craft)).toEqual({});
  });

  it('keeps the time-series settings, only as bounded text', () => {
    const timeseries = { orderBy: 'saledate', groupBy: ['type'], window: '8', horizon: '4' };
    expect(decodeCreateForm(encodeCreateForm({ target: 'ma', timeseries }))).toEqual({
      target: 'ma',
      timeseries,
    });
    const craft = encodeBase64Url(
      JSON.stringify({ timeseries: { orderBy: 7, groupBy: ['a', 3], window: '1234567' } }),
    );
    expect(decodeCreateForm(craft)).toEqual({
      timeseries: { orderBy: '', groupBy: ['a'], window: '', horizon: '' },
    });
  });
});
