import { describe, expect, it } from 'vitest';
import { parseCsvRows } from './csv-paste';
import { buildFormFields, buildPredictRows } from './predict-form';

const fields = buildFormFields(
  [
    { column: 'sqft', type: 'integer', encoder: null, role: 'input' },
    { column: 'location', type: 'categorical', encoder: null, role: 'input' },
    { column: 'rooms', type: 'categorical', encoder: null, role: 'input' },
  ],
  ['sqft', 'location', 'rooms'],
  { options: { location: ['good', 'great'], rooms: [1, 2] } },
);

describe('parseCsvRows', () => {
  it('maps a header row to inputs by name, in any order and case', () => {
    const r = parseCsvRows('Location,SQFT,extra\ngood,823,x\n"great, really",900,y\n', fields);
    expect(r.hasHeader).toBe(true);
    expect(r.ignoredColumns).toEqual(['extra']);
    expect(r.rows.map((x) => x.cells)).toEqual([
      { location: 'good', sqft: '823' },
      { location: 'great, really', sqft: '900' },
    ]);
  });

  it('fills inputs in order without a header, with typed options, empty and null cells', () => {
    const r = parseCsvRows('823,good,2\n,null,\n', fields);
    expect(r.hasHeader).toBe(false);
    expect(r.rows[0].cells).toEqual({ sqft: '823', location: 'good', rooms: 2 });
    expect(r.rows[1].cells).toEqual({ location: null });
    expect(buildPredictRows(fields, r.rows).rows[0]).toEqual({
      sqft: 823,
      location: 'good',
      rooms: 2,
    });
  });

  it('reads tab-separated rows pasted from a spreadsheet', () => {
    const r = parseCsvRows('sqft\tlocation\n700\tgreat', fields);
    expect(r.rows[0].cells).toEqual({ sqft: '700', location: 'great' });
  });

  it('parses a 5k-row paste', () => {
    const lines = ['sqft,location', ...Array.from({ length: 5000 }, (_, i) => `${i},good`)];
    const r = parseCsvRows(lines.join('\n'), fields);
    expect(r.rows).toHaveLength(5000);
    expect(r.rows[4999].cells.sqft).toBe('4999');
  });

  it('returns nothing for empty text', () => {
    expect(parseCsvRows('  \n', fields).rows).toEqual([]);
  });
});
