import { describe, expect, it } from 'vitest';
import {
  buildFormFields,
  buildPredictBody,
  buildPredictRows,
  formatPredictBody,
  parsePredictBody,
  rowFromRecord,
  type FormField,
  type FormRow,
} from './predict-form';

const FEATURES = [
  { column: 'number_of_rooms', type: 'categorical', encoder: 'c', role: 'input' },
  { column: 'sqft', type: 'integer', encoder: 'n', role: 'input' },
  { column: 'location', type: 'categorical', encoder: 'c', role: 'input' },
  { column: 'listed', type: 'datetime', encoder: 'd', role: 'input' },
  { column: 'ratio', type: 'float', encoder: 'n', role: 'input' },
  { column: 'notes', type: 'rich_text', encoder: 't', role: 'input' },
  { column: 'rental_price', type: 'float', encoder: 't', role: 'target' },
  { column: 'id', type: 'identifier', encoder: 'none', role: 'identifier' },
];
const INPUTS = ['number_of_rooms', 'sqft', 'location', 'listed', 'ratio', 'notes'];

function fields(): FormField[] {
  return buildFormFields(FEATURES, INPUTS, {
    options: { location: ['good', 'great', 'poor'], number_of_rooms: [0, 1, 2, 3] },
    importances: { sqft: 0.4 },
  });
}

const row = (cells: FormRow['cells'], extra = {}): FormRow => ({ id: 'x', cells, extra });

describe('buildFormFields', () => {
  it('makes one typed field per model input, in the order of the inputs', () => {
    const f = fields();
    expect(f.map((x) => [x.name, x.kind])).toEqual([
      ['number_of_rooms', 'choice'],
      ['sqft', 'number'],
      ['location', 'choice'],
      ['listed', 'datetime'],
      ['ratio', 'number'],
      ['notes', 'text'],
    ]);
    expect(f[1]).toMatchObject({ integer: true, importance: 0.4 });
    expect(f[4].integer).toBe(false);
    expect(f[2].options).toEqual(['good', 'great', 'poor']);
  });

  it('falls back to a text field for a categorical input without known values', () => {
    const f = buildFormFields(FEATURES, INPUTS);
    expect(f.find((x) => x.name === 'location')?.kind).toBe('text');
  });

  it('uses the input features when the info row is missing', () => {
    expect(buildFormFields(FEATURES, undefined).map((f) => f.name)).toEqual(INPUTS);
  });
});

describe('form rows -> JSON body', () => {
  it('sends numbers as numbers, keeps option types and sends empty fields as null', () => {
    const b = buildPredictRows(fields(), [
      row({ sqft: '823', location: 'good', number_of_rooms: 2, listed: '2024-05-01T13:45' }),
    ]);
    expect(b.errors).toEqual([]);
    expect(b.rows).toEqual([
      {
        number_of_rooms: 2,
        sqft: 823,
        location: 'good',
        listed: '2024-05-01 13:45',
        ratio: null,
        notes: null,
      },
    ]);
    expect(b.empties.map((e) => e.column)).toEqual(['ratio', 'notes']);
  });

  it('marks text in a number field and does not count an explicit null as empty', () => {
    const b = buildPredictRows(fields(), [row({ sqft: '82x', ratio: null })]);
    expect(b.errors).toEqual([{ row: 0, column: 'sqft', message: '"82x" is not a number' }]);
    expect(b.empties.map((e) => e.column)).not.toContain('ratio');
    expect(b.rows[0].ratio).toBeNull();
  });

  it('keeps columns that are not inputs as they are', () => {
    const b = buildPredictRows(fields(), [row({ sqft: '1' }, { rental_price: 3000 })]);
    expect(b.rows[0].rental_price).toBe(3000);
  });

  it('builds the spec array or the MindsDB envelope', () => {
    const rows = [{ sqft: 1 }];
    expect(buildPredictBody(rows, 'array')).toEqual([{ sqft: 1 }]);
    expect(buildPredictBody(rows, 'envelope')).toEqual({ data: [{ sqft: 1 }] });
    expect(formatPredictBody(rows, 'array')).toBe('[\n  {\n    "sqft": 1\n  }\n]');
    expect(formatPredictBody(rows, 'envelope')).toBe('{"data": [\n  {\n    "sqft": 1\n  }\n]}');
    const many = [1, 2, 3, 4].map((sqft) => ({ sqft }));
    expect(formatPredictBody(many, 'array')).toBe(
      '[\n  {"sqft": 1},\n  {"sqft": 2},\n  {"sqft": 3},\n  {"sqft": 4}\n]',
    );
    expect(JSON.parse(formatPredictBody([{ a: 'x"y', b: null }], 'array'))).toEqual([
      { a: 'x"y', b: null },
    ]);
  });
});

