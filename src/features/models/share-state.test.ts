import { describe, expect, it } from 'vitest';
import { encodeBase64Url } from '../../lib/base64url';
import {
  MAX_FORM_ROWS,
  decodeCreateForm,
  decodeForm,
  encodeCreateForm,
  encodeForm,
  formRows,
  type ModelPageForm,
} from './share-state';

describe('model page form in the URL', () => {
  it('round-trips rows, the selected row and the sweep', () => {
    const form: ModelPageForm = {
      rows: [
        { sqft: 900, location: 'good', number_of_rooms: 2 },
        { sqft: '1.2e3', location: null, furnished: true },
      ],
      selected: 1,
      sweep: { column: 'sqft', from: '300', to: '1500', steps: '25' },
    };
    expect(decodeForm(encodeForm(form))).toEqual(form);
  });

  it('keeps the cells the user filled in and the extra keys of a pasted body', () => {
    expect(
      formRows([
        { id: 'a', cells: { sqft: '900', location: '', rooms: undefined }, extra: { note: 'x' } },
      ]),
    ).toEqual([{ note: 'x', sqft: '900' }]);
  });

  it('rejects or trims what a crafted link may carry', () => {
    const craft = (v: unknown) => encodeBase64Url(JSON.stringify(v));
    expect(decodeForm('%%%')).toBeUndefined();
    expect(decodeForm(craft({ rows: 'x' }))).toBeUndefined();
    expect(decodeForm(craft({ rows: [] }))).toBeUndefined();
    const odd = decodeForm(
      craft({
        rows: [{ a: 1, nested: { x: 1 }, list: [1], long: 'y'.repeat(2000) }, 'not a row'],
        selected: 99,
        sweep: { column: 'a', from: 1, to: '2', steps: '3' },
      }),
    );
    expect(odd).toEqual({ rows: [{ a: 1 }], selected: 0 });
    const many = decodeForm(craft({ rows: Array.from({ length: 80 }, (_, i) => ({ i })) }));
    expect(many?.rows).toHaveLength(MAX_FORM_ROWS);
  });

  it('leaves a form too long for a link out of it', () => {
    const rows = Array.from({ length: 50 }, () => ({ text: 'z'.repeat(400) }));
    expect(encodeForm({ rows, selected: 0 })).toBeUndefined();
  });
});

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
