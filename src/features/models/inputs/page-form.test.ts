import { describe, expect, it } from 'vitest';
import { encodeBase64Url } from '../../../lib/base64url';
import { MAX_FORM_ROWS, decodeForm, encodeForm, formRows, type ModelPageForm } from './page-form';

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