describe('predict params', () => {
  it('sends params (explain) in the {"data": [...], "params": {...}} form whatever the mode', () => {
    const rows = [{ sqft: 1 }];
    expect(buildPredictBody(rows, 'array', { explain: true })).toEqual({
      data: rows,
      params: { explain: true },
    });
    expect(buildPredictBody(rows, 'array', {})).toEqual(rows);
    expect(JSON.parse(formatPredictBody(rows, 'array', { explain: true }))).toEqual({
      data: rows,
      params: { explain: true },
    });
    const many = [1, 2, 3, 4].map((sqft) => ({ sqft }));
    expect(JSON.parse(formatPredictBody(many, 'envelope', { explain: true }))).toEqual({
      data: many,
      params: { explain: true },
    });
  });

  it('reads params.explain back from a typed body', () => {
    const p = parsePredictBody('{"data": [], "params": {"explain": true}}', []);
    expect(p.ok && p.explain).toBe(true);
    const q = parsePredictBody('[]', []);
    expect(q.ok && q.explain).toBeUndefined();
  });
});

describe('JSON body -> form rows', () => {
  it('round-trips: the form follows the JSON and gives back the same body', () => {
    const f = fields();
    const text = '[{"sqft": 900, "location": "great", "number_of_rooms": 1, "ratio": null}]';
    const p = parsePredictBody(text, f);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.rows[0].cells).toEqual({
      sqft: '900',
      location: 'great',
      number_of_rooms: 1,
      ratio: null,
    });
    expect(buildPredictRows(f, p.rows).rows[0]).toMatchObject({
      sqft: 900,
      location: 'great',
      number_of_rooms: 1,
      ratio: null,
    });
  });

  it('accepts the {"data": [...]} form and matches column names case-insensitively', () => {
    const p = parsePredictBody('{"data": [{"SQFT": 5}]}', fields());
    expect(p.ok && p.rows[0].cells.sqft).toBe('5');
  });

  it('reports invalid JSON and shapes that are not rows', () => {
    const bad = parsePredictBody('[{"sqft": 9,}]', fields());
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^Invalid JSON/);
    expect(parsePredictBody('{"sqft": 1}', fields())).toMatchObject({ ok: false });
    expect(parsePredictBody('[1, 2]', fields())).toEqual({
      ok: false,
      error: 'Row 1 is not an object like {"column": value}',
    });
  });

  it('keeps row ids by position and lists unknown columns', () => {
    const prev = [row({}), { ...row({}), id: 'y' }];
    const p = parsePredictBody('[{"sqft": 1}, {"sqft": 2, "colour": "red"}]', fields(), prev);
    expect(p.ok && p.rows.map((r) => r.id)).toEqual(['x', 'y']);
    expect(p.ok && p.unknownColumns).toEqual(['colour']);
    expect(p.ok && p.rows[1].extra).toEqual({ colour: 'red' });
  });

  it('shows text typed into a number field in the JSON as that text (and marks it)', () => {
    const f = fields();
    const p = parsePredictBody('[{"sqft": "abc"}]', f);
    expect(p.ok && buildPredictRows(f, p.rows).errors[0]?.column).toBe('sqft');
  });
});

describe('rowFromRecord', () => {
  it('fills inputs from a training row and ignores the target', () => {
    const r = rowFromRecord(fields(), { sqft: 500, location: 'poor', rental_price: 1 });
    expect(r.cells).toEqual({ sqft: '500', location: 'poor' });
  });
  it('restores a numeric choice from a link as the number it is, and sends it as one', () => {
    const f = fields();
    const r = rowFromRecord(f, { number_of_rooms: '1', location: 'good' });
    expect(r.cells.number_of_rooms).toBe(1);
    expect(buildPredictRows(f, [r]).rows[0].number_of_rooms).toBe(1);
    expect(rowFromRecord(f, { number_of_rooms: 7 }).cells.number_of_rooms).toBe(7);
  });
});
